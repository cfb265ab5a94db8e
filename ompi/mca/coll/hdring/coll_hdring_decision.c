/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring decision: which algorithm serves a call, and why. The only place that chooses.
 *
 * A forced algorithm (coll_hdring_<coll>_algorithm) runs when it can serve the call; a non-commutative
 * operation with an algorithm that reorders operands (ring, the hierarchical ones) goes to the fallback, and a
 * hierarchical algorithm forced on nodes of unequal size runs as its flat algorithm across all ranks. With
 * auto, each communicator builds on first use a plan per collective (hdring_plan.h): sizes up to
 * coll_hdring_<coll>_small_bytes_<pof2|npof2> (when set) use the latency algorithm, sizes from
 * coll_hdring_<coll>_large_bytes_* (when set) the bandwidth algorithm, and everything else the fastest the cost
 * model (hdring_cost.h) predicts for where the communicator's ranks sit: one node (coll_hdring_model_*), or
 * several (the network's parameters between them, coll_hdring_model_network_*), flat or hierarchical. The
 * trace says which rule decided.
 */
#include "ompi_config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "opal/util/output.h"

#include "coll_hdring_decision.h"
#include "coll_hdring_util.h"
#include "hdring_cost.h"
#include "hdring_select.h"

static hdring_model_t model_of(const mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t coll, bool ordered)
{
    const mca_coll_hdring_config_t *cfg = &s->config;
    const hdring_model_units_t units = {cfg->model_latency_us,         cfg->model_bandwidth_mbs,
                                        cfg->model_reduce_mbs,         cfg->model_network_latency_us,
                                        cfg->model_network_bandwidth_mbs, cfg->model_network_exchange_mbs,
                                        cfg->model_eager_bytes,        cfg->model_network_eager_bytes};
    hdring_model_t model = hdring_model_of(s->p, ordered, &s->topo.shape, &units);
    model.segment = (double) cfg->segment_bytes[coll];
    return model;
}

/* The plan of one collective for this setup, built on its first call (with the lock: setups are shared). */
static const hdring_plan_t *plan_of(mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t coll, bool ordered)
{
    const int kind = hdring_is_pow2(s->p) ? HDRING_POF2 : HDRING_NPOF2;
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    if (!s->planned[coll][ordered]) {
        const hdring_plan_input_t in = {
            .coll = mca_coll_hdring_core_coll(coll),
            .model = model_of(s, coll, ordered),
            .small = s->config.small_bytes[coll][kind],
            .large = s->config.large_bytes[coll][kind],
        };
        hdring_plan_build(&in, &s->plan[coll][ordered]);
        s->planned[coll][ordered] = true;
    }
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
    return &s->plan[coll][ordered];
}

static void no_phases(hdring_alg_t *phase)
{
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        phase[k] = HDRING_ALG_NONE;
    }
}

/* Algorithm `alg`, forced (why FORCED) or picked (PICKED): the fallback where it cannot keep the operands' order,
 * its flat algorithm for a hierarchical one on nodes of unequal size, the model's phases for a hierarchical one. */
static void choose_alg(const mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t coll, size_t bytes, bool ordered,
                       hdring_alg_t alg, mca_coll_hdring_why_t why, mca_coll_hdring_choice_t *choice)
{
    const hdring_algorithm_t *row = hdring_algorithm(alg);
    choice->c.alg = row->id;
    choice->why = why;
    if (ordered && !row->keeps_order) {
        choice->fallback = true;
        choice->why = MCA_COLL_HDRING_WHY_UNORDERED;
    } else if (HDRING_ALG_NONE != row->inner && 0 == s->topo.shape.ppn) {
        choice->forced = row->id;
        choice->c.alg = row->inner;
        choice->why = MCA_COLL_HDRING_WHY_UNEVEN;
    } else if (HDRING_ALG_NONE != row->inner) { /* the model chooses the phases within the nodes */
        const hdring_model_t model = model_of(s, coll, ordered);
        hdring_cost_time(row->id, &model, (double) bytes, choice->c.phase);
    }
}

static void choose(mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t coll, size_t bytes, bool ordered, int pick,
                   mca_coll_hdring_choice_t *choice)
{
    const int forced = s->config.algorithm[coll];

    choice->fallback = false;
    choice->lo = choice->hi = 0;
    no_phases(choice->c.phase);
    if (HDRING_PICK_FALLBACK == pick) {
        choice->fallback = true;
        choice->c.alg = HDRING_ALG_NONE;
        choice->why = MCA_COLL_HDRING_WHY_PICKED;
        return;
    }
    if (HDRING_PICK_MODEL != pick) {
        choose_alg(s, coll, bytes, ordered, (hdring_alg_t) pick, MCA_COLL_HDRING_WHY_PICKED, choice);
        return;
    }
    if (0 != forced) {
        choose_alg(s, coll, bytes, ordered, hdring_alg_by_value(mca_coll_hdring_core_coll(coll), forced),
                   MCA_COLL_HDRING_WHY_FORCED, choice);
        return;
    }
    const hdring_plan_segment_t *seg = hdring_plan_lookup(plan_of(s, coll, ordered), bytes, &choice->lo);
    choice->c.alg = seg->alg;
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        choice->c.phase[k] = seg->phase[k];
    }
    choice->why = MCA_COLL_HDRING_WHY_PLAN;
    choice->plan_why = seg->why;
    choice->hi = seg->upto;
}

/* The segment size of a pipelined choice: coll_hdring_<coll>_segment_bytes, or the model's for this size (the
 * model returns the first when it is set). */
static void choose_segment(const mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t coll, size_t bytes,
                           bool ordered, mca_coll_hdring_choice_t *choice)
{
    choice->c.segment = 0;
    if (!choice->fallback) {
        const hdring_model_t model = model_of(s, coll, ordered);
        choice->c.segment = hdring_choice_segment(&choice->c, &model, bytes);
    }
}

/* "; phases rhd, ring, ring" for a hierarchical algorithm, "" otherwise. */
static void describe_phases(const mca_coll_hdring_choice_t *choice, char *out, size_t len)
{
    static const char *const names[HDRING_NPHASES] = {"first within nodes", "across", "then within nodes"};
    int used = 0;
    out[0] = '\0';
    for (int k = 0; k < HDRING_NPHASES && used >= 0 && (size_t) used < len; ++k) {
        if (HDRING_ALG_NONE != choice->c.phase[k]) {
            used += snprintf(out + used, len - (size_t) used, "; %s %s", names[k], hdring_alg_name(choice->c.phase[k]));
        }
    }
}

void mca_coll_hdring_describe(const mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t c, size_t bytes,
                              bool ordered, const mca_coll_hdring_choice_t *choice, char *out, size_t len)
{
    const char *coll = mca_coll_hdring_coll_name(c);
    const char *kind = hdring_is_pow2(s->p) ? "pof2" : "npof2";
    const char *order = ordered ? "; op not commutative: rank order, no ring" : "";
    char reason[448], upto[32], where[144] = "", details[224];

    if (SIZE_MAX == choice->hi) {
        snprintf(upto, sizeof(upto), "up");
    } else {
        snprintf(upto, sizeof(upto), "to %zu B", choice->hi);
    }
    if (s->topo.shape.nodes > 1 || hdring_shape_crowded(&s->topo.shape)) {
        char shape[128];
        hdring_shape_describe(&s->topo.shape, shape, sizeof(shape));
        snprintf(where, sizeof(where), " %s %s", s->topo.shape.nodes > 1 ? "across" : "on", shape);
    }
    describe_phases(choice, details, sizeof(details));
    if (0 != choice->c.segment) {
        const size_t used = strlen(details);
        if (0 != s->config.segment_bytes[c]) {
            snprintf(details + used, sizeof(details) - used, "; segments of %zu B by coll_hdring_%s_segment_bytes",
                     choice->c.segment, coll);
        } else {
            snprintf(details + used, sizeof(details) - used, "; segments of %zu B by the cost model",
                     choice->c.segment);
        }
    }
    switch (choice->why) {
    case MCA_COLL_HDRING_WHY_FORCED:
        snprintf(reason, sizeof(reason), "forced by coll_hdring_%s_algorithm%s", coll, details);
        break;
    case MCA_COLL_HDRING_WHY_UNORDERED:
        snprintf(reason, sizeof(reason),
                 "forced by coll_hdring_%s_algorithm: %s reorders operands and the op is not commutative", coll,
                 hdring_alg_name(choice->c.alg));
        break;
    case MCA_COLL_HDRING_WHY_PICKED:
        snprintf(reason, sizeof(reason), "coll_hdring_select or coll_hdring_decisions_file%s", details);
        break;
    case MCA_COLL_HDRING_WHY_UNEVEN:
        snprintf(reason, sizeof(reason),
                 "forced %s by coll_hdring_%s_algorithm, but the nodes hold different numbers of ranks%s: its flat "
                 "algorithm in node order", hdring_alg_name(choice->forced), coll, where);
        break;
    default:
        if (HDRING_WHY_SMALL == choice->plan_why) {
            snprintf(reason, sizeof(reason), "auto: <= coll_hdring_%s_small_bytes_%s = %zu%s", coll, kind,
                     choice->hi, order);
        } else if (HDRING_WHY_LARGE == choice->plan_why) {
            snprintf(reason, sizeof(reason), "auto: >= coll_hdring_%s_large_bytes_%s = %zu", coll, kind,
                     choice->lo);
        } else {
            snprintf(reason, sizeof(reason), "auto: cost model's fastest for p=%d%s from %zu B %s%s%s",
                     s->p, where, choice->lo, upto, details, order);
        }
        break;
    }
    (void) bytes;
    snprintf(out, len, "alg=%s (%s)", choice->fallback ? "fallback" : hdring_alg_name(choice->c.alg), reason);
}

void mca_coll_hdring_decide(mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t coll, size_t bytes, bool ordered,
                            int pick, mca_coll_hdring_choice_t *choice)
{
    choose(s, coll, bytes, ordered, pick, choice);
    choose_segment(s, coll, bytes, ordered, choice);
}

int mca_coll_hdring_candidates(mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t coll, size_t bytes, bool ordered,
                               bool fallback, int *picks, size_t *lo, size_t *hi, int *model)
{
    *lo = 0;
    *hi = SIZE_MAX;
    *model = HDRING_PICK_MODEL;
    if (0 != s->config.algorithm[coll]) {
        return 0;
    }
    const hdring_plan_segment_t *seg = hdring_plan_lookup(plan_of(s, coll, ordered), bytes, lo);
    *hi = seg->upto;
    *model = (int) seg->alg;
    if (HDRING_WHY_MODEL != seg->why) {
        return 0;
    }
    const hdring_model_t m = model_of(s, coll, ordered);
    return hdring_select_candidates(mca_coll_hdring_core_coll(coll), &m, (double) bytes, seg->alg, fallback, picks);
}

bool mca_coll_hdring_pick_applies(const mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t coll, bool ordered,
                                  int pick)
{
    if (HDRING_PICK_FALLBACK == pick || HDRING_PICK_MODEL == pick) {
        return true;
    }
    const hdring_algorithm_t *row = hdring_algorithm((hdring_alg_t) pick);
    return NULL != row && row->coll == mca_coll_hdring_core_coll(coll) && (!ordered || row->keeps_order) &&
           (HDRING_ALG_NONE == row->inner || (s->topo.shape.nodes > 1 && s->topo.shape.ppn > 1));
}
