/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring hierarchical allreduce with its levels overlapped per segment, MPI-free.
 *
 * Algorithm: the vector is cut into S segments. Each segment goes through the three levels of the hierarchical
 *   allreduce (hdring_hier.c), each a ring: (A) a reduce-scatter within its node, index i getting slice i of the
 *   segment reduced over the node (L-1 rounds); (B) an allreduce of that slice across the nodes, a ring
 *   reduce-scatter then allgather over the N ranks of index i (2(N-1) rounds); (C) an allgather of the slices
 *   within the node (L-1 rounds). Segment k runs its round j in wave k + j (k times a stagger on grids of more
 *   than 16 rounds, so that at most 16 segments, HDRING_MAX_INFLIGHT messages, are in flight): segment k+1 reduces
 *   within the node while segment k crosses the network and segment k-1 is gathered, as Open MPI's han overlaps its
 *   levels. A wave posts its receives and the sends whose data are in place, then reduces the operands the wave
 *   before received, posting each send that needs a reduction right after it, and waits for all of its messages.
 * Matching: every rank computes the same waves (S and the round count are the same everywhere, counts too), and
 *   posts a wave's messages to one peer in one order (data in place first, then those after a reduction, each in
 *   segment order); MPI keeps the order of messages between two ranks, so each meets its own receive. Empty
 *   messages (segments shorter than L N elements) are posted on neither side.
 * Restrictions: nodes of equal size (a->nodes * a->ppn == p), ranks in locality order; commutative operations only;
 *   every element is reduced at one rank and copied to the others, so all ranks get the same bits.
 * Cost (per node link, n the vector, s = n/S): the first segment's three levels in sequence, then S-1 segments at
 *   the pace of the slower level, within nodes (2(L-1)/L s at shared-memory speed) or across (2(N-1)/N s on the
 *   link, the bandwidth minimum): hdring_cost_allreduce_hier_pipelined.
 * Scratch: TMP holds a slice of each segment that receives operands in a wave, min(S, L+N-2) of them, twice: a
 *   wave's operands wait there while the next wave's arrive.
 * Trace N = 2, L = 2, S = 3, ranks 0-1 | 2-3: wave 0 segment 0 swaps halves within each node (A); wave 1 segment
 *   0's halves cross the nodes (B, reduce-scatter) while segment 1 swaps halves (A); wave 2 segment 0's halves
 *   come back (B, allgather), segment 1 crosses, segment 2 swaps; and so on to wave 5, segment 2's allgather (C).
 */
#include "hdring_algorithms.h"

typedef struct geometry {
    int nodes, ppn, node, index;
    size_t count, seg;  /* elements, per segment */
    size_t nsegs;       /* S */
    int rounds;         /* per segment: 2(L-1) + 2(N-1) */
    size_t stagger;     /* waves between the starts of two segments */
    size_t tmp_slots;   /* segments whose operands are in TMP at once, in one wave */
    size_t slice_room;  /* elements of a TMP slot */
} geometry_t;

static int mod(int a, int n) { return (a % n + n) % n; }

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

static bool geometry_of(const hdring_xport_t *x, const hdring_args_t *a, geometry_t *g)
{
    if (a->ppn < 1 || a->nodes < 1 || a->nodes * a->ppn != x->size) {
        return false;
    }
    g->nodes = a->nodes;
    g->ppn = a->ppn;
    g->node = x->rank / a->ppn;
    g->index = x->rank % a->ppn;
    g->count = a->count;
    g->seg = 0 == a->segment || a->segment > a->count ? a->count : a->segment;
    g->nsegs = 0 == g->count ? 0 : hdring_segments(g->count, g->seg);
    g->rounds = 2 * (a->ppn - 1) + 2 * (a->nodes - 1);
    /* A segment has a send and a receive in flight per wave: at most HDRING_MAX_INFLIGHT / 2 segments a wave. */
    g->stagger = hdring_segments((size_t) g->rounds, HDRING_MAX_INFLIGHT / 2);
    g->stagger = 0 == g->stagger ? 1 : g->stagger;
    g->tmp_slots = min_size(g->nsegs, (size_t) (a->ppn + a->nodes - 2));
    g->slice_room = 0 == g->seg ? 0 : hdring_segments(g->seg, (size_t) a->ppn); /* the largest slice */
    return true;
}

/* Rounds 1 .. L+N-2 send what the round before reduced (or, the last of them, the block the phase across finished);
 * the others send data already in place. A wave posts the second kind first, so every rank posts a wave's messages
 * to one peer in one order: the data-ready ones, then the others, each in segment order. */
static bool sends_reduced(const geometry_t *g, int j) { return j >= 1 && j <= g->ppn + g->nodes - 2; }

/* One round of one segment: its messages, and the reduction of what it receives. */
typedef struct round {
    size_t segment;
    int j;
    bool reduces;
    hdring_msg_t send, recv;
    hdring_loc_t reduce_left, reduce_right; /* TMP slot, IN or OUT block: OUT block = left (op) right */
    size_t reduce_count;
} round_t;

/* Round j of segment k, in wave w, on this rank (messages of 0 elements are not posted). */
static round_t round_of(const geometry_t *g, size_t k, int j, size_t w)
{
    round_t r = {k, j, false, {0}, {0}, {0}, {0}, 0};
    const size_t base = k * g->seg, count = hdring_segment_count(g->count, g->seg, k);
    const hdring_partition_t slices = hdring_partition_balanced(g->ppn, count);
    const int L = g->ppn, N = g->nodes, i = g->index, jn = g->node;
    const int node_first = jn * L;
    /* A wave's operands stay in TMP until the next wave reduces them: two sets of slots, by the wave's parity. */
    const hdring_loc_t slot = hdring_at(HDRING_BUF_TMP, (w % 2 * g->tmp_slots + k % g->tmp_slots) * g->slice_room);

    if (j < L - 1) { /* (A) reduce-scatter of the slices within the node */
        const int s = j, sb = mod(i - s - 1, L), rb = mod(i - s - 2, L);
        const size_t rcount = hdring_part_count(&slices, rb);
        r.send = hdring_msg(node_first + mod(i + 1, L),
                            hdring_at(0 == s ? HDRING_BUF_IN : HDRING_BUF_OUT, base + hdring_part_offset(&slices, sb)),
                            hdring_part_count(&slices, sb));
        r.recv = hdring_msg(node_first + mod(i - 1, L), slot, rcount);
        r.reduces = true;
        r.reduce_left = slot;
        r.reduce_right = hdring_at(HDRING_BUF_IN, base + hdring_part_offset(&slices, rb));
        r.reduce_count = rcount;
    } else if (j < L - 1 + 2 * (N - 1)) { /* (B) ring allreduce of slice i across the nodes, in place in OUT */
        const int s = j - (L - 1);
        const size_t at = base + hdring_part_offset(&slices, i);
        const hdring_partition_t blocks = hdring_partition_balanced(N, hdring_part_count(&slices, i));
        const int right = mod(jn + 1, N) * L + i, left = mod(jn - 1, N) * L + i;
        if (s < N - 1) { /* reduce-scatter */
            const int sb = mod(jn - s - 1, N), rb = mod(jn - s - 2, N);
            const size_t rcount = hdring_part_count(&blocks, rb);
            r.send = hdring_msg(right, hdring_at(HDRING_BUF_OUT, at + hdring_part_offset(&blocks, sb)),
                                hdring_part_count(&blocks, sb));
            r.recv = hdring_msg(left, slot, rcount);
            r.reduces = true;
            r.reduce_left = slot;
            r.reduce_right = hdring_at(HDRING_BUF_OUT, at + hdring_part_offset(&blocks, rb));
            r.reduce_count = rcount;
        } else { /* allgather */
            const int t = s - (N - 1), sb = mod(jn - t, N), rb = mod(jn - t - 1, N);
            r.send = hdring_msg(right, hdring_at(HDRING_BUF_OUT, at + hdring_part_offset(&blocks, sb)),
                                hdring_part_count(&blocks, sb));
            r.recv = hdring_msg(left, hdring_at(HDRING_BUF_OUT, at + hdring_part_offset(&blocks, rb)),
                                hdring_part_count(&blocks, rb));
        }
    } else { /* (C) allgather of the slices within the node */
        const int t = j - (L - 1) - 2 * (N - 1), sb = mod(i - t, L), rb = mod(i - t - 1, L);
        r.send = hdring_msg(node_first + mod(i + 1, L),
                            hdring_at(HDRING_BUF_OUT, base + hdring_part_offset(&slices, sb)),
                            hdring_part_count(&slices, sb));
        r.recv = hdring_msg(node_first + mod(i - 1, L),
                            hdring_at(HDRING_BUF_OUT, base + hdring_part_offset(&slices, rb)),
                            hdring_part_count(&slices, rb));
    }
    return r;
}

/* The rounds of wave w, in segment order, into rounds; how many. */
static size_t wave_of(const geometry_t *g, size_t w, round_t *rounds)
{
    size_t n = 0;
    /* segment k runs round w - k stagger, when that is one of its rounds */
    const size_t last = min_size(w / g->stagger, g->nsegs - 1);
    for (size_t k = 0; k <= last; ++k) {
        const size_t j = w - k * g->stagger;
        if (j < (size_t) g->rounds) {
            rounds[n++] = round_of(g, k, (int) j, w);
        }
    }
    return n;
}

static int reduce_round(const hdring_xport_t *x, const round_t *r)
{
    return r->reduces ? hdring_reduce(x, r->reduce_left, r->reduce_right,
                                      hdring_at(HDRING_BUF_OUT, r->reduce_right.off), r->reduce_count)
                      : HDRING_OK;
}

int hdring_run_allreduce_hier_pipelined(const hdring_xport_t *x, const hdring_args_t *a)
{
    geometry_t g;
    if (!geometry_of(x, a, &g)) {
        return HDRING_ERR_UNSUPPORTED;
    }
    int rc = HDRING_OK;
    if (1 == g.ppn) { /* no reduce-scatter within the node puts the input into OUT */
        rc = hdring_copy(x, hdring_at(HDRING_BUF_IN, 0), hdring_at(HDRING_BUF_OUT, 0), g.count);
    }
    if (HDRING_OK != rc || 0 == g.rounds || 0 == g.nsegs) {
        return rc;
    }
    const size_t room = HDRING_MAX_INFLIGHT / 2, waves = (g.nsegs - 1) * g.stagger + (size_t) g.rounds;
    round_t *now = hdring_take(x, room, sizeof(*now)), *before = hdring_take(x, room, sizeof(*before));
    hdring_req_t reqs[HDRING_MAX_INFLIGHT];
    size_t nbefore = 0;
    if (NULL == now || NULL == before) {
        return HDRING_ERR_NOMEM;
    }
    for (size_t w = 0; w < waves && HDRING_OK == rc; ++w) {
        const size_t n = wave_of(&g, w, now);
        int nreqs = 0;
        /* Receives, then the sends of data in place, then, as the last wave's operands are reduced, the sends of
         * what they give: the last wave's reductions run while this wave's first messages travel. */
        for (int reduced = 0; reduced <= 1 && HDRING_OK == rc; ++reduced) {
            for (size_t q = 0; q < n && HDRING_OK == rc; ++q) {
                if (sends_reduced(&g, now[q].j) == (bool) reduced) {
                    rc = hdring_irecv(x, now[q].recv, &reqs[nreqs++]);
                }
            }
        }
        for (size_t q = 0; q < n && HDRING_OK == rc; ++q) {
            if (!sends_reduced(&g, now[q].j)) {
                rc = hdring_isend(x, now[q].send, &reqs[nreqs++]);
            }
        }
        size_t b = 0;
        for (size_t q = 0; q < n && HDRING_OK == rc; ++q) {
            if (!sends_reduced(&g, now[q].j)) {
                continue;
            }
            for (; b < nbefore && before[b].segment <= now[q].segment && HDRING_OK == rc; ++b) {
                rc = reduce_round(x, &before[b]); /* the operands segment now[q] sends from, and earlier ones */
            }
            if (HDRING_OK == rc) {
                rc = hdring_isend(x, now[q].send, &reqs[nreqs++]);
            }
        }
        for (; b < nbefore && HDRING_OK == rc; ++b) {
            rc = reduce_round(x, &before[b]);
        }
        if (HDRING_OK == rc) {
            rc = hdring_wait(x, reqs, nreqs);
        }
        round_t *t = before;
        before = now;
        now = t;
        nbefore = n;
    }
    for (size_t b = 0; b < nbefore && HDRING_OK == rc; ++b) {
        rc = reduce_round(x, &before[b]);
    }
    return rc;
}

hdring_scratch_t hdring_scratch_allreduce_hier_pipelined(const hdring_xport_t *x, const hdring_args_t *a)
{
    geometry_t g;
    hdring_scratch_t need = {0, 0};
    if (geometry_of(x, a, &g)) {
        need.tmp = 2 * g.tmp_slots * g.slice_room;
    }
    return need;
}
