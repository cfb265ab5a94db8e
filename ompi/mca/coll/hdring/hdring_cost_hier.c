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
