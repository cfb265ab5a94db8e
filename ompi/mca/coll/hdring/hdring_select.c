/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring measured selection: see hdring_select.h. */
#include "hdring_select.h"

#include <stdlib.h>
#include <string.h>

#include "hdring_cost.h"

int hdring_select_candidates(hdring_coll_t coll, const hdring_model_t *m, double bytes, hdring_alg_t chosen,
                             bool fallback, int *picks)
{
    hdring_alg_t algs[HDRING_NALGS];
    double t[HDRING_NALGS];
    double fastest = -1;
    const int nalgs = hdring_algorithms_of(coll, algs);
    for (int a = 0; a < nalgs; ++a) {
        t[a] = hdring_cost_applies(algs[a], m) ? hdring_cost_time(algs[a], m, bytes, NULL) : -1;
        if (t[a] >= 0 && (fastest < 0 || t[a] < fastest)) {
            fastest = t[a];
        }
    }
    int n = 0;
    picks[n++] = HDRING_PICK_MODEL;
    for (int a = 0; a < nalgs; ++a) {
        if (algs[a] == chosen) {
            t[a] = -1;
        }
    }
    while (n < HDRING_SELECT_ALGS) { /* the next fastest predicted, within reach of the fastest */
        int best = -1;
        for (int a = 0; a < nalgs; ++a) {
            if (t[a] >= 0 && t[a] <= HDRING_SELECT_WITHIN * fastest && (best < 0 || t[a] < t[best])) {
                best = a;
            }
        }
        if (best < 0) {
            break;
        }
        picks[n++] = (int) algs[best];
        t[best] = -1;
    }
    if (fallback) {
        picks[n++] = HDRING_PICK_FALLBACK;
    }
    return n;
}

static void set_running(hdring_trial_t *t)
{
    t->nrunning = 0;
    for (int c = 0; c < t->n; ++c) {
        if (!t->out[c]) {
            t->running[t->nrunning++] = c;
        }
    }
}

void hdring_trial_init(hdring_trial_t *t, const int *picks, int n)
{
    memset(t, 0, sizeof(*t));
    t->n = n;
    memcpy(t->pick, picks, (size_t) n * sizeof(*picks));
    set_running(t);
}

hdring_trial_step_t hdring_trial_record(hdring_trial_t *t, double seconds)
{
    const int per = t->round > 0 ? HDRING_SELECT_SAMPLE : 1;
    if (t->round > 0 && per - 1 == t->at % per) {
        t->t[hdring_trial_next(t)][t->round - 1] = seconds;
    }
    if (++t->at < t->nrunning * per) {
        return HDRING_TRIAL_RUN;
    }
    t->at = 0;
    ++t->round;
    return (!t->pruned && HDRING_SELECT_PRUNE_AFTER + 1 == t->round) || HDRING_SELECT_ROUNDS + 1 == t->round
               ? HDRING_TRIAL_EXCHANGE
               : HDRING_TRIAL_RUN;
}

int hdring_trial_rounds(const hdring_trial_t *t)
{
    const int done = t->round - 1;
    return done < 0 ? 0 : done > HDRING_SELECT_ROUNDS ? HDRING_SELECT_ROUNDS : done;
}

bool hdring_trial_done(const hdring_trial_t *t)
{
    return t->pruned && (1 == t->nrunning || t->round > HDRING_SELECT_ROUNDS);
}

void hdring_trial_values(const hdring_trial_t *t, int64_t *v)
{
    for (int c = 0; c < HDRING_SELECT_MAX; ++c) {
        for (int r = 0; r < HDRING_SELECT_ROUNDS; ++r) {
            v[c * HDRING_SELECT_ROUNDS + r] = c < t->n ? (int64_t) (t->t[c][r] * 1e9) : 0;
        }
    }
}

/* The fastest (worst false) or slowest (worst true) of candidate c's first `rounds` rounds. */
static double round_of(const hdring_trial_t *t, int c, int rounds, bool worst)
{
    double x = t->t[c][0];
    for (int r = 1; r < rounds; ++r) {
        x = worst == (t->t[c][r] > x) ? t->t[c][r] : x;
    }
    return x;
}

void hdring_trial_slowest(hdring_trial_t *t, const int64_t *all, int p)
{
    for (int c = 0; c < t->n; ++c) {
        for (int r = 0; r < HDRING_SELECT_ROUNDS; ++r) {
            int64_t slowest = 0;
            for (int q = 0; q < p; ++q) {
                const int64_t v = all[(size_t) q * HDRING_SELECT_VALUES + (size_t) (c * HDRING_SELECT_ROUNDS + r)];
                slowest = v > slowest ? v : slowest;
            }
            t->t[c][r] = (double) slowest * 1e-9;
        }
    }
    if (!t->pruned) {
        /* out: a candidate whose best round is slower than another's worst by the factor (one lucky round of
         * the other's prunes nothing) */
        double best = -1;
        for (int k = 0; k < t->nrunning; ++k) {
            const double b = round_of(t, t->running[k], HDRING_SELECT_PRUNE_AFTER, true);
            best = best < 0 || b < best ? b : best;
        }
        for (int k = 0; k < t->nrunning; ++k) {
            const int c = t->running[k];
            t->out[c] = round_of(t, c, HDRING_SELECT_PRUNE_AFTER, false) > HDRING_SELECT_PRUNE * best;
        }
        set_running(t);
        t->pruned = true;
    }
}

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double median_of(const double *v, int n)
{
    double sorted[HDRING_SELECT_ROUNDS];
    memcpy(sorted, v, (size_t) n * sizeof(*v));
    qsort(sorted, (size_t) n, sizeof(*sorted), compare_doubles);
    return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

void hdring_trial_verdict(const hdring_trial_t *t, hdring_verdict_t *v)
{
    memset(v, 0, sizeof(*v));
    v->challenger = -1;
    const int rounds = hdring_trial_rounds(t);
    for (int c = 0; c < t->n; ++c) {
        v->median[c] = median_of(t->t[c], t->out[c] ? HDRING_SELECT_PRUNE_AFTER : rounds);
    }
    int fastest = t->running[0]; /* the fastest median in the running, and the fastest other than the model's */
    for (int k = 0; k < t->nrunning; ++k) {
        const int c = t->running[k];
        fastest = v->median[c] < v->median[fastest] ? c : fastest;
        if (0 != c && (v->challenger < 0 || v->median[c] < v->median[v->challenger])) {
            v->challenger = c;
        }
    }
    if (t->out[0]) {
        v->winner = fastest;
        v->why = HDRING_VERDICT_PRUNED;
        return;
    }
    v->winner = 0;
    if (v->challenger < 0) { /* the others were pruned, or there were none */
        v->why = 1 == t->n ? HDRING_VERDICT_ALONE : HDRING_VERDICT_MODEL;
        return;
    }
    const int ch = v->challenger;
    for (int r = 0; r < rounds; ++r) {
        v->wins += t->t[ch][r] < t->t[0][r];
    }
    const int needed = rounds >= 4 ? rounds - 1 : rounds;
    if (v->median[ch] < (1 - HDRING_SELECT_MARGIN) * v->median[0] && v->wins >= needed) {
        v->winner = ch;
        v->why = HDRING_VERDICT_FASTER;
    } else {
        v->why = v->median[ch] < v->median[0] ? HDRING_VERDICT_NOISE : HDRING_VERDICT_MODEL;
    }
}

const char *hdring_pick_name(int pick)
{
    switch (pick) {
    case HDRING_PICK_MODEL:
        return "model";
    case HDRING_PICK_FALLBACK:
        return "fallback";
    default:
        return hdring_alg_name((hdring_alg_t) pick);
    }
}
