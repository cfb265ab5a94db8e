/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring algorithms: the collectives as compositions of kernels (hdring_kernels.h), MPI-free.
 *
 * Each entry point runs one algorithm of one collective on the calling rank and returns HDRING_OK or an
 * HDRING_ERR_ code (hdring_status.h); all ranks of the group call it with the same algorithm and arguments.
 * Before the call the transport's buffers must be set up: IN and OUT as described per collective, TMP and WORK
 * at least as large as hdring_scratch() says (in elements). Only the decision code chooses algorithms; an
 * algorithm asked for what it cannot do returns HDRING_ERR_UNSUPPORTED. The registry (hdring_registry.h) lists
 * them.
 */
#ifndef HDRING_ALGORITHMS_H
#define HDRING_ALGORITHMS_H

#include "hdring_registry.h"

/*
 * Per collective, what the transport's buffers and the arguments hold:
 *   allreduce       IN holds this rank's vector of a->count elements (IN may be OUT); OUT receives the result.
 *   reduce_scatter  a->blocks has p parts, block b going to rank b. IN holds this rank's whole vector, OUT
 *                   receives its block at offset 0 (OUT may be IN, as with MPI_IN_PLACE). a->ordered: keep
 *                   operand order (rhd, recursive_halving and binary_blocks then use distance doubling).
 *   allgather       on entry OUT holds this rank's block at its offset in a->blocks; on return every block.
 *   bcast           a->count elements in OUT, from algorithm rank a->root; a pipelined one in segments of
 *                   a->segment elements.
 */
#define HDRING_ALG_DECLARE(ID, COLL, NAME, VALUE, ORDER, ROLE, STEM, INNER, SEGMENT, SUMMARY)                         \
    int hdring_run_##STEM(const hdring_xport_t *x, const hdring_args_t *a);                                           \
    hdring_scratch_t hdring_scratch_##STEM(const hdring_xport_t *x, const hdring_args_t *a);
HDRING_ALGORITHM_TABLE(HDRING_ALG_DECLARE)
#undef HDRING_ALG_DECLARE

/* Runs algorithm `alg`: HDRING_ERR_UNSUPPORTED for an unknown id or an ordered call it cannot keep in order. */
int hdring_run(const hdring_xport_t *x, hdring_alg_t alg, const hdring_args_t *a);
/* Its scratch needs on x's ranks ({0, 0} for an unknown id): the same on every rank. Sizing may take memory
 * from x (hdring_take) and does nothing else with it. */
hdring_scratch_t hdring_scratch(const hdring_xport_t *x, hdring_alg_t alg, const hdring_args_t *a);

#endif
