/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Binary-block kernels: see hdring_kernels.h. */
#include "hdring_kernels.h"

/* Block b reduce-scatters on a coarsening of block 0's fine positions: its position q is fine positions
 * [q * 2^(k0-kb), (q+1) * 2^(k0-kb)), held (distance doubling) by the block's local rank bit_reverse(q). */
static hdring_positions_t block_positions(const hdring_binblocks_t *bb, int b, const hdring_positions_t *fine)
{
    hdring_positions_t pos = {fine->parts, fine->stride << (bb->log2_size[0] - bb->log2_size[b]), fine->groups};
    return pos;
}

static int position_holder(const hdring_binblocks_t *bb, int b, int q)
{
    return bb->first[b] + hdring_bit_reverse(q, bb->log2_size[b]);
}

/* The pieces of block b's position q as held in block b - 1 (2^(k(b-1) - kb) of them), one message each, in
 * *msgs (memory the call takes from the transport) and *nmsgs. */
static int pieces_of(const hdring_xport_t *x, const hdring_binblocks_t *bb, int b, int q,
                     const hdring_positions_t *fine, hdring_buf_t buf, hdring_msg_t **msgs, int *nmsgs)
{
    const int ratio = 1 << (bb->log2_size[b - 1] - bb->log2_size[b]);
    const hdring_positions_t up = block_positions(bb, b - 1, fine);

    *msgs = hdring_take(x, (size_t) ratio, sizeof(**msgs));
    if (NULL == *msgs) {
        return HDRING_ERR_NOMEM;
    }
    for (int t = 0; t < ratio; ++t) {
        const int j = q * ratio + t;
        const size_t at = hdring_pos_offset(&up, j);
        (*msgs)[t] = hdring_msg(position_holder(bb, b - 1, j), hdring_at(buf, at), hdring_pos_offset(&up, j + 1) - at);
    }
    *nmsgs = ratio;
    return HDRING_OK;
}

int hdring_binblocks_reduce(const hdring_xport_t *x, const hdring_binblocks_t *bb, const hdring_positions_t *fine,
                            hdring_buf_t src, hdring_buf_t acc)
{
    int u;
    const int b = hdring_binblocks_find(bb, x->rank, &u), kb = bb->log2_size[b];
    const hdring_group_t g = {kb, u, NULL, bb->first[b]};
    const hdring_positions_t pos = block_positions(bb, b, fine);
    const int q = hdring_bit_reverse(u, kb); /* this rank's position after the reduce-scatter */
    int rc;

    rc = hdring_rhd_reduce_scatter(x, &g, HDRING_RHD_DISTANCE_DOUBLING, &pos, src, acc);
    if (HDRING_OK == rc && b < bb->nblocks - 1) {
        /* the next smaller block (higher ranks) hands in its reduction of my position: the right operand */
        const int ratio = 1 << (kb - bb->log2_size[b + 1]);
        const size_t at = hdring_pos_offset(&pos, q), count = hdring_pos_offset(&pos, q + 1) - at;
        rc = hdring_recv(x, hdring_msg(position_holder(bb, b + 1, q / ratio), hdring_at(HDRING_BUF_TMP, 0), count));
        if (HDRING_OK == rc) {
            rc = hdring_reduce(x, hdring_at(acc, at), hdring_at(HDRING_BUF_TMP, 0), hdring_at(acc, at), count);
        }
    }
    if (HDRING_OK == rc && b > 0) {
        hdring_msg_t *msgs;
        int n;
        rc = pieces_of(x, bb, b, q, fine, acc, &msgs, &n);
        if (HDRING_OK == rc) {
            rc = hdring_exchange(x, msgs, n, NULL, 0);
        }
    }
    return rc;
}

int hdring_binblocks_broadcast(const hdring_xport_t *x, const hdring_binblocks_t *bb,
                               const hdring_positions_t *fine, hdring_buf_t acc)
{
    int u, rc = HDRING_OK;
    const int b = hdring_binblocks_find(bb, x->rank, &u), kb = bb->log2_size[b];
    const hdring_group_t g = {kb, u, NULL, bb->first[b]};
    const hdring_positions_t pos = block_positions(bb, b, fine);
    const int q = hdring_bit_reverse(u, kb);

    if (b > 0) {
        hdring_msg_t *msgs;
        int n;
        rc = pieces_of(x, bb, b, q, fine, acc, &msgs, &n);
        if (HDRING_OK == rc) {
            rc = hdring_exchange(x, NULL, 0, msgs, n);
        }
    }
    if (HDRING_OK == rc && b < bb->nblocks - 1) {
        const int ratio = 1 << (kb - bb->log2_size[b + 1]);
        const size_t at = hdring_pos_offset(&pos, q);
        rc = hdring_send(x, hdring_msg(position_holder(bb, b + 1, q / ratio), hdring_at(acc, at),
                                       hdring_pos_offset(&pos, q + 1) - at));
    }
    if (HDRING_OK == rc) {
        rc = hdring_rhd_allgather(x, &g, HDRING_RHD_DISTANCE_DOUBLING, &pos, acc);
    }
    return rc;
}
