/*
 * coll/hdring decision: which algorithm serves a call, and why. The only place that chooses.
 *
 * A forced algorithm (coll_hdring_<coll>_algorithm) runs when it can serve the call; a non-commutative
 * operation with ring goes to the fallback. With auto, each communicator builds on first use a plan per
 * collective: sizes up to coll_hdring_<coll>_small_bytes_<pof2|npof2> (when set) use the latency algorithm,
 * sizes from coll_hdring_<coll>_large_bytes_* (when set) use ring, and everything else goes to the fastest
 * algorithm the cost model (hdring_cost.h, with the coll_hdring_model_* parameters: the network ones when the
 * communicator's ranks sit on more than one node) predicts for the communicator's size. Unset thresholds (0, the
 * default) thus sit where the model puts the crossovers for each p. Non-commutative operations never get ring.
 * The trace says which rule decided.
 */
#include "ompi_config.h"

#include <stdint.h>
#include <stdio.h>

#include "opal/util/output.h"

#include "coll_hdring.h"
#include "hdring_cost.h"
#include "hdring_pattern.h"

#define SCAN_FIRST 1.0
#define SCAN_LAST 17592186044416.0 /* 2^44 bytes: the last segment extends to any size */
#define SCAN_STEP 1.1

static hdring_cost_coll_t cost_coll(hdring_coll_t coll)
{
    switch (coll) {
    case HDRING_ALLREDUCE:
        return HDRING_COST_ALLREDUCE;
    case HDRING_REDUCE_SCATTER:
    case HDRING_REDUCE_SCATTER_BLOCK:
        return HDRING_COST_REDUCE_SCATTER;
    case HDRING_ALLGATHER:
        return HDRING_COST_ALLGATHER;
    default:
        return HDRING_COST_BCAST;
    }
}

static hdring_alg_t latency_alg(hdring_coll_t coll)
{
    return HDRING_ALLREDUCE == coll ? HDRING_ALG_RECURSIVE_DOUBLING
                                    : HDRING_BCAST == coll ? HDRING_ALG_BINOMIAL : HDRING_ALG_RHD;
}

static hdring_alg_t ring_alg(hdring_coll_t coll) { return HDRING_BCAST == coll ? HDRING_ALG_SCATTER_RING : HDRING_ALG_RING; }

static hdring_cost_params_t model_params(const mca_coll_hdring_config_t *cfg, bool spans_nodes)
{
    const double latency_us = spans_nodes ? cfg->model_network_latency_us : cfg->model_latency_us;
    const double bandwidth_mbs = spans_nodes ? cfg->model_network_bandwidth_mbs : cfg->model_bandwidth_mbs;
    hdring_cost_params_t c = {latency_us * 1e-6, 1.0 / (bandwidth_mbs * 1e6), 1.0 / (cfg->model_reduce_mbs * 1e6)};
    return c;
}

/* The candidate the model predicts fastest at `bytes`; a tie goes to the one listed first. */
static hdring_alg_t fastest(const hdring_alg_t *algs, int nalgs, hdring_cost_coll_t cc, int p, double bytes,
                            bool ordered, const hdring_cost_params_t *c)
{
    int best = 0;
    double best_time = hdring_cost_time(cc, algs[0], p, bytes, ordered, c);
    for (int a = 1; a < nalgs; ++a) {
        const double t = hdring_cost_time(cc, algs[a], p, bytes, ordered, c);
        if (t < best_time * (1 - 1e-9)) {
            best = a;
            best_time = t;
        }
    }
    return algs[best];
}

/* Appends a segment, or extends the last one when it has the same algorithm and reason. At most `room`
 * segments: past that, the last segment keeps its algorithm up to here (the model never finds that many
 * crossovers; the bound only keeps the plan in its array). */
static void add_segment(mca_coll_hdring_plan_t *plan, int room, size_t upto, hdring_alg_t alg, int why)
{
    const int last = plan->nsegments - 1;
    if (last >= 0 && ((plan->alg[last] == alg && plan->why[last] == why) || plan->nsegments >= room)) {
        plan->upto[last] = upto;
    } else {
        plan->upto[plan->nsegments] = upto;
        plan->alg[plan->nsegments] = alg;
        plan->why[plan->nsegments] = why;
        ++plan->nsegments;
    }
}

static void build_plan(const mca_coll_hdring_config_t *cfg, bool spans_nodes, hdring_coll_t coll, int p,
                       bool ordered, mca_coll_hdring_plan_t *plan)
{
    const int kind = hdring_is_pow2(p) ? HDRING_POF2 : HDRING_NPOF2;
    const size_t small = cfg->small_bytes[coll][kind];
    const size_t large = ordered ? 0 : cfg->large_bytes[coll][kind]; /* ring cannot keep operand order */
    const hdring_cost_coll_t cc = cost_coll(coll);
    const hdring_cost_params_t c = model_params(cfg, spans_nodes);
    hdring_alg_t all[4], algs[4];
    int nalgs = 0;

    /* the model picks among what the thresholds leave: not the latency algorithm above a set small
     * threshold, not ring below a set large one, never ring for an ordered operation */
    const int nall = hdring_cost_algorithms(cc, all);
    for (int a = 0; a < nall; ++a) {
        if ((ordered && !hdring_alg_keeps_order(all[a])) || (small > 0 && all[a] == latency_alg(coll)) ||
            (large > 0 && all[a] == ring_alg(coll))) {
            continue;
        }
        algs[nalgs++] = all[a];
    }
    const int model_room = HDRING_MAX_SEGMENTS - (large > 0 ? 1 : 0); /* the large segment keeps its slot */
    plan->nsegments = 0;
    if (small > 0) {
        add_segment(plan, HDRING_MAX_SEGMENTS, small, latency_alg(coll), MCA_COLL_HDRING_WHY_SMALL);
    }
    const double first = small > 0 ? (double) small + 1 : SCAN_FIRST;
    const double last = large > 0 ? (double) large - 1 : SCAN_LAST;
    if (nalgs > 0 && first <= last) {
        double at = first;
        hdring_alg_t winner = fastest(algs, nalgs, cc, p, at, ordered, &c);
        while (at < last) {
            const double next = at * SCAN_STEP + 1 < last ? at * SCAN_STEP + 1 : last;
            const hdring_alg_t w = fastest(algs, nalgs, cc, p, next, ordered, &c);
            if (w != winner) { /* the first size where w wins, by bisection */
                double lo = at, hi = next;
                while (hi - lo > 1) {
                    const double mid = lo + (hi - lo) / 2;
                    if (fastest(algs, nalgs, cc, p, mid, ordered, &c) == winner) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                add_segment(plan, model_room, (size_t) lo, winner, MCA_COLL_HDRING_WHY_MODEL);
                winner = w;
            }
            at = next;
        }
        add_segment(plan, model_room, large > 0 ? large - 1 : SIZE_MAX, winner, MCA_COLL_HDRING_WHY_MODEL);
    }
    if (large > 0) {
        add_segment(plan, HDRING_MAX_SEGMENTS, SIZE_MAX, ring_alg(coll), MCA_COLL_HDRING_WHY_LARGE);
    }
    plan->built = true;
}

static void choose(mca_coll_hdring_module_t *m, const mca_coll_hdring_call_t *call, mca_coll_hdring_choice_t *choice)
{
    const int forced = m->config.algorithm[call->coll];

    choice->fallback = false;
    choice->lo = choice->hi = 0;
    if (0 != forced) {
        choice->alg = mca_coll_hdring_forced_alg(call->coll, forced);
        choice->why = MCA_COLL_HDRING_WHY_FORCED;
        if (call->ordered && !hdring_alg_keeps_order(choice->alg)) {
            choice->fallback = true;
            choice->why = MCA_COLL_HDRING_WHY_UNORDERED;
        }
        return;
    }
    mca_coll_hdring_plan_t *plan = &m->plan[call->coll][call->ordered ? 1 : 0];
    if (!plan->built) {
        build_plan(&m->config, m->spans_nodes, call->coll, call->comm_size, call->ordered, plan);
    }
    int s = 0;
    while (s < plan->nsegments - 1 && call->bytes > plan->upto[s]) {
        ++s;
    }
    choice->alg = plan->alg[s];
    choice->why = plan->why[s];
    choice->lo = s > 0 ? plan->upto[s - 1] + 1 : 0;
    choice->hi = plan->upto[s];
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
    switch (choice->why) {
    case MCA_COLL_HDRING_WHY_FORCED:
        snprintf(reason, sizeof(reason), "forced by coll_hdring_%s_algorithm", coll);
        break;
    case MCA_COLL_HDRING_WHY_UNORDERED:
        snprintf(reason, sizeof(reason),
                 "forced by coll_hdring_%s_algorithm: %s reorders operands and the op is not commutative", coll,
                 hdring_alg_name(choice->alg));
        break;
    case MCA_COLL_HDRING_WHY_SMALL:
        snprintf(reason, sizeof(reason), "auto: <= coll_hdring_%s_small_bytes_%s = %zu%s", coll, kind, choice->hi,
                 order);
        break;
    case MCA_COLL_HDRING_WHY_LARGE:
        snprintf(reason, sizeof(reason), "auto: >= coll_hdring_%s_large_bytes_%s = %zu", coll, kind, choice->lo);
        break;
    default:
        snprintf(reason, sizeof(reason), "auto: cost model's fastest for p=%d%s from %zu B %s%s", call->comm_size,
                 spans_nodes ? " across nodes" : "", choice->lo, upto, order);
        break;
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
