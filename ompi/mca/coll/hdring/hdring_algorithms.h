/*
 * hdring algorithms: the collectives as compositions of kernels (hdring_kernels.h), MPI-free.
 *
 * Each entry point runs one algorithm of one collective on the calling rank and returns 0 or a negative error
 * code (hdring_transport.h); all ranks of the group call it with the same algorithm and arguments. Before the call the transport's
 * buffers must be set up: IN and OUT as described per collective, TMP and WORK at least as large as the
 * matching *_scratch() function says (in elements).
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

typedef struct hdring_scratch {
    size_t tmp, work; /* elements */
} hdring_scratch_t;

/* allreduce of `count` elements: IN holds this rank's vector (may be OUT), OUT receives the result. */
bool hdring_allreduce_supported(hdring_alg_t alg);
int hdring_allreduce(const hdring_xport_t *x, hdring_alg_t alg, size_t count);
hdring_scratch_t hdring_allreduce_scratch(hdring_alg_t alg, int p, size_t count);

#endif
