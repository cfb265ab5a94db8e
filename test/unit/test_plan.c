/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * Plans (hdring_plan.h): the automatic choice the component and hdring_model share. A plan covers every size with
 * ranges in order; inside each range the model's choice is the algorithm the cost model predicts fastest there;
 * thresholds give their ranges to the latency and bandwidth algorithms; operations that keep operand order never
 * get one that reorders; the cache gives back what building gives, and only for equal input.
 */
#include "unit_check.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hdring_cost.h"
#include "hdring_defaults.h"
#include "hdring_plan.h"

/* The component's defaults, as hdring_model uses them. */
static hdring_model_t model_of(int p, bool ordered, int nodes, bool round_robin)
{
    const hdring_cost_params_t local = hdring_cost_params_of(HDRING_DEFAULT_LATENCY_US, HDRING_DEFAULT_BANDWIDTH_MBS,
                                                             HDRING_DEFAULT_REDUCE_MBS);
    hdring_model_t m = hdring_model_single(p, ordered, &local);
    m.network = hdring_cost_params_of(HDRING_DEFAULT_NETWORK_LATENCY_US, HDRING_DEFAULT_NETWORK_BANDWIDTH_MBS,
                                      HDRING_DEFAULT_REDUCE_MBS);
    if (nodes > 1) {
        m.shape.nodes = nodes;
        m.shape.ppn = m.shape.ppn_max = p / nodes;
        m.shape.node_major = !round_robin;
        m.shape.index_major = round_robin;
    }
    return m;
}

static bool same_choice(const hdring_plan_segment_t *a, const hdring_plan_segment_t *b)
{
    bool same = a->alg == b->alg && a->why == b->why;
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        same &= a->phase[k] == b->phase[k];
    }
    return same;
}

/* Ranges in increasing order up to every size; neighbours differ. */
static void check_cover(const hdring_plan_t *plan, const char *what)
{
    ck_assert_msg(plan->nsegments >= 1 && plan->nsegments <= HDRING_MAX_SEGMENTS, "%s: %d ranges", what,
                  plan->nsegments);
    ck_assert_msg(SIZE_MAX == plan->seg[plan->nsegments - 1].upto, "%s: the last range ends at %zu", what,
                  plan->seg[plan->nsegments - 1].upto);
    for (int s = 1; s < plan->nsegments; ++s) {
        ck_assert_msg(plan->seg[s].upto > plan->seg[s - 1].upto, "%s: range %d ends before range %d", what, s, s - 1);
        ck_assert_msg(!same_choice(&plan->seg[s], &plan->seg[s - 1]), "%s: ranges %d and %d are one choice", what,
                      s - 1, s);
    }
}

/* At sizes well inside each model range (2% from its ends: crossovers are found to 1%), the range's algorithm is
 * the fastest the model predicts (to its resolution) among those that apply, and keeps the order when the
 * operation needs it. */
static void check_fastest(const hdring_plan_input_t *in, const hdring_plan_t *plan, const char *what)
{
    hdring_alg_t algs[HDRING_NALGS];
    const int nalgs = hdring_algorithms_of(in->coll, algs);
    size_t lo = 0;
    for (int s = 0; s < plan->nsegments; lo = plan->seg[s].upto + 1, ++s) {
        const hdring_plan_segment_t *seg = &plan->seg[s];
        ck_assert_msg(!in->model.ordered || hdring_algorithm(seg->alg)->keeps_order, "%s: %s reorders operands", what,
                      hdring_alg_name(seg->alg));
        if (HDRING_WHY_MODEL != seg->why) {
            continue;
        }
        const double first = (lo > 0 ? (double) lo : 1) * 1.02;
        const double last = SIZE_MAX == seg->upto ? 1e12 : (double) seg->upto / 1.02;
        for (double n = first; n <= last; n *= 1.07) {
            const double chosen = hdring_cost_time(seg->alg, &in->model, n, NULL);
            for (int a = 0; a < nalgs; ++a) {
                if (!hdring_cost_applies(algs[a], &in->model)) {
                    continue;
                }
                const double t = hdring_cost_time(algs[a], &in->model, n, NULL);
                ck_assert_msg(chosen <= t * (1 + HDRING_COST_RESOLUTION) * (1 + 1e-12),
                              "%s: at %.0f B %s (%g s) beats the plan's %s (%g s) by more than the resolution",
                              what, n, hdring_alg_name(algs[a]), t, hdring_alg_name(seg->alg), chosen);
            }
        }
    }
}

static void check_plan(const hdring_plan_input_t *in, const char *what)
{
    hdring_plan_t plan;
    hdring_plan_build(in, &plan);
    check_cover(&plan, what);
    check_fastest(in, &plan, what);
}

/* Times within the model's resolution of the fastest are ties, and the earliest candidate takes them. */
START_TEST(ties_within_the_resolution_go_to_the_earlier_candidate)
{
    const double lead_too_small[] = {100, 99.5}, lead_enough[] = {100, 99.5, 97}, gaps[] = {-1, 5, -1, 4.99};
    const double none[] = {-1, -1};
    ck_assert_int_eq(hdring_cost_pick(lead_too_small, 2), 0);
    ck_assert_int_eq(hdring_cost_pick(lead_enough, 3), 2);
    ck_assert_int_eq(hdring_cost_pick(gaps, 4), 1);
    ck_assert_int_eq(hdring_cost_pick(none, 2), -1);
}
END_TEST

START_TEST(plans_cover_every_size_with_the_fastest)
{
    for (int c = 0; c < HDRING_NCOLLS; ++c) {
        for (int p = 1; p <= 70; ++p) {
            for (int ordered = 0; ordered < 2; ++ordered) {
                const hdring_plan_input_t in = {(hdring_coll_t) c, model_of(p, ordered, 1, false), 0, 0};
                char what[96];
                snprintf(what, sizeof(what), "%s p=%d%s", hdring_coll_name(c), p, ordered ? " ordered" : "");
                check_plan(&in, what);
            }
        }
    }
}
END_TEST

START_TEST(plans_on_several_nodes)
{
    for (int c = 0; c < HDRING_NCOLLS; ++c) {
        for (int nodes = 2; nodes <= 9; ++nodes) {
            for (int ppn = 1; ppn <= 4; ++ppn) {
                for (int rr = 0; rr < 2; ++rr) {
                    const hdring_plan_input_t in = {(hdring_coll_t) c, model_of(nodes * ppn, false, nodes, rr), 0, 0};
                    char what[96];
                    snprintf(what, sizeof(what), "%s %d nodes x %d%s", hdring_coll_name(c), nodes, ppn,
                             rr ? " round-robin" : "");
                    check_plan(&in, what);
                }
            }
        }
    }
}
END_TEST

/* 5 nodes of one rank on a machine of 2 cores (perf/cluster's emulation): a reduce_scatter of 1020 B measured 95 us
 * with recursive_halving (a fold, two halving steps of 4 ranks, one delivery), 161 us with Bruck (3 steps of all
 * 5 ranks), whose 3 latencies the model with a machine per node prefers to 4. */
START_TEST(nodes_on_one_machine_prefer_steps_that_keep_fewer_ranks_busy)
{
    hdring_plan_input_t in = {HDRING_COLL_REDUCE_SCATTER, model_of(5, false, 5, false), 0, 0};
    hdring_plan_t plan;
    size_t lo;
    hdring_plan_build(&in, &plan);
    ck_assert_int_eq(hdring_plan_lookup(&plan, 1020, &lo)->alg, HDRING_ALG_REDUCE_SCATTER_BRUCK);
    in.model.shape.machine_nodes = 5;
    in.model.shape.machine_cores = 2;
    hdring_plan_build(&in, &plan);
    ck_assert_int_eq(hdring_plan_lookup(&plan, 1020, &lo)->alg, HDRING_ALG_REDUCE_SCATTER_RECURSIVE_HALVING);
    in.model.shape.machine_cores = 5; /* a core for each: as machines of their own */
    hdring_plan_build(&in, &plan);
    ck_assert_int_eq(hdring_plan_lookup(&plan, 1020, &lo)->alg, HDRING_ALG_REDUCE_SCATTER_BRUCK);
}
END_TEST

START_TEST(thresholds_give_the_latency_and_bandwidth_algorithms_their_ranges)
{
    for (int c = 0; c < HDRING_NCOLLS; ++c) {
        for (int p = 2; p <= 17; ++p) {
            const hdring_plan_input_t in = {(hdring_coll_t) c, model_of(p, false, 1, false), 1000, 1000000};
            hdring_plan_t plan;
            size_t lo;
            hdring_plan_build(&in, &plan);
            check_cover(&plan, hdring_coll_name(c));
            const hdring_plan_segment_t *small = hdring_plan_lookup(&plan, 1000, &lo);
            ck_assert_msg(HDRING_WHY_SMALL == small->why && 0 == lo && 1000 == small->upto &&
                              HDRING_ROLE_LATENCY == hdring_algorithm(small->alg)->role,
                          "%s p=%d: 1000 B is %s", hdring_coll_name(c), p, hdring_alg_name(small->alg));
            const hdring_plan_segment_t *large = hdring_plan_lookup(&plan, 1000000, &lo);
            ck_assert_msg(HDRING_WHY_LARGE == large->why && 1000000 == lo &&
                              HDRING_ROLE_BANDWIDTH == hdring_algorithm(large->alg)->role,
                          "%s p=%d: 1000000 B is %s from %zu", hdring_coll_name(c), p, hdring_alg_name(large->alg), lo);
            const hdring_plan_segment_t *between = hdring_plan_lookup(&plan, 1001, &lo);
            ck_assert_msg(HDRING_WHY_MODEL == between->why && 1001 == lo, "%s p=%d: 1001 B not the model's",
                          hdring_coll_name(c), p);
        }
    }
}
END_TEST

static bool same_plan(const hdring_plan_t *a, const hdring_plan_t *b)
{
    bool same = a->nsegments == b->nsegments;
    for (int s = 0; same && s < a->nsegments; ++s) {
        same = a->seg[s].upto == b->seg[s].upto && same_choice(&a->seg[s], &b->seg[s]);
    }
    return same;
}

START_TEST(the_cache_gives_what_building_gives_for_equal_input_only)
{
    static hdring_plan_cache_t cache; /* large: not on the stack */
    hdring_plan_t built, got;
    hdring_plan_input_t in = {HDRING_COLL_ALLREDUCE, model_of(6, false, 1, false), 0, 0};

    memset(&cache, 0, sizeof(cache));
    hdring_plan_build(&in, &built);
    ck_assert_msg(!hdring_plan_get(&cache, &in, &got) && same_plan(&built, &got), "first get: built");
    memset(&got, 0, sizeof(got));
    ck_assert_msg(hdring_plan_get(&cache, &in, &got) && same_plan(&built, &got), "second get: cached");

    /* any difference in the input is another plan */
    hdring_plan_input_t other[10] = {in, in, in, in, in, in, in, in, in, in};
    other[0].coll = HDRING_COLL_ALLGATHER;
    other[1].model.p = 7;
    other[2].model.ordered = true;
    other[3].model.network.alpha *= 2;
    other[4].small = 64;
    other[5].model.shape.node_major = false;
    other[6].model.shape.cores = 2;
    other[7].model.local.eager = 4080;
    other[8].model.network.eager = 65520;
    other[9].model.shape.machine_nodes = 2;
    other[9].model.shape.machine_cores = 2;
    for (int i = 0; i < 10; ++i) {
        hdring_plan_build(&other[i], &built);
        ck_assert_msg(!hdring_plan_get(&cache, &other[i], &got) && same_plan(&built, &got), "variant %d: built", i);
    }

    /* full: the oldest entry goes first */
    for (int p = 100; cache.used < HDRING_PLAN_CACHE_ENTRIES; ++p) {
        hdring_plan_input_t fill = in;
        fill.model.p = p;
        hdring_plan_get(&cache, &fill, &got);
    }
    hdring_plan_input_t newest = in;
    newest.model.p = 1000;
    ck_assert(!hdring_plan_get(&cache, &newest, &got));
    ck_assert_msg(!hdring_plan_get(&cache, &in, &got), "the oldest entry was kept past a full cache");
    ck_assert_msg(hdring_plan_get(&cache, &newest, &got), "the newest entry was dropped");
    hdring_plan_build(&newest, &built);
    ck_assert(same_plan(&built, &got));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("plan");
    UNIT_ADD(s, ties_within_the_resolution_go_to_the_earlier_candidate);
    UNIT_ADD(s, plans_cover_every_size_with_the_fastest);
    UNIT_ADD(s, plans_on_several_nodes);
    UNIT_ADD(s, nodes_on_one_machine_prefer_steps_that_keep_fewer_ranks_busy);
    UNIT_ADD(s, thresholds_give_the_latency_and_bandwidth_algorithms_their_ranges);
    UNIT_ADD(s, the_cache_gives_what_building_gives_for_equal_input_only);
    return unit_run(s);
}
