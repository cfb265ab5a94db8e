/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * One collective call of one size in the simulator: its buffers, hdring's run of it with any algorithm or auto
 * (the component's decision and arguments, coll_hdring_task.c), SMPI's own MPI call, and the check of a result.
 *
 * Sizes are the whole vector in bytes, as hdring's trace counts them (HOW-IT-WORKS.md): allreduce and bcast the
 * vector, reduce_scatter the input vector, reduce_scatter_block and allgather p blocks. Reductions sum MPI_FLOATs,
 * allgather and bcast move MPI_CHARs. A size too small for p ranks is rounded up to one element per rank (the
 * smallest call there is), others down to whole elements per rank; `actual` says what ran. reduce_scatter's
 * blocks differ by one element where p does not divide the vector. Bcast's root is rank 0.
 */
#ifndef SMPI_CASE_H
#define SMPI_CASE_H

#include <stdbool.h>
#include <stddef.h>

#include "hdring_plan.h"
#include "smpi_world.h"

typedef enum smpi_coll {
    SMPI_ALLREDUCE,
    SMPI_REDUCE_SCATTER,
    SMPI_REDUCE_SCATTER_BLOCK,
    SMPI_ALLGATHER,
    SMPI_BCAST,
    SMPI_NCOLLS
} smpi_coll_t;

typedef struct smpi_case {
    const smpi_world_t *w;
    smpi_coll_t coll;
    size_t bytes, actual;
    size_t count;  /* allreduce, bcast: elements of the vector; reduce_scatter_block, allgather: per rank */
    size_t elem;   /* bytes per element */
    size_t *displ; /* reduce_scatter: p + 1 block boundaries */
    int *rcounts;  /* reduce_scatter: the blocks' counts, as MPI takes them */
    bool check;    /* private buffers, real data, results verified */
    char *in, *out;
    MPI_Op op;     /* SMPI's reductions: a float sum charged as hdring's are */
} smpi_case_t;

/* The collective of a name ("allreduce", ...), SMPI_NCOLLS if none; and the core's collective of one. */
smpi_coll_t smpi_coll_by_name(const char *name);
const char *smpi_coll_name(smpi_coll_t coll);
hdring_coll_t smpi_core_coll(smpi_coll_t coll);

/* Buffers for one call; false without memory. */
bool smpi_case_init(smpi_case_t *c, const smpi_world_t *w, smpi_coll_t coll, size_t bytes, bool check);
void smpi_case_free(smpi_case_t *c);

/* The model of the case's communicator (hdring_model_of with the platform's parameters; commutative op). */
hdring_model_t smpi_case_model(const smpi_case_t *c);

/* The choice hdring makes for the case: auto (alg HDRING_ALG_NONE) from the model's plan, or a forced algorithm
 * with the phases the model chooses for a hierarchical one; false when that algorithm cannot serve it (a
 * hierarchical one without several nodes of several ranks). */
bool smpi_case_choose(const smpi_case_t *c, hdring_alg_t forced, hdring_choice_t *choice);

/* Times `calls` calls of hdring's choice (seconds, the slowest rank's), or of SMPI's collective
 * (choice NULL: MPI_Allreduce etc., with whatever algorithm SMPI's configuration selects). SMPI's collective is
 * called once first, untimed: its SMP-aware algorithms (and the MPICH selector, whatever the size) build their
 * node communicators in a communicator's first call, 2.2 ms of an 8-byte allreduce at 1,024 ranks. hdring's
 * first call has nothing to set up in simulated time (its decision and layout take host time only, which the
 * simulation does not count), so it runs without. With check, one call first, its result verified: *ok whether
 * every rank's was right. Negative on an error. */
double smpi_case_time(smpi_case_t *c, const hdring_choice_t *choice, int calls, bool *ok);

#endif
