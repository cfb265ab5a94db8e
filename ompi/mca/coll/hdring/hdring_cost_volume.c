/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring cost model (hdring_cost.h): what each algorithm moves and reduces, and where messages go in pieces. */
#include "hdring_cost_link.h"

/* ---- volumes ---- */

static hdring_volume_t volume(double sent, double received, double reduced)
{
    hdring_volume_t v = {sent, received, reduced};
    return v;
}

static hdring_volume_t allreduce_volume(hdring_alg_t alg, const geometry_t *g, int rank, double n)
{
    const double p = g->p, q = g->pof2, rhd = 2 * (q - 1) / q * n, rhd_red = (q - 1) / q * n;
    hdring_fold_t f;
    hdring_fold_init(&f, g->p);
    const hdring_fold_role_t role = hdring_fold_role(&f, rank);

    switch (alg) {
    case HDRING_ALG_ALLREDUCE_RING:
        return volume(2 * (p - 1) / p * n, 2 * (p - 1) / p * n, (p - 1) / p * n);
    case HDRING_ALG_ALLREDUCE_RHD:
        switch (role) {
        case HDRING_FOLD_DROPPED:
            return volume(n, 1.5 * n, n / 2);
        case HDRING_FOLD_KEEPER:
            return volume(n / 2 + rhd + n, n + rhd, n / 2 + rhd_red);
        default:
            return volume(rhd, rhd, rhd_red);
        }
    case HDRING_ALG_ALLREDUCE_RECURSIVE_DOUBLING:
        switch (role) {
        case HDRING_FOLD_DROPPED:
            return volume(n, n, 0);
        case HDRING_FOLD_KEEPER:
            return volume((g->l + 1) * n, (g->l + 1) * n, (g->l + 1) * n);
        default:
            return volume(g->l * n, g->l * n, g->l * n);
        }
    default: { /* binary blocks */
        hdring_binblocks_t bb;
        int local;
        hdring_binblocks_init(&bb, g->p);
        const int b = hdring_binblocks_find(&bb, rank, &local);
        const double s = hdring_binblocks_size(&bb, b), pos = n / s, inner = (1 - 1 / s) * n;
        const double up = b > 0 ? pos : 0, down = b < bb.nblocks - 1 ? pos : 0;
        return volume(2 * inner + up + down, 2 * inner + up + down, inner + down);
    }
    }
}

hdring_volume_t hdring_cost_volume(hdring_alg_t alg, int p, int rank, double n)
{
    const geometry_t g = geometry(p);
    const double B = n / p;
    if (1 == p) {
        return volume(0, 0, 0);
    }
    switch (alg) {
    case HDRING_ALG_ALLREDUCE_RING:
    case HDRING_ALG_ALLREDUCE_RHD:
    case HDRING_ALG_ALLREDUCE_RECURSIVE_DOUBLING:
    case HDRING_ALG_ALLREDUCE_BINARY_BLOCKS:
        return allreduce_volume(alg, &g, rank, n);
    case HDRING_ALG_REDUCE_SCATTER_RING:
    case HDRING_ALG_REDUCE_SCATTER_BRUCK:
        return volume((p - 1) * B, (p - 1) * B, (p - 1) * B);
    case HDRING_ALG_REDUCE_SCATTER_RHD: /* commutative on a power of two: positions end at their owners */
    case HDRING_ALG_REDUCE_SCATTER_RECURSIVE_HALVING:
        return 0 == g.r ? volume(n - B, n - B, n - B) : volume(-1, -1, -1);
    case HDRING_ALG_ALLGATHER_RING:
    case HDRING_ALG_ALLGATHER_BRUCK:
        return volume(n - B, n - B, 0);
    case HDRING_ALG_ALLGATHER_RHD:
        return 0 == g.r ? volume(n - B, n - B, 0) : volume(-1, -1, -1);
    case HDRING_ALG_BCAST_FLAT: /* from root 0 */
        return volume(0 == rank ? (p - 1) * n : 0, 0 == rank ? 0 : n, 0);
    case HDRING_ALG_BCAST_CHAIN: /* from root 0 */
        return volume(rank < p - 1 ? n : 0, rank > 0 ? n : 0, 0);
    case HDRING_ALG_BCAST_DOUBLE_TREE: { /* from root 0: each half once to every rank, on to its children */
        if (2 == p) {
            return volume(0 == rank ? n : 0, 0 == rank ? 0 : n, 0);
        }
        const hdring_tree_t a = hdring_tree_double(p, rank, 0), b = hdring_tree_double(p, rank, 1);
        return volume((a.nchildren + b.nchildren) * n / 2, rank > 0 ? n : 0, 0);
    }
    default:
        return volume(-1, -1, -1);
    }
}

double hdring_cost_link_bytes(hdring_alg_t alg, const hdring_model_t *m, int node, double n)
{
    const hdring_algorithm_t *row = hdring_algorithm(alg);
    if (NULL == row || m->shape.nodes < 2 || m->shape.ppn < 1 || !grouped(m)) {
        return -1;
    }
    if (HDRING_ALG_NONE != row->inner) { /* the node's ranks each carry 1/L of the index groups' vector */
        return hdring_cost_volume(row->inner, m->shape.nodes, node, n).sent;
    }
    switch (alg) { /* one rank of each node sends across: the ring's per-rank volume */
    case HDRING_ALG_ALLREDUCE_RING:
    case HDRING_ALG_REDUCE_SCATTER_RING:
    case HDRING_ALG_ALLGATHER_RING:
        return hdring_cost_volume(alg, m->p, 0, n).sent;
    default:
        return -1;
    }
}

size_t hdring_cost_pieces_bytes(const hdring_shape_t *shape, hdring_coll_t coll, size_t configured)
{
    if (!hdring_shape_crowded(shape)) {
        return 0;
    }
    const size_t two_pieces = 2 * HDRING_PML_INLINE_BYTES;
    const bool a_core_alone = shape->ppn_max < 2 * shape->cores;
    return HDRING_COLL_ALLREDUCE == coll && a_core_alone && configured > two_pieces ? two_pieces : configured;
}
