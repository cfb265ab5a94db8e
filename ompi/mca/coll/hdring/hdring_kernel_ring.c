/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Ring kernels: see hdring_kernels.h. */
#include "hdring_kernels.h"

static int ring_mod(int a, int p) { return ((a % p) + p) % p; }

/* Shared by both forms. The running reduction of a block is kept between steps in acc at the block's offset,
 * or, with acc == TMP (block form), in TMP[slot, slot + max block), whence the final one is copied to dst. */
static int ring_reduce_scatter(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t in,
                               hdring_buf_t acc, size_t slot, hdring_loc_t dst)
{
    const int p = x->size, r = x->rank;
    const int use_slot = HDRING_BUF_TMP == acc;
    const int right = ring_mod(r + 1, p), left = ring_mod(r - 1, p);
    int rc;

    if (1 == p) {
        return hdring_copy(x, hdring_at(in, hdring_block_offset(blocks, 0)),
                           use_slot ? dst : hdring_at(acc, hdring_block_offset(blocks, 0)), hdring_block_count(blocks, 0));
    }
    for (int s = 0; s < p - 1; ++s) {
        const int send_block = ring_mod(r - s - 1, p), recv_block = ring_mod(r - s - 2, p);
        const size_t recv_count = hdring_block_count(blocks, recv_block);
        hdring_loc_t from, into;

        if (0 == s) {
            from = hdring_at(in, hdring_block_offset(blocks, send_block));
        } else {
            from = use_slot ? hdring_at(HDRING_BUF_TMP, slot) : hdring_at(acc, hdring_block_offset(blocks, send_block));
        }
        into = use_slot ? hdring_at(HDRING_BUF_TMP, slot) : hdring_at(acc, hdring_block_offset(blocks, recv_block));
        rc = hdring_sendrecv(x, hdring_msg(right, from, hdring_block_count(blocks, send_block)),
                             hdring_msg(left, hdring_at(HDRING_BUF_TMP, 0), recv_count));
        if (HDRING_OK != rc) {
            return rc;
        }
        rc = hdring_reduce(x, hdring_at(HDRING_BUF_TMP, 0), hdring_at(in, hdring_block_offset(blocks, recv_block)),
                           into, recv_count);
        if (HDRING_OK != rc) {
            return rc;
        }
    }
    /* Copied at the end, not reduced into dst: with MPI_IN_PLACE dst may overlap in's block. */
    return use_slot ? hdring_copy(x, hdring_at(HDRING_BUF_TMP, slot), dst, hdring_block_count(blocks, r)) : HDRING_OK;
}

int hdring_ring_reduce_scatter_vector(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t in,
                                      hdring_buf_t acc)
{
    return ring_reduce_scatter(x, blocks, in, acc, 0, hdring_at(acc, 0));
}

int hdring_ring_reduce_scatter_block(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t in,
                                     hdring_loc_t dst)
{
    return ring_reduce_scatter(x, blocks, in, HDRING_BUF_TMP, hdring_partition_max_part(blocks->parts), dst);
}

int hdring_ring_allgather(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t acc)
{
    const int p = x->size, r = x->rank;
    const int right = ring_mod(r + 1, p), left = ring_mod(r - 1, p);

    for (int s = 0; s < p - 1; ++s) {
        const int send_block = ring_mod(r - s, p), recv_block = ring_mod(r - s - 1, p);
        int rc = hdring_sendrecv(
            x, hdring_msg(right, hdring_at(acc, hdring_block_offset(blocks, send_block)), hdring_block_count(blocks, send_block)),
            hdring_msg(left, hdring_at(acc, hdring_block_offset(blocks, recv_block)), hdring_block_count(blocks, recv_block)));
        if (HDRING_OK != rc) {
            return rc;
        }
    }
    return HDRING_OK;
}
