/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * Measured selection (hdring_select.h) and decisions files (hdring_decisions.h). Candidates: the model's choice
 * first, then the others the model predicts within reach, fastest first, then the fallback. A trial: every
 * candidate runs in every round, in rotated orders, within HDRING_SELECT_CALLS calls; every time is the slowest
 * rank's; the model's choice stays unless a challenger is clearly faster; clearly slower candidates leave after
 * the first exchange. Decisions: a file's lines read back as written, wildcards match anything, the first match
 * decides, bad lines are counted and named.
 */
#include "unit_check.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hdring_cost.h"
#include "hdring_decisions.h"
#include "hdring_defaults.h"
#include "hdring_plan.h"
#include "hdring_select.h"

static hdring_model_t model_of(int p)
{
    const hdring_cost_params_t local = hdring_cost_params_of(HDRING_DEFAULT_LATENCY_US, HDRING_DEFAULT_BANDWIDTH_MBS,
                                                             HDRING_DEFAULT_REDUCE_MBS);
    return hdring_model_single(p, false, &local);
}

START_TEST(candidates_are_the_model_choice_then_the_nearest_then_the_fallback)
{
    const hdring_coll_t colls[] = {HDRING_COLL_ALLREDUCE, HDRING_COLL_REDUCE_SCATTER, HDRING_COLL_ALLGATHER,
                                   HDRING_COLL_BCAST};
    int lists = 0, longer = 0;
    for (int p = 2; p <= 33; p += 5) {
        const hdring_model_t m = model_of(p);
        for (size_t c = 0; c < sizeof(colls) / sizeof(*colls); ++c) {
            hdring_alg_t algs[HDRING_NALGS];
            const int nalgs = hdring_algorithms_of(colls[c], algs);
            for (double bytes = 8; bytes < 1e8; bytes *= 7) {
                const hdring_alg_t chosen = algs[0];
                for (int fb = 0; fb < 2; ++fb) {
                    int picks[HDRING_SELECT_MAX + 1];
                    const int n = hdring_select_candidates(colls[c], &m, bytes, chosen, fb, picks);
                    ++lists;
                    ck_assert_msg(n >= 1 + fb && n <= HDRING_SELECT_MAX, "%d candidates", n);
                    ck_assert_int_eq(picks[0], HDRING_PICK_MODEL);
                    ck_assert_msg(!fb || HDRING_PICK_FALLBACK == picks[n - 1], "the fallback is not last");
                    const int nal = n - fb;
                    ck_assert_msg(nal <= HDRING_SELECT_ALGS, "%d algorithms", nal);
                    longer += nal > 1;
                    double fastest = -1;
                    for (int a = 0; a < nalgs; ++a) {
                        if (hdring_cost_applies(algs[a], &m)) {
                            const double t = hdring_cost_time(algs[a], &m, bytes, NULL);
                            fastest = fastest < 0 || t < fastest ? t : fastest;
                        }
                    }
                    double previous = 0;
                    for (int k = 1; k < nal; ++k) {
                        const hdring_alg_t a = (hdring_alg_t) picks[k];
                        ck_assert_msg(a != chosen, "the model's choice is listed twice");
                        bool of_coll = false;
                        for (int j = 0; j < nalgs; ++j) {
                            of_coll |= algs[j] == a;
                        }
                        ck_assert_msg(of_coll && hdring_cost_applies(a, &m), "%s does not serve it",
                                      hdring_alg_name(a));
                        const double t = hdring_cost_time(a, &m, bytes, NULL);
                        ck_assert_msg(t <= HDRING_SELECT_WITHIN * fastest, "%s predicted %.3g, fastest %.3g",
                                      hdring_alg_name(a), t, fastest);
                        ck_assert_msg(t >= previous, "candidates not fastest first");
                        previous = t;
                        for (int j = 1; j < k; ++j) {
                            ck_assert_msg(picks[j] != picks[k], "%s listed twice", hdring_alg_name(a));
                        }
                    }
                }
            }
        }
    }
    ck_assert_msg(longer > lists / 4, "only %d of %d lists have a challenger", longer, lists);
}
END_TEST

/* Runs a trial on p ranks whose times are us(rank, candidate, round) microseconds; returns the calls it took. */
typedef double (*times_fn)(int rank, int cand, int round);
static int run_trial(hdring_trial_t *t, int n, int p, times_fn us, hdring_verdict_t *v, int *order_changes)
{
    int picks[HDRING_SELECT_MAX];
    for (int c = 0; c < n; ++c) {
        picks[c] = 0 == c ? HDRING_PICK_MODEL : c == n - 1 ? HDRING_PICK_FALLBACK : c;
    }
    hdring_trial_t ranks[8];
    for (int q = 0; q < p; ++q) {
        hdring_trial_init(&ranks[q], picks, n);
    }
    int calls = 0, last_first = -1;
    *order_changes = 0;
    while (!hdring_trial_done(&ranks[0])) {
        ck_assert_msg(calls < HDRING_SELECT_CALLS, "no verdict after %d calls", calls);
        const int c = hdring_trial_next(&ranks[0]);
        if (0 == ranks[0].at && ranks[0].round > 0) {
            *order_changes += c != last_first && last_first >= 0;
            last_first = c;
        }
        hdring_trial_step_t step = HDRING_TRIAL_RUN;
        for (int q = 0; q < p; ++q) {
            ck_assert_int_eq(hdring_trial_next(&ranks[q]), c); /* every rank runs the same candidate */
            step = hdring_trial_record(&ranks[q], us(q, c, ranks[q].round) * 1e-6);
        }
        ++calls;
        if (HDRING_TRIAL_EXCHANGE == step) {
            int64_t all[8 * HDRING_SELECT_VALUES];
            for (int q = 0; q < p; ++q) {
                hdring_trial_values(&ranks[q], &all[q * HDRING_SELECT_VALUES]);
            }
            for (int q = 0; q < p; ++q) {
                hdring_trial_slowest(&ranks[q], all, p);
            }
        }
    }
    hdring_trial_verdict(&ranks[0], v);
    for (int q = 1; q < p; ++q) { /* the same verdict everywhere */
        hdring_verdict_t w;
        hdring_trial_verdict(&ranks[q], &w);
        ck_assert_int_eq(w.winner, v->winner);
        ck_assert_int_eq(w.why, v->why);
    }
    *t = ranks[0];
    return calls;
}

static double equal(int rank, int cand, int round) { return 10.0 + 0.01 * ((rank + cand + round) % 3); }
static double third_faster(int rank, int cand, int round) { return (2 == cand ? 7.0 : 10.0) + 0.1 * (rank + round); }
static double model_slow(int rank, int cand, int round) { return (0 == cand ? 30.0 : 10.0) + 0.1 * (rank + round); }
/* candidate 1 is the fastest on every rank but rank 2, where it is the slowest */
static double one_rank_slow(int rank, int cand, int round)
{
    (void) round;
    return 1 == cand ? (2 == rank ? 14.0 : 6.0) : 10.0;
}
/* candidate 1 is faster in two rounds of five only, by a lot (one of them before the first exchange) */
static double lucky(int rank, int cand, int round)
{
    (void) rank;
    return 1 == cand ? (1 == round || 4 == round ? 5.0 : 10.2) : 0 == cand ? 10.0 : 11.0;
}

START_TEST(trials_run_every_candidate_in_rotated_rounds_within_their_budget)
{
    hdring_trial_t t;
    hdring_verdict_t v;
    int changes;
    for (int n = 1; n <= HDRING_SELECT_MAX; ++n) {
        const int calls = run_trial(&t, n, 3, equal, &v, &changes);
        ck_assert_msg(calls + HDRING_SELECT_AFTER <= HDRING_SELECT_CALLS, "%d calls", calls);
        if (n > 1) {
            ck_assert_int_eq(hdring_trial_rounds(&t), HDRING_SELECT_ROUNDS);
            ck_assert_int_eq(calls, n * (1 + HDRING_SELECT_ROUNDS * HDRING_SELECT_SAMPLE));
            ck_assert_msg(changes >= HDRING_SELECT_ROUNDS - 1, "rounds start with the same candidate");
        }
        for (int c = 0; c < n && n > 1; ++c) {
            for (int r = 0; r < HDRING_SELECT_ROUNDS; ++r) {
                ck_assert_msg(t.t[c][r] > 0, "candidate %d has no time in round %d", c, r);
            }
        }
    }
}
END_TEST

START_TEST(equal_candidates_keep_the_model_choice)
{
    hdring_trial_t t;
    hdring_verdict_t v;
    int changes;
    run_trial(&t, 4, 4, equal, &v, &changes);
    ck_assert_int_eq(v.winner, 0);
    ck_assert_msg(HDRING_VERDICT_MODEL == v.why || HDRING_VERDICT_NOISE == v.why, "why %d", v.why);
    run_trial(&t, 3, 2, lucky, &v, &changes); /* faster in 2 rounds of 5: not clearly */
    ck_assert_int_eq(v.winner, 0);
    ck_assert_int_eq(v.challenger, 1);
    ck_assert_int_eq(v.wins, 2);
    ck_assert_int_eq(v.why, HDRING_VERDICT_MODEL); /* its median is slower */
}
END_TEST

START_TEST(a_clearly_faster_challenger_wins)
{
    hdring_trial_t t;
    hdring_verdict_t v;
    int changes;
    run_trial(&t, 4, 3, third_faster, &v, &changes);
    ck_assert_int_eq(v.winner, 2);
    ck_assert_int_eq(v.why, HDRING_VERDICT_FASTER);
    ck_assert_int_eq(v.wins, HDRING_SELECT_ROUNDS);
    ck_assert(v.median[2] < v.median[0]);
}
END_TEST

START_TEST(a_clearly_slower_model_choice_leaves_after_the_first_rounds)
{
    hdring_trial_t t;
    hdring_verdict_t v;
    int changes;
    const int calls = run_trial(&t, 4, 2, model_slow, &v, &changes);
    ck_assert_msg(t.out[0], "the model's choice, 3x slower, stayed");
    ck_assert_int_eq(v.why, HDRING_VERDICT_PRUNED);
    ck_assert_msg(0 != v.winner, "the pruned choice won");
    ck_assert_msg(calls < 4 * (1 + HDRING_SELECT_ROUNDS * HDRING_SELECT_SAMPLE), "pruning saved no call");
}
END_TEST

START_TEST(times_are_the_slowest_rank_s)
{
    hdring_trial_t t;
    hdring_verdict_t v;
    int changes;
    run_trial(&t, 3, 3, one_rank_slow, &v, &changes); /* on 3 ranks: rank 2 slows candidate 1 */
    ck_assert_msg(1 != v.winner, "a candidate slow on one rank won");
    ck_assert(fabs(t.t[1][0] - 14e-6) < 1e-9);
    run_trial(&t, 3, 2, one_rank_slow, &v, &changes); /* without rank 2 it is the fastest */
    ck_assert_int_eq(v.winner, 1);
}
END_TEST

static const char *const names[] = {"allreduce", "reduce_scatter", "reduce_scatter_block", "allgather", "bcast"};
static const hdring_coll_t cores[] = {HDRING_COLL_ALLREDUCE, HDRING_COLL_REDUCE_SCATTER, HDRING_COLL_REDUCE_SCATTER,
                                      HDRING_COLL_ALLGATHER, HDRING_COLL_BCAST};
static const hdring_decisions_colls_t colls = {5, names, cores};

START_TEST(decisions_read_back_as_written)
{
    const hdring_alg_t ring = hdring_alg_by_name(HDRING_COLL_ALLREDUCE, "ring");
    const hdring_alg_t bin = hdring_alg_by_name(HDRING_COLL_BCAST, "binomial");
    ck_assert(ring >= 0 && bin >= 0);
    const hdring_decision_t e[] = {
        {4, 2, 0, 1024, 2047, (int) ring},
        {HDRING_DECISIONS_ANY, HDRING_DECISIONS_ANY, 4, 0, SIZE_MAX, (int) bin},
        {8, HDRING_DECISIONS_ANY, 3, 65536, SIZE_MAX, HDRING_PICK_FALLBACK},
    };
    char text[4096] = "", line[256], err[256];
    strcat(text, hdring_decisions_header);
    for (int i = 0; i < 3; ++i) {
        hdring_decisions_format(&e[i], &colls, 0 == i ? "ring=1.0us rhd=2.0us" : NULL, line, sizeof(line));
        strcat(text, line);
        strcat(text, "\n");
    }
    hdring_decisions_t d = {0};
    ck_assert_int_eq(hdring_decisions_parse(text, &colls, &d, err, sizeof(err)), 0);
    ck_assert_int_eq(d.n, 3);
    for (int i = 0; i < 3; ++i) {
        ck_assert_msg(0 == memcmp(&d.d[i], &e[i], sizeof(e[i])), "line %d read back otherwise: %s", i, text);
    }
    /* matching: sizes inclusive, wildcards, the first line that matches */
    ck_assert_ptr_eq(hdring_decisions_find(&d, 4, 2, 0, 1024), &d.d[0]);
    ck_assert_ptr_eq(hdring_decisions_find(&d, 4, 2, 0, 2047), &d.d[0]);
    ck_assert_ptr_null(hdring_decisions_find(&d, 4, 2, 0, 2048));
    ck_assert_ptr_null(hdring_decisions_find(&d, 4, 1, 0, 1024));
    ck_assert_ptr_eq(hdring_decisions_find(&d, 1000, 7, 4, 1), &d.d[1]);
    ck_assert_ptr_eq(hdring_decisions_find(&d, 8, 3, 3, (size_t) 1 << 40), &d.d[2]);
    ck_assert_ptr_null(hdring_decisions_find(&d, 8, 3, 3, 65535));
    ck_assert_int_eq(hdring_decisions_parse("* * bcast 0 * ring_pipelined_nonsense\n", &colls, &d, err, sizeof(err)),
                     1);
    ck_assert_int_eq(hdring_decisions_parse("* * allreduce 0 * binomial\n", &colls, &d, err, sizeof(err)), 1);
    ck_assert_int_eq(d.n, 3);
    hdring_decisions_t first = {0};
    ck_assert_int_eq(hdring_decisions_parse("* * bcast 0 * binomial\n4 * bcast 0 * fallback\n", &colls, &first, err,
                                            sizeof(err)),
                     0);
    ck_assert_int_eq(hdring_decisions_find(&first, 4, 4, 4, 8)->pick, (int) bin);
    hdring_decisions_free(&first);
    hdring_decisions_free(&d);
}
END_TEST

START_TEST(bad_lines_are_counted_and_the_first_is_named)
{
    const char *bad[] = {
        "4 4 allreduce 1024 2047\n",            /* no algorithm */
        "4 4 allreducer 0 * ring\n",            /* no such collective */
        "four 4 allreduce 0 * ring\n",          /* p not a number */
        "4 4 allreduce 2048 1024 ring\n",       /* ends before it starts */
        "4 4 allreduce -5 * ring\n",            /* negative */
        "4 4 allreduce 0 * no_such_algorithm\n", /* no such algorithm */
        "0 4 allreduce 0 * ring\n",             /* no ranks */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); ++i) {
        char text[512], err[256] = "";
        snprintf(text, sizeof(text), "# a comment\n\n* * bcast 0 * binomial\n%s* * allgather 0 * ring\n", bad[i]);
        hdring_decisions_t d = {0};
        ck_assert_msg(1 == hdring_decisions_parse(text, &colls, &d, err, sizeof(err)), "read: %s", bad[i]);
        ck_assert_msg(2 == d.n, "%s: %d decisions kept", bad[i], d.n);
        ck_assert_msg(NULL != strstr(err, "4"), "%s: the error does not name line 4: %s", bad[i], err);
        hdring_decisions_free(&d);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("select");
    UNIT_ADD(s, candidates_are_the_model_choice_then_the_nearest_then_the_fallback);
    UNIT_ADD(s, trials_run_every_candidate_in_rotated_rounds_within_their_budget);
    UNIT_ADD(s, equal_candidates_keep_the_model_choice);
    UNIT_ADD(s, a_clearly_faster_challenger_wins);
    UNIT_ADD(s, a_clearly_slower_model_choice_leaves_after_the_first_rounds);
    UNIT_ADD(s, times_are_the_slowest_rank_s);
    UNIT_ADD(s, decisions_read_back_as_written);
    UNIT_ADD(s, bad_lines_are_counted_and_the_first_is_named);
    return unit_run(s);
}
