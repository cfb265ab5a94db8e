/* hdring algorithms: see hdring_algorithms.h. */
#include "hdring_algorithms.h"

#include "hdring_kernels.h"

static const char *const alg_names[HDRING_NALGS] = {
    [HDRING_ALG_RING] = "ring",
    [HDRING_ALG_RHD] = "rhd",
    [HDRING_ALG_BINARY_BLOCKS] = "binary_blocks",
    [HDRING_ALG_RECURSIVE_DOUBLING] = "recursive_doubling",
    [HDRING_ALG_BINOMIAL] = "binomial",
    [HDRING_ALG_SCATTER_RHD] = "scatter_rhd",
    [HDRING_ALG_SCATTER_RING] = "scatter_ring",
};

const char *hdring_alg_name(hdring_alg_t alg) { return alg < HDRING_NALGS ? alg_names[alg] : "unknown"; }

/*
 * Ring allreduce: ring reduce-scatter into OUT, then ring allgather of OUT. Any p, any count.
 * Bandwidth-optimal for every p; latency linear in p. Commutative operations only.
 * Cost: 2(p-1) alpha + 2(p-1)/p n beta + (p-1)/p n gamma.
 * Trace p = 3, n = 3 elements: every rank ends the reduce-scatter with its own element reduced, then two
 *   allgather steps pass the finished elements around the ring.
 */
static int allreduce_ring(const hdring_xport_t *x, size_t count)
{
    hdring_partition_t blocks;
    int rc = hdring_partition_balanced(&blocks, x->size, count);
    if (0 != rc) {
        return rc;
    }
    rc = hdring_ring_reduce_scatter_vector(x, &blocks, HDRING_BUF_IN, HDRING_BUF_OUT);
    if (0 == rc) {
        rc = hdring_ring_allgather(x, &blocks, HDRING_BUF_OUT);
    }
    hdring_partition_free(&blocks);
    return rc;
}

bool hdring_allreduce_supported(hdring_alg_t alg) { return HDRING_ALG_RING == alg; }

int hdring_allreduce(const hdring_xport_t *x, hdring_alg_t alg, size_t count)
{
    switch (alg) {
    case HDRING_ALG_RING:
        return allreduce_ring(x, count);
    default:
        return HDRING_ERR_UNSUPPORTED;
    }
}

hdring_scratch_t hdring_allreduce_scratch(hdring_alg_t alg, int p, size_t count)
{
    hdring_scratch_t need = {0, 0};
    switch (alg) {
    case HDRING_ALG_RING:
        need.tmp = (count + (size_t) p - 1) / (size_t) p;
        break;
    default:
        break;
    }
    return need;
}
