/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring selection (coll_hdring_select.h): a module's size ranges, their trials and their decisions.
 *
 * A module keeps MAX_RANGES ranges. A new one takes a free slot, or the least recently used decided one (the same
 * on every rank: every rank sees the same calls); with every slot under trial, a call of a new range runs the
 * model's choice, settled.
 */
#include "coll_hdring_select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/util/output.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_hdring_bootstrap.h"
#include "coll_hdring_decision.h"
#include "coll_hdring_decisions.h"
#include "coll_hdring_setup.h"
#include "coll_hdring_util.h"

#define MAX_RANGES 24

typedef enum { RANGE_FREE, RANGE_WAITING, RANGE_TRYING, RANGE_DECIDED } range_state_t;

struct mca_coll_hdring_range {
    range_state_t state;
    mca_coll_hdring_coll_t coll;
    bool ordered;
    size_t lo, hi;     /* bytes, inclusive */
    unsigned used;     /* when it was last used (the module's clock) */
    int calls;         /* blocking calls before its trial */
    int model;         /* the model's algorithm there */
    hdring_trial_t trial;
    hdring_verdict_t verdict;
    int winner;        /* a pick */
    int own;           /* hdring's fastest: the winner, or where that is the fallback the fastest other */
};

struct mca_coll_hdring_select {
    bool on;
    int mode; /* coll_hdring_select */
    const hdring_decisions_t *file;
    const char *path;
    unsigned clock;
    mca_coll_hdring_range_t range[MAX_RANGES];
};

struct mca_coll_hdring_select *mca_coll_hdring_select_new(void)
{
    return calloc(1, sizeof(struct mca_coll_hdring_select));
}

void mca_coll_hdring_select_free(struct mca_coll_hdring_select *sel)
{
    free(sel);
}

void mca_coll_hdring_select_enable(mca_coll_hdring_module_t *m, bool tolerant)
{
    struct mca_coll_hdring_select *sel = m->select;
    const mca_coll_hdring_config_t *cfg = &m->setup->config;
    sel->mode = cfg->select;
    sel->path = cfg->decisions_file;
    sel->file = mca_coll_hdring_decisions_of(cfg->decisions_file);
    sel->on = !tolerant && m->setup->p > 1 && (MCA_COLL_HDRING_SELECT_MODEL != sel->mode || sel->file->n > 0);
    m->selecting = sel->on;
}

/* The whole vector's bytes (the trace's bytes=). */
static size_t bytes_of(const mca_coll_hdring_args_t *a, int p)
{
    size_t size, count = a->count;
    ompi_datatype_type_size(a->dtype, &size);
    if (MCA_COLL_HDRING_REDUCE_SCATTER == a->coll) {
        count = 0;
        for (int b = 0; b < p; ++b) {
            count += (size_t) a->rcounts[b];
        }
    }
    return mca_coll_hdring_vector_bytes(a->coll, count, size, p);
}

/* Whether no algorithm changes the result's bits: no reduction, or a predefined operation on predefined integers
 * (exact in any order). Floating point is not: a sum's rounding depends on its order, and even a minimum or a
 * 2-rank sum is not, when signed zeros or NaNs meet (x86 keeps one operand's NaN, or zero's sign). */
static bool exact(const mca_coll_hdring_args_t *a)
{
    if (NULL == a->op) {
        return true;
    }
    const uint32_t flags = a->dtype->super.flags;
    return ompi_op_is_intrinsic(a->op) && 0 != (flags & OMPI_DATATYPE_FLAG_PREDEFINED) &&
           OMPI_DATATYPE_FLAG_DATA_INT == (flags & OMPI_DATATYPE_FLAG_DATA_TYPE);
}

static bool has_fallback(const mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll)
{
    const mca_coll_hdring_fallback_t *f = &m->fallback;
    switch (coll) {
    case MCA_COLL_HDRING_ALLREDUCE:
        return NULL != f->coll_allreduce;
    case MCA_COLL_HDRING_REDUCE_SCATTER:
        return NULL != f->coll_reduce_scatter;
    case MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK:
        return NULL != f->coll_reduce_scatter_block;
    case MCA_COLL_HDRING_ALLGATHER:
        return NULL != f->coll_allgather;
    default:
        return NULL != f->coll_bcast;
    }
}

static mca_coll_hdring_range_t *find_range(struct mca_coll_hdring_select *sel, mca_coll_hdring_coll_t coll,
                                           bool ordered, size_t bytes)
{
    for (int i = 0; i < MAX_RANGES; ++i) {
        mca_coll_hdring_range_t *r = &sel->range[i];
        if (RANGE_FREE != r->state && r->coll == coll && r->ordered == ordered && r->lo <= bytes && bytes <= r->hi) {
            return r;
        }
    }
    return NULL;
}

/* A slot for a new range: a free one, or the least recently used decided one; NULL when all are under trial. */
static mca_coll_hdring_range_t *free_range(struct mca_coll_hdring_select *sel)
{
    mca_coll_hdring_range_t *oldest = NULL;
    for (int i = 0; i < MAX_RANGES; ++i) {
        mca_coll_hdring_range_t *r = &sel->range[i];
        if (RANGE_FREE == r->state) {
            return r;
        }
        if (RANGE_DECIDED == r->state && (NULL == oldest || r->used < oldest->used)) {
            oldest = r;
        }
    }
    return oldest;
}

/* The range of a call of `bytes`: within a factor of 2 (from a power of 2) and within the model's range. */
static mca_coll_hdring_range_t *new_range(mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll, bool ordered,
                                          size_t bytes)
{
    struct mca_coll_hdring_select *sel = m->select;
    mca_coll_hdring_range_t *r = free_range(sel);
    if (NULL == r) {
        return NULL;
    }
    int picks[HDRING_SELECT_MAX];
    size_t lo, hi;
    const int n = mca_coll_hdring_candidates(m->setup, coll, bytes, ordered, has_fallback(m, coll), picks, &lo, &hi,
                                             &r->model);
    size_t low = 1;
    while (low <= bytes / 2) {
        low *= 2;
    }
    memset(&r->trial, 0, sizeof(r->trial));
    r->coll = coll;
    r->ordered = ordered;
    r->lo = low > lo ? low : lo;
    r->hi = low - 1 + low < hi ? low - 1 + low : hi;
    r->winner = r->own = HDRING_PICK_MODEL;
    r->calls = 0;
    if (n < 2) { /* nothing to try: the model's choice, a forced algorithm or a threshold's */
        r->state = RANGE_DECIDED;
        r->verdict.why = HDRING_VERDICT_ALONE;
        r->trial.n = 0;
    } else {
        r->state = RANGE_WAITING;
        hdring_trial_init(&r->trial, picks, n);
    }
    return r;
}

int mca_coll_hdring_select_pick(mca_coll_hdring_module_t *m, const mca_coll_hdring_args_t *a,
                                mca_coll_hdring_kind_t kind, bool *settled, mca_coll_hdring_range_t **trying)
{
    struct mca_coll_hdring_select *sel = m->select;
    const mca_coll_hdring_setup_t *s = m->setup;
    const bool ordered = NULL != a->op && !ompi_op_is_commute(a->op);
    const size_t bytes = bytes_of(a, s->p);
    *settled = true;
    *trying = NULL;
    if (sel->file->n > 0) {
        const hdring_decision_t *d = hdring_decisions_find(sel->file, s->p, s->topo.shape.ppn, a->coll, bytes);
        if (NULL != d && mca_coll_hdring_pick_applies(s, a->coll, ordered, d->pick)) {
            return d->pick;
        }
    }
    if (MCA_COLL_HDRING_SELECT_MODEL == sel->mode || 0 == bytes ||
        (MCA_COLL_HDRING_SELECT_AUTO == sel->mode && !exact(a))) {
        return HDRING_PICK_MODEL;
    }
    mca_coll_hdring_range_t *r = find_range(sel, a->coll, ordered, bytes);
    if (NULL == r && NULL == (r = new_range(m, a->coll, ordered, bytes))) {
        return HDRING_PICK_MODEL; /* every slot under trial */
    }
    r->used = ++sel->clock;
    switch (r->state) {
    case RANGE_DECIDED:
        return MCA_COLL_HDRING_BLOCKING == kind ? r->winner : r->own;
    case RANGE_WAITING: /* its first calls: the model's choice */
        if (MCA_COLL_HDRING_BLOCKING == kind && ++r->calls == HDRING_SELECT_AFTER) {
            r->state = RANGE_TRYING;
        }
        *settled = false;
        return HDRING_PICK_MODEL;
    default:
        *settled = false;
        if (MCA_COLL_HDRING_BLOCKING != kind) {
            return HDRING_PICK_MODEL;
        }
        *trying = r;
        return r->trial.pick[hdring_trial_next(&r->trial)];
    }
}

int mca_coll_hdring_select_trial_pick(const mca_coll_hdring_range_t *r, bool *timed)
{
    *timed = hdring_trial_timed(&r->trial);
    return r->trial.pick[hdring_trial_next(&r->trial)];
}

/* "rhd (model) 10.1 us, ring 12.3 us, fallback 11.0 us, bruck 30.2 us (out after 2 rounds)" */
static void describe_times(const mca_coll_hdring_range_t *r, char *out, size_t len)
{
    out[0] = '\0';
    for (int c = 0; c < r->trial.n; ++c) {
        const int pick = r->trial.pick[c];
        mca_coll_hdring_append(out, len, "%s%s%s %.1f us", 0 == c ? "" : ", ",
                               hdring_pick_name(HDRING_PICK_MODEL == pick ? r->model : pick),
                               HDRING_PICK_MODEL == pick ? " (model)" : "", r->verdict.median[c] * 1e6);
        if (r->trial.out[c]) {
            mca_coll_hdring_append(out, len, " (out after %d rounds)", HDRING_SELECT_PRUNE_AFTER);
        }
    }
}

/* Why the winner won. */
static void describe_verdict(const mca_coll_hdring_range_t *r, char *out, size_t len)
{
    const hdring_verdict_t *v = &r->verdict;
    const int ch = v->challenger;
    const char *challenger = ch < 0 ? "" : hdring_pick_name(r->trial.pick[ch]);
    const double gain = ch < 0 || v->median[0] <= 0 ? 0 : 100 * (1 - v->median[ch] / v->median[0]);
    switch (v->why) {
    case HDRING_VERDICT_FASTER:
        snprintf(out, len, "%s: %.0f%% faster than the model's choice, in %d of %d rounds", challenger, gain, v->wins,
                 hdring_trial_rounds(&r->trial));
        break;
    case HDRING_VERDICT_NOISE:
        snprintf(out, len, "the model's choice stays: %s was %.1f%% faster, in %d of %d rounds, within noise",
                 challenger, gain, v->wins, hdring_trial_rounds(&r->trial));
        break;
    case HDRING_VERDICT_PRUNED:
        snprintf(out, len, "%s: the model's choice was over %.1fx the fastest after %d rounds",
                 hdring_pick_name(r->winner), HDRING_SELECT_PRUNE, HDRING_SELECT_PRUNE_AFTER);
        break;
    case HDRING_VERDICT_MODEL:
        snprintf(out, len, "the model's choice was the fastest");
        break;
    default:
        snprintf(out, len, "the model's choice: the times could not be exchanged");
        break;
    }
}

/* The trial's end: the winner, hdring's fastest own, the trace, and the decision for the decisions file. */
static void decide(mca_coll_hdring_module_t *m, mca_coll_hdring_range_t *r, bool exchanged)
{
    const mca_coll_hdring_setup_t *s = m->setup;
    if (exchanged) {
        hdring_trial_verdict(&r->trial, &r->verdict);
    } else { /* every rank alike: the exchange failed on all of them */
        memset(&r->verdict, 0, sizeof(r->verdict));
        r->verdict.why = HDRING_VERDICT_ALONE;
        r->verdict.challenger = -1;
    }
    r->winner = r->trial.pick[r->verdict.winner];
    r->own = r->winner;
    if (HDRING_PICK_FALLBACK == r->own) {
        int best = -1;
        for (int c = 0; c < r->trial.n; ++c) {
            if (HDRING_PICK_FALLBACK != r->trial.pick[c] &&
                (best < 0 || r->verdict.median[c] < r->verdict.median[best])) {
                best = c;
            }
        }
        r->own = best < 0 ? HDRING_PICK_MODEL : r->trial.pick[best];
    }
    r->state = RANGE_DECIDED;
    char times[512], why[256];
    describe_times(r, times, sizeof(times));
    describe_verdict(r, why, sizeof(why));
    if (m->tracing && 0 == s->rank) {
        opal_output(mca_coll_hdring_output,
                    "hdring: %s np=%d bytes %zu-%zu measured (the slowest rank's median of %d rounds): %s -> %s (%s)",
                    mca_coll_hdring_coll_name(r->coll), s->p, r->lo, r->hi, hdring_trial_rounds(&r->trial), times,
                    hdring_pick_name(HDRING_PICK_MODEL == r->winner ? r->model : r->winner), why);
        for (int c = 0; c < r->trial.n && s->config.verbose >= 2; ++c) {
            char rounds[256] = "";
            for (int k = 0; k < hdring_trial_rounds(&r->trial); ++k) {
                mca_coll_hdring_append(rounds, sizeof(rounds), " %.2f", r->trial.t[c][k] * 1e6);
            }
            opal_output(mca_coll_hdring_output, "hdring: %s np=%d bytes %zu-%zu %s, each round (us):%s",
                        mca_coll_hdring_coll_name(r->coll), s->p, r->lo, r->hi, hdring_pick_name(r->trial.pick[c]),
                        rounds);
        }
    }
    if (exchanged && !r->ordered && NULL != m->select->path && '\0' != m->select->path[0]) {
        const hdring_decision_t d = {s->p, s->topo.shape.ppn, (int) r->coll, r->lo, r->hi,
                                     HDRING_PICK_MODEL == r->winner ? r->model : r->winner};
        mca_coll_hdring_decisions_learned(m->select->path, &d, times);
    }
}

/* Every rank's times, each the slowest rank's after: false when the exchange failed (on every rank). */
static bool exchange(struct ompi_communicator_t *comm, mca_coll_hdring_range_t *r)
{
    const int p = ompi_comm_size(comm);
    int64_t mine[HDRING_SELECT_VALUES];
    int64_t *all = malloc((size_t) p * HDRING_SELECT_VALUES * sizeof(*all));
    hdring_trial_values(&r->trial, mine);
    /* without memory for the answer, the exchange tells the others so (the same failure everywhere) */
    const int rc = mca_coll_hdring_gather_values(comm, mine, HDRING_SELECT_VALUES, all);
    if (OMPI_SUCCESS == rc) {
        hdring_trial_slowest(&r->trial, all, p);
    }
    free(all);
    return OMPI_SUCCESS == rc;
}

void mca_coll_hdring_select_record(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                                   mca_coll_hdring_range_t *r, double seconds)
{
    if (HDRING_TRIAL_EXCHANGE != hdring_trial_record(&r->trial, seconds)) {
        return;
    }
    if (!exchange(comm, r)) {
        decide(m, r, false);
    } else if (hdring_trial_done(&r->trial)) {
        decide(m, r, true);
    }
}

const char *mca_coll_hdring_select_describe(mca_coll_hdring_module_t *m, const mca_coll_hdring_args_t *a,
                                            mca_coll_hdring_kind_t kind, int pick,
                                            const mca_coll_hdring_range_t *trying, char *out, size_t len)
{
    const struct mca_coll_hdring_select *sel = m->select;
    const mca_coll_hdring_setup_t *s = m->setup;
    const char *name = hdring_pick_name(pick);
    if (NULL != trying) {
        const hdring_trial_t *t = &trying->trial;
        snprintf(out, len, "alg=%s (measuring %zu-%zu B: candidate %d of %d, %s %d of %d)",
                 hdring_pick_name(HDRING_PICK_MODEL == pick ? trying->model : pick), trying->lo, trying->hi,
                 hdring_trial_next(t) + 1, t->n, t->round > 0 ? "round" : "untimed round", t->round,
                 HDRING_SELECT_ROUNDS);
        return out;
    }
    if (!sel->on) {
        return NULL;
    }
    const bool ordered = NULL != a->op && !ompi_op_is_commute(a->op);
    const size_t bytes = bytes_of(a, s->p);
    const hdring_decision_t *d = sel->file->n > 0
                                     ? hdring_decisions_find(sel->file, s->p, s->topo.shape.ppn, a->coll, bytes)
                                     : NULL;
    if (NULL != d && d->pick == pick) {
        snprintf(out, len, "alg=%s (coll_hdring_decisions_file %s: %zu-%zu B)", name, sel->path, d->lo, d->hi);
        return out;
    }
    const mca_coll_hdring_range_t *r = find_range(m->select, a->coll, ordered, bytes);
    if (NULL == r || RANGE_DECIDED != r->state || 0 == r->trial.n) {
        return NULL;
    }
    snprintf(out, len, "alg=%s (measured in this job for %zu-%zu B%s)",
             HDRING_PICK_MODEL == pick ? hdring_pick_name(r->model) : name, r->lo, r->hi,
             HDRING_PICK_MODEL == pick                             ? ": the model's choice stays"
             : MCA_COLL_HDRING_BLOCKING != kind && r->own != r->winner ? ": hdring's fastest, the fallback won"
                                                                   : "");
    return out;
}
