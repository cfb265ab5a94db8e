/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Redistribution between positions and block owners: see hdring_kernels.h. */
#include <stdlib.h>

#include "hdring_kernels.h"

/* The part of `pt` containing element e (the last part starting at or before e; empty parts are skipped). */
static int part_of(const hdring_partition_t *pt, size_t e)
{
    int lo = 0, hi = pt->nparts - 1;
    while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (hdring_part_offset(pt, mid) <= e) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

/* A growing list of pieces: messages, or (for pieces a rank both holds and owns) local copies, for which
 * `elem` records the piece's first element in the position buffer. */
typedef struct pieces {
    hdring_msg_t *msg;
    size_t *elem;
    int n, cap;
} pieces_t;

static int add_piece(pieces_t *ps, int peer, hdring_loc_t at, size_t count, size_t elem)
{
    if (ps->n == ps->cap) {
        const int cap = 0 == ps->cap ? 4 : 2 * ps->cap;
        hdring_msg_t *m = realloc(ps->msg, (size_t) cap * sizeof(*m));
        if (NULL == m) {
            return HDRING_ERR_NOMEM;
        }
        ps->msg = m;
        size_t *e = realloc(ps->elem, (size_t) cap * sizeof(*e));
        if (NULL == e) {
            return HDRING_ERR_NOMEM;
        }
        ps->elem = e;
        ps->cap = cap;
    }
    ps->msg[ps->n] = hdring_msg(peer, at, count);
    ps->elem[ps->n++] = elem;
    return HDRING_OK;
}

static void pieces_free(pieces_t *ps)
{
    free(ps->msg);
    free(ps->elem);
}

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }
static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

/*
 * The two sides of a redistribution, from this rank's point of view:
 *   held: the pieces of the position it holds, one per overlapped block (peer: the block's owner), addressed in
 *         `positions_buf` by element;
 *   own:  the pieces of its own block, one per overlapping position (peer: the position's holder), addressed at
 *         `mine` plus the offset within the block.
 * Pieces it both holds and owns are copied between the two and left out of the messages.
 */
static int redistribute(const hdring_xport_t *x, const hdring_blocks_t *owned, const hdring_layout_t *layout,
                        hdring_buf_t positions_buf, hdring_loc_t mine, bool deliver)
{
    const hdring_partition_t *pos = layout->positions, *blocks = owned->parts;
    const int r = x->rank, my_block = hdring_block_of(owned, r);
    const size_t my_first = hdring_part_offset(blocks, my_block), my_end = hdring_part_offset(blocks, my_block + 1);
    pieces_t held = {NULL, NULL, 0, 0}, own = {NULL, NULL, 0, 0}, local = {NULL, NULL, 0, 0};
    int rc = HDRING_OK;

    for (int j = 0; j < pos->nparts && HDRING_OK == rc; ++j) {
        if (layout->holder[j] != r || 0 == hdring_part_count(pos, j)) {
            continue;
        }
        const size_t first = hdring_part_offset(pos, j), end = hdring_part_offset(pos, j + 1);
        for (int b = part_of(blocks, first); b < blocks->nparts && hdring_part_offset(blocks, b) < end; ++b) {
            const size_t lo = max_size(first, hdring_part_offset(blocks, b));
            const size_t hi = min_size(end, hdring_part_offset(blocks, b + 1));
            if (lo < hi && b != my_block) {
                rc = add_piece(&held, hdring_owner_of(owned, b), hdring_at(positions_buf, lo), hi - lo, lo);
            }
        }
    }
    if (my_first < my_end) {
        for (int j = part_of(pos, my_first); j < pos->nparts && hdring_part_offset(pos, j) < my_end && HDRING_OK == rc;
             ++j) {
            const size_t lo = max_size(my_first, hdring_part_offset(pos, j));
            const size_t hi = min_size(my_end, hdring_part_offset(pos, j + 1));
            if (lo >= hi) {
                continue;
            }
            hdring_loc_t at = mine;
            at.off += lo - my_first;
            rc = add_piece(layout->holder[j] == r ? &local : &own, layout->holder[j], at, hi - lo, lo);
        }
    }
    if (HDRING_OK == rc) {
        rc = deliver ? hdring_exchange(x, held.msg, held.n, own.msg, own.n)
                     : hdring_exchange(x, own.msg, own.n, held.msg, held.n);
    }
    for (int i = 0; i < local.n && HDRING_OK == rc; ++i) {
        const hdring_loc_t in_position = hdring_at(positions_buf, local.elem[i]);
        rc = deliver ? hdring_copy(x, in_position, local.msg[i].at, local.msg[i].count)
                     : hdring_copy(x, local.msg[i].at, in_position, local.msg[i].count);
    }
    pieces_free(&held);
    pieces_free(&own);
    pieces_free(&local);
    return rc;
}

int hdring_deliver(const hdring_xport_t *x, const hdring_blocks_t *blocks, const hdring_layout_t *layout,
                   hdring_buf_t from, hdring_loc_t mine)
{
    return redistribute(x, blocks, layout, from, mine, true);
}

int hdring_collect(const hdring_xport_t *x, const hdring_blocks_t *blocks, const hdring_layout_t *layout,
                   hdring_loc_t mine, hdring_buf_t into)
{
    return redistribute(x, blocks, layout, into, mine, false);
}
