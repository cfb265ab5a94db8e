/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring plans: see hdring_plan.h. */
#include "hdring_plan.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "hdring_cost.h"

#define SCAN_FIRST 1.0
#define SCAN_LAST 17592186044416.0 /* 2^44 bytes: the last segment extends to any size */
#define SCAN_STEP 2.0

/* The algorithm of `coll` with that role (every collective has one latency and one bandwidth algorithm). */
static hdring_alg_t with_role(hdring_coll_t coll, hdring_role_t role)
{
    hdring_alg_t algs[HDRING_NALGS];
    const int n = hdring_algorithms_of(coll, algs);
    for (int a = 0; a < n; ++a) {
        if (hdring_algorithm(algs[a])->role == role) {
            return algs[a];
        }
    }
    return HDRING_NALGS;
}

/* A choice: the algorithm, and the phases of a hierarchical one. */
typedef struct choice {
    hdring_alg_t alg;
    hdring_alg_t phase[HDRING_NPHASES];
} choice_t;

static bool same_choice(const choice_t *a, const choice_t *b)
{
    bool same = a->alg == b->alg;
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        same &= a->phase[k] == b->phase[k];
    }
    return same;
}

/* The candidate the model picks at `bytes` (hdring_cost_pick: the first within its resolution of the fastest). */
static choice_t fastest(const hdring_alg_t *algs, int nalgs, const hdring_plan_input_t *in, double bytes)
{
    choice_t c[HDRING_NALGS];
    double times[HDRING_NALGS];
    for (int a = 0; a < nalgs; ++a) {
        c[a].alg = algs[a];
        times[a] = hdring_cost_time(algs[a], &in->model, bytes, c[a].phase);
        if (HDRING_ALG_NONE == hdring_algorithm(algs[a])->inner) {
            c[a].phase[0] = c[a].phase[1] = c[a].phase[2] = HDRING_ALG_NONE; /* only a hierarchy's are set */
        }
    }
    return c[hdring_cost_pick(times, nalgs)];
}

/* Appends a segment, or extends the last one when it has the same choice and reason. At most `room`
 * segments: past that, the last segment keeps its algorithm up to here (the model never finds that many
 * crossovers; the bound only keeps the plan in its array). */
static void add_segment(hdring_plan_t *plan, int room, size_t upto, const choice_t *c, hdring_why_t why)
{
    const int last = plan->nsegments - 1;
    if (last >= 0 && plan->seg[last].why == why) {
        const choice_t prev = {plan->seg[last].alg, {plan->seg[last].phase[0], plan->seg[last].phase[1],
                                                     plan->seg[last].phase[2]}};
        if (same_choice(&prev, c) || plan->nsegments >= room) {
            plan->seg[last].upto = upto;
            return;
        }
    } else if (last >= 0 && plan->nsegments >= room) {
        plan->seg[last].upto = upto;
        return;
    }
    hdring_plan_segment_t *s = &plan->seg[plan->nsegments++];
    s->upto = upto;
    s->alg = c->alg;
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        s->phase[k] = c->phase[k];
    }
    s->why = why;
}

void hdring_plan_build(const hdring_plan_input_t *in, hdring_plan_t *plan)
{
    const hdring_alg_t latency = with_role(in->coll, HDRING_ROLE_LATENCY);
    const hdring_alg_t bandwidth = with_role(in->coll, HDRING_ROLE_BANDWIDTH);
    const bool bandwidth_ok = hdring_cost_applies(bandwidth, &in->model);
    const size_t small = in->small, large = bandwidth_ok ? in->large : 0;
    const choice_t latency_choice = {latency, {HDRING_ALG_NONE, HDRING_ALG_NONE, HDRING_ALG_NONE}};
    const choice_t bandwidth_choice = {bandwidth, {HDRING_ALG_NONE, HDRING_ALG_NONE, HDRING_ALG_NONE}};
    hdring_alg_t all[HDRING_NALGS], algs[HDRING_NALGS];
    int nalgs = 0;

    /* the model picks among what the thresholds and the model leave: not the latency algorithm above a set
     * small threshold, not the bandwidth one below a set large one, none that cannot serve this model */
    const int nall = hdring_algorithms_of(in->coll, all);
    for (int a = 0; a < nall; ++a) {
        if (!hdring_cost_applies(all[a], &in->model) || (small > 0 && all[a] == latency) ||
            (large > 0 && all[a] == bandwidth)) {
            continue;
        }
        algs[nalgs++] = all[a];
    }
    const int model_room = HDRING_MAX_SEGMENTS - (large > 0 ? 1 : 0); /* the large segment keeps its slot */
    plan->nsegments = 0;
    if (small > 0) {
        add_segment(plan, HDRING_MAX_SEGMENTS, small, &latency_choice, HDRING_WHY_SMALL);
    }
    const double first = small > 0 ? (double) small + 1 : SCAN_FIRST;
    const double last = large > 0 ? (double) large - 1 : SCAN_LAST;
    if (nalgs > 0 && first <= last) {
        double at = first;
        choice_t winner = fastest(algs, nalgs, in, at);
        while (at < last) {
            const double next = at * SCAN_STEP + 1 < last ? at * SCAN_STEP + 1 : last;
            const choice_t w = fastest(algs, nalgs, in, next);
            /* the first size where the choice changes, by bisection to the byte: costs jump there at an eager
             * limit, where a switch even a few bytes early costs a round trip */
            if (!same_choice(&w, &winner)) {
                double lo = at, hi = next;
                while (hi - lo > 1) {
                    const double mid = floor(lo + (hi - lo) / 2); /* whole bytes */
                    const choice_t c = fastest(algs, nalgs, in, mid);
                    if (same_choice(&c, &winner)) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                add_segment(plan, model_room, (size_t) lo, &winner, HDRING_WHY_MODEL);
                winner = fastest(algs, nalgs, in, hi);
                at = hi; /* scan on from the change: another may follow within the step */
            } else {
                at = next;
            }
        }
        add_segment(plan, model_room, large > 0 ? large - 1 : SIZE_MAX, &winner, HDRING_WHY_MODEL);
    }
    if (large > 0) {
        add_segment(plan, HDRING_MAX_SEGMENTS, SIZE_MAX, &bandwidth_choice, HDRING_WHY_LARGE);
    }
}

static bool same_params(const hdring_cost_params_t *a, const hdring_cost_params_t *b)
{
    return a->alpha == b->alpha && a->beta == b->beta && a->gamma == b->gamma && a->exchange == b->exchange &&
           a->eager == b->eager;
}

/* Field by field: the structures have padding. */
static bool same_input(const hdring_plan_input_t *a, const hdring_plan_input_t *b)
{
    const hdring_model_t *x = &a->model, *y = &b->model;
    return a->coll == b->coll && a->small == b->small && a->large == b->large && x->p == y->p &&
           x->ordered == y->ordered && hdring_shape_equal(&x->shape, &y->shape) && x->concurrent == y->concurrent &&
           same_params(&x->local, &y->local) && same_params(&x->network, &y->network) && x->segment == y->segment;
}

bool hdring_plan_get(hdring_plan_cache_t *cache, const hdring_plan_input_t *in, hdring_plan_t *plan)
{
    for (int e = 0; e < cache->used; ++e) {
        if (same_input(&cache->entry[e].in, in)) { /* its segments only: most plans have a few of the 16 */
            const hdring_plan_t *kept = &cache->entry[e].plan;
            plan->nsegments = kept->nsegments;
            memcpy(plan->seg, kept->seg, (size_t) kept->nsegments * sizeof(kept->seg[0]));
            return true;
        }
    }
    hdring_plan_build(in, plan);
    const int e = cache->used < HDRING_PLAN_CACHE_ENTRIES ? cache->used++ : cache->next;
    cache->next = (e + 1) % HDRING_PLAN_CACHE_ENTRIES;
    cache->entry[e].in = *in;
    cache->entry[e].plan = *plan;
    return false;
}

const hdring_plan_segment_t *hdring_plan_lookup(const hdring_plan_t *plan, size_t bytes, size_t *lo)
{
    int s = 0;
    while (s < plan->nsegments - 1 && bytes > plan->seg[s].upto) {
        ++s;
    }
    *lo = s > 0 ? plan->seg[s - 1].upto + 1 : 0;
    return &plan->seg[s];
}

bool hdring_choice_pipelined(const hdring_choice_t *c)
{
    const hdring_algorithm_t *row = hdring_algorithm(c->alg);
    bool pipelined = NULL != row->segment;
    for (int k = 0; k < HDRING_NPHASES && HDRING_ALG_NONE != row->inner; ++k) {
        pipelined |= HDRING_ALG_NONE != c->phase[k] && NULL != hdring_algorithm(c->phase[k])->segment;
    }
    return pipelined;
}

bool hdring_choice_cuts(const hdring_choice_t *c)
{
    bool cuts = hdring_algorithm(c->alg)->cuts;
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        cuts |= HDRING_ALG_NONE != c->phase[k] && hdring_algorithm(c->phase[k])->cuts;
    }
    return cuts;
}

size_t hdring_choice_segment(const hdring_choice_t *c, const hdring_model_t *m, size_t bytes)
{
    return hdring_choice_pipelined(c) ? (size_t) hdring_cost_segment(c->alg, m, (double) bytes, c->phase) : 0;
}

void hdring_choice_args(const hdring_choice_t *c, const hdring_topo_t *topo, bool ordered,
                        const hdring_partition_t *parts, size_t elem_size, hdring_blocks_t *blocks,
                        hdring_args_t *args)
{
    const bool renumbered = hdring_in_locality_order(topo, ordered);
    blocks->parts = parts;
    blocks->block_of = renumbered ? topo->order : NULL;
    blocks->owner_of = renumbered ? topo->vrank_of : NULL;
    args->blocks = NULL == parts ? NULL : blocks;
    args->ordered = ordered;
    args->near_first = topo->shape.nodes > 1 && topo->shape.ppn_max > 1;
    args->nodes = topo->shape.nodes;
    args->ppn = topo->shape.ppn;
    args->root = renumbered ? topo->vrank_of[args->root] : args->root;
    args->segment = 0 == elem_size ? 0 : (c->segment + elem_size - 1) / elem_size;
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        args->phase[k] = c->phase[k];
    }
}
