/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Ring kernels: see hdring_kernels.h. */
#include "hdring_kernels.h"

static int ring_mod(int a, int p) { return ((a % p) + p) % p; }

/* Where the ring reduce-scatter keeps what it reduces: in acc at each block's offset (vector form), or in a slot
 * of TMP holding the block being passed on, whence the final one is copied to dst (block form). */
typedef struct ring_acc {
    hdring_buf_t in, acc;
    size_t slot; /* TMP offset of the slot (block form) */
    hdring_loc_t dst;
} ring_acc_t;

static bool in_slot(const ring_acc_t *ra) { return HDRING_BUF_TMP == ra->acc; }

/* Element `off` of block b as step s sends it (s = 0: the rank's own input) or as it is reduced. */
static hdring_loc_t running(const hdring_blocks_t *blocks, const ring_acc_t *ra, int b, size_t off)
{
    return in_slot(ra) ? hdring_at(HDRING_BUF_TMP, ra->slot + off)
                       : hdring_at(ra->acc, hdring_block_offset(blocks, b) + off);
}

static hdring_loc_t sent_at(const hdring_blocks_t *blocks, const ring_acc_t *ra, int s, int b, size_t off)
{
    return 0 == s ? hdring_at(ra->in, hdring_block_offset(blocks, b) + off) : running(blocks, ra, b, off);
}

/* Whole blocks: one exchange per step (the received block in TMP at 0, a slot after the largest block). */
static int ring_whole(const hdring_xport_t *x, const hdring_blocks_t *blocks, const ring_acc_t *ra)
{
    const int p = x->size, r = x->rank;
    const int right = ring_mod(r + 1, p), left = ring_mod(r - 1, p);
    int rc = HDRING_OK;

    for (int s = 0; s < p - 1 && HDRING_OK == rc; ++s) {
        const int send_block = ring_mod(r - s - 1, p), recv_block = ring_mod(r - s - 2, p);
        const size_t recv_count = hdring_block_count(blocks, recv_block);
        const hdring_msg_t send = hdring_msg(right, sent_at(blocks, ra, s, send_block, 0),
                                             hdring_block_count(blocks, send_block));
        rc = hdring_sendrecv(x, send, hdring_msg(left, hdring_at(HDRING_BUF_TMP, 0), recv_count));
        if (HDRING_OK == rc) {
            rc = hdring_reduce(x, hdring_at(HDRING_BUF_TMP, 0),
                               hdring_at(ra->in, hdring_block_offset(blocks, recv_block)),
                               running(blocks, ra, recv_block, 0), recv_count);
        }
    }
    return rc;
}

/* In segments of `seg` elements, received into two buffers at the start of TMP: segment j + 1 of a step's block
 * arrives while segment j is reduced, and sends run up to SEND_DEPTH segments ahead within the step (their data
 * is the input, or was reduced at the previous step). Messages to a neighbour go in the order it posts its
 * receives (step by step), which MPI matches in order. Each element is reduced as in ring_whole: same operands,
 * same order, same bits. */
#define SEND_DEPTH 2

typedef struct ring_sends {
    hdring_req_t req[SEND_DEPTH];
    size_t from[SEND_DEPTH], count[SEND_DEPTH]; /* the slot's elements each reads (block form), else count 0 */
    size_t posted;
} ring_sends_t;

/* Waits for the sends in flight that read the slot's elements [from, from + count). */
static int wait_sends_reading(const hdring_xport_t *x, ring_sends_t *sends, size_t from, size_t count)
{
    int rc = HDRING_OK;
    for (int i = 0; i < SEND_DEPTH && HDRING_OK == rc; ++i) {
        if (sends->count[i] > 0 && sends->from[i] < from + count && from < sends->from[i] + sends->count[i]) {
            rc = hdring_wait(x, &sends->req[i], 1);
            sends->count[i] = 0;
        }
    }
    return rc;
}

static int ring_segmented(const hdring_xport_t *x, const hdring_blocks_t *blocks, const ring_acc_t *ra, size_t seg)
{
    const int p = x->size, r = x->rank;
    const int right = ring_mod(r + 1, p), left = ring_mod(r - 1, p);
    hdring_req_t recv_req[2] = {HDRING_REQ_NONE, HDRING_REQ_NONE};
    ring_sends_t sends = {.posted = 0};
    size_t received = 0, posted = 0; /* receives reduced and posted, over all steps */
    int post_step = 0;               /* the step and segment of the next receive to post */
    size_t post_seg = 0;
    int rc = HDRING_OK;

    for (int i = 0; i < SEND_DEPTH; ++i) {
        sends.req[i] = HDRING_REQ_NONE;
        sends.count[i] = 0;
    }
    for (int s = 0; s < p - 1 && HDRING_OK == rc; ++s) {
        const int send_block = ring_mod(r - s - 1, p), recv_block = ring_mod(r - s - 2, p);
        const size_t send_count = hdring_block_count(blocks, send_block);
        const size_t recv_count = hdring_block_count(blocks, recv_block);
        const size_t nsend = hdring_segments(send_count, seg), nrecv = hdring_segments(recv_count, seg);
        size_t next_send = 0;
        for (size_t j = 0; j < (nsend > nrecv ? nsend : nrecv) && HDRING_OK == rc; ++j) {
            while (next_send < nsend && next_send < j + SEND_DEPTH && HDRING_OK == rc) {
                const int i = (int) (sends.posted++ % SEND_DEPTH);
                const size_t n = hdring_segment_count(send_count, seg, next_send);
                rc = hdring_wait(x, &sends.req[i], 1);
                if (HDRING_OK == rc) {
                    rc = hdring_isend(x, hdring_msg(right, sent_at(blocks, ra, s, send_block, next_send * seg), n),
                                      &sends.req[i]);
                }
                sends.from[i] = next_send * seg;
                sends.count[i] = in_slot(ra) && s > 0 ? n : 0;
                ++next_send;
            }
            if (j >= nrecv) {
                continue;
            }
            while (posted <= received + 1 && post_step < p - 1 && HDRING_OK == rc) { /* this one and the next */
                const size_t count = hdring_block_count(blocks, ring_mod(r - post_step - 2, p));
                if (post_seg < hdring_segments(count, seg)) {
                    rc = hdring_irecv(x, hdring_msg(left, hdring_at(HDRING_BUF_TMP, posted % 2 * seg),
                                                    hdring_segment_count(count, seg, post_seg)), &recv_req[posted % 2]);
                    ++posted;
                    ++post_seg;
                } else {
                    ++post_step;
                    post_seg = 0;
                }
            }
            const size_t n = hdring_segment_count(recv_count, seg, j);
            if (HDRING_OK == rc) {
                rc = hdring_wait(x, &recv_req[received % 2], 1);
            }
            if (HDRING_OK == rc && in_slot(ra)) {
                rc = wait_sends_reading(x, &sends, j * seg, n);
            }
            if (HDRING_OK == rc) {
                rc = hdring_reduce(x, hdring_at(HDRING_BUF_TMP, received % 2 * seg),
                                   hdring_at(ra->in, hdring_block_offset(blocks, recv_block) + j * seg),
                                   running(blocks, ra, recv_block, j * seg), n);
            }
            ++received;
        }
    }
    if (HDRING_OK == rc) {
        rc = hdring_wait(x, sends.req, SEND_DEPTH);
    }
    return rc;
}

/* Both forms. Every block is reduced at p-1 ranks in ring order, after its owner. */
static int ring_reduce_scatter(const hdring_xport_t *x, const hdring_blocks_t *blocks, const ring_acc_t *ra,
                               size_t segment)
{
    const int r = x->rank;
    int rc;

    if (1 == x->size) {
        return hdring_copy(x, hdring_at(ra->in, hdring_block_offset(blocks, 0)),
                           in_slot(ra) ? ra->dst : running(blocks, ra, 0, 0), hdring_block_count(blocks, 0));
    }
    if (0 == segment || segment >= hdring_partition_max_part(blocks->parts)) {
        rc = ring_whole(x, blocks, ra);
    } else {
        rc = ring_segmented(x, blocks, ra, segment);
    }
    /* Copied at the end, not reduced into dst: with MPI_IN_PLACE dst may overlap in's block. */
    if (HDRING_OK == rc && in_slot(ra)) {
        rc = hdring_copy(x, running(blocks, ra, r, 0), ra->dst, hdring_block_count(blocks, r));
    }
    return rc;
}

int hdring_ring_reduce_scatter_vector(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t in,
                                      hdring_buf_t acc, size_t segment)
{
    const ring_acc_t ra = {in, acc, 0, hdring_at(acc, 0)};
    return ring_reduce_scatter(x, blocks, &ra, segment);
}

int hdring_ring_reduce_scatter_block(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t in,
                                     hdring_loc_t dst, size_t segment)
{
    const ring_acc_t ra = {in, HDRING_BUF_TMP, hdring_ring_receive_room(blocks, segment), dst};
    return ring_reduce_scatter(x, blocks, &ra, segment);
}

size_t hdring_ring_receive_room(const hdring_blocks_t *blocks, size_t segment)
{
    const size_t largest = hdring_partition_max_part(blocks->parts);
    return 0 == segment || segment >= largest ? largest : 2 * segment;
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
