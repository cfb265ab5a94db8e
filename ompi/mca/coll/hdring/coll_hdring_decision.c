/*
 * coll/hdring decision: which algorithm serves a call, and why. The only place that chooses.
 *
 * A forced algorithm (coll_hdring_<coll>_algorithm) runs when it can serve the call; a non-commutative
 * operation with an algorithm that reorders operands (ring) goes to the fallback. With auto, each communicator
 * builds on first use a plan per collective (hdring_plan.h): sizes up to coll_hdring_<coll>_small_bytes_<pof2|
 * npof2> (when set) use the latency algorithm, sizes from coll_hdring_<coll>_large_bytes_* (when set) the
 * bandwidth algorithm, and everything else the fastest the cost model (hdring_cost.h, with the coll_hdring_model_*
 * parameters: the network ones when the communicator's ranks sit on more than one node) predicts for the
 * communicator's size. The trace says which rule decided.
 */
#include "ompi_config.h"

#include <stdint.h>
#include <stdio.h>

#include "opal/util/output.h"

#include "coll_hdring.h"
#include "hdring_cost.h"

static hdring_cost_params_t model_params(const mca_coll_hdring_config_t *cfg, bool spans_nodes)
{
    const double latency_us = spans_nodes ? cfg->model_network_latency_us : cfg->model_latency_us;
    const double bandwidth_mbs = spans_nodes ? cfg->model_network_bandwidth_mbs : cfg->model_bandwidth_mbs;
    return hdring_cost_params_of(latency_us, bandwidth_mbs, cfg->model_reduce_mbs);
}

static void build_plan(const mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll, int p, bool ordered,
                       hdring_plan_t *plan)
{
    const int kind = hdring_is_pow2(p) ? HDRING_POF2 : HDRING_NPOF2;
    const hdring_plan_input_t in = {
        .coll = mca_coll_hdring_core_coll(coll),
        .p = p,
        .ordered = ordered,
        .small = m->config.small_bytes[coll][kind],
        .large = m->config.large_bytes[coll][kind],
        .cost = model_params(&m->config, m->spans_nodes),
    };
    hdring_plan_build(&in, plan);
}

static void choose(mca_coll_hdring_module_t *m, const mca_coll_hdring_call_t *call, mca_coll_hdring_choice_t *choice)
{
    const int forced = m->config.algorithm[call->coll];

    choice->fallback = false;
    choice->lo = choice->hi = 0;
    if (0 != forced) {
        choice->alg = hdring_alg_by_value(mca_coll_hdring_core_coll(call->coll), forced);
        choice->why = MCA_COLL_HDRING_WHY_FORCED;
        if (call->ordered && !hdring_algorithm(choice->alg)->keeps_order) {
            choice->fallback = true;
            choice->why = MCA_COLL_HDRING_WHY_UNORDERED;
        }
        return;
    }
    mca_coll_hdring_plan_t *plan = &m->plan[call->coll][call->ordered ? 1 : 0];
    if (!plan->built) {
        build_plan(m, call->coll, call->comm_size, call->ordered, &plan->plan);
        plan->built = true;
    }
    const hdring_plan_segment_t *seg = hdring_plan_lookup(&plan->plan, call->bytes, &choice->lo);
    choice->alg = seg->alg;
    choice->why = MCA_COLL_HDRING_WHY_PLAN;
    choice->plan_why = seg->why;
    choice->hi = seg->upto;
}

static void trace(const mca_coll_hdring_call_t *call, const mca_coll_hdring_choice_t *choice, bool spans_nodes)
{
    const char *coll = mca_coll_hdring_coll_name(call->coll);
    const char *kind = hdring_is_pow2(call->comm_size) ? "pof2" : "npof2";
    const char *order = call->ordered ? "; op not commutative: no ring" : "";
    char reason[200], upto[32];

    if (SIZE_MAX == choice->hi) {
        snprintf(upto, sizeof(upto), "up");
    } else {
        snprintf(upto, sizeof(upto), "to %zu B", choice->hi);
    }
    if (MCA_COLL_HDRING_WHY_FORCED == choice->why) {
        snprintf(reason, sizeof(reason), "forced by coll_hdring_%s_algorithm", coll);
    } else if (MCA_COLL_HDRING_WHY_UNORDERED == choice->why) {
        snprintf(reason, sizeof(reason),
                 "forced by coll_hdring_%s_algorithm: %s reorders operands and the op is not commutative", coll,
                 hdring_alg_name(choice->alg));
    } else if (HDRING_WHY_SMALL == choice->plan_why) {
        snprintf(reason, sizeof(reason), "auto: <= coll_hdring_%s_small_bytes_%s = %zu%s", coll, kind, choice->hi,
                 order);
    } else if (HDRING_WHY_LARGE == choice->plan_why) {
        snprintf(reason, sizeof(reason), "auto: >= coll_hdring_%s_large_bytes_%s = %zu", coll, kind, choice->lo);
    } else {
        snprintf(reason, sizeof(reason), "auto: cost model's fastest for p=%d%s from %zu B %s%s", call->comm_size,
                 spans_nodes ? " across nodes" : "", choice->lo, upto, order);
    }
    opal_output(mca_coll_hdring_component.output, "hdring: %s np=%d bytes=%zu alg=%s (%s)", coll, call->comm_size,
                call->bytes, choice->fallback ? "fallback" : hdring_alg_name(choice->alg), reason);
}

void mca_coll_hdring_decide(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                            const mca_coll_hdring_call_t *call, mca_coll_hdring_choice_t *choice)
{
    choose(m, call, choice);
    if (m->config.verbose >= 1 && 0 == ompi_comm_rank(comm)) {
        trace(call, choice, m->spans_nodes);
    }
}
