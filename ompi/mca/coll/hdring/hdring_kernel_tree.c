/* Binomial tree kernels (root = algorithm rank 0): see hdring_kernels.h. */
#include "hdring_kernels.h"

/* The lowest set bit of r (its subtree spans [r, r + lowbit)); for the root, the first power of two >= p. */
static int subtree_span(int r, int p)
{
    int mask = 1;
    while (mask < p && !(r & mask)) {
        mask <<= 1;
    }
    return mask;
}

int hdring_binomial_bcast(const hdring_xport_t *x, hdring_loc_t at, size_t count)
{
    const int r = x->rank, p = x->size, span = subtree_span(r, p);
    int rc = HDRING_OK;

    if (r != 0) {
        rc = hdring_recv(x, hdring_msg(r - span, at, count));
    }
    for (int mask = span >> 1; mask > 0 && HDRING_OK == rc; mask >>= 1) {
        if (r + mask < p) {
            rc = hdring_send(x, hdring_msg(r + mask, at, count));
        }
    }
    return rc;
}

int hdring_binomial_scatter(const hdring_xport_t *x, const hdring_partition_t *blocks, hdring_buf_t acc)
{
    const int r = x->rank, p = x->size, span = subtree_span(r, p);
    int rc = HDRING_OK;

    if (r != 0) {
        const int end = r + span < p ? r + span : p;
        const size_t at = hdring_part_offset(blocks, r);
        rc = hdring_recv(x, hdring_msg(r - span, hdring_at(acc, at), hdring_part_offset(blocks, end) - at));
    }
    for (int mask = span >> 1; mask > 0 && HDRING_OK == rc; mask >>= 1) {
        const int child = r + mask;
        if (child < p) {
            const int end = child + mask < p ? child + mask : p;
            const size_t at = hdring_part_offset(blocks, child);
            rc = hdring_send(x, hdring_msg(child, hdring_at(acc, at), hdring_part_offset(blocks, end) - at));
        }
    }
    return rc;
}
