/* hdring plans: see hdring_plan.h. */
#include "hdring_plan.h"

#include <stdint.h>

#include "hdring_cost.h"

#define SCAN_FIRST 1.0
#define SCAN_LAST 17592186044416.0 /* 2^44 bytes: the last segment extends to any size */
#define SCAN_STEP 1.1

/* The algorithm of `coll` with that role (every collective has one latency and one bandwidth algorithm). */
static hdring_alg_t with_role(hdring_coll_t coll, hdring_role_t role)
{
    hdring_alg_t algs[HDRING_NALGS];
    const int n = hdring_algorithms_of(coll, algs);
    for (int a = 0; a < n; ++a) {
        if (hdring_algorithm(algs[a])->role == role) {
            return algs[a];
        }
    }
    return HDRING_NALGS;
}

/* The candidate the model predicts fastest at `bytes`; a tie goes to the one listed first. */
static hdring_alg_t fastest(const hdring_alg_t *algs, int nalgs, const hdring_plan_input_t *in, double bytes)
{
    int best = 0;
    double best_time = hdring_cost_time(algs[0], in->p, bytes, in->ordered, &in->cost);
    for (int a = 1; a < nalgs; ++a) {
        const double t = hdring_cost_time(algs[a], in->p, bytes, in->ordered, &in->cost);
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
static void add_segment(hdring_plan_t *plan, int room, size_t upto, hdring_alg_t alg, hdring_why_t why)
{
    const int last = plan->nsegments - 1;
    if (last >= 0 && ((plan->seg[last].alg == alg && plan->seg[last].why == why) || plan->nsegments >= room)) {
        plan->seg[last].upto = upto;
    } else {
        hdring_plan_segment_t *s = &plan->seg[plan->nsegments++];
        s->upto = upto;
        s->alg = alg;
        s->why = why;
    }
}

void hdring_plan_build(const hdring_plan_input_t *in, hdring_plan_t *plan)
{
    const hdring_alg_t latency = with_role(in->coll, HDRING_ROLE_LATENCY);
    const hdring_alg_t bandwidth = with_role(in->coll, HDRING_ROLE_BANDWIDTH);
    const bool bandwidth_ok = !in->ordered || hdring_algorithm(bandwidth)->keeps_order;
    const size_t small = in->small, large = bandwidth_ok ? in->large : 0;
    hdring_alg_t all[HDRING_NALGS], algs[HDRING_NALGS];
    int nalgs = 0;

    /* the model picks among what the thresholds leave: not the latency algorithm above a set small
     * threshold, not the bandwidth one below a set large one, never one that reorders an ordered operation */
    const int nall = hdring_algorithms_of(in->coll, all);
    for (int a = 0; a < nall; ++a) {
        if ((in->ordered && !hdring_algorithm(all[a])->keeps_order) || (small > 0 && all[a] == latency) ||
            (large > 0 && all[a] == bandwidth)) {
            continue;
        }
        algs[nalgs++] = all[a];
    }
    const int model_room = HDRING_MAX_SEGMENTS - (large > 0 ? 1 : 0); /* the large segment keeps its slot */
    plan->nsegments = 0;
    if (small > 0) {
        add_segment(plan, HDRING_MAX_SEGMENTS, small, latency, HDRING_WHY_SMALL);
    }
    const double first = small > 0 ? (double) small + 1 : SCAN_FIRST;
    const double last = large > 0 ? (double) large - 1 : SCAN_LAST;
    if (nalgs > 0 && first <= last) {
        double at = first;
        hdring_alg_t winner = fastest(algs, nalgs, in, at);
        while (at < last) {
            const double next = at * SCAN_STEP + 1 < last ? at * SCAN_STEP + 1 : last;
            const hdring_alg_t w = fastest(algs, nalgs, in, next);
            if (w != winner) { /* the first size where w wins, by bisection */
                double lo = at, hi = next;
                while (hi - lo > 1) {
                    const double mid = lo + (hi - lo) / 2;
                    if (fastest(algs, nalgs, in, mid) == winner) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                add_segment(plan, model_room, (size_t) lo, winner, HDRING_WHY_MODEL);
                winner = w;
            }
            at = next;
        }
        add_segment(plan, model_room, large > 0 ? large - 1 : SIZE_MAX, winner, HDRING_WHY_MODEL);
    }
    if (large > 0) {
        add_segment(plan, HDRING_MAX_SEGMENTS, SIZE_MAX, bandwidth, HDRING_WHY_LARGE);
    }
}

const hdring_plan_segment_t *hdring_plan_lookup(const hdring_plan_t *plan, size_t bytes, size_t *lo)
{
    int s = 0;
    while (s < plan->nsegments - 1 && bytes > plan->seg[s].upto) {
        ++s;
    }
    *lo = s > 0 ? plan->seg[s - 1].upto + 1 : 0;
    return &plan->seg[s];
}
