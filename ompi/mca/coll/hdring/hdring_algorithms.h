/*
 * hdring algorithms: the collectives as compositions of kernels (hdring_kernels.h), MPI-free.
 *
 * Each entry point runs one algorithm of one collective on the calling rank and returns HDRING_OK or an
 * HDRING_ERR_ code (hdring_status.h); all ranks of the group call it with the same algorithm and arguments.
 * Before the call the transport's buffers must be set up: IN and OUT as described per collective, TMP and WORK
 * at least as large as the matching *_scratch() function says (in elements). Only the decision code chooses
 * algorithms; an algorithm asked for what it cannot do returns HDRING_ERR_UNSUPPORTED.
 */
#ifndef HDRING_ALGORITHMS_H
#define HDRING_ALGORITHMS_H

#include <stdbool.h>

#include "hdring_pattern.h"
#include "hdring_transport.h"

typedef enum hdring_alg {
    HDRING_ALG_RING,
    HDRING_ALG_RHD,
    HDRING_ALG_BINARY_BLOCKS,
    HDRING_ALG_RECURSIVE_DOUBLING,
    HDRING_ALG_BINOMIAL,
    HDRING_ALG_SCATTER_RHD,
    HDRING_ALG_SCATTER_RING,
    HDRING_NALGS
} hdring_alg_t;

const char *hdring_alg_name(hdring_alg_t alg);

/* Whether an algorithm combines operands in rank order, as non-commutative operations need. Only ring does
 * not (and the broadcast algorithms do not reduce). */
bool hdring_alg_keeps_order(hdring_alg_t alg);

typedef struct hdring_scratch {
    size_t tmp, work; /* elements */
} hdring_scratch_t;

/* allreduce of `count` elements: IN holds this rank's vector (may be OUT), OUT receives the result.
 * Algorithms: ring, rhd, binary_blocks, recursive_doubling. */
bool hdring_allreduce_has(hdring_alg_t alg);
int hdring_allreduce(const hdring_xport_t *x, hdring_alg_t alg, size_t count);
hdring_scratch_t hdring_allreduce_scratch(hdring_alg_t alg, int p, size_t count);

/* reduce_scatter: block b of `blocks` (p parts) goes to rank b. IN holds this rank's whole vector, OUT receives
 * its block at offset 0 (OUT may be IN, as with MPI_IN_PLACE). `ordered`: keep operand order (rhd and
 * binary_blocks then use distance doubling). Algorithms: ring, rhd, binary_blocks. */
bool hdring_reduce_scatter_has(hdring_alg_t alg);
int hdring_reduce_scatter(const hdring_xport_t *x, hdring_alg_t alg, const hdring_partition_t *blocks, bool ordered);
hdring_scratch_t hdring_reduce_scatter_scratch(hdring_alg_t alg, const hdring_partition_t *blocks, bool ordered);

/* allgather: on entry OUT holds this rank's block at its offset in `blocks`; on return every block.
 * Algorithms: ring, rhd, binary_blocks. No scratch. */
bool hdring_allgather_has(hdring_alg_t alg);
int hdring_allgather(const hdring_xport_t *x, hdring_alg_t alg, const hdring_partition_t *blocks);

/* bcast of `count` elements in OUT from algorithm rank 0. Algorithms: binomial, scatter_rhd, scatter_ring.
 * No scratch. */
bool hdring_bcast_has(hdring_alg_t alg);
int hdring_bcast(const hdring_xport_t *x, hdring_alg_t alg, size_t count);

#endif
