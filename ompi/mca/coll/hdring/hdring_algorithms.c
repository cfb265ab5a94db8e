/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring algorithms: see hdring_algorithms.h. Each algorithm below opens with what it does, its restrictions,
 * its alpha-beta-gamma cost (n the whole vector, p ranks, p' = 2^floor(log2 p), l = log2 p', L = ceil(log2 p))
 * and a trace for a p that is not a power of two.
 */
#include "hdring_algorithms.h"

#include "hdring_kernels.h"

/* ---------------------------------------------------------------- helpers */

/* The larger half of an RHD schedule's positions: what its first step receives, the most any step does. */
static size_t rhd_tmp(const hdring_positions_t *pos, int npos)
{
    if (npos < 2) {
        return 0;
    }
    const size_t mid = hdring_pos_offset(pos, npos / 2) - hdring_pos_offset(pos, 0);
    const size_t rest = hdring_pos_offset(pos, npos) - hdring_pos_offset(pos, npos / 2);
    return mid > rest ? mid : rest;
}

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

/* The scratch function of an algorithm that needs none. */
#define NO_SCRATCH(STEM)                                                                                              \
    hdring_scratch_t hdring_scratch_##STEM(const hdring_xport_t *x, const hdring_args_t *a)                           \
    {                                                                                                                 \
        const hdring_scratch_t none = {0, 0};                                                                         \
        (void) x, (void) a;                                                                                           \
        return none;                                                                                                  \
    }

/* TMP of the binary-block reduce phase: the larger half at the first step of any block. */
static size_t binblocks_tmp(const hdring_binblocks_t *bb, const hdring_positions_t *fine)
{
    size_t need = 0;
    for (int b = 0; b < bb->nblocks; ++b) {
        const hdring_positions_t pos = {fine->parts, fine->stride << (bb->log2_size[0] - bb->log2_size[b]),
                                        fine->groups};
        need = max_size(need, rhd_tmp(&pos, hdring_binblocks_size(bb, b)));
    }
    return need;
}

/* Positions over a reduce_scatter's or allgather's vector, and who holds each at the end of a reduce-scatter
 * (or the start of an allgather): rhd, the survivor of vrank hdring_rhd_position_holder(order, l, j); binary
 * blocks, block-0 rank bit_reverse(j). Deliver and collect move the pieces between positions and owners.
 *   BALANCED      p' equal positions of the vector, whatever the block sizes: every step stays balanced
 *                 (reduce_scatter, where every rank uses the same datatype).
 *   WHOLE_BLOCKS  position j is blocks fold_group_first(j) .. fold_group_first(j + 1) - 1 in memory order (the
 *                 blocks of the ranks vrank j stands for in the fold, when blocks are in rank order): split at
 *                 block boundaries, which every rank places at the same byte even when ranks describe their
 *                 blocks with different (count, datatype) pairs, as allgather allows.
 * All closed forms: the layout points into itself, so it is filled in place and never copied. */
typedef enum { BALANCED, WHOLE_BLOCKS } positions_kind_t;
typedef enum { HELD_BY_SURVIVORS, HELD_BY_BLOCK0 } holders_t; /* rhd, binary blocks */

typedef struct block_layout {
    hdring_fold_t fold;
    hdring_partition_t balanced;
    hdring_layout_t layout;
} block_layout_t;

static void block_layout(const hdring_partition_t *blocks, holders_t holders, hdring_rhd_order_t order,
                         positions_kind_t kind, block_layout_t *bl)
{
    hdring_fold_init(&bl->fold, blocks->nparts);
    bl->balanced = hdring_partition_balanced(bl->fold.pof2, hdring_partition_total(blocks));
    bl->layout.positions.parts = BALANCED == kind ? &bl->balanced : blocks;
    bl->layout.positions.stride = 1;
    bl->layout.positions.groups = BALANCED == kind ? NULL : &bl->fold;
    bl->layout.log2_npos = bl->fold.log2_pof2;
    bl->layout.order = order;
    bl->layout.fold = HELD_BY_BLOCK0 == holders ? NULL : &bl->fold;
}

/* An allgather's first step: the layout, and every rank's block collected into the positions holding it. */
static int collect_blocks(const hdring_xport_t *x, const hdring_blocks_t *blocks, holders_t holders,
                          hdring_rhd_order_t order, block_layout_t *bl)
{
    block_layout(blocks->parts, holders, order, WHOLE_BLOCKS, bl);
    return hdring_collect(x, blocks, &bl->layout, hdring_at(HDRING_BUF_OUT, hdring_block_offset(blocks, x->rank)),
                          HDRING_BUF_OUT);
}

/* The vrank group of a fold's survivors (meaningful only where vrank >= 0). */
static hdring_group_t survivors(const hdring_fold_t *f, int rank)
{
    hdring_group_t g = {f->log2_pof2, hdring_fold_vrank(f, rank), f, 0};
    return g;
}

/* Where a survivor's operand is after the fold: the fold wrote it to acc, or it never moved. */
static hdring_buf_t after_fold(const hdring_fold_t *f, int rank, hdring_buf_t in, hdring_buf_t acc)
{
    return HDRING_FOLD_KEEPER == hdring_fold_role(f, rank) ? acc : in;
}

/* ---------------------------------------------------------------- allreduce */

/*
 * Ring allreduce: ring reduce-scatter into OUT, then ring allgather of OUT. Any p, any count; the reduce-scatter
 * in segments of a->segment elements (the model's choice; 0: whole blocks), each received while the one before
 * is reduced. Bandwidth-optimal for every p; latency linear in p. Commutative operations only.
 * Cost: 2(p-1) alpha + 2(p-1)/p n beta + (p-1)/p n gamma; in k segments per block the reduce-scatter's steps
 *   take alpha + s (beta + gamma) + (k-1) max(alpha + s beta, s gamma), s = n/(pk).
 * Trace p = 3, n = 3 elements: every rank ends the reduce-scatter with its own element reduced, then two
 *   allgather steps pass the finished elements around the ring.
 */
int hdring_run_allreduce_ring(const hdring_xport_t *x, const hdring_args_t *a)
{
    const hdring_partition_t parts = hdring_partition_balanced(x->size, a->count);
    const hdring_blocks_t blocks = {&parts, NULL, NULL};
    int rc = hdring_ring_reduce_scatter_vector(x, &blocks, HDRING_BUF_IN, HDRING_BUF_OUT, a->segment);
    if (HDRING_OK == rc) {
        rc = hdring_ring_allgather(x, &blocks, HDRING_BUF_OUT);
    }
    return rc;
}

/*
 * RHD allreduce (Rabenseifner): split fold onto p' survivors, recursive-halving reduce-scatter and
 * recursive-doubling allgather among them (distance doubling: operand order kept), unfold. Any p, any count.
 * Cost: p' = p: 2l alpha + 2(p-1)/p n beta + (p-1)/p n gamma. Otherwise the fold adds 2 alpha + n beta +
 *   n/2 gamma and the unfold alpha + n beta: (2l+3) alpha + (2 + 2(p'-1)/p') n beta + (1/2 + (p'-1)/p') n gamma.
 * Trace p = 6 (p' = 4): 0|1 and 2|3 fold into 1 and 3; survivors 1, 3, 4, 5 (vranks 0-3) reduce-scatter
 *   (1<->3, 4<->5, then 1<->4, 3<->5) and allgather back; 1 and 3 send the result to 0 and 2.
 */
int hdring_run_allreduce_rhd(const hdring_xport_t *x, const hdring_args_t *a)
{
    const size_t count = a->count;
    hdring_fold_t f;
    hdring_fold_init(&f, x->size);
    const hdring_partition_t parts = hdring_partition_balanced(f.pof2, count);
    const hdring_positions_t pos = {&parts, 1, NULL};
    const hdring_group_t g = survivors(&f, x->rank);
    int rc = hdring_fold_split(x, &f, count, HDRING_BUF_IN, HDRING_BUF_OUT);
    if (HDRING_OK == rc && g.vrank >= 0) {
        rc = hdring_rhd_reduce_scatter(x, &g, HDRING_RHD_DISTANCE_DOUBLING, &pos,
                                       after_fold(&f, x->rank, HDRING_BUF_IN, HDRING_BUF_OUT), HDRING_BUF_OUT);
        if (HDRING_OK == rc) {
            rc = hdring_rhd_allgather(x, &g, HDRING_RHD_DISTANCE_DOUBLING, &pos, HDRING_BUF_OUT);
        }
    }
    if (HDRING_OK == rc) {
        rc = hdring_unfold(x, &f, hdring_at(HDRING_BUF_OUT, 0), count);
    }
    return rc;
}

/*
 * Binary-blocks allreduce (Rabenseifner and Traeff): p = 2^k0 + 2^k1 + ...; every block reduce-scatters, the
 * blocks hand their reductions up to block 0, block 0's results go back down and every block allgathers.
 * Operand order kept. No rank idles while others reduce. Any p, any count.
 * Cost, p = 2^k0 + 2^k1 (two blocks, r = 2^(k0-k1)): about 2(k0 + r) alpha + 2n beta + n gamma when the
 *   hand-offs overlap the larger block's steps; the smaller block's ranks send and receive n each.
 * Trace p = 6 = 4 + 2: 0-3 and 4-5 reduce-scatter; 4 and 5 send quarters into 0-3, which reduce them in;
 *   0-3 send their quarters back to 4 and 5; both blocks allgather.
 */
int hdring_run_allreduce_binary_blocks(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_binblocks_t bb;
    hdring_binblocks_init(&bb, x->size);
    const hdring_partition_t parts = hdring_partition_balanced(hdring_binblocks_size(&bb, 0), a->count);
    const hdring_positions_t fine = {&parts, 1, NULL};
    int rc = hdring_binblocks_reduce(x, &bb, &fine, HDRING_BUF_IN, HDRING_BUF_OUT);
    if (HDRING_OK == rc) {
        rc = hdring_binblocks_broadcast(x, &bb, &fine, HDRING_BUF_OUT);
    }
    return rc;
}

/*
 * Recursive-doubling allreduce: whole fold onto p' survivors, l steps exchanging and reducing the whole
 * vector, unfold. Latency-optimal for small vectors; operand order kept, both partners of a step compute the
 * same bits. Any p, any count.
 * Cost: l (alpha + n beta + n gamma); p not a power of two adds 2 alpha + 2 n beta + n gamma.
 * Trace p = 5 (p' = 4): 0 sends to 1; 1, 2, 3, 4 run two steps (1<->2, 3<->4; 1<->3, 2<->4); 1 sends to 0.
 */
int hdring_run_allreduce_recursive_doubling(const hdring_xport_t *x, const hdring_args_t *a)
{
    const size_t count = a->count;
    hdring_fold_t f;
    hdring_fold_init(&f, x->size);
    const hdring_group_t g = survivors(&f, x->rank);
    int rc = hdring_fold_whole(x, &f, count, HDRING_BUF_IN, HDRING_BUF_OUT);
    if (HDRING_OK == rc && g.vrank >= 0) {
        rc = hdring_recursive_doubling(x, &g, count, after_fold(&f, x->rank, HDRING_BUF_IN, HDRING_BUF_OUT),
                                       HDRING_BUF_OUT);
    }
    return HDRING_OK == rc ? hdring_unfold(x, &f, hdring_at(HDRING_BUF_OUT, 0), count) : rc;
}

static size_t allreduce_rhd_tmp(int p, size_t count)
{
    hdring_fold_t f;
    hdring_fold_init(&f, p);
    const hdring_partition_t parts = hdring_partition_balanced(f.pof2, count);
    const hdring_positions_t pos = {&parts, 1, NULL};
    return max_size(count - count / 2, rhd_tmp(&pos, f.pof2));
}

static size_t allreduce_binblocks_tmp(int p, size_t count)
{
    hdring_binblocks_t bb;
    hdring_binblocks_init(&bb, p);
    const hdring_partition_t parts = hdring_partition_balanced(hdring_binblocks_size(&bb, 0), count);
    const hdring_positions_t fine = {&parts, 1, NULL};
    return binblocks_tmp(&bb, &fine);
}

hdring_scratch_t hdring_scratch_allreduce_ring(const hdring_xport_t *x, const hdring_args_t *a)
{
    const hdring_partition_t parts = hdring_partition_balanced(x->size, a->count);
    const hdring_blocks_t blocks = {&parts, NULL, NULL};
    hdring_scratch_t need = {hdring_ring_receive_room(&blocks, a->segment), 0};
    return need;
}

hdring_scratch_t hdring_scratch_allreduce_rhd(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_scratch_t need = {allreduce_rhd_tmp(x->size, a->count), 0};
    return need;
}

hdring_scratch_t hdring_scratch_allreduce_binary_blocks(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_scratch_t need = {allreduce_binblocks_tmp(x->size, a->count), 0};
    return need;
}

hdring_scratch_t hdring_scratch_allreduce_recursive_doubling(const hdring_xport_t *x, const hdring_args_t *a)
{
    (void) x;
    hdring_scratch_t need = {a->count, 0};
    return need;
}

/* ---------------------------------------------------------------- reduce_scatter */

/*
 * Ring reduce-scatter: the reduce-scatter half of ring allreduce, partial blocks kept in TMP, so no scratch of
 * the vector's size; in segments of a->segment elements as allreduce's. Any p, any block sizes (zeros too).
 * Commutative operations only.
 * Cost: (p-1) alpha + (p-1)/p n (beta + gamma) for equal blocks; each step moves one block (in segments: as
 *   allreduce's reduce-scatter).
 * Trace p = 3: rank 0 gets block 1 from 2 (2's data) and adds its own, passes it on; gets block 0 (1's and 2's
 *   data) and adds its own: done.
 */
int hdring_run_reduce_scatter_ring(const hdring_xport_t *x, const hdring_args_t *a)
{
    return hdring_ring_reduce_scatter_block(x, a->blocks, HDRING_BUF_IN, hdring_at(HDRING_BUF_OUT, 0), a->segment);
}

/* rhd's and recursive_halving's reduce-scatter: fold onto the survivors (halves onto balanced positions, whole
 * vectors onto whole-block ones), recursive halving on the positions, then delivery to the blocks' owners. */
static int fold_halve_deliver(const hdring_xport_t *x, const hdring_args_t *a, positions_kind_t kind)
{
    const hdring_blocks_t *blocks = a->blocks;
    const size_t total = hdring_partition_total(blocks->parts);
    const hdring_rhd_order_t order =
        a->ordered || a->near_first ? HDRING_RHD_DISTANCE_DOUBLING : HDRING_RHD_DISTANCE_HALVING;
    block_layout_t bl;

    block_layout(blocks->parts, HELD_BY_SURVIVORS, order, kind, &bl);
    const hdring_fold_t *f = &bl.fold;
    const hdring_group_t g = survivors(f, x->rank);
    int rc = BALANCED == kind ? hdring_fold_split(x, f, total, HDRING_BUF_IN, HDRING_BUF_WORK)
                              : hdring_fold_whole(x, f, total, HDRING_BUF_IN, HDRING_BUF_WORK);
    if (HDRING_OK == rc && g.vrank >= 0) {
        rc = hdring_rhd_reduce_scatter(x, &g, order, &bl.layout.positions,
                                       after_fold(f, x->rank, HDRING_BUF_IN, HDRING_BUF_WORK), HDRING_BUF_WORK);
    }
    if (HDRING_OK == rc) {
        rc = hdring_deliver(x, blocks, &bl.layout, HDRING_BUF_WORK, hdring_at(HDRING_BUF_OUT, 0));
    }
    return rc;
}

/*
 * RHD reduce-scatter: split fold onto p' survivors, recursive halving on p' balanced positions of the vector
 * (balanced whatever the block sizes), then every position's holder delivers the pieces of its position to
 * the blocks' owners. With an ordered operation, or ranks on several nodes (near_first: the first, largest
 * exchanges then stay within a node), the halving runs with distance doubling (positions end bit-reversed);
 * otherwise with distance halving (on p' = p with equal blocks in rank order, positions end at their owners and
 * delivery moves nothing). Any p, any block sizes (zeros too), blocks anywhere in the vector.
 * Cost, p' = p, equal blocks: l alpha + (p-1)/p n (beta + gamma) (+ alpha + n/p beta when ordered, p >= 4).
 *   Otherwise the fold adds 2 alpha + n beta + n/2 gamma, and delivery its busiest port (a few alpha + n/p'
 *   beta).
 * Trace p = 6: 0|1 and 2|3 fold into 1 and 3; survivors 1, 3, 4, 5 halve the vector into quarters; rank 1
 *   holds elements [0, n/4), blocks 0 and half of 1: it sends block 0 to rank 0 and keeps its own piece; the
 *   rest of block 1 comes from rank 3.
 */
int hdring_run_reduce_scatter_rhd(const hdring_xport_t *x, const hdring_args_t *a)
{
    return fold_halve_deliver(x, a, BALANCED);
}

/*
 * Recursive-halving reduce-scatter (MPICH's and tuned's for small vectors): whole fold onto p' survivors, recursive
 * halving on whole-block positions (position j: the blocks of the ranks vrank j stands for), then each survivor
 * hands its folded partner that rank's block. One step fewer than rhd's split fold and no split of blocks between
 * positions, for uneven positions (two blocks against one) at every step: for small vectors. Distance doubling with
 * an ordered operation or near_first, as rhd. Any p, any block sizes (zeros too), blocks anywhere in the vector.
 * Cost, p' = p: as rhd. Otherwise, B = n/p: alpha + n (beta + gamma) (fold) + sum_k (alpha + (2^k + min(r, 2^k)) B
 *   (beta + gamma)) + alpha + B beta (the hand-back): l + 2 steps where rhd takes l + 3 or more.
 * Trace p = 5 (p' = 4, r = 1): 0 sends its vector to 1, which reduces it in; 1, 2, 3, 4 halve with distance 2 then
 *   1 (1 keeps blocks 0-2, then 0-1); 1 sends block 0 to 0.
 */
int hdring_run_reduce_scatter_recursive_halving(const hdring_xport_t *x, const hdring_args_t *a)
{
    return fold_halve_deliver(x, a, WHOLE_BLOCKS);
}

/*
 * Binary-blocks reduce-scatter: the binary-block reduce phase on block 0's p' balanced positions, then block
 * 0's ranks deliver the pieces to the blocks' owners. Operand order kept. Any p, any block sizes.
 * Cost: the reduce phase of binary-blocks allreduce, plus the delivery's busiest port.
 * Trace p = 6 = 4 + 2: 4 and 5 hand their halves to block 0, which reduces them in; block-0 rank 0 holds
 *   position 0 (blocks 0 and half of 1) and sends the half of block 1 to rank 1.
 */
int hdring_run_reduce_scatter_binary_blocks(const hdring_xport_t *x, const hdring_args_t *a)
{
    const hdring_blocks_t *blocks = a->blocks;
    hdring_binblocks_t bb;
    block_layout_t bl;

    hdring_binblocks_init(&bb, x->size);
    block_layout(blocks->parts, HELD_BY_BLOCK0, HDRING_RHD_DISTANCE_DOUBLING, BALANCED, &bl);
    int rc = hdring_binblocks_reduce(x, &bb, &bl.layout.positions, HDRING_BUF_IN, HDRING_BUF_WORK);
    if (HDRING_OK == rc) {
        rc = hdring_deliver(x, blocks, &bl.layout, HDRING_BUF_WORK, hdring_at(HDRING_BUF_OUT, 0));
    }
    return rc;
}

/*
 * Bruck reduce-scatter: ceil(log2 p) steps for any p, each sending the partial sums of a window of blocks to the
 * rank d further on (d = 2^(L-1), ..., 2, 1), partial sums in WORK. For small vectors where p is not a power of
 * two: L steps where rhd takes l + 2 and ring p - 1, with the ring's bytes. Commutative operations only; any
 * block sizes and placement.
 * Cost: L alpha + (p-1)/p n (beta + gamma).
 * Trace p = 6 (L = 3), rank 0: d=4 sends blocks 4-5 to 4, gets blocks 0-1 from 2; d=2 sends blocks 2-3 to 2,
 *   gets 0-1 from 4; d=1 sends block 1 to 1, gets block 0 from 5; block 0 is then complete.
 */
int hdring_run_reduce_scatter_bruck(const hdring_xport_t *x, const hdring_args_t *a)
{
    return hdring_bruck_reduce_scatter(x, a->blocks, HDRING_BUF_IN, HDRING_BUF_WORK, hdring_at(HDRING_BUF_OUT, 0));
}

hdring_scratch_t hdring_scratch_reduce_scatter_bruck(const hdring_xport_t *x, const hdring_args_t *a)
{
    (void) x;
    hdring_scratch_t need = {2 * hdring_bruck_staging(a->blocks), hdring_partition_total(a->blocks->parts)};
    return need;
}

hdring_scratch_t hdring_scratch_reduce_scatter_ring(const hdring_xport_t *x, const hdring_args_t *a)
{
    (void) x;
    const size_t slot = hdring_partition_max_part(a->blocks->parts);
    hdring_scratch_t need = {hdring_ring_receive_room(a->blocks, a->segment) + slot, 0};
    return need;
}

/* rhd and binary blocks: balanced positions over the whole vector, as allreduce's, accumulated in WORK */
hdring_scratch_t hdring_scratch_reduce_scatter_rhd(const hdring_xport_t *x, const hdring_args_t *a)
{
    const size_t total = hdring_partition_total(a->blocks->parts);
    hdring_scratch_t need = {allreduce_rhd_tmp(x->size, total), total};
    return need;
}

/* the whole fold's vector, or the halving's larger half on whole-block positions; the vector accumulated in WORK */
hdring_scratch_t hdring_scratch_reduce_scatter_recursive_halving(const hdring_xport_t *x, const hdring_args_t *a)
{
    const size_t total = hdring_partition_total(a->blocks->parts);
    block_layout_t bl;
    block_layout(a->blocks->parts, HELD_BY_SURVIVORS, HDRING_RHD_DISTANCE_HALVING, WHOLE_BLOCKS, &bl);
    const size_t fold = bl.fold.rem > 0 ? total : 0;
    (void) x;
    hdring_scratch_t need = {max_size(fold, rhd_tmp(&bl.layout.positions, bl.fold.pof2)), total};
    return need;
}

hdring_scratch_t hdring_scratch_reduce_scatter_binary_blocks(const hdring_xport_t *x, const hdring_args_t *a)
{
    const size_t total = hdring_partition_total(a->blocks->parts);
    hdring_scratch_t need = {allreduce_binblocks_tmp(x->size, total), total};
    return need;
}

/* ---------------------------------------------------------------- allgather */

/*
 * RHD allgather on whole-block positions: position v is the blocks of the ranks vrank v stands for in the
 * fold, so a folded rank hands its block to its survivor, the p' survivors run recursive doubling (distance
 * 1, 2, 4, ...) and send the whole vector back to their folded partner. With ranks on several nodes
 * (near_first) the distances run p'/2, ..., 2, 1 instead, so the last, largest exchange stays within a node;
 * position j is then held by vrank bit_reverse(j) and the collection moves more blocks. Any p, any block sizes,
 * blocks anywhere in the vector, and blocks may be described by different (count, datatype) pairs on different
 * ranks.
 * Cost, p' = p, equal blocks: l alpha + (p-1)/p n beta; otherwise, B = n/p:
 *   alpha + B beta (collect) + sum_k (alpha + (2^k + min(r, 2^k)) B beta) + alpha + n beta (unfold).
 * Trace p = 5: vrank 0 = {0, 1}; 0 sends block 0 to 1; 1, 2, 3, 4 exchange with distance 1 (1 sends blocks
 *   0-1, 2 sends block 2) then 2; 1 sends everything to 0.
 */
int hdring_run_allgather_rhd(const hdring_xport_t *x, const hdring_args_t *a)
{
    const hdring_blocks_t *blocks = a->blocks;
    const hdring_rhd_order_t order = a->near_first ? HDRING_RHD_DISTANCE_DOUBLING : HDRING_RHD_DISTANCE_HALVING;
    block_layout_t bl;

    int rc = collect_blocks(x, blocks, HELD_BY_SURVIVORS, order, &bl);
    const hdring_group_t g = survivors(&bl.fold, x->rank);
    if (HDRING_OK == rc && g.vrank >= 0) {
        rc = hdring_rhd_allgather(x, &g, order, &bl.layout.positions, HDRING_BUF_OUT);
    }
    if (HDRING_OK == rc) {
        rc = hdring_unfold(x, &bl.fold, hdring_at(HDRING_BUF_OUT, 0), hdring_partition_total(blocks->parts));
    }
    return rc;
}

/*
 * Binary-blocks allgather on whole-block positions (as RHD's: p' positions of one or two blocks, held by the
 * block-0 ranks bit_reverse(j)): every rank sends its block to the holder of its position, then the
 * binary-block broadcast phase: block 0's positions go down the blocks and every block allgathers within
 * itself. Any p, any block sizes, mixed (count, datatype) descriptions allowed.
 * Cost: the collection's busiest port, then the broadcast phase of binary-blocks allreduce on positions of
 *   up to 2 n/p bytes.
 * Trace p = 6 = 4 + 2: positions {0,1} {2,3} {4} {5} are held by 0, 2, 1, 3; 1 sends block 1 to 0, 3 sends
 *   block 3 to 2, 4 sends block 4 to 1, 5 sends block 5 to 3; block 0 sends halves to 4 and 5; blocks 0-3
 *   and 4-5 allgather.
 */
int hdring_run_allgather_binary_blocks(const hdring_xport_t *x, const hdring_args_t *a)
{
    const hdring_blocks_t *blocks = a->blocks;
    hdring_binblocks_t bb;
    block_layout_t bl;

    hdring_binblocks_init(&bb, x->size);
    int rc = collect_blocks(x, blocks, HELD_BY_BLOCK0, HDRING_RHD_DISTANCE_DOUBLING, &bl);
    if (HDRING_OK == rc) {
        rc = hdring_binblocks_broadcast(x, &bb, &bl.layout.positions, HDRING_BUF_OUT);
    }
    return rc;
}

/* Ring allgather: p-1 steps passing blocks to the right. Cost (p-1) alpha + (p-1)/p n beta. */
int hdring_run_allgather_ring(const hdring_xport_t *x, const hdring_args_t *a)
{
    return hdring_ring_allgather(x, a->blocks, HDRING_BUF_OUT);
}

/*
 * Bruck allgather: ceil(log2 p) steps for any p, step k sending the 2^k blocks a rank holds (fewer at the last)
 * to the rank 2^k before it; blocks land at their places, so no final rotation. For small blocks where p is not
 * a power of two: L steps where rhd takes l + 2 and ring p - 1, each block moving once. Any block sizes and
 * placement; a window of blocks that is not one run in memory goes through TMP.
 * Cost: L alpha + (p-1)/p n beta.
 * Trace p = 6, rank 0: d=1 gets block 1 from 1; d=2 gets blocks 2-3 from 2; d=4 gets blocks 4-5 from 4, while
 *   sending blocks 0-1 to 2 (one run; rank 5's window 5, 0 wraps and is packed).
 */
int hdring_run_allgather_bruck(const hdring_xport_t *x, const hdring_args_t *a)
{
    return hdring_bruck_allgather(x, a->blocks, HDRING_BUF_OUT);
}

hdring_scratch_t hdring_scratch_allgather_bruck(const hdring_xport_t *x, const hdring_args_t *a)
{
    (void) x;
    hdring_scratch_t need = {2 * hdring_bruck_staging(a->blocks), 0};
    return need;
}

/* The other allgathers move blocks within OUT: no scratch. */
NO_SCRATCH(allgather_ring)
NO_SCRATCH(allgather_rhd)
NO_SCRATCH(allgather_binary_blocks)

/* ---------------------------------------------------------------- bcast */

/*
 * Scatter + allgather broadcast (van de Geijn): a binomial scatter of p blocks from the root, then an
 * allgather of them (recursive doubling with the fold, or ring). Any p, any count.
 * Cost: scatter L alpha + (p-1)/p n beta; then rhd: as allgather_rhd, ring: (p-1) alpha + (p-1)/p n beta.
 * Trace p = 5, scatter_ring: 0 sends block 4 to 4, blocks 2-3 to 2, block 1 to 1; 2 sends block 3 to 3; four
 *   ring steps complete every rank.
 */
static int bcast_scatter_allgather(const hdring_xport_t *x, hdring_alg_t allgather, size_t count)
{
    const hdring_partition_t parts = hdring_partition_balanced(x->size, count);
    int rc = hdring_binomial_scatter(x, &parts, HDRING_BUF_OUT);
    if (HDRING_OK == rc) {
        const hdring_blocks_t blocks = {&parts, NULL, NULL};
        const hdring_args_t ag = {.blocks = &blocks};
        rc = hdring_run(x, allgather, &ag);
    }
    return rc;
}

/* The bcast algorithms are written for root 0; a view rotates the ranks so that the root is. */
static int from_root(const hdring_xport_t *x, const hdring_args_t *a, hdring_alg_t allgather)
{
    hdring_view_t v;
    const hdring_xport_t rotated = hdring_view(x, &v, 0, 1, x->size, a->root);
    if (HDRING_ALG_NONE == allgather) {
        return hdring_binomial_bcast(&rotated, hdring_at(HDRING_BUF_OUT, 0), a->count);
    }
    return bcast_scatter_allgather(&rotated, allgather, a->count);
}

/*
 * Pipelined chain broadcast: the message in segments of a->segment elements (the model's choice, see
 * hdring_segment_bcast_chain) passes down the ranks from the root, root+1, ..., wrapping around; ranks in
 * locality order, so the chain crosses each node's link once. Any p, count and segment.
 * Cost with k segments of s = n/k: (p - 2 + k)(alpha + s beta) = n beta + (p - 2) s beta + (p - 2 + k) alpha,
 * least near k = sqrt((p - 2) n beta / alpha): bandwidth n beta, where scatter + allgather moves 2 (p-1)/p n.
 * Trace p = 5, root 3, three segments: the chain is 3 4 0 1 2; step 0: 3 -> 4 segment 0; step 1: 3 -> 4 seg 1,
 *   4 -> 0 seg 0; ... step 5: 1 -> 2 segment 2 (p - 2 + k = 6 steps).
 */
int hdring_run_bcast_chain(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_view_t v;
    const hdring_xport_t rotated = hdring_view(x, &v, 0, 1, x->size, a->root);
    const hdring_lane_t lane = {hdring_tree_chain(x->size, rotated.rank), hdring_at(HDRING_BUF_OUT, 0), a->count};
    return hdring_pipelined_bcast(&rotated, &lane, 1, a->segment);
}

/*
 * Double binary tree broadcast (Sanders, Speck and Traeff 2009; NCCL's trees): each half of the message flows in
 * segments down one of two binary trees over the ranks but the root (hdring_tree_double), complementary, so a rank
 * with children in one tree is a leaf of the other: every rank receives the message once and sends it at most once
 * (two children times half), so all links work at once as in the chain, but a segment takes log2 p steps to the
 * last rank instead of p - 1. Ranks in locality order from the root. Any p, count and segment.
 * Cost with k segments per half, s = n/(2k), depth = floor(log2 (p-1)) + 1: about (2 depth + 2.5 (k-1))(alpha +
 *   s beta) (hdring_cost.c): 1.25 n beta + 2.5 k alpha for large messages, where the chain takes n beta and
 *   (p - 2) segments to fill and scatter + allgather moves 2 (p-1)/p n; the tree fills in 2 log2 p.
 * Trace p = 6, root 0, one segment per half: 0 sends half A to 4 and half B to 3; 4 sends A to 2 and 5, 3 sends B
 *   to 1 and 4; 2 sends A to 1 and 3, 1 sends B to 5 and 2: every rank has both halves after 3 rounds.
 */
int hdring_run_bcast_double_tree(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_view_t v;
    const hdring_xport_t rotated = hdring_view(x, &v, 0, 1, x->size, a->root);
    const size_t half = a->count - a->count / 2;
    const hdring_lane_t lanes[2] = {
        {hdring_tree_double(x->size, rotated.rank, 0), hdring_at(HDRING_BUF_OUT, 0), half},
        {hdring_tree_double(x->size, rotated.rank, 1), hdring_at(HDRING_BUF_OUT, half), a->count - half},
    };
    if (x->size <= 2) { /* both trees are 0 -> 1: one lane carries the whole message */
        const hdring_lane_t whole = {lanes[0].tree, hdring_at(HDRING_BUF_OUT, 0), a->count};
        return hdring_pipelined_bcast(&rotated, &whole, 1, a->segment);
    }
    return hdring_pipelined_bcast(&rotated, lanes, 2, a->segment);
}

/*
 * Binary tree broadcast (tuned's "bintree"): the whole message down the level-order binary tree from the root
 * (hdring_tree_binary), each rank passing it to at most two children. Any p, count and root.
 * Where a rank's sends queue on its port (across nodes), a rank gets the message after one message per level and
 * one more per second child on its path: max(2 (L - 1), L + the most set bits of an i <= p - 2^L) (alpha + n beta),
 * L = floor(log2 p), the binomial tree's ceil(log2 p) at p = 3 to 6; the root sends 2 messages, not ceil(log2 p),
 * and is free sooner for the next collective.
 * Trace p = 5, root 2 (ranks rotated so the root is 0): 2 sends to 3, then 4; 3 sends to 0, 4 to 1: rank 1 has it
 *   after 3 messages, as in the binomial tree, whose root sends 3.
 */
int hdring_run_bcast_binary(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_view_t v;
    const hdring_xport_t rotated = hdring_view(x, &v, 0, 1, x->size, a->root);
    const hdring_lane_t lane = {hdring_tree_binary(x->size, rotated.rank), hdring_at(HDRING_BUF_OUT, 0), a->count};
    return hdring_pipelined_bcast(&rotated, &lane, 1, 0);
}

/* Binomial tree. Cost: L (alpha + n beta). For small messages. */
int hdring_run_bcast_binomial(const hdring_xport_t *x, const hdring_args_t *a)
{
    return from_root(x, a, HDRING_ALG_NONE);
}

/*
 * Flat tree (tuned's "linear"): the root sends the whole message to every other rank, in exchanges of at most
 * HDRING_EXCHANGE_STACK ranks (16), as even as they can be. Any p, any root. Within a node a message over the
 * eager limit is copied in by its receiver, so a batch's copies run at once, sharing the node's cores; an eager
 * one is copied out by the root, one after another. Across nodes the root's sends queue on its port.
 * Cost within a node: alpha + n beta per batch of b ranks, crowded by b/cores (eager: (p - 1)(alpha + n beta));
 * across nodes also (ranks off the root's node)(alpha + n beta) on the root's port.
 * Trace p = 5, root 3: 3 sends to 4, 0, 1 and 2 at once. p = 18, root 0: 0 sends to 1-9 at once, then to 10-17.
 */
int hdring_run_bcast_flat(const hdring_xport_t *x, const hdring_args_t *a)
{
    hdring_view_t v;
    const hdring_xport_t rotated = hdring_view(x, &v, 0, 1, x->size, a->root);
    return hdring_flat_bcast(&rotated, hdring_at(HDRING_BUF_OUT, 0), a->count);
}

int hdring_run_bcast_scatter_rhd(const hdring_xport_t *x, const hdring_args_t *a)
{
    return from_root(x, a, HDRING_ALG_ALLGATHER_RHD);
}

int hdring_run_bcast_scatter_ring(const hdring_xport_t *x, const hdring_args_t *a)
{
    return from_root(x, a, HDRING_ALG_ALLGATHER_RING);
}

NO_SCRATCH(bcast_binomial)
NO_SCRATCH(bcast_binary)
NO_SCRATCH(bcast_flat)
NO_SCRATCH(bcast_scatter_rhd)
NO_SCRATCH(bcast_scatter_ring)
NO_SCRATCH(bcast_chain)
NO_SCRATCH(bcast_double_tree)

/* ---------------------------------------------------------------- dispatch */

int hdring_run(const hdring_xport_t *x, hdring_alg_t alg, const hdring_args_t *a)
{
    const hdring_algorithm_t *row = hdring_algorithm(alg);
    if (NULL == row || (a->ordered && !row->keeps_order)) {
        return HDRING_ERR_UNSUPPORTED;
    }
    return row->run(x, a);
}

hdring_scratch_t hdring_scratch(const hdring_xport_t *x, hdring_alg_t alg, const hdring_args_t *a)
{
    const hdring_algorithm_t *row = hdring_algorithm(alg);
    const hdring_scratch_t none = {0, 0};
    return NULL == row ? none : row->scratch(x, a);
}
