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

#include "coll_hdring.h"
#include "hdring_cost.h"

static hdring_model_t model_of(const mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll, int p, bool ordered)
{
    const mca_coll_hdring_config_t *cfg = &m->state->config;
    const hdring_model_units_t units = {cfg->model_latency_us,         cfg->model_bandwidth_mbs,
                                        cfg->model_reduce_mbs,         cfg->model_network_latency_us,
                                        cfg->model_network_bandwidth_mbs, cfg->model_network_exchange_mbs,
                                        cfg->model_eager_bytes,        cfg->model_network_eager_bytes};
    hdring_model_t model = hdring_model_of(p, ordered, &m->topo.shape, &units);
    model.segment = (double) cfg->segment_bytes[coll];
    return model;
}

/* The plan of one collective for this communicator: the process's cached one for the same input, or built. */
static void get_plan(const mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll, int p, bool ordered,
                     hdring_plan_t *plan)
{
    const int kind = hdring_is_pow2(p) ? HDRING_POF2 : HDRING_NPOF2;
    const hdring_plan_input_t in = {
        .coll = mca_coll_hdring_core_coll(coll),
        .model = model_of(m, coll, p, ordered),
        .small = m->state->config.small_bytes[coll][kind],
        .large = m->state->config.large_bytes[coll][kind],
    };
    OPAL_THREAD_LOCK(&mca_coll_hdring_component.lock);
    hdring_plan_get(&mca_coll_hdring_component.plans, &in, plan);
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_component.lock);
}

static void no_phases(hdring_alg_t *phase)
{
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        phase[k] = HDRING_ALG_NONE;
    }
}

static void choose_forced(const mca_coll_hdring_module_t *m, const mca_coll_hdring_call_t *call, int forced,
                          mca_coll_hdring_choice_t *choice)
{
    const hdring_algorithm_t *row = hdring_algorithm(hdring_alg_by_value(mca_coll_hdring_core_coll(call->coll), forced));
    choice->alg = row->id;
    choice->why = MCA_COLL_HDRING_WHY_FORCED;
    if (call->ordered && !row->keeps_order) {
        choice->fallback = true;
        choice->why = MCA_COLL_HDRING_WHY_UNORDERED;
    } else if (HDRING_ALG_NONE != row->inner && 0 == m->topo.shape.ppn) {
        choice->forced = row->id;
        choice->alg = row->inner;
        choice->why = MCA_COLL_HDRING_WHY_UNEVEN;
    } else if (HDRING_ALG_NONE != row->inner) { /* the model chooses the phases within the nodes */
        const hdring_model_t model = model_of(m, call->coll, call->comm_size, call->ordered);
        hdring_cost_time(row->id, &model, (double) call->bytes, choice->phase);
    }
}

static void choose(const mca_coll_hdring_module_t *m, mca_coll_hdring_plan_t *plan, const mca_coll_hdring_call_t *call,
                   mca_coll_hdring_choice_t *choice)
{
    const int forced = m->state->config.algorithm[call->coll];

    choice->fallback = false;
    choice->lo = choice->hi = 0;
    no_phases(choice->phase);
    if (0 != forced) {
        choose_forced(m, call, forced, choice);
        return;
    }
    if (!plan->built) {
        get_plan(m, call->coll, call->comm_size, call->ordered, &plan->plan);
        plan->built = true;
    }
    const hdring_plan_segment_t *seg = hdring_plan_lookup(&plan->plan, call->bytes, &choice->lo);
    choice->alg = seg->alg;
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        choice->phase[k] = seg->phase[k];
    }
    choice->why = MCA_COLL_HDRING_WHY_PLAN;
    choice->plan_why = seg->why;
    choice->hi = seg->upto;
}

/* Whether the algorithm, or one of a hierarchical algorithm's phases, is pipelined. */
static bool pipelined(const mca_coll_hdring_choice_t *choice)
{
    const hdring_algorithm_t *row = hdring_algorithm(choice->alg);
    if (NULL != row->segment) {
        return true;
    }
    for (int k = 0; k < HDRING_NPHASES && HDRING_ALG_NONE != row->inner; ++k) {
        if (HDRING_ALG_NONE != choice->phase[k] && NULL != hdring_algorithm(choice->phase[k])->segment) {
            return true;
        }
    }
    return false;
}

/* The segment size of a pipelined choice: coll_hdring_<coll>_segment_bytes, or the model's for this size (the
 * model returns the first when it is set). */
static void choose_segment(const mca_coll_hdring_module_t *m, const mca_coll_hdring_call_t *call,
                           mca_coll_hdring_choice_t *choice)
{
    choice->segment = 0;
    if (choice->fallback || !pipelined(choice)) {
        return;
    }
    const hdring_model_t model = model_of(m, call->coll, call->comm_size, call->ordered);
    choice->segment = (size_t) hdring_cost_segment(choice->alg, &model, (double) call->bytes, choice->phase);
}

/* "; phases rhd, ring, ring" for a hierarchical algorithm, "" otherwise. */
static void describe_phases(const mca_coll_hdring_choice_t *choice, char *out, size_t len)
{
    static const char *const names[HDRING_NPHASES] = {"first within nodes", "across", "then within nodes"};
    int used = 0;
    out[0] = '\0';
    for (int k = 0; k < HDRING_NPHASES && used >= 0 && (size_t) used < len; ++k) {
        if (HDRING_ALG_NONE != choice->phase[k]) {
            used += snprintf(out + used, len - (size_t) used, "; %s %s", names[k], hdring_alg_name(choice->phase[k]));
        }
    }
}

static void trace(const mca_coll_hdring_module_t *m, const mca_coll_hdring_call_t *call,
                  const mca_coll_hdring_choice_t *choice)
{
    const char *coll = mca_coll_hdring_coll_name(call->coll);
    const char *kind = hdring_is_pow2(call->comm_size) ? "pof2" : "npof2";
    const char *order = call->ordered ? "; op not commutative: rank order, no ring" : "";
    char reason[448], upto[32], where[144] = "", details[224];

    if (SIZE_MAX == choice->hi) {
        snprintf(upto, sizeof(upto), "up");
    } else {
        snprintf(upto, sizeof(upto), "to %zu B", choice->hi);
    }
    if (m->topo.shape.nodes > 1 || hdring_shape_crowded(&m->topo.shape)) {
        char shape[128];
        hdring_shape_describe(&m->topo.shape, shape, sizeof(shape));
        snprintf(where, sizeof(where), " %s %s", m->topo.shape.nodes > 1 ? "across" : "on", shape);
    }
    describe_phases(choice, details, sizeof(details));
    if (0 != choice->segment) {
        const size_t used = strlen(details);
        if (0 != m->state->config.segment_bytes[call->coll]) {
            snprintf(details + used, sizeof(details) - used, "; segments of %zu B by coll_hdring_%s_segment_bytes",
                     choice->segment, coll);
        } else {
            snprintf(details + used, sizeof(details) - used, "; segments of %zu B by the cost model",
                     choice->segment);
        }
    }
    switch (choice->why) {
    case MCA_COLL_HDRING_WHY_FORCED:
        snprintf(reason, sizeof(reason), "forced by coll_hdring_%s_algorithm%s", coll, details);
        break;
    case MCA_COLL_HDRING_WHY_UNORDERED:
        snprintf(reason, sizeof(reason),
                 "forced by coll_hdring_%s_algorithm: %s reorders operands and the op is not commutative", coll,
                 hdring_alg_name(choice->alg));
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
                     call->comm_size, where, choice->lo, upto, details, order);
        }
        break;
    }
    opal_output(mca_coll_hdring_component.output, "hdring: %s np=%d bytes=%zu alg=%s (%s)", coll, call->comm_size,
                call->bytes, choice->fallback ? "fallback" : hdring_alg_name(choice->alg), reason);
}

void mca_coll_hdring_decide(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                            const mca_coll_hdring_call_t *call, mca_coll_hdring_choice_t *choice)
{
    mca_coll_hdring_plan_t *plan = &m->state->plan[call->coll][call->ordered ? 1 : 0];
    if (plan->has_last && plan->last_bytes == call->bytes) {
        *choice = plan->last;
    } else {
        choose(m, plan, call, choice);
        choose_segment(m, call, choice);
        plan->last = *choice;
        plan->last_bytes = call->bytes;
        plan->has_last = true;
    }
    if (m->state->config.verbose >= 1 && 0 == ompi_comm_rank(comm)) {
        trace(m, call, choice);
    }
}

void mca_coll_hdring_args(const mca_coll_hdring_module_t *m, const mca_coll_hdring_choice_t *choice,
                          const hdring_partition_t *parts, bool ordered, size_t elem_size, hdring_blocks_t *blocks,
                          hdring_args_t *args)
{
    const bool renumbered = mca_coll_hdring_in_locality_order(ordered) && NULL != m->topo.order;
    blocks->parts = parts;
    blocks->block_of = renumbered ? m->topo.order : NULL;
    blocks->owner_of = renumbered ? m->topo.vrank_of : NULL;
    args->blocks = NULL == parts ? NULL : blocks;
    args->ordered = ordered;
    args->near_first = m->topo.shape.nodes > 1 && m->topo.shape.ppn_max > 1;
    args->nodes = m->topo.shape.nodes;
    args->ppn = m->topo.shape.ppn;
    args->root = renumbered ? m->topo.vrank_of[args->root] : args->root;
    args->segment = 0 == elem_size ? 0 : (choice->segment + elem_size - 1) / elem_size; /* never fewer bytes */
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        args->phase[k] = choice->phase[k];
    }
}
