/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * The cost model (hdring_cost.h) against the simulator: the same quantities, counted on virtual ranks running
 * the real algorithms. Critical-path time for pure alpha (steps), pure beta (bytes on the critical path), pure
 * gamma (bytes reduced on it) and a mix; bytes sent, received and reduced per rank; and the claims the design
 * rests on: ring moves exactly 2(p-1)/p n per rank, RHD on 2^k ranks takes 2k steps, the fold costs what the
 * model says, binary blocks leave no rank idle; and where the model charges a network exchange's rate.
 */
#include "unit_check.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hdring_cost.h"
#include "hdring_defaults.h"
#include "sim_harness.h"

static const hdring_cost_params_t param_sets[] = {
    {1, 0, 0, 0, 0},          /* steps on the critical path (the simulator has no rendezvous: eager 0) */
    {0, 1, 0, 1, 0},          /* bytes moved on it */
    {0, 0, 1, 0, 0},          /* bytes reduced on it */
    {1, 1e-3, 3e-4, 1e-3, 0}, /* a mix */
};
#define NPARAMS ((int) (sizeof(param_sets) / sizeof(param_sets[0])))

/* Where the model is exact; elsewhere (binary-block reduce_scatter/allgather and scatter_rhd bcast on p not a
 * power of two) it charges the redistribution with its busiest port and is an upper bound. */
static bool model_exact(hdring_alg_t alg, int p)
{
    return hdring_is_pow2(p) || !(HDRING_ALG_BCAST_SCATTER_RHD == alg || HDRING_ALG_REDUCE_SCATTER_BINARY_BLOCKS == alg ||
                                  HDRING_ALG_ALLGATHER_BINARY_BLOCKS == alg);
}

static const char *coll_of(hdring_alg_t alg) { return hdring_coll_name(hdring_algorithm(alg)->coll); }

/* The model's time on one node; a pipelined algorithm in segments of `segment` bytes (0: the model's choice). */
static double model_time_segmented(hdring_alg_t alg, int p, double n, bool ordered, const hdring_cost_params_t *c,
                                   double segment)
{
    hdring_model_t m = hdring_model_single(p, ordered, c);
    m.segment = segment;
    return hdring_cost_time(alg, &m, n, NULL);
}

static double model_time(hdring_alg_t alg, int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    return model_time_segmented(alg, p, n, ordered, c, 0);
}

/* A vector that divides evenly: a multiple of p and of 2p' elements. */
static size_t even_count(int p)
{
    const size_t q = (size_t) hdring_floor_pow2(p);
    size_t c = 2 * q;
    while (0 != c % (size_t) p) {
        c += 2 * q;
    }
    return c;
}

static void simulate_segmented(hdring_alg_t alg, int p, size_t count, bool ordered, const hdring_cost_params_t *c,
                               size_t segment, run_result_t *res, size_t *blocks)
{
    for (int i = 0; i < p; ++i) {
        blocks[i] = count / (size_t) p;
    }
    run_t run = {.alg = alg, .p = p, .count = count, .blocks = blocks, .in_place = false, .ordered = ordered, .kind = ordered ? &kind_mat_mul : &kind_u64_sum, .cost = {c->alpha, c->beta, c->gamma}, .segment = segment};
    run_collective(&run, res, true);
    ck_assert_msg(res->ok, "%s %s p=%d: %s", coll_of(alg), hdring_alg_name(alg), p, res->why);
}

static void simulate(hdring_alg_t alg, int p, size_t count, bool ordered, const hdring_cost_params_t *c,
                     run_result_t *res, size_t *blocks)
{
    simulate_segmented(alg, p, count, ordered, c, 0, res, blocks);
}

/* A pipelined algorithm, in segments that divide the vector and its blocks: 1, 2, p and 2p segments, and one per
 * element; the model of each segment size against the simulator: exact, but for the double binary tree, whose
 * model charges its schedule's rounds on average (hdring_cost.c): within 0.7-1.35 of the simulator. */
static void compare_time_segmented(hdring_alg_t alg, int p)
{
    const size_t count = 2 * even_count(p);
    const size_t segments[] = {count, count / 2, count / (size_t) p, count / (2 * (size_t) p), 1};
    const bool exact = HDRING_ALG_BCAST_DOUBLE_TREE != alg;
    size_t *blocks = malloc((size_t) p * sizeof(*blocks));
    for (size_t s = 0; s < sizeof(segments) / sizeof(segments[0]); ++s) {
        for (int k = 0; k < NPARAMS; ++k) {
            run_result_t res;
            simulate_segmented(alg, p, count, false, &param_sets[k], segments[s], &res, blocks);
            const double model = model_time_segmented(alg, p, (double) count * 8, false, &param_sets[k],
                                                       (double) segments[s] * 8);
            const double tol = 1e-9 * (res.time > 1 ? res.time : 1);
            ck_assert_msg(exact ? fabs(model - res.time) <= tol
                                : 0.7 * model - tol <= res.time && res.time <= 1.35 * model + tol,
                          "%s %s p=%d segment %zu params %d: model %.10g, simulator %.10g", coll_of(alg),
                          hdring_alg_name(alg), p, segments[s], k, model, res.time);
            result_free(&res);
        }
    }
    free(blocks);
}

static void compare_time(hdring_alg_t alg, int p, bool ordered)
{
    const size_t count = even_count(p);
    size_t *blocks = malloc((size_t) p * sizeof(*blocks));
    for (int k = 0; k < NPARAMS; ++k) {
        run_result_t res;
        simulate(alg, p, count, ordered, &param_sets[k], &res, blocks);
        const double n = (double) count * (ordered ? 16.0 : 8.0);
        const double model = model_time(alg, p, n, ordered, &param_sets[k]);
        const double tol = 1e-9 * (res.time > 1 ? res.time : 1);
        if (model_exact(alg, p)) {
            ck_assert_msg(fabs(model - res.time) <= tol, "%s %s p=%d%s params %d: model %.10g, simulator %.10g",
                          coll_of(alg), hdring_alg_name(alg), p, ordered ? " ordered" : "", k, model, res.time);
        } else {
            ck_assert_msg(res.time <= model + tol && model <= 1.25 * res.time + tol,
                          "%s %s p=%d params %d: bound %.10g, simulator %.10g", coll_of(alg), hdring_alg_name(alg), p,
                          k, model, res.time);
        }
        result_free(&res);
    }
    free(blocks);
}

static void compare_all(int p)
{
    for (int a = 0; a < HDRING_NALGS; ++a) {
        const hdring_algorithm_t *row = hdring_algorithm((hdring_alg_t) a);
        if (HDRING_ALG_NONE != row->inner) {
            continue; /* hierarchical: on grids of nodes (test_hier) */
        }
        if (NULL != row->segment) {
            compare_time_segmented(row->id, p);
            continue;
        }
        compare_time(row->id, p, false);
        if (HDRING_COLL_REDUCE_SCATTER == row->coll && row->keeps_order) {
            compare_time(row->id, p, true);
        }
    }
}

START_TEST(model_time_matches_simulator_p2_to_40)
{
    for (int p = 2; p <= 40; ++p) {
        compare_all(p);
    }
}
END_TEST

START_TEST(model_time_matches_simulator_powers_of_two)
{
    for (int p = 64; p <= 256; p *= 2) {
        compare_all(p);
    }
}
END_TEST

/* Bytes per rank, exactly, where the model gives them. */
START_TEST(model_volume_matches_simulator)
{
    const hdring_cost_params_t c = {1, 0, 0, 0, 0};
    for (int p = 2; p <= 40; ++p) {
        const size_t count = even_count(p);
        const double n = (double) count * 8;
        size_t *blocks = malloc((size_t) p * sizeof(*blocks));
        for (int a = 0; a < HDRING_NALGS; ++a) {
            const hdring_alg_t alg = (hdring_alg_t) a;
            if (hdring_cost_volume(alg, p, 0, n).sent < 0) {
                continue; /* not modelled per rank */
            }
            run_result_t res;
            simulate(alg, p, count, false, &c, &res, blocks);
            for (int r = 0; r < p; ++r) {
                const hdring_volume_t v = hdring_cost_volume(alg, p, r, n);
                ck_assert_msg(v.sent == (double) res.stats[r].bytes_sent &&
                                  v.received == (double) res.stats[r].bytes_received &&
                                  v.reduced == (double) res.stats[r].bytes_reduced,
                              "%s %s p=%d rank %d: model %g/%g/%g, simulator %zu/%zu/%zu bytes sent/received/reduced",
                              coll_of(alg), hdring_alg_name(alg), p, r, v.sent, v.received, v.reduced,
                              res.stats[r].bytes_sent, res.stats[r].bytes_received, res.stats[r].bytes_reduced);
            }
            result_free(&res);
        }
        free(blocks);
    }
}
END_TEST

START_TEST(ring_moves_2_p_minus_1_over_p_n_per_rank)
{
    const hdring_cost_params_t c = {1, 0, 0, 0, 0};
    for (int p = 2; p <= 33; ++p) {
        const size_t count = 5 * (size_t) p; /* n = 40 p bytes */
        size_t *blocks = malloc((size_t) p * sizeof(*blocks));
        run_result_t res;
        simulate(HDRING_ALG_ALLREDUCE_RING, p, count, false, &c, &res, blocks);
        for (int r = 0; r < p; ++r) {
            ck_assert_uint_eq(res.stats[r].bytes_sent, 2 * (size_t) (p - 1) * 40);
            ck_assert_uint_eq(res.stats[r].bytes_received, 2 * (size_t) (p - 1) * 40);
        }
        ck_assert_double_eq(res.time, 2.0 * (p - 1));
        result_free(&res);
        free(blocks);
    }
}
END_TEST

START_TEST(rhd_on_2_to_the_k_ranks_takes_2k_steps)
{
    const hdring_cost_params_t c = {1, 0, 0, 0, 0};
    for (int k = 1; k <= 10; ++k) {
        const int p = 1 << k;
        size_t *blocks = malloc((size_t) p * sizeof(*blocks));
        run_result_t res;
        simulate(HDRING_ALG_ALLREDUCE_RHD, p, 2 * (size_t) p, false, &c, &res, blocks);
        ck_assert_double_eq(res.time, 2.0 * k);
        ck_assert_double_eq(model_time(HDRING_ALG_ALLREDUCE_RHD, p, 16.0 * p, false, &c), 2.0 * k);
        result_free(&res);
        free(blocks);
    }
}
END_TEST

/* Where p is not a power of two, recursive_halving's whole fold and hand-back take l + 2 steps, in operand order
 * too, where rhd's split fold and delivery take more: what makes it the latency algorithm of reduce_scatter. */
START_TEST(recursive_halving_takes_l_plus_2_steps)
{
    const hdring_cost_params_t c = {1, 0, 0, 0, 0};
    for (int p = 3; p <= 40; ++p) {
        if (hdring_is_pow2(p)) {
            continue;
        }
        size_t *blocks = malloc((size_t) p * sizeof(*blocks));
        const double steps = hdring_floor_log2(p) + 2;
        for (int ordered = 0; ordered <= 1; ++ordered) {
            run_result_t res, rhd;
            simulate(HDRING_ALG_REDUCE_SCATTER_RECURSIVE_HALVING, p, even_count(p), ordered, &c, &res, blocks);
            simulate(HDRING_ALG_REDUCE_SCATTER_RHD, p, even_count(p), ordered, &c, &rhd, blocks);
            ck_assert_msg(res.time == steps && rhd.time > steps, "p=%d%s: recursive_halving %g steps, rhd %g", p,
                          ordered ? " ordered" : "", res.time, rhd.time);
            result_free(&res);
            result_free(&rhd);
        }
        free(blocks);
    }
}
END_TEST

/* The fold's price: 3 more steps and 2n more bytes on the critical path, n/2 more reduced; the dropped rank
 * sends n and receives 1.5 n. */
START_TEST(fold_costs_what_the_model_says)
{
    for (int p = 3; p <= 40; ++p) {
        if (hdring_is_pow2(p)) {
            continue;
        }
        const int q = hdring_floor_pow2(p);
        const size_t count = even_count(p);
        const double n = (double) count * 8;
        size_t *blocks = malloc((size_t) p * sizeof(*blocks));
        for (int k = 0; k < 3; ++k) {
            run_result_t folded, plain;
            simulate(HDRING_ALG_ALLREDUCE_RHD, p, count, false, &param_sets[k], &folded, blocks);
            simulate(HDRING_ALG_ALLREDUCE_RHD, q, count, false, &param_sets[k], &plain, blocks);
            const double extra[3] = {3, 2 * n, n / 2};
            ck_assert_msg(fabs(folded.time - plain.time - extra[k]) < 1e-9, "p=%d params %d: fold adds %g, not %g", p,
                          k, folded.time - plain.time, extra[k]);
            const double model_extra = model_time(HDRING_ALG_ALLREDUCE_RHD, p, n, false, &param_sets[k]) -
                                       model_time(HDRING_ALG_ALLREDUCE_RHD, q, n, false, &param_sets[k]);
            ck_assert_msg(fabs(model_extra - extra[k]) < 1e-9, "p=%d params %d: the model's fold adds %g, not %g", p,
                          k, model_extra, extra[k]);
            if (0 == k) {
                ck_assert_double_eq((double) folded.stats[0].bytes_sent, n);
                ck_assert_double_eq((double) folded.stats[0].bytes_received, 1.5 * n);
                ck_assert_double_eq((double) folded.stats[0].bytes_reduced, n / 2);
            }
            result_free(&folded);
            result_free(&plain);
        }
        free(blocks);
    }
}
END_TEST

/* Idle = waiting for others. With folding, the dropped ranks wait through the whole power-of-two phase; in
 * binary blocks every rank of a block of two or more works in its block's reduce-scatter and allgather. A block
 * of one rank (p odd) has neither: it hands its pieces up at once (within a node they overlap) and then waits,
 * as rhd's dropped ranks do, so odd p is not compared. */
START_TEST(binary_blocks_leave_no_rank_idle)
{
    const int ps[] = {3, 5, 6, 7, 10, 12, 14, 24, 28, 48, 96};
    const hdring_cost_params_t c = {1, 1e-3, 5e-4, 1e-3, 0};
    for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); ++i) {
        const int p = ps[i];
        size_t *blocks = malloc((size_t) p * sizeof(*blocks));
        hdring_binblocks_t bb;
        hdring_binblocks_init(&bb, p);
        const bool no_singleton = 0 == (p & 1);
        double least[2];
        const hdring_alg_t algs[2] = {HDRING_ALG_ALLREDUCE_BINARY_BLOCKS, HDRING_ALG_ALLREDUCE_RHD};
        for (int a = 0; a < 2; ++a) {
            run_result_t res;
            simulate(algs[a], p, 8 * even_count(p), false, &c, &res, blocks);
            least[a] = 1;
            for (int r = 0; r < p; ++r) {
                const double busy = res.stats[r].busy / res.time;
                least[a] = busy < least[a] ? busy : least[a];
                if (0 == a && no_singleton) {
                    ck_assert_msg(res.stats[r].bytes_reduced > 0, "p=%d: rank %d reduces nothing", p, r);
                }
            }
            result_free(&res);
        }
        if (no_singleton) {
            ck_assert_msg(least[0] > least[1], "p=%d: binary blocks' least busy rank %.2f, rhd's %.2f", p, least[0],
                          least[1]);
            ck_assert_msg(least[0] >= 0.55, "p=%d: a rank of binary blocks is busy only %.2f of the time", p, least[0]);
        }
        free(blocks);
    }
}
END_TEST

/* One rank per node on a link whose exchange moves half the one-way rate (beta 1, exchange 2, no latency): a step
 * is charged the exchange rate exactly when a rank sends to the rank it receives from. */
/* The model of p nodes of one rank each: the network's alpha and beta between them (exchanges at beta too),
 * reductions at gamma, nothing within a node. */
static hdring_model_t one_rank_per_node(int p, double gamma, sim_cost_t network)
{
    const hdring_cost_params_t c = {0, 0, gamma, 0, 0};
    hdring_model_t m = hdring_model_single(p, false, &c);
    m.network.alpha = network.alpha;
    m.network.beta = m.network.exchange = network.beta;
    m.shape.nodes = p;
    m.shape.ppn = m.shape.ppn_max = 1;
    m.shape.index_major = true;
    return m;
}

static double on_nodes(hdring_alg_t alg, int p, double n)
{
    const sim_cost_t network = {0, 1, 0};
    hdring_model_t m = one_rank_per_node(p, 0, network);
    m.network.exchange = 2;
    return hdring_cost_time(alg, &m, n, NULL);
}

START_TEST(exchanges_are_charged_where_the_peer_is_both_ways)
{
    const double n = 1200;
    ck_assert_double_eq(on_nodes(HDRING_ALG_ALLGATHER_RING, 2, n), n / 2 * 2);
    ck_assert_double_eq(on_nodes(HDRING_ALG_ALLREDUCE_RING, 2, n), 2 * (n / 2 * 2));
    ck_assert_double_eq(on_nodes(HDRING_ALG_ALLGATHER_RING, 4, n), 3 * (n / 4));
    ck_assert_double_eq(on_nodes(HDRING_ALG_ALLGATHER_BRUCK, 4, n), n / 4 + n / 2 * 2); /* steps 1 and 2 */
    ck_assert_double_eq(on_nodes(HDRING_ALG_REDUCE_SCATTER_BRUCK, 4, n), n / 4 + n / 2 * 2);
    ck_assert_double_eq(on_nodes(HDRING_ALG_ALLGATHER_BRUCK, 5, n), n / 5 + 2 * n / 5 + n / 5); /* no pair */
    ck_assert_double_eq(on_nodes(HDRING_ALG_ALLGATHER_RHD, 4, n), (n / 4 + n / 2) * 2);
    ck_assert_double_eq(on_nodes(HDRING_ALG_BCAST_BINOMIAL, 2, n), n); /* one way */
}
END_TEST

/* p nodes of one rank each, the network's alpha and beta between them, reductions at the same speed as transfers: a
 * ring reduce-scatter in segments that divide its blocks takes what the model says, keeps every rank busy from
 * start to end, and in the model's segments (rounded up to whole elements, as the component runs them) takes at
 * least 15% less than in whole blocks. */
static double ring_across_nodes(hdring_alg_t alg, int p, size_t count, size_t segment, double *model)
{
    size_t *blocks = malloc((size_t) p * sizeof(*blocks));
    for (int i = 0; i < p; ++i) {
        blocks[i] = count / (size_t) p;
    }
    const sim_cost_t local = {0, 0, 1e-3}, network = {1, 1e-3, 0};
    run_t run = {.alg = alg, .p = p, .count = count, .blocks = blocks, .kind = &kind_u64_sum, .cost = local,
                 .nodes = p, .ppn = 1, .network = network, .segment = segment};
    run_result_t res;
    run_collective(&run, &res, true);
    ck_assert_msg(res.ok, "%s p=%d on %d nodes: %s", hdring_alg_name(alg), p, p, res.why);
    for (int r = 0; r < p && 0 == count % ((size_t) p * (segment > 0 ? segment : 1)); ++r) {
        const double idle = res.stats[r].finish - res.stats[r].busy; /* segments that divide blocks: no wait */
        ck_assert_msg(idle <= 1e-9 * res.time, "%s p=%d on nodes in segments of %zu: rank %d waits %g",
                      hdring_alg_name(alg), p, segment, r, idle);
    }
    result_free(&res);
    hdring_model_t m = one_rank_per_node(p, local.gamma, network);
    m.segment = (double) segment * 8;
    *model = hdring_cost_time(alg, &m, (double) count * 8, NULL);
    if (0 == segment) { /* the model's own, in whole elements */
        m.segment = 0;
        *model = ceil(hdring_cost_segment(alg, &m, (double) count * 8, NULL) / 8);
    }
    free(blocks);
    return res.time;
}

START_TEST(segmented_ring_overlaps_reductions_across_nodes)
{
    const hdring_alg_t algs[] = {HDRING_ALG_ALLREDUCE_RING, HDRING_ALG_REDUCE_SCATTER_RING};
    for (size_t a = 0; a < sizeof(algs) / sizeof(algs[0]); ++a) {
        for (int p = 2; p <= 12; ++p) {
            const size_t block = 2000, count = block * (size_t) p;
            const size_t segments[] = {block, block / 2, block / 5, block / 40, 1};
            double model;
            for (size_t s = 0; s < sizeof(segments) / sizeof(segments[0]); ++s) {
                const double sim = ring_across_nodes(algs[a], p, count, segments[s], &model);
                ck_assert_msg(fabs(model - sim) <= 1e-9 * sim,
                              "%s p=%d in segments of %zu: model %.10g, simulator %.10g", hdring_alg_name(algs[a]), p,
                              segments[s], model, sim);
            }
            double chosen_elements, unused;
            const double whole = ring_across_nodes(algs[a], p, count, block, &unused);
            ring_across_nodes(algs[a], p, count, 0, &chosen_elements);
            const double chosen = ring_across_nodes(algs[a], p, count, (size_t) chosen_elements, &unused);
            ck_assert_msg(chosen <= 0.85 * whole,
                          "%s p=%d: the model's segments of %g elements take %g, whole blocks %g",
                          hdring_alg_name(algs[a]), p, chosen_elements, chosen, whole);
        }
    }
}
END_TEST

/* p nodes of one rank each: the binary and binomial trees take what the model says (a rank's sends queue on its
 * port), the same at p = 2 to 6, where the binary tree's root sends 2 messages and the binomial tree's
 * ceil(log2 p) (from p = 5 on, fewer: what makes the registry list binary first). */
static double tree_across_nodes(hdring_alg_t alg, int p, double *model, int *root_sends)
{
    const size_t count = 1000;
    const sim_cost_t local = {0, 0, 0}, network = {1, 1e-3, 0};
    run_t run = {.alg = alg, .p = p, .count = count, .kind = &kind_u64_sum, .cost = local, .nodes = p, .ppn = 1,
                 .network = network};
    run_result_t res;
    run_collective(&run, &res, true);
    ck_assert_msg(res.ok, "%s p=%d on %d nodes: %s", hdring_alg_name(alg), p, p, res.why);
    *root_sends = (int) res.stats[0].msgs_sent;
    const double sim = res.time;
    result_free(&res);
    const hdring_model_t m = one_rank_per_node(p, 0, network);
    *model = hdring_cost_time(alg, &m, (double) count * 8, NULL);
    return sim;
}

START_TEST(binary_tree_across_nodes_matches_the_binomial_to_6_ranks_with_fewer_root_sends)
{
    for (int p = 2; p <= 40; ++p) {
        double binary_model, binomial_model;
        int binary_root, binomial_root;
        const double binary = tree_across_nodes(HDRING_ALG_BCAST_BINARY, p, &binary_model, &binary_root);
        const double binomial = tree_across_nodes(HDRING_ALG_BCAST_BINOMIAL, p, &binomial_model, &binomial_root);
        ck_assert_msg(fabs(binary_model - binary) <= 1e-9 * binary, "binary p=%d: model %.10g, simulator %.10g", p,
                      binary_model, binary);
        ck_assert_msg(fabs(binomial_model - binomial) <= 1e-9 * binomial,
                      "binomial p=%d: model %.10g, simulator %.10g", p, binomial_model, binomial);
        ck_assert_int_eq(binary_root, p > 2 ? 2 : 1);
        ck_assert_int_eq(binomial_root, hdring_ceil_log2(p));
        if (p <= 6) {
            ck_assert_msg(fabs(binary - binomial) <= 1e-9 * binomial, "p=%d: binary %g, binomial %g", p, binary,
                          binomial);
        }
    }
}
END_TEST

/* The pipelines keep every rank busy but while they fill: a rank waits only for its first segment (simulated time
 * to finish minus time busy). Chain: rank r waits r - 1 segment times, exactly as the model's schedule says. Ring
 * in segments, on one node (and across nodes: segmented_ring_overlaps_reductions_across_nodes): no rank waits at
 * all. Double binary tree: a rank waits at most what
 * the model's time leaves beside the segments it receives (with the model's tolerance). Segments of 8 elements,
 * 16 to 64 of them. */
START_TEST(pipelines_idle_only_while_they_fill)
{
    const hdring_cost_params_t c = {1, 1e-2, 3e-3, 1e-2, 0};
    size_t blocks[64];
    for (int p = 2; p <= 40; ++p) {
        const size_t count = 128 * (size_t) p, seg = 8;
        const double a = c.alpha + 8.0 * (double) seg * c.beta; /* one segment's transfer */
        run_result_t res;

        simulate_segmented(HDRING_ALG_BCAST_CHAIN, p, count, false, &c, seg, &res, blocks);
        for (int r = 0; r < p; ++r) {
            const double idle = res.stats[r].finish - res.stats[r].busy, fill = r > 1 ? (r - 1) * a : 0;
            ck_assert_msg(fabs(idle - fill) <= 1e-9 * res.time, "chain p=%d: rank %d waits %g, not %g", p, r, idle,
                          fill);
        }
        result_free(&res);

        const hdring_alg_t rings[] = {HDRING_ALG_ALLREDUCE_RING, HDRING_ALG_REDUCE_SCATTER_RING};
        for (size_t i = 0; i < sizeof(rings) / sizeof(rings[0]); ++i) {
            simulate_segmented(rings[i], p, count, false, &c, seg, &res, blocks);
            for (int r = 0; r < p; ++r) {
                ck_assert_msg(res.stats[r].finish - res.stats[r].busy <= 1e-9 * res.time, "%s p=%d: rank %d waits %g",
                              hdring_alg_name(rings[i]), p, r, res.stats[r].finish - res.stats[r].busy);
            }
            result_free(&res);
        }

        simulate_segmented(HDRING_ALG_BCAST_DOUBLE_TREE, p, count, false, &c, seg, &res, blocks);
        const double model = model_time_segmented(HDRING_ALG_BCAST_DOUBLE_TREE, p, 8.0 * (double) count, false, &c,
                                                  8.0 * (double) seg);
        for (int r = 1; r < p; ++r) {
            const double received = (double) res.stats[r].msgs_received * c.alpha +
                                    (double) res.stats[r].bytes_received * c.beta;
            const double idle = res.stats[r].finish - res.stats[r].busy;
            ck_assert_msg(idle <= 1.35 * model - received, "double_tree p=%d: rank %d waits %g, the model leaves %g",
                          p, r, idle, 1.35 * model - received);
        }
        result_free(&res);
    }
}
END_TEST

/* Cores: a step keeping more of a node's ranks busy than it has cores takes longer by that ratio. With a core per
 * rank or more nothing changes; with fewer, a ring (every rank busy at every step) takes p/C longer, a binomial
 * bcast only its levels with more receivers than cores (p = 8, 2 cores: levels of 1, 2 and 4 receivers), the
 * chain min(k, p-1)/C for its k segments (no more links carry one at once), and a fold only where its pairs
 * outnumber the cores. */
static double on_cores_in_segments(hdring_alg_t alg, int p, int cores, double n, double segment)
{
    const hdring_cost_params_t c = {1, 1e-3, 3e-4, 1e-3, 0};
    hdring_model_t m = hdring_model_single(p, false, &c);
    m.shape.cores = cores;
    m.segment = segment;
    return hdring_cost_time(alg, &m, n, NULL);
}

static double on_cores(hdring_alg_t alg, int p, int cores, double n)
{
    return on_cores_in_segments(alg, p, cores, n, 0);
}

START_TEST(crowded_cores_slow_the_steps_that_outnumber_them)
{
    const double n = 96000, a = 1 + n * 1e-3; /* a whole-message transfer */
    for (int p = 2; p <= 24; ++p) {
        for (int alg = 0; alg < HDRING_NALGS; ++alg) {
            if (HDRING_ALG_NONE == hdring_algorithm((hdring_alg_t) alg)->inner) {
                ck_assert_double_eq(on_cores((hdring_alg_t) alg, p, p, n), on_cores((hdring_alg_t) alg, p, 0, n));
            }
        }
        for (int cores = 1; cores < p; ++cores) {
            const double plain = on_cores(HDRING_ALG_ALLREDUCE_RING, p, 0, n);
            ck_assert_msg(fabs(on_cores(HDRING_ALG_ALLREDUCE_RING, p, cores, n) - plain * p / cores) < 1e-9 * plain,
                          "ring p=%d on %d cores", p, cores);
        }
    }
    ck_assert_double_eq_tol(on_cores(HDRING_ALG_BCAST_BINOMIAL, 8, 0, n), 3 * a, 1e-9);
    ck_assert_double_eq_tol(on_cores(HDRING_ALG_BCAST_BINOMIAL, 8, 2, n), 4 * a, 1e-9);
    ck_assert_double_eq_tol(on_cores(HDRING_ALG_BCAST_BINOMIAL, 4, 2, n), on_cores(HDRING_ALG_BCAST_BINOMIAL, 4, 0, n),
                            1e-9);
    ck_assert_double_eq_tol(on_cores(HDRING_ALG_BCAST_CHAIN, 7, 2, n), 3 * on_cores(HDRING_ALG_BCAST_CHAIN, 7, 0, n),
                            1e-9);
    /* 2 segments: 2 ranks copy at once, 7 + 1 segment times; 4: 4 ranks on 2 cores, 7 + 3 twice as long */
    ck_assert_double_eq_tol(on_cores_in_segments(HDRING_ALG_BCAST_CHAIN, 8, 2, n, n / 2), 8 * (1 + n / 2 * 1e-3), 1e-9);
    ck_assert_double_eq_tol(on_cores_in_segments(HDRING_ALG_BCAST_CHAIN, 8, 2, n, n / 4),
                            10 * 2 * (1 + n / 4 * 1e-3), 1e-9);
    /* p = 5: one pair folds (2 ranks busy, then 1), the 4 survivors run recursive doubling */
    const double fold = 2 * a + n * 3e-4, step = a + n * 3e-4;
    ck_assert_double_eq_tol(on_cores(HDRING_ALG_ALLREDUCE_RECURSIVE_DOUBLING, 5, 2, n), fold + 2 * 2 * step, 1e-9);
}
END_TEST

/* An algorithm's time on p nodes of one rank (network alpha 1, beta 1e-3 per byte), all on one machine of
 * `cores` cores (0: every node a machine of its own). */
static double on_machine(hdring_alg_t alg, int p, int cores, double n)
{
    const sim_cost_t network = {1, 1e-3, 0};
    hdring_model_t m = one_rank_per_node(p, 0, network);
    m.shape.machine_nodes = cores > 0 ? p : 0;
    m.shape.machine_cores = cores;
    return hdring_cost_time(alg, &m, n, NULL);
}

START_TEST(a_shared_machine_bounds_small_steps_by_its_cores_not_large_ones)
{
    const hdring_alg_t bruck = HDRING_ALG_REDUCE_SCATTER_BRUCK, ring = HDRING_ALG_ALLGATHER_RING;
    for (int p = 2; p <= 24; ++p) {
        for (int alg = 0; alg < HDRING_NALGS; ++alg) { /* a core for each rank: as machines of their own */
            ck_assert_double_eq(on_machine((hdring_alg_t) alg, p, p, 1000), on_machine((hdring_alg_t) alg, p, 0, 1000));
        }
    }
    /* 5 ranks on 2 cores: every step of Bruck and of the ring keeps all 5 busy, so a step of tiny messages takes
     * 5/2 latencies; a step of large ones takes its bytes' time, as on machines of their own */
    ck_assert_double_eq_tol(on_machine(bruck, 5, 2, 5), 3 * 2.5, 1e-9);
    ck_assert_double_eq_tol(on_machine(bruck, 5, 0, 5), 3 * 1 + (1 + 2 + 1) * 1e-3, 1e-9);
    ck_assert_double_eq_tol(on_machine(ring, 5, 2, 5), 4 * 2.5, 1e-9);
    ck_assert_double_eq(on_machine(bruck, 5, 2, 5e6), on_machine(bruck, 5, 0, 5e6));
    ck_assert_double_eq(on_machine(ring, 5, 2, 5e6), on_machine(ring, 5, 0, 5e6));
    /* the binomial bcast's levels on 5 ranks keep at most 2 receivers busy: 2 cores are enough */
    ck_assert_double_eq(on_machine(HDRING_ALG_BCAST_BINOMIAL, 5, 2, 5), on_machine(HDRING_ALG_BCAST_BINOMIAL, 5, 0, 5));
    /* 3 ranks: rhd's fold, exchange and unfold each keep one pair busy (the unfold's one moving piece has one
     * sender and one receiver, not 3 ranks working) */
    ck_assert_double_eq(on_machine(HDRING_ALG_ALLGATHER_RHD, 3, 2, 3), on_machine(HDRING_ALG_ALLGATHER_RHD, 3, 0, 3));
    ck_assert_double_eq(on_machine(HDRING_ALG_REDUCE_SCATTER_RECURSIVE_HALVING, 3, 2, 3),
                        on_machine(HDRING_ALG_REDUCE_SCATTER_RECURSIVE_HALVING, 3, 0, 3));
}
END_TEST

/* Allreduce at p = 2 with parameters c and eager limit `eager` (bytes). */
static double at_two(hdring_alg_t alg, double eager, double n)
{
    hdring_cost_params_t c = {1, 1e-3, 3e-4, 1e-3, eager};
    const hdring_model_t m = hdring_model_single(2, false, &c);
    return hdring_cost_time(alg, &m, n, NULL);
}

START_TEST(messages_over_the_eager_limit_pay_a_round_trip)
{
    const hdring_alg_t rd = HDRING_ALG_ALLREDUCE_RECURSIVE_DOUBLING, rhd = HDRING_ALG_ALLREDUCE_RHD;
    /* recursive doubling sends the whole vector once, rhd two halves */
    ck_assert_double_eq(at_two(rd, 1000, 1000), at_two(rd, 0, 1000));
    ck_assert_double_eq_tol(at_two(rd, 1000, 1001) - at_two(rd, 0, 1001), 2, 1e-9);
    ck_assert_double_eq(at_two(rhd, 1000, 2000), at_two(rhd, 0, 2000));
    ck_assert_double_eq_tol(at_two(rhd, 1000, 2002) - at_two(rhd, 0, 2002), 4, 1e-9);

    /* the component's defaults at 2 ranks: 6000 bytes, over the limit whole and under it in halves, go to rhd
     * with the limit and to recursive doubling without */
    hdring_model_units_t u = {HDRING_DEFAULT_LATENCY_US,         HDRING_DEFAULT_BANDWIDTH_MBS,
                              HDRING_DEFAULT_REDUCE_MBS,         HDRING_DEFAULT_NETWORK_LATENCY_US,
                              HDRING_DEFAULT_NETWORK_BANDWIDTH_MBS, 0,
                              HDRING_DEFAULT_EAGER_BYTES,        HDRING_DEFAULT_NETWORK_EAGER_BYTES};
    const hdring_shape_t shape = hdring_shape_single(2);
    hdring_model_t m = hdring_model_of(2, false, &shape, &u);
    ck_assert(hdring_cost_time(rhd, &m, 6000, NULL) < hdring_cost_time(rd, &m, 6000, NULL));
    u.eager_bytes = 0;
    m = hdring_model_of(2, false, &shape, &u);
    ck_assert(hdring_cost_time(rhd, &m, 6000, NULL) > hdring_cost_time(rd, &m, 6000, NULL));
}
END_TEST

/* A bcast on one node of p ranks with parameters as at_two's, eager limit `eager` and `cores` (0: one per rank). */
static double bcast_on_node(hdring_alg_t alg, int p, int cores, double eager, double n)
{
    hdring_cost_params_t c = {1, 1e-3, 3e-4, 1e-3, eager};
    hdring_model_t m = hdring_model_single(p, false, &c);
    m.shape.cores = cores;
    return hdring_cost_time(alg, &m, n, NULL);
}

/* Eager messages are copied out by their sender: the flat tree's root makes its p - 1 copies one after another,
 * where over the limit its receivers copy at once. In the binomial tree (p = 5) rank 3 is two hops deep. */
START_TEST(a_flat_root_copies_its_eager_messages_one_after_another)
{
    const hdring_alg_t flat = HDRING_ALG_BCAST_FLAT, binomial = HDRING_ALG_BCAST_BINOMIAL;
    ck_assert_double_eq_tol(bcast_on_node(flat, 5, 0, 1000, 1000), 4 * (1 + 1000e-3), 1e-9);
    ck_assert_double_eq_tol(bcast_on_node(flat, 5, 0, 0, 1000), 1 + 1000e-3, 1e-9); /* the simulator's view */
    ck_assert_double_eq_tol(bcast_on_node(flat, 5, 0, 1000, 2000), 3 + 2000e-3, 1e-9);
    ck_assert_double_eq_tol(bcast_on_node(flat, 5, 2, 1000, 2000), 2 * (3 + 2000e-3), 1e-9); /* 4 copies, 2 cores */
    ck_assert_double_eq_tol(bcast_on_node(binomial, 5, 0, 1000, 1000), 2 * (1 + 1000e-3), 1e-9);
    ck_assert(bcast_on_node(binomial, 5, 0, 1000, 1000) < bcast_on_node(flat, 5, 0, 1000, 1000));
    ck_assert(bcast_on_node(flat, 5, 0, 1000, 2000) < bcast_on_node(binomial, 5, 0, 1000, 2000));

    /* the component's defaults, 4 ranks on 2 cores: binomial for 64 bytes, flat for 64 KiB */
    const hdring_model_units_t u = {HDRING_DEFAULT_LATENCY_US,         HDRING_DEFAULT_BANDWIDTH_MBS,
                                    HDRING_DEFAULT_REDUCE_MBS,         HDRING_DEFAULT_NETWORK_LATENCY_US,
                                    HDRING_DEFAULT_NETWORK_BANDWIDTH_MBS, 0,
                                    HDRING_DEFAULT_EAGER_BYTES,        HDRING_DEFAULT_NETWORK_EAGER_BYTES};
    hdring_shape_t shape = hdring_shape_single(4);
    shape.cores = 2;
    const hdring_model_t m = hdring_model_of(4, false, &shape, &u);
    ck_assert(hdring_cost_time(binomial, &m, 64, NULL) < hdring_cost_time(flat, &m, 64, NULL));
    ck_assert(hdring_cost_time(flat, &m, 65536, NULL) < hdring_cost_time(binomial, &m, 65536, NULL));
}
END_TEST

/* Pieces only on a node of more ranks than cores; an allreduce there, where a rank may have a core of its own,
 * cuts messages of at most two pieces. */
static size_t pieces_bytes(int ppn, int cores, hdring_coll_t coll, size_t configured)
{
    hdring_shape_t shape = hdring_shape_single(ppn);
    shape.cores = cores;
    return hdring_cost_pieces_bytes(&shape, coll, configured);
}

START_TEST(pieces_where_ranks_outnumber_cores_and_allreduce_at_two_when_one_may_have_a_core)
{
    const size_t def = HDRING_DEFAULT_INLINE_PIECES_BYTES, two = 2 * HDRING_PML_INLINE_BYTES;
    for (hdring_coll_t coll = 0; coll < HDRING_NCOLLS; ++coll) {
        const bool allreduce = HDRING_COLL_ALLREDUCE == coll;
        ck_assert_uint_eq(pieces_bytes(2, 0, coll, def), 0); /* a core per rank */
        ck_assert_uint_eq(pieces_bytes(2, 2, coll, def), 0);
        ck_assert_uint_eq(pieces_bytes(3, 2, coll, def), allreduce ? two : def); /* 1 of 3 alone */
        ck_assert_uint_eq(pieces_bytes(4, 2, coll, def), def);                   /* every rank shares */
        ck_assert_uint_eq(pieces_bytes(5, 2, coll, def), def);
        ck_assert_uint_eq(pieces_bytes(7, 4, coll, def), allreduce ? two : def);
        ck_assert_uint_eq(pieces_bytes(8, 4, coll, def), def);
        ck_assert_uint_eq(pieces_bytes(3, 2, coll, 0), 0); /* off */
        ck_assert_uint_eq(pieces_bytes(3, 2, coll, 300), 300);
        ck_assert_uint_eq(pieces_bytes(3, 2, coll, 2048), allreduce ? two : 2048);
    }
    hdring_shape_t nodes = {2, 3, 3, true, false, 2, 0, 0}; /* 2 nodes x 3 ranks, 2 cores each */
    ck_assert_uint_eq(hdring_cost_pieces_bytes(&nodes, HDRING_COLL_ALLREDUCE, def), two);
    ck_assert_uint_eq(hdring_cost_pieces_bytes(&nodes, HDRING_COLL_BCAST, def), def);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cost");
    UNIT_ADD(s, model_time_matches_simulator_p2_to_40);
    UNIT_ADD(s, model_time_matches_simulator_powers_of_two);
    UNIT_ADD(s, model_volume_matches_simulator);
    UNIT_ADD(s, ring_moves_2_p_minus_1_over_p_n_per_rank);
    UNIT_ADD(s, rhd_on_2_to_the_k_ranks_takes_2k_steps);
    UNIT_ADD(s, recursive_halving_takes_l_plus_2_steps);
    UNIT_ADD(s, fold_costs_what_the_model_says);
    UNIT_ADD(s, binary_blocks_leave_no_rank_idle);
    UNIT_ADD(s, exchanges_are_charged_where_the_peer_is_both_ways);
    UNIT_ADD(s, segmented_ring_overlaps_reductions_across_nodes);
    UNIT_ADD(s, binary_tree_across_nodes_matches_the_binomial_to_6_ranks_with_fewer_root_sends);
    UNIT_ADD(s, pipelines_idle_only_while_they_fill);
    UNIT_ADD(s, crowded_cores_slow_the_steps_that_outnumber_them);
    UNIT_ADD(s, a_shared_machine_bounds_small_steps_by_its_cores_not_large_ones);
    UNIT_ADD(s, messages_over_the_eager_limit_pay_a_round_trip);
    UNIT_ADD(s, a_flat_root_copies_its_eager_messages_one_after_another);
    UNIT_ADD(s, pieces_where_ranks_outnumber_cores_and_allreduce_at_two_when_one_may_have_a_core);
    return unit_run(s);
}
