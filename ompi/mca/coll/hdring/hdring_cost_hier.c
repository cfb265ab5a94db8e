/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring cost model (hdring_cost.h): the hierarchical algorithms, as their flat phases within the nodes and across
 * them. */
#include "hdring_cost_link.h"

/* ---- hierarchical ---- */

/* The flat algorithm of a collective the model picks on a sub-model (hdring_cost_pick); its time in *t. */
static hdring_alg_t fastest_flat(hdring_coll_t coll, const hdring_model_t *m, double n, double *t)
{
    hdring_alg_t algs[HDRING_NALGS];
    double times[HDRING_NALGS];
    const int nalgs = hdring_algorithms_of(coll, algs);
    for (int a = 0; a < nalgs; ++a) {
        times[a] = HDRING_ALG_NONE == hdring_algorithm(algs[a])->inner ? hdring_cost_time(algs[a], m, n, NULL) : -1;
    }
    const int best = hdring_cost_pick(times, nalgs);
    *t = times[best];
    return algs[best];
}

/* A local copy of n bytes (regrid), every rank at once: at the local link's speed. */
static double copy_time(const hdring_model_t *m, double n) { return n * local_link(m, m->p).beta; }

/* The phases of a hierarchical allreduce, reduce_scatter or allgather move their blocks whole (hdring_hier.c). */
static hdring_model_t whole(hdring_model_t sub)
{
    sub.segment = HUGE_VAL;
    return sub;
}

double hdring_cost_allreduce_hier(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    const hdring_model_t node = whole(hdring_cost_node_model(m)), across = whole(hdring_cost_index_model(m, m->shape.ppn));
    double first, last;
    phase[HDRING_PHASE_INTRA_FIRST] = fastest_flat(HDRING_COLL_REDUCE_SCATTER, &node, n, &first);
    phase[HDRING_PHASE_INTER] = hdring_algorithm(self)->inner;
    phase[HDRING_PHASE_INTRA_LAST] = fastest_flat(HDRING_COLL_ALLGATHER, &node, n, &last);
    return first + hdring_cost_time(phase[HDRING_PHASE_INTER], &across, n / m->shape.ppn, NULL) + last;
}

double hdring_cost_reduce_scatter_hier(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    const hdring_model_t node = whole(hdring_cost_node_model(m)), across = whole(hdring_cost_index_model(m, m->shape.ppn));
    double first;
    phase[HDRING_PHASE_INTRA_FIRST] = fastest_flat(HDRING_COLL_REDUCE_SCATTER, &node, n, &first);
    phase[HDRING_PHASE_INTER] = hdring_algorithm(self)->inner;
    phase[HDRING_PHASE_INTRA_LAST] = HDRING_ALG_NONE;
    return (m->shape.index_major ? 0 : copy_time(m, n)) + first +
           hdring_cost_time(phase[HDRING_PHASE_INTER], &across, n / m->shape.ppn, NULL);
}

double hdring_cost_allgather_hier(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    const hdring_model_t node = whole(hdring_cost_node_model(m)), across = whole(hdring_cost_index_model(m, m->shape.ppn));
    double last;
    phase[HDRING_PHASE_INTRA_FIRST] = HDRING_ALG_NONE;
    phase[HDRING_PHASE_INTER] = hdring_algorithm(self)->inner;
    phase[HDRING_PHASE_INTRA_LAST] = fastest_flat(HDRING_COLL_ALLGATHER, &node, n, &last);
    return hdring_cost_time(phase[HDRING_PHASE_INTER], &across, n / m->shape.ppn, NULL) + last +
           (m->shape.index_major ? 0 : copy_time(m, n));
}

double hdring_cost_bcast_hier(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    const hdring_model_t node = hdring_cost_node_model(m), across = hdring_cost_index_model(m, 1);
    double last;
    phase[HDRING_PHASE_INTRA_FIRST] = HDRING_ALG_NONE;
    phase[HDRING_PHASE_INTER] = hdring_algorithm(self)->inner;
    phase[HDRING_PHASE_INTRA_LAST] = fastest_flat(HDRING_COLL_BCAST, &node, n, &last);
    return hdring_cost_time(phase[HDRING_PHASE_INTER], &across, n, NULL) + last;
}

/* ---- hierarchical, levels overlapped per segment (hdring_hier_pipelined.c) ---- */

/* Segments of wave w in rounds lo..hi of theirs: segment k is in round w - k stagger. */
static double in_rounds(double segs, double stagger, double w, double lo, double hi)
{
    const double first = w - hi > 0 ? ceil((w - hi) / stagger) : 0;
    const double last = floor((w - lo) / stagger) < segs - 1 ? floor((w - lo) / stagger) : segs - 1;
    return w >= lo && last >= first ? last - first + 1 : 0;
}

/* Time in segments of s bytes (n/s of them, at least one), wave by wave (hdring_hier_pipelined.c). The operands
 * the wave before received are reduced first, on the core that then copies the wave's messages within the node in;
 * meanwhile the messages across the node's link whose data are in place travel (the node's L index groups share
 * it), and those that send what was just reduced follow the reductions. A wave ends a latency after its last
 * message. */
static double pipelined_time(const hdring_model_t *m, double n, double s)
{
    const int L = m->shape.ppn, N = m->shape.nodes;
    const hdring_model_t node = hdring_cost_node_model(m), across = hdring_cost_index_model(m, L);
    const double segs = s > 0 && s < n ? ceil(n / s) : 1, seg = n / segs;
    const double rounds = 2 * (L - 1) + 2 * (N - 1), stagger = ceil(rounds / (HDRING_MAX_INFLIGHT / 2));
    const double slice = seg / L, block = slice / N;
    const link_t local = local_link(&node, L), network = link_shift(&across, 1);
    double t = 0, reducing = 0;
    for (double w = 0; w < (segs - 1) * stagger + rounds; ++w) {
        const double a = in_rounds(segs, stagger, w, 0, L - 2), b_rs = in_rounds(segs, stagger, w, L - 1, L + N - 3);
        const double b_ag = in_rounds(segs, stagger, w, L + N - 2, L + 2 * N - 4);
        const double c = in_rounds(segs, stagger, w, L + 2 * N - 3, 2 * L + 2 * N - 5);
        /* rounds 1 .. L+N-2 send what the wave before reduced: B's reduce-scatter (but its first round on nodes
         * of one rank) and the first round of its allgather */
        const double b_after = b_rs - (1 == L ? in_rounds(segs, stagger, w, 0, 0) : 0) +
                               in_rounds(segs, stagger, w, L + N - 2, L + N - 2);
        const double within = a + c > 0 ? transfers(local, (int) (a + c), (a + c) * slice) : 0;
        const double between = b_rs + b_ag > 0 ? transfers(network, (int) (b_rs + b_ag), (b_rs + b_ag) * block) : 0;
        const double after = b_after > 0 ? reducing + transfers(network, (int) b_after, b_after * block) : 0;
        t += max2(within + reducing, max2(between, after)) +
             (b_rs + b_ag > 0 ? network.alpha : a + c > 0 ? local.alpha : 0);
        reducing = reduction(&node, a * slice, L) + reduction(&across, b_rs * block, N);
    }
    return t + reducing;
}

/* m->segment, or the fastest of 1, 2, 4 or 8 segments of at least 4 KiB; its time in *t. With more, the ranks of a
 * ring fall out of the waves' step (each waits for its neighbour's reductions) in ways this model does not see: on
 * the simulator 16 to 128 segments of 4 MiB ran up to 2x slower than it predicts, where 8 stay within 25%
 * (test_hier). */
static double pipelined_segment(const hdring_model_t *m, double n, double *t)
{
    if (m->segment > 0) {
        *t = pipelined_time(m, n, m->segment);
        return m->segment;
    }
    double best = 0;
    *t = pipelined_time(m, n, 0);
    for (double segs = 2; segs <= 8 && n / segs >= 4096; segs *= 2) {
        consider(ceil(n / segs), pipelined_time(m, n, ceil(n / segs)), &best, t);
    }
    return best;
}

double hdring_segment_allreduce_hier_pipelined(const hdring_model_t *m, double n)
{
    double t;
    return pipelined_segment(m, n, &t);
}

double hdring_cost_allreduce_hier_pipelined(hdring_alg_t self, const hdring_model_t *m, double n,
                                            hdring_alg_t *phase)
{
    double t;
    (void) self;
    phase[HDRING_PHASE_INTRA_FIRST] = HDRING_ALG_REDUCE_SCATTER_RING;
    phase[HDRING_PHASE_INTER] = HDRING_ALG_ALLREDUCE_RING;
    phase[HDRING_PHASE_INTRA_LAST] = HDRING_ALG_ALLGATHER_RING;
    pipelined_segment(m, n, &t);
    return t;
}
