/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring plans: the automatic choice of one collective for one communicator shape, as algorithm by size
 * range, MPI-free.
 *
 * A plan is built from the cost model (hdring_cost.h) and the user's thresholds: sizes up to `small` (when set)
 * use the collective's latency algorithm, sizes from `large` (when set) its bandwidth algorithm, and every other
 * size the algorithm the model predicts fastest (with a hierarchical one, the phases it chose). Unset thresholds
 * (0) thus sit where the model puts the crossovers. Operations that need their operand order kept never get an
 * algorithm that reorders (ring, the hierarchical ones), and hierarchical ones need several nodes of several
 * ranks, all of one size. The
 * component's decision and hdring_model both build plans here, so what the tool prints is what the component
 * chooses.
 */
#ifndef HDRING_PLAN_H
#define HDRING_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "hdring_registry.h"

#define HDRING_MAX_SEGMENTS 16

/* Why a size range got its algorithm. */
typedef enum hdring_why {
    HDRING_WHY_SMALL, /* at or below the small threshold */
    HDRING_WHY_LARGE, /* at or above the large threshold */
    HDRING_WHY_MODEL, /* the cost model's fastest */
} hdring_why_t;

typedef struct hdring_plan_segment {
    size_t upto; /* sizes (bytes) up to this, inclusive; the last segment's is SIZE_MAX */
    hdring_alg_t alg;
    hdring_alg_t phase[HDRING_NPHASES]; /* a hierarchical algorithm's phases (HDRING_ALG_NONE otherwise) */
    hdring_why_t why;
} hdring_plan_segment_t;

typedef struct hdring_plan {
    int nsegments;
    hdring_plan_segment_t seg[HDRING_MAX_SEGMENTS];
} hdring_plan_t;

/* What a plan is built from. */
typedef struct hdring_plan_input {
    hdring_coll_t coll;
    hdring_model_t model; /* p, operand order, shape, parameters */
    size_t small, large;  /* thresholds in bytes; 0: where the model says */
} hdring_plan_input_t;

void hdring_plan_build(const hdring_plan_input_t *in, hdring_plan_t *plan);

/* Plans already built, for communicators of the same shape: a process creates many communicators (duplicates,
 * splits) over few shapes, and building a plan scans the cost model. A fixed number of entries, the oldest
 * replaced when full; no allocation. Not thread-safe: the caller serialises. */
#define HDRING_PLAN_CACHE_ENTRIES 64

typedef struct hdring_plan_cache {
    int used, next; /* entries filled; the one replaced next when full */
    struct {
        hdring_plan_input_t in;
        hdring_plan_t plan;
    } entry[HDRING_PLAN_CACHE_ENTRIES];
} hdring_plan_cache_t;

/* Into *plan, the plan for `in`: a copy of the cached one built from equal input (its segments, past them *plan
 * is left as it was), or built (and cached). Returns whether it came from the cache. */
bool hdring_plan_get(hdring_plan_cache_t *cache, const hdring_plan_input_t *in, hdring_plan_t *plan);

/* The segment serving `bytes`; *lo receives the first size of its range. */
const hdring_plan_segment_t *hdring_plan_lookup(const hdring_plan_t *plan, size_t bytes, size_t *lo);

/* ---- a call's choice, and its algorithm's arguments ----
 * What the component and the tools that run the core on their own transport (hdring_model, the simulator driver)
 * do with a plan's answer, so that they run what the component runs. */

/* The algorithm chosen for a call: a plan segment's (or a forced one's) algorithm with the phases of a hierarchical
 * one (HDRING_ALG_NONE otherwise), and the segment of a pipelined one in bytes (0: messages whole). */
typedef struct hdring_choice {
    hdring_alg_t alg;
    hdring_alg_t phase[HDRING_NPHASES];
    size_t segment;
} hdring_choice_t;

/* Whether the algorithm, or a phase of a hierarchical one, is pipelined (the registry's SEGMENT PIPELINED). */
bool hdring_choice_pipelined(const hdring_choice_t *c);
/* Whether it, or a phase of it, cuts a block (SPLIT or PIPELINED): a bcast then runs on the message's bytes. */
bool hdring_choice_cuts(const hdring_choice_t *c);
/* The segment the model chooses for a call of `bytes` on m (hdring_cost_segment), 0 unless it pipelines. */
size_t hdring_choice_segment(const hdring_choice_t *c, const hdring_model_t *m, size_t bytes);

/* The arguments of the chosen algorithm for a call on ranks placed as topo says: its phases, its segment (in
 * elements of elem_size bytes, rounded up: never fewer bytes than chosen), where the ranks sit (nodes, ppn,
 * near_first), and, for a call in the locality order (every call but a reduction that keeps operand order, whose
 * algorithm ranks are then positions of topo's order), its blocks (parts: NULL for allreduce and bcast) and bcast
 * root in that order. args->count and args->root (a rank of the communicator) are the caller's; `blocks` receives
 * the block description args points to. */
void hdring_choice_args(const hdring_choice_t *c, const hdring_topo_t *topo, bool ordered,
                        const hdring_partition_t *parts, size_t elem_size, hdring_blocks_t *blocks,
                        hdring_args_t *args);

/* Whether a call runs in the locality order of its ranks (its transport numbers ranks by topo's order). */
static inline bool hdring_in_locality_order(const hdring_topo_t *topo, bool ordered)
{
    return !ordered && NULL != topo->order;
}

#endif
