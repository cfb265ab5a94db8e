/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring measured selection, MPI-free: which candidates a size range tries, in which order its calls run them,
 * and which one it keeps from their times.
 *
 * Candidates: the model's choice first, then the other algorithms that apply, fastest predicted first, as long as
 * the model predicts them within HDRING_SELECT_WITHIN of the fastest, at most HDRING_SELECT_ALGS algorithms in all;
 * and last the fallback (the MPI library's own collective).
 *
 * A trial: after the range's first HDRING_SELECT_AFTER calls (the model's choice: an application that makes only a
 * few calls of a size loses nothing), each call of the range runs the next candidate. Round 0 runs each once,
 * untimed (its first run builds its schedule); rounds 1 to `rounds` are timed, each in an order rotated by one so that no candidate always
 * follows the same one. There each candidate runs HDRING_SELECT_SAMPLE calls in a row and the last one is timed:
 * the first absorbs whatever the previous candidate left (a rank still busy with it, which the next call's
 * partner waits for), so that the time is the candidate's own, as in a loop of calls. After round 2 the ranks
 * exchange their times (each round's time is then the slowest rank's) and candidates whose best round is more than
 * HDRING_SELECT_PRUNE times another's worst leave; after
 * the last round they exchange again and the verdict follows. Every rank runs the same candidate in every call
 * and, deciding from the same exchanged times, keeps the same one.
 *
 * The verdict: the model's choice stays unless a challenger is clearly faster: its median over the rounds at least
 * HDRING_SELECT_MARGIN below the model's, and faster than the model's in every round but one (every round with
 * fewer than 4). The challenger tried is the one with the fastest median. A model's choice pruned after round 2
 * was clearly slower: the fastest median wins.
 */
#ifndef HDRING_SELECT_H
#define HDRING_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "hdring_registry.h"

/* What serves a call: an algorithm (its id, 0 and up), or one of these. */
enum {
    HDRING_PICK_MODEL = -1,    /* the model's choice (or the forced algorithm, or a threshold's) */
    HDRING_PICK_FALLBACK = -2, /* the MPI library's own collective */
};

#define HDRING_SELECT_AFTER 3       /* a range's first calls run the model's choice: a few calls never measure */
#define HDRING_SELECT_ALGS 3        /* algorithms tried: the model's choice and two more */
#define HDRING_SELECT_MAX (HDRING_SELECT_ALGS + 1) /* candidates, the fallback included */
#define HDRING_SELECT_WITHIN 3.0    /* predicted at most this many times the fastest */
#define HDRING_SELECT_ROUNDS 5      /* timed rounds */
#define HDRING_SELECT_SAMPLE 2      /* calls in a row per candidate and timed round: the last one is timed */
#define HDRING_SELECT_PRUNE_AFTER 2 /* rounds before the first exchange */
#define HDRING_SELECT_PRUNE 1.5     /* best round this many times another's worst: out after the first exchange */
#define HDRING_SELECT_MARGIN 0.02   /* a challenger's median at least this much (relative) below the model's */

/* The candidates of a call of `bytes` of collective coll on model m, whose choice is `chosen` (the plan's): picks[0]
 * HDRING_PICK_MODEL, then algorithm ids, then HDRING_PICK_FALLBACK when `fallback`. Returns how many (at most
 * HDRING_SELECT_MAX); 1 or 2 when the model sees nothing else worth trying. */
int hdring_select_candidates(hdring_coll_t coll, const hdring_model_t *m, double bytes, hdring_alg_t chosen,
                             bool fallback, int *picks);

/* The most calls a range takes to decide: its first calls, round 0, and every timed round with every candidate. */
#define HDRING_SELECT_CALLS (HDRING_SELECT_AFTER + HDRING_SELECT_MAX * (1 + HDRING_SELECT_ROUNDS * HDRING_SELECT_SAMPLE))

/* What a trial does next after a call. */
typedef enum hdring_trial_step {
    HDRING_TRIAL_RUN,      /* run the next candidate (hdring_trial_next) */
    HDRING_TRIAL_EXCHANGE, /* exchange the times (hdring_trial_values, hdring_trial_slowest), then go on */
} hdring_trial_step_t;

typedef struct hdring_trial {
    int n;                          /* candidates */
    int pick[HDRING_SELECT_MAX];    /* each one's pick */
    bool out[HDRING_SELECT_MAX];    /* pruned */
    int running[HDRING_SELECT_MAX]; /* the candidates not pruned, in order */
    int nrunning;
    bool pruned;                    /* the first exchange is done */
    int round, at;                  /* the round under way (0: untimed) and the calls of it made */
    double t[HDRING_SELECT_MAX][HDRING_SELECT_ROUNDS]; /* seconds per timed round: this rank's, then the slowest's */
} hdring_trial_t;

void hdring_trial_init(hdring_trial_t *t, const int *picks, int n);
/* The index of the candidate the next call runs. */
static inline int hdring_trial_next(const hdring_trial_t *t)
{
    const int per = t->round > 0 ? HDRING_SELECT_SAMPLE : 1;
    return t->running[(t->at / per + t->round) % t->nrunning];
}
/* Whether the next call's time counts (the last of a sample in a timed round). */
static inline bool hdring_trial_timed(const hdring_trial_t *t)
{
    return t->round > 0 && HDRING_SELECT_SAMPLE - 1 == t->at % HDRING_SELECT_SAMPLE;
}
/* The call this rank just ran of candidate hdring_trial_next took `seconds`. */
hdring_trial_step_t hdring_trial_record(hdring_trial_t *t, double seconds);
/* The timed rounds run so far. */
int hdring_trial_rounds(const hdring_trial_t *t);
/* Whether the trial is over: every round run and exchanged, or one candidate left after the first exchange. */
bool hdring_trial_done(const hdring_trial_t *t);

/* The times this rank contributes to an exchange, in nanoseconds, into v (every candidate's every round, 0 where
 * none: HDRING_SELECT_VALUES). */
#define HDRING_SELECT_VALUES (HDRING_SELECT_MAX * HDRING_SELECT_ROUNDS)
void hdring_trial_values(const hdring_trial_t *t, int64_t *v);
/* The exchange's result, every rank's values (p x HDRING_SELECT_VALUES, rank by rank): each time
 * becomes the slowest rank's, and after the first exchange the clearly slower candidates leave. */
void hdring_trial_slowest(hdring_trial_t *t, const int64_t *all, int p);

/* Why a verdict went the way it did. */
typedef enum hdring_verdict_why {
    HDRING_VERDICT_ALONE,   /* one candidate left: nothing to compare */
    HDRING_VERDICT_MODEL,   /* the model's choice was the fastest */
    HDRING_VERDICT_FASTER,  /* a challenger was clearly faster */
    HDRING_VERDICT_NOISE,   /* a challenger was faster, but not clearly: the model's choice stays */
    HDRING_VERDICT_PRUNED,  /* the model's choice was clearly slower after the first rounds */
} hdring_verdict_why_t;

typedef struct hdring_verdict {
    int winner;                        /* index */
    hdring_verdict_why_t why;
    int challenger;                    /* the fastest other than the model's (-1: none) */
    int wins;                          /* rounds it beat the model's choice in (of hdring_trial_rounds) */
    double median[HDRING_SELECT_MAX];  /* seconds (negative: pruned) */
} hdring_verdict_t;

/* The verdict of a finished trial (hdring_trial_done). */
void hdring_trial_verdict(const hdring_trial_t *t, hdring_verdict_t *v);

/* A pick's name: an algorithm's, "fallback", or "model". */
const char *hdring_pick_name(int pick);

#endif
