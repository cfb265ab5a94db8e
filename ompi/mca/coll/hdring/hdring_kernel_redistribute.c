/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Redistribution between positions and block owners: see hdring_kernels.h. */
#include "hdring_kernels.h"

/* The one of the first npos positions of `pos` containing element e: the last starting at or before e (empty
 * positions are skipped). A partition's parts are the positions {parts, 1, NULL}. */
static int position_containing(const hdring_positions_t *pos, int npos, size_t e)
{
    int lo = 0, hi = npos - 1;
    while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (hdring_pos_offset(pos, mid) <= e) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

/* A list of pieces: messages, or (for pieces a rank both holds and owns) local copies, for which `elem` records
 * the piece's first element in the position buffer. With msg NULL, only counted. */
typedef struct pieces {
    hdring_msg_t *msg;
    size_t *elem;
    int n;
} pieces_t;

static void add_piece(pieces_t *ps, int peer, hdring_loc_t at, size_t count, size_t elem)
{
    if (NULL != ps->msg) {
        ps->msg[ps->n] = hdring_msg(peer, at, count);
        ps->elem[ps->n] = elem;
    }
    ++ps->n;
}

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }
static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

/*
 * The two sides of a redistribution, from this rank's point of view:
 *   held: the pieces of the position it holds, one per overlapped block (peer: the block's owner), addressed in
 *         `positions_buf` by element;
 *   own:  the pieces of its own block, one per overlapping position (peer: the position's holder), addressed at
 *         `mine` plus the offset within the block.
 * Pieces it both holds and owns go to `local`, to be copied between the two and left out of the messages.
 */
static void list_pieces(const hdring_xport_t *x, const hdring_blocks_t *owned, const hdring_layout_t *layout,
                        int held_pos, hdring_buf_t positions_buf, hdring_loc_t mine, pieces_t *held, pieces_t *own,
                        pieces_t *local)
{
    const hdring_positions_t *pos = &layout->positions;
    const hdring_partition_t *blocks = owned->parts;
    const hdring_positions_t block_positions = {blocks, 1, NULL};
    const int r = x->rank, my_block = hdring_block_of(owned, r), npos = 1 << layout->log2_npos;
    const size_t my_first = hdring_part_offset(blocks, my_block), my_end = hdring_part_offset(blocks, my_block + 1);
    const size_t first = held_pos >= 0 ? hdring_pos_offset(pos, held_pos) : 0;
    const size_t end = held_pos >= 0 ? hdring_pos_offset(pos, held_pos + 1) : 0;

    if (first < end) {
        for (int b = position_containing(&block_positions, blocks->nparts, first);
             b < blocks->nparts && hdring_part_offset(blocks, b) < end; ++b) {
            const size_t lo = max_size(first, hdring_part_offset(blocks, b));
            const size_t hi = min_size(end, hdring_part_offset(blocks, b + 1));
            if (lo < hi && b != my_block) {
                add_piece(held, hdring_owner_of(owned, b), hdring_at(positions_buf, lo), hi - lo, lo);
            }
        }
    }
    if (my_first < my_end) {
        for (int j = position_containing(pos, npos, my_first); j < npos && hdring_pos_offset(pos, j) < my_end; ++j) {
            const size_t lo = max_size(my_first, hdring_pos_offset(pos, j));
            const size_t hi = min_size(my_end, hdring_pos_offset(pos, j + 1));
            if (lo >= hi) {
                continue;
            }
            const int holder = hdring_layout_holder(layout, j);
            hdring_loc_t at = mine;
            at.off += lo - my_first;
            add_piece(holder == r ? local : own, holder, at, hi - lo, lo);
        }
    }
}

/* Room for n pieces, taken from the transport (none for none: the list then stays empty). */
static int make_room(const hdring_xport_t *x, pieces_t *ps, int n)
{
    if (0 == n) {
        return HDRING_OK;
    }
    ps->msg = hdring_take(x, (size_t) n, sizeof(*ps->msg));
    ps->elem = hdring_take(x, (size_t) n, sizeof(*ps->elem));
    ps->n = 0;
    return NULL == ps->msg || NULL == ps->elem ? HDRING_ERR_NOMEM : HDRING_OK;
}

/* Counts the pieces, takes room for them, lists them, then one exchange and the local copies. */
static int redistribute(const hdring_xport_t *x, const hdring_blocks_t *owned, const hdring_layout_t *layout,
                        hdring_buf_t positions_buf, hdring_loc_t mine, bool deliver)
{
    const int held_pos = hdring_layout_position_of(layout, x->rank);
    const size_t my_first = hdring_block_offset(owned, x->rank), my_count = hdring_block_count(owned, x->rank);

    /* Holding exactly its own block (powers of two in rank order, at least): nothing moves to or from this rank,
     * as the positions cover the vector once. */
    if (held_pos >= 0 && hdring_pos_offset(&layout->positions, held_pos) == my_first &&
        hdring_pos_offset(&layout->positions, held_pos + 1) == my_first + my_count) {
        const hdring_loc_t in_position = hdring_at(positions_buf, my_first);
        return deliver ? hdring_copy(x, in_position, mine, my_count) : hdring_copy(x, mine, in_position, my_count);
    }
    pieces_t held = {NULL, NULL, 0}, own = {NULL, NULL, 0}, local = {NULL, NULL, 0};
    list_pieces(x, owned, layout, held_pos, positions_buf, mine, &held, &own, &local);
    int rc = make_room(x, &held, held.n);
    rc = HDRING_OK == rc ? make_room(x, &own, own.n) : rc;
    rc = HDRING_OK == rc ? make_room(x, &local, local.n) : rc;
    if (HDRING_OK != rc) {
        return rc;
    }
    list_pieces(x, owned, layout, held_pos, positions_buf, mine, &held, &own, &local);
    rc = deliver ? hdring_exchange(x, held.msg, held.n, own.msg, own.n)
                 : hdring_exchange(x, own.msg, own.n, held.msg, held.n);
    for (int i = 0; i < local.n && HDRING_OK == rc; ++i) {
        const hdring_loc_t in_position = hdring_at(positions_buf, local.elem[i]);
        rc = deliver ? hdring_copy(x, in_position, local.msg[i].at, local.msg[i].count)
                     : hdring_copy(x, local.msg[i].at, in_position, local.msg[i].count);
    }
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
