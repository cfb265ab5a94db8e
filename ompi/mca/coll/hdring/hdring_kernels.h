/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring kernels: one per communication pattern, written against hdring_transport.h.
 *
 * A kernel is one phase of a collective (a ring reduce-scatter, an RHD allgather, a fold, ...). The
 * collectives in hdring_algorithms.c are compositions of kernels. Each kernel states its preconditions on
 * the buffers, its scratch needs (in elements of TMP) and its cost: alpha per message, beta per byte moved,
 * gamma per byte reduced; n is the whole vector, p the number of ranks.
 */
#ifndef HDRING_KERNELS_H
#define HDRING_KERNELS_H

#include "hdring_pattern.h"
#include "hdring_transport.h"

/* The ring kernels address rank b's block, hdring_block_of(blocks, b), wherever it lies in the vector. */

/*
 * Ring reduce-scatter, vector form: on return acc holds block `rank` of the reduction of everybody's in.
 * The other blocks of acc hold partial sums (a later allgather overwrites them). in and acc may alias.
 *   step s (0 <= s < p-1): send block (r-s-1) mod p to r+1, receive block (r-s-2) mod p from r-1 into TMP,
 *   acc[block] = TMP (op) in[block]. Every block is reduced at p-1 ranks in ring order starting after its
 *   owner, so each element is reduced in one fixed order: results are deterministic. Operand order is that
 *   ring order, not rank order: commutative operations only.
 * Segmented (0 < segment < the largest block): each step's block moves in segments of `segment` elements; the next
 *   segment arrives while one is reduced, and up to two are on their way to r+1 (messages in flight). Every
 *   element meets the same operands in the same order as unsegmented: the same bits.
 * TMP: the largest block, or 2 segments. Cost: (p-1)(alpha + n/p beta + n/p gamma) whole; in k segments of
 *   s = n/(pk) bytes, (p-1)(alpha + s beta + s gamma + (k-1) max(alpha + s beta, s gamma)).
 * Trace p = 3, rank 0: s0 sends block 2 (own data), gets block 1 from 2 and adds its own; s1 sends block 1,
 *   gets block 0 (holding 1's and 2's data) and adds its own: block 0 complete. In two segments: s0 gets the
 *   second half of block 1 while it adds the first.
 */
int hdring_ring_reduce_scatter_vector(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t in,
                                      hdring_buf_t acc, size_t segment);

/*
 * Ring reduce-scatter, block form: as above, but partial blocks live in TMP and block `rank` of the result is
 * copied to dst at the end (dst may overlap in, as with MPI_IN_PLACE), so no scratch of the vector's size is
 * needed (reduce_scatter).
 * TMP: hdring_ring_receive_room(blocks, segment) plus the largest block. Cost as above.
 */
int hdring_ring_reduce_scatter_block(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t in,
                                     hdring_loc_t dst, size_t segment);

/* The elements of TMP a ring reduce-scatter receives into: the largest block, or two segments. */
size_t hdring_ring_receive_room(const hdring_blocks_t *blocks, size_t segment);

/*
 * Ring allgather: on entry acc holds block `rank`; on return every block.
 *   step s: send block (r-s) mod p to r+1, receive block (r-s-1) mod p from r-1 into acc.
 * No scratch. Cost: (p-1)(alpha + n/p beta).
 */
int hdring_ring_allgather(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t acc);

/* ---- fold: p ranks onto pof2 survivors (hdring_pattern.h) ---- */

/*
 * Split fold (bandwidth form): pair (2i, 2i+1) exchange halves of in; each reduces one half with the even
 * rank's operand on the left; the even rank then sends its reduced half to the odd one. On return the odd
 * rank's acc holds in_2i (op) in_2i+1 over the whole vector; the even rank holds nothing; the others are
 * untouched. in and acc may alias.
 * TMP: ceil(count/2). Cost: 2 alpha + n beta + n/2 gamma.
 * Trace p = 3: ranks 0 and 1 swap halves and reduce them, 0 sends its half to 1; rank 2 waits.
 */
int hdring_fold_split(const hdring_xport_t *x, const hdring_fold_t *f, size_t count, hdring_buf_t in,
                      hdring_buf_t acc);

/*
 * Whole fold (latency form): the even rank of each pair sends its whole vector; the odd rank computes
 * acc = in_2i (op) in_2i+1. TMP: count. Cost: alpha + n beta + n gamma.
 */
int hdring_fold_whole(const hdring_xport_t *x, const hdring_fold_t *f, size_t count, hdring_buf_t in,
                      hdring_buf_t acc);

/* Unfold: each odd rank of a pair sends count elements at `at` to its even partner, which receives them at
 * the same place. Cost: alpha + n beta. */
int hdring_unfold(const hdring_xport_t *x, const hdring_fold_t *f, hdring_loc_t at, size_t count);

/* ---- recursive halving / doubling on a power-of-two group ---- */

/* The power-of-two group an RHD kernel runs on: 2^log2_size vranks, the caller being `vrank`. Vrank v is
 * rank fold_survivor(v) when `fold` is set (the survivors of a fold), first + v otherwise (a binary block). */
typedef struct hdring_group {
    int log2_size;
    int vrank;
    const hdring_fold_t *fold;
    int first;
} hdring_group_t;

static inline int hdring_group_rank(const hdring_group_t *g, int v)
{
    return NULL != g->fold ? hdring_fold_survivor(g->fold, v) : g->first + v;
}

/* Positions of an RHD schedule as a view of a partition: position q is parts [q*stride, (q+1)*stride), so a
 * binary block can run on a coarsening of block 0's positions without building another table; with `groups`
 * set, the boundaries go through the fold's groups: position q is parts [group_first(q*stride),
 * group_first((q+1)*stride)), the blocks of the ranks the vranks stand for. */
typedef struct hdring_positions {
    const hdring_partition_t *parts;
    int stride;
    const hdring_fold_t *groups; /* NULL: no grouping */
} hdring_positions_t;

static inline size_t hdring_pos_offset(const hdring_positions_t *pos, int q)
{
    const int j = q * pos->stride;
    return hdring_part_offset(pos->parts, NULL == pos->groups ? j : hdring_fold_group_first(pos->groups, j));
}

/*
 * RHD reduce-scatter: on entry src holds this vrank's operand (the whole vector); on return acc holds position
 * hdring_rhd_final_position(order, l, vrank) reduced over the group. Step k pairs v with v ^ mask(k); both
 * send the half of their range they give up and reduce the half they keep, the lower vrank's operand on the
 * left: with DISTANCE_DOUBLING the operand order is the rank order. src and acc may alias.
 * TMP: the larger half of the vector at step 0. Cost: l alpha + (1 - 1/2^l) n (beta + gamma).
 * Trace l = 2 (ranks 0..3), doubling: step 0: 0<->1 and 2<->3 split the vector in halves; step 1: 0<->2,
 *   1<->3 split the halves; rank 1 ends with position 2.
 */
int hdring_rhd_reduce_scatter(const hdring_xport_t *x, const hdring_group_t *g, hdring_rhd_order_t order,
                              const hdring_positions_t *pos, hdring_buf_t src, hdring_buf_t acc);

/*
 * RHD allgather, the reduce-scatter run backwards: on entry acc holds position final_position(order, l, vrank);
 * on return all positions. No scratch. Cost: l alpha + (1 - 1/2^l) n beta.
 */
int hdring_rhd_allgather(const hdring_xport_t *x, const hdring_group_t *g, hdring_rhd_order_t order,
                         const hdring_positions_t *pos, hdring_buf_t acc);

/*
 * Recursive doubling allreduce on a power-of-two group: step k exchanges the whole vector with v ^ 2^k and
 * reduces, the lower vrank's operand on the left, so both partners compute the same bits and the operand
 * order is the rank order. src holds the operand, acc receives the result; they may alias.
 * TMP: count. Cost: l (alpha + n beta + n gamma).
 * Trace l = 2: step 0: 0<->1, 2<->3 exchange and reduce; step 1: 0<->2, 1<->3: everybody holds x0.x1.x2.x3.
 */
int hdring_recursive_doubling(const hdring_xport_t *x, const hdring_group_t *g, size_t count, hdring_buf_t src,
                              hdring_buf_t acc);

/* ---- redistribution between positions and the ranks owning blocks ---- */

/* Who holds what after a reduce-scatter (before an allgather): position j (0 <= j < 2^log2_npos) is held by
 * hdring_rhd_position_holder(order, log2_npos, j), a vrank of the fold's survivors, or with `fold` NULL that
 * rank itself (block 0 of binary blocks). Positions need not align with blocks (block b belongs to rank
 * hdring_owner_of(blocks, b)): balanced positions keep every step of the schedule balanced, whatever the block
 * sizes. Closed forms: no table. */
typedef struct hdring_layout {
    hdring_positions_t positions;
    int log2_npos;
    hdring_rhd_order_t order;
    const hdring_fold_t *fold;
} hdring_layout_t;

static inline int hdring_layout_holder(const hdring_layout_t *l, int j)
{
    const int v = hdring_rhd_position_holder(l->order, l->log2_npos, j);
    return NULL == l->fold ? v : hdring_fold_survivor(l->fold, v);
}

/* Its inverse: the position `rank` holds, or -1 when it holds none (folded away, or outside block 0). */
static inline int hdring_layout_position_of(const hdring_layout_t *l, int rank)
{
    const int v = NULL != l->fold ? hdring_fold_vrank(l->fold, rank) : rank < 1 << l->log2_npos ? rank : -1;
    return v < 0 ? -1 : hdring_rhd_final_position(l->order, l->log2_npos, v);
}

/*
 * Deliver: every holder sends each piece of its position that falls into another rank's block to that rank and
 * copies the piece of its own block; every rank receives the pieces of its block at `mine` (its block's first
 * element). One exchange; a holder sends at most one message per block its position overlaps, an owner
 * receives one per position its block overlaps.
 * Cost: the larger of the busiest send port (pieces alpha + position beta) and receive port.
 */
int hdring_deliver(const hdring_xport_t *x, const hdring_blocks_t *blocks, const hdring_layout_t *layout,
                   hdring_buf_t from, hdring_loc_t mine);

/* Collect, the reverse: every rank sends the pieces of its block from `mine` to the holders of the positions
 * they fall into; every holder receives its position into `into`. */
int hdring_collect(const hdring_xport_t *x, const hdring_blocks_t *blocks, const hdring_layout_t *layout,
                   hdring_loc_t mine, hdring_buf_t into);

/* ---- binary blocks (Rabenseifner and Traeff, 2004) ---- */

/*
 * Binary-block reduce phase. p = 2^k0 + 2^k1 + ...; block 0 (the largest) holds the lowest ranks. Every block
 * reduce-scatters the whole vector within itself (RHD, distance doubling) on a coarsening of the 2^k0 `fine`
 * positions; then, from the smallest block up, each block hands its pieces to the next larger block, whose
 * ranks reduce them in as the right operand (the larger block holds the lower ranks), so operand order is
 * rank order. No rank is folded away: every rank reduces inside its block. On return block-0 rank u holds fine
 * position bit_reverse(u) reduced over all p ranks, in acc. src and acc may alias.
 * TMP: the larger half at step 0 of any block. Cost (consecutive blocks of similar size): about
 * k0 alpha + hand-offs + n (beta + gamma); a block 2^j times smaller sends 2^j messages per hand-off.
 * Trace p = 6 = 4 + 2: ranks 0-3 and 4-5 reduce-scatter in their blocks; rank 4 (half the vector) sends
 *   quarters to the two ranks of block 0 holding them, rank 5 likewise; block 0 reduces them in.
 */
int hdring_binblocks_reduce(const hdring_xport_t *x, const hdring_binblocks_t *bb, const hdring_positions_t *fine,
                            hdring_buf_t src, hdring_buf_t acc);

/*
 * Binary-block broadcast phase, the reverse: on entry block-0 rank u holds fine position bit_reverse(u) in acc;
 * block 0 hands its positions down to block 1, block 1 to block 2, ...; then every block allgathers within
 * itself. On return every rank holds the whole vector. No scratch.
 */
int hdring_binblocks_broadcast(const hdring_xport_t *x, const hdring_binblocks_t *bb,
                               const hdring_positions_t *fine, hdring_buf_t acc);

/* ---- Bruck (Bruck et al., 1997): ceil(log2 p) steps for any p ----
 * Step k (distance d = 2^k, c = min(d, p - d)) moves a window of c ranks' blocks (hdring_pattern.h) between rank r
 * and the ranks d away on either side, as one message: sent straight from its buffer when its blocks form one run
 * in memory, else packed into TMP (copies are cheap next to a message, and the step stays one message whatever
 * the blocks' placement). TMP: 2 hdring_bruck_staging(blocks), a packed window sent and one received. */
size_t hdring_bruck_staging(const hdring_blocks_t *blocks); /* the most a window can hold */

/*
 * Bruck allgather: on entry acc holds block `rank` at its place; on return every block. Step k: send the window
 * of ranks r .. r+c-1 (the blocks r holds) to r - d, receive the window r+d .. r+d+c-1 from r + d; after step k,
 * rank r holds the blocks of r .. r + 2d - 1. Blocks land at their places: no final rotation.
 * Cost: L alpha + (p-1)/p n beta.
 * Trace p = 5, rank 0: d=1 gets block 1 from 1; d=2 gets blocks 2-3 from 2; d=4 gets block 4 from 4.
 */
int hdring_bruck_allgather(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t acc);

/*
 * Bruck reduce-scatter, the allgather's dual (steps run backwards, messages reversed): before step k rank r holds
 * partial sums of the blocks of ranks r .. r + min(2d, p) - 1; it sends the partial sums of ranks r+d .. r+d+c-1
 * to r + d and reduces those of r .. r+c-1 received from r - d into its own. Partial sums live in acc (the whole
 * vector's size), blocks not yet reduced into are read from in; block `rank` of the result is copied to dst at
 * the end (dst may overlap in, as with MPI_IN_PLACE). Every element is reduced along one fixed tree: results
 * are deterministic, but operands combine in that tree's order: commutative operations only.
 * TMP: 2 hdring_bruck_staging(blocks). Cost: L alpha + (p-1)/p n (beta + gamma).
 * Trace p = 5, rank 0: d=4 sends block 4 to 4, gets block 0 from 1; d=2 sends blocks 2-3 to 2, gets 0-1 from 3;
 *   d=1 sends block 1 to 1, gets block 0 from 4: block 0 holds all five operands.
 */
int hdring_bruck_reduce_scatter(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t in,
                                hdring_buf_t acc, hdring_loc_t dst);

/* ---- trees (root = algorithm rank 0) ---- */

/* Binomial broadcast of count elements at `at`. Cost: ceil(log2 p) (alpha + n beta).
 * Trace p = 5: 0->4; 0->2; 0->1, 2->3. */
int hdring_binomial_bcast(const hdring_xport_t *x, hdring_loc_t at, size_t count);

/* The exchanges a flat root sends to `receivers` ranks in: as few as hold HDRING_EXCHANGE_STACK each (an exchange
 * that needs no memory: a root short of it still sends), the receivers shared out evenly. */
static inline int hdring_flat_batches(int receivers)
{
    return (receivers + HDRING_EXCHANGE_STACK - 1) / HDRING_EXCHANGE_STACK;
}

/* Flat broadcast of count elements at `at`: rank 0 sends to every other rank, in hdring_flat_batches(p - 1)
 * exchanges. Cost within a node alpha + n beta per batch (rendezvous included), its receivers copying at once
 * (eager messages: (p-1)(alpha + n beta), rank 0 copying them out); across nodes (ranks off rank 0's node)
 * (alpha + n beta) on rank 0's port.
 * Trace p = 5: 0->1, 0->2, 0->3, 0->4 at once; p = 18: 0->1..9 at once, then 0->10..17. */
int hdring_flat_bcast(const hdring_xport_t *x, hdring_loc_t at, size_t count);

/* Binomial scatter: on entry rank 0 holds all blocks in acc; on return rank r holds the blocks of its subtree,
 * block r among them. Cost: ceil(log2 p) alpha + (p-1)/p n beta. Trace p = 5: 0 sends block 4 to 4, blocks
 * 2-3 to 2, block 1 to 1; 2 sends block 3 to 3. */
int hdring_binomial_scatter(const hdring_xport_t *x, const hdring_partition_t *blocks, hdring_buf_t acc);

/* ---- pipelines (root = algorithm rank 0) ---- */

/* A lane of a pipelined broadcast: this rank's place in a tree (hdring_pattern.h) and the part of the message the
 * tree carries. */
#define HDRING_MAX_LANES 2

typedef struct hdring_lane {
    hdring_tree_t tree;
    hdring_loc_t at;
    size_t count;
} hdring_lane_t;

/*
 * Pipelined broadcast: each lane's part of the message, cut into segments of `segment` elements (0: one segment),
 * flows down the lane's tree. A rank passes segment t of a lane on to its children as soon as it has it, while the
 * next segments arrive: receives are posted up to two segments per lane ahead, and at most four sends per lane are
 * in flight. A rank takes segment t of a lane at step t + its depth in that tree, as it arrives. Lanes must not
 * link the same two ranks (MPI would match their messages across lanes). No scratch.
 * Cost with k segments of s bytes per lane: chain (one lane, hdring_tree_chain) (p - 2 + k)(alpha + s beta); the
 *   double binary tree (two lanes of n/2, hdring_tree_double), where every rank with children sends two segments
 *   per round: 2 depth + 2 to 2.6 (k - 1) segment times on the simulator, 2.5 on average (hdring_cost.c); the
 *   binary tree (one lane, hdring_tree_binary, one segment): hdring_run_bcast_binary.
 * Trace chain p = 3, two segments: 0 -> 1 segment 0; 0 -> 1 segment 1 while 1 -> 2 segment 0; 1 -> 2 segment 1.
 */
int hdring_pipelined_bcast(const hdring_xport_t *x, const hdring_lane_t *lanes, int nlanes, size_t segment);

#endif
