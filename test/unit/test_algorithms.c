/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * Every algorithm of every collective on virtual ranks (test/sim): exact results for p = 1..64 and a spread of
 * p up to 2048, counts 0, 1, p-1, p, p+1, non-divisible and large, reduce_scatter/allgather blocks of every
 * shape (zeros included), in place and not; operand order with a non-commutative operation for every
 * algorithm that claims to keep it; identical floating-point bits on all ranks and run after run. The
 * simulator checks every buffer access, and the harness the guard zones and untouched inputs.
 */
#include "unit_check.h"
#include <stdio.h>
#include <stdlib.h>

#include "sim_harness.h"

static const sim_cost_t no_cost = {0, 0, 0};

/* p beyond 64: around powers of two and in between. Ring's p^2 simulated messages keep it to p <= RING_MAX_P. */
static const int spread[] = {65, 96, 127, 128, 129, 255, 256, 257, 384, 511, 512, 513, 1000, 1023, 1024, 1025, 2047, 2048};
#define NSPREAD ((int) (sizeof(spread) / sizeof(spread[0])))
#define RING_MAX_P 1025


static void check_run(const run_t *run)
{
    run_result_t res;
    run_collective(run, &res, false);
    ck_assert_msg(res.ok, "%s %s p=%d count=%zu segment=%zu %s%s%s: %s",
                  hdring_coll_name(hdring_algorithm(run->alg)->coll), hdring_alg_name(run->alg), run->p, run->count,
                  run->segment, run->kind->name, run->in_place ? " in place" : "", run->ordered ? " ordered" : "",
                  res.why);
}

/* The counts every collective is checked with at size p; `large` adds a vector in the thousands. */
static int counts_for(int p, bool large, size_t *counts)
{
    const size_t up = (size_t) p;
    int n = 0;
    counts[n++] = 0;
    counts[n++] = 1;
    counts[n++] = up > 1 ? up - 1 : 2;
    counts[n++] = up;
    counts[n++] = up + 1;
    counts[n++] = 3 * up + 2;
    if (large) {
        counts[n++] = 2000 + 7 * up;
    }
    return n;
}

/* Counts at large p: 1, p+1 and a non-divisible 3p+2. */
static int large_p_counts(int p, size_t *counts)
{
    counts[0] = 1;
    counts[1] = (size_t) p + 1;
    counts[2] = 3 * (size_t) p + 2;
    return 3;
}

/* Ring's schedules, and bcast's scatter_ring, are linear in p. The hierarchical algorithms need a grid of nodes:
 * test_hier proves them. */
static bool skip_at(hdring_alg_t alg, int p)
{
    const hdring_algorithm_t *row = hdring_algorithm(alg);
    return (HDRING_ROLE_BANDWIDTH == row->role && p > RING_MAX_P) || HDRING_ALG_NONE != row->inner;
}

/* Runs a pipelined algorithm again in segments: of one element (short vectors; 64 otherwise), a few, half of
 * `count` and longer than it. With all_variants every size, otherwise the last two. */
static void check_segments(run_t run, size_t count, bool all_variants)
{
    if (NULL == hdring_algorithm(run.alg)->segment) {
        return;
    }
    const size_t segments[] = {count < 256 ? 1 : 64, 3, count / 2 + 1, count + 5};
    for (size_t s = all_variants ? 0 : 2; s < sizeof(segments) / sizeof(segments[0]); ++s) {
        run.segment = segments[s];
        check_run(&run);
    }
}

static void allreduce_at(int p, bool large, bool all_variants)
{
    size_t counts[8];
    hdring_alg_t algs[HDRING_NALGS];
    const int nalgs = hdring_algorithms_of(HDRING_COLL_ALLREDUCE, algs);
    const int ncounts = all_variants ? counts_for(p, large, counts) : large_p_counts(p, counts);
    for (int a = 0; a < nalgs; ++a) {
        if (skip_at(algs[a], p)) {
            continue;
        }
        for (int c = 0; c < ncounts; ++c) {
            for (int in_place = 0; in_place <= 1; ++in_place) {
                if (!all_variants && in_place != c % 2) {
                    continue;
                }
                run_t run = {.alg = algs[a], .p = p, .count = counts[c], .blocks = NULL, .in_place = in_place, .ordered = false, .kind = &kind_u64_sum, .cost = no_cost};
                check_run(&run);
                check_segments(run, counts[c] / (size_t) p, all_variants); /* a block's elements */
                if (hdring_algorithm(run.alg)->keeps_order && (all_variants || 1 == c)) {
                    run.kind = &kind_mat_mul;
                    check_run(&run);
                }
            }
        }
    }
}

START_TEST(allreduce_p1_to_64)
{
    for (int p = 1; p <= 64; ++p) {
        allreduce_at(p, p <= 24 || 0 == p % 8 || 63 == p, true);
    }
}
END_TEST

START_TEST(allreduce_large_p)
{
    for (int i = 0; i < NSPREAD; ++i) {
        allreduce_at(spread[i], false, false);
    }
}
END_TEST

static void reduce_scatter_at(int p, bool all_variants)
{
    size_t *blocks = malloc((size_t) p * sizeof(*blocks));
    const size_t scales[] = {1, 3, 40};
    hdring_alg_t algs[HDRING_NALGS];
    const int nalgs = hdring_algorithms_of(HDRING_COLL_REDUCE_SCATTER, algs);
    for (int a = 0; a < nalgs; ++a) {
        if (skip_at(algs[a], p)) {
            continue;
        }
        for (int shape = 0; shape < NSHAPES; ++shape) {
            for (size_t s = 0; s < sizeof(scales) / sizeof(scales[0]); ++s) {
                if (!all_variants && (0 != s || shape == SHAPE_RANDOM)) {
                    continue;
                }
                make_blocks(blocks, p, scales[s], (shape_t) shape);
                for (int in_place = 0; in_place <= 1; ++in_place) {
                    if (!all_variants && in_place != shape % 2) {
                        continue;
                    }
                    run_t run = {.alg = algs[a], .p = p, .count = 0, .blocks = blocks, .in_place = in_place, .ordered = false, .kind = &kind_u64_sum, .cost = no_cost};
                    check_run(&run);
                    check_segments(run, blocks[p / 2], all_variants);
                    if (hdring_algorithm(run.alg)->keeps_order) {
                        run.ordered = true;
                        run.kind = &kind_mat_mul;
                        check_run(&run);
                    }
                }
            }
        }
    }
    free(blocks);
}

START_TEST(reduce_scatter_p1_to_64)
{
    for (int p = 1; p <= 64; ++p) {
        reduce_scatter_at(p, p <= 20 || 0 == p % 16 || 33 == p);
    }
}
END_TEST

START_TEST(reduce_scatter_large_p)
{
    for (int i = 0; i < NSPREAD; ++i) {
        reduce_scatter_at(spread[i], false);
    }
}
END_TEST

static void allgather_at(int p, bool all_variants)
{
    size_t *blocks = malloc((size_t) p * sizeof(*blocks));
    const size_t scales[] = {1, 2, 33};
    hdring_alg_t algs[HDRING_NALGS];
    const int nalgs = hdring_algorithms_of(HDRING_COLL_ALLGATHER, algs);
    for (int a = 0; a < nalgs; ++a) {
        if (skip_at(algs[a], p)) {
            continue;
        }
        for (int shape = 0; shape < NSHAPES; ++shape) {
            for (size_t s = 0; s < sizeof(scales) / sizeof(scales[0]); ++s) {
                if (!all_variants && (0 != s || shape == SHAPE_RANDOM)) {
                    continue;
                }
                make_blocks(blocks, p, scales[s], (shape_t) shape);
                run_t run = {.alg = algs[a], .p = p, .count = 0, .blocks = blocks, .in_place = false, .ordered = false, .kind = &kind_u64_sum, .cost = no_cost};
                check_run(&run);
            }
        }
    }
    free(blocks);
}

START_TEST(allgather_p1_to_64)
{
    for (int p = 1; p <= 64; ++p) {
        allgather_at(p, true);
    }
}
END_TEST

START_TEST(allgather_large_p)
{
    for (int i = 0; i < NSPREAD; ++i) {
        allgather_at(spread[i], false);
    }
}
END_TEST

static void bcast_at(int p, bool all_variants)
{
    size_t counts[8];
    hdring_alg_t algs[HDRING_NALGS];
    const int nalgs = hdring_algorithms_of(HDRING_COLL_BCAST, algs);
    const int ncounts = all_variants ? counts_for(p, true, counts) : large_p_counts(p, counts);
    for (int a = 0; a < nalgs; ++a) {
        if (skip_at(algs[a], p)) {
            continue;
        }
        for (int c = 0; c < ncounts; ++c) {
            run_t run = {.alg = algs[a], .p = p, .count = counts[c], .blocks = NULL, .in_place = false, .ordered = false, .kind = &kind_u64_sum, .cost = no_cost};
            check_run(&run);
            check_segments(run, counts[c], all_variants);
        }
    }
}

START_TEST(bcast_p1_to_64)
{
    for (int p = 1; p <= 64; ++p) {
        bcast_at(p, true);
    }
}
END_TEST

START_TEST(bcast_large_p)
{
    for (int i = 0; i < NSPREAD; ++i) {
        bcast_at(spread[i], false);
    }
}
END_TEST

/* Sums of doubles of wildly different magnitude: all ranks hold the same bits (checked in the harness), and a
 * second run gives the same bits again. */
START_TEST(floating_point_results_are_reproducible)
{
    const int ps[] = {2, 3, 5, 6, 7, 8, 12, 13, 31, 64, 100};
    hdring_alg_t allreduce_algs[HDRING_NALGS], vector_algs[HDRING_NALGS];
    const int nallreduce = hdring_algorithms_of(HDRING_COLL_ALLREDUCE, allreduce_algs);
    const int nvector = hdring_algorithms_of(HDRING_COLL_REDUCE_SCATTER, vector_algs);
    for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); ++i) {
        for (int a = 0; a < nallreduce; ++a) {
            if (skip_at(allreduce_algs[a], ps[i])) {
                continue;
            }
            run_t run = {.alg = allreduce_algs[a], .p = ps[i], .count = 1001, .blocks = NULL, .in_place = false, .ordered = false, .kind = &kind_double_sum, .cost = no_cost};
            run_result_t first, again;
            run_collective(&run, &first, false);
            run_collective(&run, &again, false);
            ck_assert_msg(first.ok && again.ok, "%s p=%d: %s %s", hdring_alg_name(run.alg), run.p, first.why, again.why);
            ck_assert_msg(first.out_hash == again.out_hash, "%s p=%d: two runs gave different bits",
                          hdring_alg_name(run.alg), run.p);
        }
        size_t *blocks = malloc((size_t) ps[i] * sizeof(*blocks));
        make_blocks(blocks, ps[i], 17, SHAPE_IRREGULAR);
        for (int a = 0; a < nvector; ++a) {
            if (skip_at(vector_algs[a], ps[i])) {
                continue;
            }
            run_t run = {.alg = vector_algs[a], .p = ps[i], .count = 0, .blocks = blocks, .in_place = false, .ordered = false, .kind = &kind_double_sum, .cost = no_cost};
            run_result_t first, again;
            run_collective(&run, &first, false);
            run_collective(&run, &again, false);
            ck_assert_msg(first.ok && again.ok && first.out_hash == again.out_hash, "reduce_scatter %s p=%d",
                          hdring_alg_name(run.alg), run.p);
        }
        free(blocks);
    }
}
END_TEST

/* A pipelined algorithm in segments reduces every element with the same operands in the same order as whole:
 * doubles of wild magnitudes come out with the same bits, for segments of 1, 7 and 100 elements. The pipelined
 * hierarchy cuts each segment into its own slices, so its bits depend on the segment: test_hier proves it. */
START_TEST(segments_give_the_bits_of_whole_blocks)
{
    const int ps[] = {2, 3, 5, 8, 13};
    const size_t segments[] = {1, 7, 100};
    size_t blocks[13];
    for (int a = 0; a < HDRING_NALGS; ++a) {
        const hdring_algorithm_t *row = hdring_algorithm((hdring_alg_t) a);
        if (NULL == row->segment || HDRING_COLL_BCAST == row->coll || HDRING_ALG_NONE != row->inner) {
            continue;
        }
        for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); ++i) {
            make_blocks(blocks, ps[i], 300, SHAPE_IRREGULAR);
            run_t run = {.alg = row->id, .p = ps[i], .count = 2999, .blocks = blocks, .kind = &kind_double_sum, .cost = no_cost};
            run_result_t whole, cut;
            run_collective(&run, &whole, false);
            ck_assert_msg(whole.ok, "%s p=%d: %s", row->name, ps[i], whole.why);
            for (size_t s = 0; s < sizeof(segments) / sizeof(segments[0]); ++s) {
                run.segment = segments[s];
                run_collective(&run, &cut, false);
                ck_assert_msg(cut.ok && cut.out_hash == whole.out_hash, "%s %s p=%d in segments of %zu: %s",
                              hdring_coll_name(row->coll), row->name, ps[i], segments[s],
                              cut.ok ? "other bits than whole" : cut.why);
            }
        }
    }
}
END_TEST

/* The checks can fail: ring reorders operands, so a non-commutative product must come out wrong; and asking
 * reduce_scatter to keep the order with ring is refused rather than silently wrong. */
START_TEST(checks_catch_wrong_operand_order)
{
    run_t run = {.alg = HDRING_ALG_ALLREDUCE_RING, .p = 5, .count = 7, .blocks = NULL, .in_place = false, .ordered = false, .kind = &kind_mat_mul, .cost = no_cost};
    run_result_t res;
    run_collective(&run, &res, false);
    ck_assert_msg(!res.ok, "ring allreduce of a non-commutative product passed the order check");

    size_t blocks[4] = {2, 2, 2, 2};
    run_t rs = {.alg = HDRING_ALG_REDUCE_SCATTER_RING, .p = 4, .count = 0, .blocks = blocks, .in_place = false, .ordered = true, .kind = &kind_mat_mul, .cost = no_cost};
    run_collective(&rs, &res, false);
    ck_assert_msg(!res.ok, "ring reduce_scatter accepted an ordered operation");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("algorithms");
    UNIT_ADD(s, allreduce_p1_to_64);
    UNIT_ADD(s, allreduce_large_p);
    UNIT_ADD(s, reduce_scatter_p1_to_64);
    UNIT_ADD(s, reduce_scatter_large_p);
    UNIT_ADD(s, allgather_p1_to_64);
    UNIT_ADD(s, allgather_large_p);
    UNIT_ADD(s, bcast_p1_to_64);
    UNIT_ADD(s, bcast_large_p);
    UNIT_ADD(s, floating_point_results_are_reproducible);
    UNIT_ADD(s, segments_give_the_bits_of_whole_blocks);
    UNIT_ADD(s, checks_catch_wrong_operand_order);
    return unit_run(s);
}
