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

#endif
