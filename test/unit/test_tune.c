/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring-tune without MPI (perf/hdring_tune_file.h): synthetic timings give the parameters that produced them;
 * two fits that differ beyond the tolerance are caught, with the parameter that differs; the block holds only
 * hdring's model parameters between its markers, and its comment lines whole however long or many; merging into
 * an existing MCA parameter file keeps every other line, comments out lines setting the same parameters, and
 * replaces an earlier block instead of adding one; thresholds derived from timed collectives give the sizes the
 * model got wrong to the algorithm that wins them; the check's sizes surround the plan's crossovers, and its
 * second communicator size is of the other kind.
 */
#include "unit_check.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_tune_file.h"

#define MIB (4.0 * 1024 * 1024)

/* The timings a link of latency a (s) and rates one-way and exchange (bytes/s per stream) would give. */
static hdring_tune_link_t link_of(double a, double one_way, double exchange, int flows)
{
    const hdring_tune_link_t l = {true, a, 2 * a + MIB / one_way, a + MIB / exchange, flows};
    return l;
}

static bool close_to(double x, double y) { return fabs(x - y) <= 1e-9 * fabs(y); }

START_TEST(fit_recovers_parameters)
{
    /* network: 30 us, 125 MB/s per stream one way, 70 MB/s exchanging, 2 pairs per node link */
    const hdring_tune_timings_t t = {MIB, link_of(0.5e-6, 8e9, 6e9, 1), link_of(30e-6, 62.5e6, 35e6, 2),
                                     MIB / 16e9};
    hdring_tune_params_t p;
    ck_assert(hdring_tune_fit(&t, &p));
    ck_assert(p.set[HDRING_TUNE_LATENCY_US] && close_to(p.value[HDRING_TUNE_LATENCY_US], 0.5));
    ck_assert(p.set[HDRING_TUNE_BANDWIDTH_MBS] && close_to(p.value[HDRING_TUNE_BANDWIDTH_MBS], 6000));
    ck_assert(close_to(p.value[HDRING_TUNE_NETWORK_LATENCY_US], 30));
    ck_assert(close_to(p.value[HDRING_TUNE_NETWORK_BANDWIDTH_MBS], 125)); /* 2 streams of 62.5 share the link */
    ck_assert(close_to(p.value[HDRING_TUNE_NETWORK_EXCHANGE_MBS], 70));
    ck_assert(close_to(p.value[HDRING_TUNE_REDUCE_MBS], 16000));

    /* one node: no network parameter */
    hdring_tune_timings_t single = t;
    single.network.measured = false;
    ck_assert(hdring_tune_fit(&single, &p));
    ck_assert(!p.set[HDRING_TUNE_NETWORK_LATENCY_US] && !p.set[HDRING_TUNE_NETWORK_BANDWIDTH_MBS] &&
              !p.set[HDRING_TUNE_NETWORK_EXCHANGE_MBS]);
    ck_assert(p.set[HDRING_TUNE_REDUCE_MBS]);
}
END_TEST

START_TEST(fit_refuses_impossible_timings)
{
    hdring_tune_timings_t t = {MIB, link_of(1e-6, 8e9, 6e9, 1), link_of(30e-6, 1e8, 1e8, 1), MIB / 1e10};
    hdring_tune_params_t p = {{false}, {0}};
    t.network.one_way = 2 * t.network.latency; /* no time left for the bytes */
    ck_assert(!hdring_tune_fit(&t, &p));
    ck_assert(!p.set[HDRING_TUNE_REDUCE_MBS]); /* nothing set */
    t = (hdring_tune_timings_t){MIB, link_of(1e-6, 8e9, 6e9, 1), {false, 0, 0, 0, 0}, 0};
    ck_assert(!hdring_tune_fit(&t, &p));
}
END_TEST

START_TEST(disagreement_names_the_parameter)
{
    const hdring_tune_timings_t t = {MIB, link_of(1e-6, 8e9, 6e9, 1), link_of(20e-6, 1e8, 9e7, 1), MIB / 1e10};
    hdring_tune_timings_t noisy = t;
    hdring_tune_params_t a, b;
    hdring_tune_param_t which;
    ck_assert(hdring_tune_fit(&t, &a));
    ck_assert(hdring_tune_fit(&t, &b));
    ck_assert(0 == hdring_tune_disagreement(&a, &b, &which));
    noisy.network.latency = 25e-6; /* 20% more latency: its parameter differs the most */
    noisy.network.one_way = t.network.one_way + 2 * 5e-6;
    noisy.network.exchange = t.network.exchange + 5e-6;
    ck_assert(hdring_tune_fit(&noisy, &b));
    const double d = hdring_tune_disagreement(&a, &b, &which);
    ck_assert_int_eq(which, HDRING_TUNE_NETWORK_LATENCY_US);
    ck_assert(close_to(d, 0.2));
    /* parameters set in one fit only do not count */
    b.set[HDRING_TUNE_NETWORK_LATENCY_US] = false;
    ck_assert(hdring_tune_disagreement(&a, &b, &which) < 1e-6);
}
END_TEST

START_TEST(block_holds_only_model_parameters)
{
    hdring_tune_params_t p = {{false}, {0}};
    p.set[HDRING_TUNE_NETWORK_LATENCY_US] = p.set[HDRING_TUNE_REDUCE_MBS] = true;
    p.value[HDRING_TUNE_NETWORK_LATENCY_US] = 29.3071;
    p.value[HDRING_TUNE_REDUCE_MBS] = 16965.4;
    const char *comments[] = {"measured on 8 ranks", "control: 1.1%"};
    const char *settings[] = {"coll_hdring_allgather_small_bytes_pof2 = 1024"};
    ck_assert_ptr_null(hdring_tune_block(&p, comments, 2, (const char *const[]){"btl = tcp"}, 1));
    char *block = hdring_tune_block(&p, comments, 2, settings, 1);
    ck_assert_ptr_nonnull(block);
    ck_assert_str_eq(block, "# >>> hdring-tune: coll/hdring's cost model, measured (hdring-tune rewrites this block)\n"
                            "# measured on 8 ranks\n"
                            "# control: 1.1%\n"
                            "coll_hdring_model_network_latency_us = 29.307\n"
                            "coll_hdring_model_reduce_mbs = 16965\n"
                            "coll_hdring_allgather_small_bytes_pof2 = 1024\n"
                            "# <<< hdring-tune\n");
    free(block);
}
END_TEST

/* hdring-tune's "checked: ..." comment was cut at 320 characters, and lines past the 64th were dropped */
START_TEST(lines_are_kept_whole_however_long_or_many)
{
    hdring_tune_params_t p = {{false}, {0}};
    hdring_tune_lines_t comments = {0};
    char long_line[1001];
    memset(long_line, 'x', 1000);
    long_line[1000] = '\0';
    for (int i = 0; i < 100; ++i) {
        hdring_tune_add_line(&comments, "line %d: %s (its end)", i, long_line);
    }
    ck_assert(!comments.failed);
    ck_assert_int_eq(comments.n, 100);
    char *block = hdring_tune_block(&p, (const char *const *) comments.text, comments.n, NULL, 0);
    ck_assert_ptr_nonnull(block);
    int lines = 0;
    for (const char *at = block; NULL != (at = strstr(at, " (its end)\n")); ++at) {
        ++lines;
    }
    ck_assert_int_eq(lines, 100);
    ck_assert_ptr_nonnull(strstr(block, "# line 99: xxx"));
    ck_assert_uint_eq(strlen(comments.text[99]), strlen("line 99: ") + 1000 + strlen(" (its end)"));
    free(block);
    hdring_tune_lines_free(&comments);
    ck_assert_int_eq(comments.n, 0);
}
END_TEST

START_TEST(merge_keeps_other_lines_and_replaces_its_block)
{
    hdring_tune_params_t p = {{false}, {0}};
    p.set[HDRING_TUNE_NETWORK_LATENCY_US] = true;
    p.value[HDRING_TUNE_NETWORK_LATENCY_US] = 30;
    char *block = hdring_tune_block(&p, NULL, 0, NULL, 0);
    const char *existing = "# my settings\n"
                           "btl = self,vader,tcp\n"
                           "  coll_hdring_model_network_latency_us=12\n"
                           "coll_hdring_model_network_latency_us_x = 1\n"
                           "coll_hdring_priority = 50"; /* no final newline */
    char *once = hdring_tune_merge(existing, block);
    ck_assert_ptr_nonnull(once);
    const char *kept = "# my settings\n"
                       "btl = self,vader,tcp\n"
                       "# replaced by hdring-tune:   coll_hdring_model_network_latency_us=12\n"
                       "coll_hdring_model_network_latency_us_x = 1\n"
                       "coll_hdring_priority = 50\n";
    char expected[1024];
    snprintf(expected, sizeof(expected), "%s%s", kept, block);
    ck_assert_str_eq(once, expected);

    /* again, with other values: the block is replaced, nothing else changes */
    p.value[HDRING_TUNE_NETWORK_LATENCY_US] = 31;
    char *block2 = hdring_tune_block(&p, NULL, 0, NULL, 0);
    char *twice = hdring_tune_merge(once, block2);
    snprintf(expected, sizeof(expected), "%s%s", kept, block2);
    ck_assert_str_eq(twice, expected);

    /* no file yet: the block alone */
    char *fresh = hdring_tune_merge(NULL, block);
    ck_assert_str_eq(fresh, block);
    free(block);
    free(block2);
    free(once);
    free(twice);
    free(fresh);
}
END_TEST

/* Contenders 0 (latency), 1 (other), 2 (bandwidth) at sizes 1, 10, 100, ...: times from a table, the
 * automatic choice's from `chosen` (a contender index per point). */
static void points_of(const double (*times)[3], const int *chosen, int n, hdring_tune_point_t *pts)
{
    for (int i = 0; i < n; ++i) {
        pts[i].bytes = pow(10, i);
        pts[i].n = 3;
        for (int a = 0; a < 3; ++a) {
            pts[i].time[a] = times[i][a];
        }
        pts[i].chosen = times[i][chosen[i]];
        pts[i].noise = 0;
        pts[i].noisy = false;
    }
}

START_TEST(thresholds_mend_the_model)
{
    const double times[6][3] = {{1, 1.3, 5}, {2, 2.5, 6}, {4, 4, 7}, {9, 7, 8}, {20, 15, 12}, {50, 40, 30}};
    hdring_tune_point_t pts[6];

    /* the model chose right everywhere: no threshold */
    points_of(times, (const int[]){0, 0, 0, 1, 2, 2}, 6, pts);
    hdring_tune_thresholds_t th = hdring_tune_thresholds(pts, 6, 0, 2, 0.10);
    ck_assert(0 == th.small && 0 == th.large && 0 == th.unresolved);

    /* it took the other algorithm too early (points 0, 1: 30% and 25% slower): small gives them to the latency
     * algorithm, and no more (point 2, a tie, stays the model's) */
    points_of(times, (const int[]){1, 1, 1, 1, 2, 2}, 6, pts);
    th = hdring_tune_thresholds(pts, 6, 0, 2, 0.10);
    ck_assert(10 == th.small && 0 == th.large && 0 == th.unresolved);

    /* a loss within the point's own noise is no loss */
    pts[0].noise = 0.25;
    pts[1].noise = 0.2;
    th = hdring_tune_thresholds(pts, 6, 0, 2, 0.10);
    ck_assert(0 == th.small && 0 == th.unresolved);

    /* and ring too late (point 4: 25% slower): large from point 4 */
    points_of(times, (const int[]){1, 1, 1, 1, 1, 1}, 6, pts);
    th = hdring_tune_thresholds(pts, 6, 0, 2, 0.10);
    ck_assert(10 == th.small && 1e4 == th.large && 0 == th.unresolved);

    /* the other algorithm lost at point 3 (7 against 9, chosen 0): no threshold gives it back */
    points_of(times, (const int[]){0, 0, 0, 0, 2, 2}, 6, pts);
    th = hdring_tune_thresholds(pts, 6, 0, 2, 0.10);
    ck_assert(0 == th.small && 0 == th.large && 1 == th.unresolved);

    /* within the tolerance is right: 8% slower mends nothing */
    points_of(times, (const int[]){0, 0, 0, 1, 2, 2}, 6, pts);
    pts[0].chosen = 1.08;
    th = hdring_tune_thresholds(pts, 6, 0, 2, 0.10);
    ck_assert(0 == th.small && 0 == th.unresolved);

    /* a noisy point justifies nothing: it ends small's run (at point 0) and is not counted */
    points_of(times, (const int[]){1, 1, 1, 1, 2, 2}, 6, pts);
    pts[1].noisy = true;
    th = hdring_tune_thresholds(pts, 6, 0, 2, 0.10);
    ck_assert(1 == th.small && 0 == th.large && 0 == th.unresolved);
    pts[0].noisy = true;
    th = hdring_tune_thresholds(pts, 6, 0, 2, 0.10);
    ck_assert(0 == th.small && 0 == th.unresolved);

    /* no bandwidth algorithm (-1): only small */
    points_of(times, (const int[]){1, 1, 1, 1, 1, 1}, 6, pts);
    th = hdring_tune_thresholds(pts, 6, 0, -1, 0.10);
    ck_assert(10 == th.small && 0 == th.large && 2 == th.unresolved);
}
END_TEST

START_TEST(refine_narrows_the_gaps_beyond_thresholds)
{
    const double times[6][3] = {{1, 1.3, 5}, {2, 2.5, 6}, {4, 4, 7}, {9, 7, 8}, {20, 15, 12}, {50, 40, 30}};
    hdring_tune_point_t pts[8];

    /* no threshold: nothing to narrow */
    points_of(times, (const int[]){0, 0, 0, 1, 2, 2}, 6, pts);
    hdring_tune_thresholds_t th = hdring_tune_thresholds(pts, 6, 0, 2, 0.10);
    ck_assert(0 == hdring_tune_refine(pts, 6, th));

    /* small at 10 B, the next point at 100: time 31.6 B; large at 1e4, the point before at 1e3: after small's */
    points_of(times, (const int[]){1, 1, 1, 1, 1, 1}, 6, pts);
    th = hdring_tune_thresholds(pts, 6, 0, 2, 0.10);
    ck_assert(10 == th.small && 1e4 == th.large);
    ck_assert(fabs(hdring_tune_refine(pts, 6, th) - sqrt(10.0 * 100)) < 1e-9);

    /* small's gap closed (a point at 14 B, within 1.5x): large's gap next */
    memmove(&pts[3], &pts[2], 4 * sizeof(pts[0]));
    pts[2] = pts[1];
    pts[2].bytes = 14;
    ck_assert(fabs(hdring_tune_refine(pts, 7, th) - sqrt(1e3 * 1e4)) < 1e-9);

    /* small at the last point: nothing beyond it to narrow */
    points_of(times, (const int[]){1, 1, 1, 1, 1, 1}, 6, pts);
    th = (hdring_tune_thresholds_t){1e5, 0, 0};
    ck_assert(0 == hdring_tune_refine(pts, 6, th));
}
END_TEST

/* The check's sizes: the 16x grid, half and twice each crossover of the plan inside it, nothing within 1.5x of a
 * smaller one. */
static hdring_plan_t plan_with(int ncrossovers, const size_t *upto)
{
    hdring_plan_t plan = {ncrossovers + 1, {{0}}};
    for (int s = 0; s < ncrossovers; ++s) {
        plan.seg[s].upto = upto[s];
    }
    plan.seg[ncrossovers].upto = SIZE_MAX;
    return plan;
}

START_TEST(sizes_surround_the_crossovers)
{
    double sizes[HDRING_TUNE_MAX_SIZES];
    const size_t one[] = {9999}, outside[] = {31, 3999999};
    const double grid[] = {64, 1024, 16384, 262144, 4194304};
    const double around_one[] = {64, 1024, 5000, 16384, 262144, 4194304}; /* 20000 is within 1.5x of 16384 */
    const double around_outside[] = {64, 1024, 16384, 262144, 2000000, 4194304};

    hdring_plan_t plan = plan_with(0, NULL);
    ck_assert_int_eq(hdring_tune_sizes(&plan, sizes), 5);
    for (int i = 0; i < 5; ++i) {
        ck_assert_double_eq(sizes[i], grid[i]);
    }
    plan = plan_with(1, one);
    ck_assert_int_eq(hdring_tune_sizes(&plan, sizes), 6);
    for (int i = 0; i < 6; ++i) {
        ck_assert_double_eq(sizes[i], around_one[i]);
    }
    plan = plan_with(2, outside); /* one below the grid (ignored), one whose twice is past it (clipped) */
    ck_assert_int_eq(hdring_tune_sizes(&plan, sizes), 6);
    for (int i = 0; i < 6; ++i) {
        ck_assert_double_eq(sizes[i], around_outside[i]);
    }
}
END_TEST

/* The second size checked is of the other kind, and 4 ranks or more. */
START_TEST(companion_is_of_the_other_kind)
{
    const int p[] = {2, 3, 4, 5, 6, 7, 8, 12, 16, 17}, q[] = {0, 0, 0, 4, 4, 4, 7, 8, 15, 16};
    for (int i = 0; i < (int) (sizeof(p) / sizeof(p[0])); ++i) {
        ck_assert_int_eq(hdring_tune_companion_size(p[i]), q[i]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tune");
    UNIT_ADD(s, fit_recovers_parameters);
    UNIT_ADD(s, fit_refuses_impossible_timings);
    UNIT_ADD(s, disagreement_names_the_parameter);
    UNIT_ADD(s, block_holds_only_model_parameters);
    UNIT_ADD(s, lines_are_kept_whole_however_long_or_many);
    UNIT_ADD(s, merge_keeps_other_lines_and_replaces_its_block);
    UNIT_ADD(s, thresholds_mend_the_model);
    UNIT_ADD(s, refine_narrows_the_gaps_beyond_thresholds);
    UNIT_ADD(s, sizes_surround_the_crossovers);
    UNIT_ADD(s, companion_is_of_the_other_kind);
    return unit_run(s);
}
