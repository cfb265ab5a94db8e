/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * Test harness on top of hdring_sim: runs one collective with one algorithm on p virtual ranks and checks
 * the result of every rank element by element against the answer computed directly, the guard zones around
 * every buffer, the input left untouched, and (for allreduce) identical bits on all ranks.
 */
#ifndef SIM_HARNESS_H
#define SIM_HARNESS_H

#include <stdbool.h>
#include <stddef.h>

#include "hdring_algorithms.h"
#include "hdring_sim.h"

/* Element kinds: what the vectors hold and how they combine. */
typedef struct elem_kind {
    const char *name;
    size_t size;
    bool commutative;
    void (*gen)(void *elem, int rank, size_t index); /* rank's input element `index` */
    void (*apply)(const void *left, const void *right, void *dst, size_t n);
    bool exact; /* results equal the rank-order reduction bit for bit; otherwise (doubles) within rounding */
} elem_kind_t;

extern const elem_kind_t kind_u64_sum;    /* exact, commutative */
extern const elem_kind_t kind_mat_mul;    /* 2x2 matrices mod 2^32: associative, not commutative */
extern const elem_kind_t kind_double_sum; /* magnitudes 2^-40..2^40: the sum depends on the order */

typedef struct run {
    hdring_alg_t alg; /* its collective: the registry's */
    int p;
    size_t count;         /* allreduce, bcast: the vector */
    const size_t *blocks; /* reduce_scatter, allgather: p block sizes, in memory order */
    bool in_place;
    bool ordered; /* reduce_scatter: keep operand order */
    const elem_kind_t *kind;
    sim_cost_t cost;
    /* optional, zero for the defaults: */
    const int *block_of;  /* rank r owns block block_of[r] (ranks renumbered in locality order); NULL: block r */
    int root;             /* bcast */
    int nodes;            /* > 0: rank r on node node_of[r] (or r / ppn without node_of), network costs between */
    const int *node_of;
    sim_cost_t network;
    int ppn;              /* hierarchical algorithms: the grid's ranks per node (nodes x ppn == p) */
    bool near_first;
    const hdring_alg_t *phase; /* hierarchical algorithms: HDRING_NPHASES phases */
    size_t segment;       /* pipelined algorithms: elements per segment (0: the message whole) */
    bool replay;          /* each rank records its schedule, then runs it (hdring_schedule.h) */
    int copies;           /* > 1 (with replay): that many copies of the call at once, each on windows of its own of
                             the buffers and a channel of its own, their schedules run without blocking and
                             interleaved step by step, copy c starting c rounds after copy 0 */
} run_t;

typedef struct run_result {
    bool ok;
    char why[600];
    double time;         /* simulated critical path */
    sim_stats_t *stats;  /* per rank, when keep_stats */
    sim_link_stats_t *links; /* per node, when keep_stats and nodes > 0 */
    unsigned long long out_hash; /* hash of rank 0's output (determinism checks) */
} run_result_t;

/* Runs and checks. With keep_stats, res->stats (and res->links) are allocated: release with result_free. */
void run_collective(const run_t *run, run_result_t *res, bool keep_stats);
void result_free(run_result_t *res);

/* Block sizes for reduce_scatter / allgather: uniform, irregular with zeros, everything on one rank, random. */
typedef enum { SHAPE_UNIFORM, SHAPE_IRREGULAR, SHAPE_ONE_RANK, SHAPE_RANDOM, NSHAPES } shape_t;
void make_blocks(size_t *blocks, int p, size_t scale, shape_t shape);

#endif
