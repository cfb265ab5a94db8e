/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Recursive halving / doubling kernels: see hdring_kernels.h. */
#include "hdring_kernels.h"

int hdring_rhd_reduce_scatter(const hdring_xport_t *x, const hdring_group_t *g, hdring_rhd_order_t order,
                              const hdring_positions_t *pos, hdring_buf_t src, hdring_buf_t acc)
{
    const int l = g->log2_size, v = g->vrank;
    hdring_buf_t cur = src; /* where this vrank's partial data lives: src until the first reduction */
    int lo = 0, hi = 1 << l;

    for (int k = 0; k < l; ++k) {
        const int partner = v ^ hdring_rhd_mask(order, l, k), mid = lo + (hi - lo) / 2;
        /* the vrank whose mask bit is set, the larger of the pair, keeps the upper half */
        const bool keep_upper = partner < v;
        const int keep_lo = keep_upper ? mid : lo, keep_hi = keep_upper ? hi : mid;
        const int give_lo = keep_upper ? lo : mid, give_hi = keep_upper ? mid : hi;
        const size_t keep_at = hdring_pos_offset(pos, keep_lo);
        const size_t keep_count = hdring_pos_offset(pos, keep_hi) - keep_at;
        const size_t give_at = hdring_pos_offset(pos, give_lo);
        const int peer = hdring_group_rank(g, partner);
        int rc;

        rc = hdring_sendrecv(x, hdring_msg(peer, hdring_at(cur, give_at), hdring_pos_offset(pos, give_hi) - give_at),
                             hdring_msg(peer, hdring_at(HDRING_BUF_TMP, 0), keep_count));
        if (HDRING_OK != rc) {
            return rc;
        }
        if (partner < v) { /* the partner's group precedes ours */
            rc = hdring_reduce(x, hdring_at(HDRING_BUF_TMP, 0), hdring_at(cur, keep_at), hdring_at(acc, keep_at),
                               keep_count);
        } else {
            rc = hdring_reduce(x, hdring_at(cur, keep_at), hdring_at(HDRING_BUF_TMP, 0), hdring_at(acc, keep_at),
                               keep_count);
        }
        if (HDRING_OK != rc) {
            return rc;
        }
        cur = acc;
        lo = keep_lo;
        hi = keep_hi;
    }
    if (0 == l) {
        return hdring_copy(x, hdring_at(src, 0), hdring_at(acc, 0), hdring_pos_offset(pos, 1));
    }
    return HDRING_OK;
}

int hdring_rhd_allgather(const hdring_xport_t *x, const hdring_group_t *g, hdring_rhd_order_t order,
                         const hdring_positions_t *pos, hdring_buf_t acc)
{
    const int l = g->log2_size, v = g->vrank;

    for (int k = l - 1; k >= 0; --k) {
        int lo, hi, wide_lo, wide_hi;
        hdring_rhd_range(order, l, v, k + 1, &lo, &hi);      /* what this vrank holds */
        hdring_rhd_range(order, l, v, k, &wide_lo, &wide_hi); /* what it holds after this step */
        /* the partner holds the other half of [wide_lo, wide_hi) */
        const int other_lo = lo == wide_lo ? hi : wide_lo, other_hi = lo == wide_lo ? wide_hi : lo;
        const size_t at = hdring_pos_offset(pos, lo), other_at = hdring_pos_offset(pos, other_lo);
        const int peer = hdring_group_rank(g, v ^ hdring_rhd_mask(order, l, k));
        int rc = hdring_sendrecv(x, hdring_msg(peer, hdring_at(acc, at), hdring_pos_offset(pos, hi) - at),
                                 hdring_msg(peer, hdring_at(acc, other_at), hdring_pos_offset(pos, other_hi) - other_at));
        if (HDRING_OK != rc) {
            return rc;
        }
    }
    return HDRING_OK;
}

int hdring_recursive_doubling(const hdring_xport_t *x, const hdring_group_t *g, size_t count, hdring_buf_t src,
                              hdring_buf_t acc)
{
    const int v = g->vrank;
    hdring_buf_t cur = src;

    for (int k = 0; k < g->log2_size; ++k) {
        const int partner = v ^ (1 << k), peer = hdring_group_rank(g, partner);
        int rc = hdring_sendrecv(x, hdring_msg(peer, hdring_at(cur, 0), count),
                                 hdring_msg(peer, hdring_at(HDRING_BUF_TMP, 0), count));
        if (HDRING_OK != rc) {
            return rc;
        }
        /* both partners compute this same reduction: the transport must give them the same bits */
        if (partner < v) {
            rc = hdring_reduce_replicated(x, hdring_at(HDRING_BUF_TMP, 0), hdring_at(cur, 0), hdring_at(acc, 0), count);
        } else {
            rc = hdring_reduce_replicated(x, hdring_at(cur, 0), hdring_at(HDRING_BUF_TMP, 0), hdring_at(acc, 0), count);
        }
        if (HDRING_OK != rc) {
            return rc;
        }
        cur = acc;
    }
    return cur == src ? hdring_copy(x, hdring_at(src, 0), hdring_at(acc, 0), count) : HDRING_OK;
}
