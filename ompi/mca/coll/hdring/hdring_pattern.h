/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring pattern layer: the arithmetic of the collective schedules, with no MPI in sight.
 *
 * Everything here is pure: block partitions of a vector, power-of-two helpers, the non-power-of-two fold map,
 * the position ranges of recursive halving/doubling and the binary-block decomposition of p. The kernels
 * (hdring_kernels.h) turn these into messages; the unit tests check them directly.
 *
 * Vocabulary used throughout:
 *   element   one item of the user's datatype; offsets and counts are in elements (size_t).
 *   block     the piece of the vector that belongs to one rank (reduce_scatter result, allgather input).
 *   position  one of the 2^k pieces a recursive halving/doubling schedule splits its vector into; a position
 *             is a run of consecutive elements (for allreduce) or of consecutive blocks (reduce_scatter,
 *             allgather), described by a partition.
 */
#ifndef HDRING_PATTERN_H
#define HDRING_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

#include "hdring_status.h"

#define HDRING_MAX_LOG2_P 30 /* p <= 2^30 ranks: binary-block tables are sized by this */

/* ---- powers of two ----
 * Inline, as the fold and position arithmetic below: every step of every schedule computes them. */
static inline bool hdring_is_pow2(int p) { return p > 0 && 0 == (p & (p - 1)); }
static inline int hdring_floor_log2(int p) /* p >= 1 */
{
    int l = 0;
    while (p >>= 1) {
        ++l;
    }
    return l;
}
static inline int hdring_ceil_log2(int p) /* p >= 1 */
{
    return hdring_is_pow2(p) ? hdring_floor_log2(p) : hdring_floor_log2(p) + 1;
}
static inline int hdring_floor_pow2(int p) { return 1 << hdring_floor_log2(p); } /* largest power of two <= p */
static inline int hdring_bit_reverse(int v, int nbits)
{
    int r = 0;
    for (int i = 0; i < nbits; ++i) {
        r = (r << 1) | ((v >> i) & 1);
    }
    return r;
}

/* ---- partitions ----
 * A partition splits [0, total) into nparts consecutive parts and owns no memory: a balanced one is closed
 * forms (part j has base + (j < extra ? 1 : 0) elements), any other reads the caller's boundaries displ[], part j
 * being [displ[j], displ[j+1]). A sub-partition views a run of another's parts (hdring_partition_sub); offsets
 * count from its first part's start. Partitions are values: copy them freely, nothing to free. */
typedef struct hdring_partition {
    int nparts;
    int first;           /* part 0 is part `first` of the underlying sequence */
    const size_t *displ; /* the caller's boundaries, or NULL: balanced */
    size_t base, extra;
} hdring_partition_t;

/* Parts differ by at most one element; the first total % nparts parts get the extra one. Parts may be
 * empty (total < nparts). */
hdring_partition_t hdring_partition_balanced(int nparts, size_t total);
/* Part i holds `each` elements. */
hdring_partition_t hdring_partition_uniform(int nparts, size_t each);
/* Part i is [displ[i], displ[i+1]): nparts + 1 non-decreasing boundaries the caller keeps alive. */
hdring_partition_t hdring_partition_of_displs(int nparts, const size_t *displ);
/* displ[0] = 0, displ[i+1] = displ[i] + counts[i] for i < nparts: boundaries for hdring_partition_of_displs. */
void hdring_displs_from_counts(size_t *displ, int nparts, const size_t *counts);

/* Where the underlying sequence's part j starts (j = nparts: where the last part ends). */
static inline size_t hdring_partition_boundary(const hdring_partition_t *pt, int j)
{
    const size_t u = (size_t) (pt->first + j);
    return NULL != pt->displ ? pt->displ[u] : u * pt->base + (u < pt->extra ? u : pt->extra);
}

/* Parts first .. first + nparts - 1 of pt, as a partition of their own (offsets from the first one's start). */
static inline hdring_partition_t hdring_partition_sub(const hdring_partition_t *pt, int first, int nparts)
{
    hdring_partition_t sub = *pt;
    sub.nparts = nparts;
    sub.first = pt->first + first;
    return sub;
}

static inline size_t hdring_part_offset(const hdring_partition_t *pt, int i)
{
    return hdring_partition_boundary(pt, i) - hdring_partition_boundary(pt, 0);
}
static inline size_t hdring_part_count(const hdring_partition_t *pt, int i)
{
    return hdring_partition_boundary(pt, i + 1) - hdring_partition_boundary(pt, i);
}
static inline size_t hdring_partition_total(const hdring_partition_t *pt)
{
    return hdring_partition_boundary(pt, pt->nparts) - hdring_partition_boundary(pt, 0);
}
size_t hdring_partition_max_part(const hdring_partition_t *pt);

/* ---- segments ----
 * `count` elements cut every `seg` (>= 1) for a pipeline: how many segments, and the length of segment j.
 *   count 10, seg 4: 3 segments of 4, 4, 2. */
static inline size_t hdring_segments(size_t count, size_t seg) { return (count + seg - 1) / seg; }
static inline size_t hdring_segment_count(size_t count, size_t seg, size_t j)
{
    return count - j * seg < seg ? count - j * seg : seg;
}

/* ---- blocks ----
 * The blocks of a reduce_scatter or allgather: `parts` in memory order, block b belonging to algorithm rank
 * owner_of[b], rank r owning block block_of[r] (both NULL: block b is rank b's). Ranks numbered in locality
 * order (hdring_topo.h) own the blocks of their communicator ranks, wherever those lie. */
typedef struct hdring_blocks {
    const hdring_partition_t *parts;
    const int *block_of;
    const int *owner_of;
} hdring_blocks_t;

static inline int hdring_block_of(const hdring_blocks_t *b, int rank)
{
    return NULL == b->block_of ? rank : b->block_of[rank];
}
static inline int hdring_owner_of(const hdring_blocks_t *b, int block)
{
    return NULL == b->owner_of ? block : b->owner_of[block];
}
/* Offset and count of rank r's block. */
static inline size_t hdring_block_offset(const hdring_blocks_t *b, int rank)
{
    return hdring_part_offset(b->parts, hdring_block_of(b, rank));
}
static inline size_t hdring_block_count(const hdring_blocks_t *b, int rank)
{
    return hdring_part_count(b->parts, hdring_block_of(b, rank));
}

/* ---- windows ----
 * The blocks of `nranks` consecutive ranks from `first`, wrapping past the last rank to rank 0 (Bruck's
 * schedules move such windows). p = b->parts->nparts; 0 <= first < p.
 *   p = 5, blocks of 2 in rank order: window (3, 2) is elements 6..9, one run; window (4, 2) is 8..9, then 0..1. */
size_t hdring_window_count(const hdring_blocks_t *b, int first, int nranks);
/* The window of Bruck's step at distance d (1, 2, 4, ... < p): min(d, p - d) ranks. */
static inline int hdring_bruck_window(int p, int d) { return d < p - d ? d : p - d; }
/* The run the window starts with: the blocks that lie one after another in memory from *offset, in window order
 * (empty blocks join any run), *count elements in all. Returns how many of the window's ranks it covers (all of
 * them when the window is one run; at least one when nranks >= 1). */
int hdring_window_run(const hdring_blocks_t *b, int first, int nranks, size_t *offset, size_t *count);

/* ---- broadcast trees ----
 * A rank's place in a tree rooted at rank 0: its parent (-1 at the root), the children it passes the message on
 * to, in that order, and its depth (edges from rank 0). */
#define HDRING_MAX_CHILDREN 2

typedef struct hdring_tree {
    int parent, nchildren, depth;
    int child[HDRING_MAX_CHILDREN];
} hdring_tree_t;

/* The chain 0 -> 1 -> ... -> p-1. */
hdring_tree_t hdring_tree_chain(int p, int rank);

/* The binary tree in level order (tuned's bintree): level d holds ranks 2^d - 1 .. 2^(d+1) - 2, and rank r of
 * level d passes to r + 2^d and r + 2^(d+1) (those < p), so a partial last level is spread over its parents, one
 * child each before any has two; depth floor(log2 (r + 1)).
 *   p = 6: 0 -> 1, 2; 1 -> 3, 5; 2 -> 4. */
hdring_tree_t hdring_tree_binary(int p, int rank);

/* Tree `which` (0 or 1) of the double binary tree (Sanders, Speck and Traeff 2009) over p ranks: rank 0 sends to
 * the top of each; ranks 1 .. m (m = p - 1) form an in-order binary tree over labels 1 .. m, where label x of
 * height h = ctz(x) has children x - 2^(h-1) and the first of x + 2^(h-1), x + 2^(h-2), ... that is at most m,
 * and the top is the largest power of two <= m. Tree 0 gives rank r label r; tree 1 mirrors the labels (m even:
 * m + 1 - r) or shifts them (m odd: r mod m + 1), so a rank with children in one tree (even label) is a leaf in
 * the other (odd label): every rank but 0 receives each half of the message once and sends at most two halves,
 * and for p > 2 no two ranks are linked in both trees. Depth below rank 0: floor(log2 m) + 1.
 *   p = 6 (m = 5, shifted): tree 0: 0 -> 4; 4 -> 2, 5; 2 -> 1, 3.  tree 1: 0 -> 3; 3 -> 1, 4; 1 -> 5, 2. */
hdring_tree_t hdring_tree_double(int p, int rank, int which);

/* ---- the non-power-of-two fold ----
 * p = pof2 + rem with pof2 = 2^floor(log2 p). Among the first 2*rem ranks, pair (2i, 2i+1) folds into one
 * survivor, the odd rank 2i+1; ranks >= 2*rem survive alone. Survivors are renumbered 0..pof2-1 in rank order
 * ("vranks"), so every vrank stands for a run of consecutive ranks (its group) and operand order survives:
 *   p = 6: pof2 = 4, rem = 2; pairs (0,1) (2,3); vrank 0 = {0,1}, 1 = {2,3}, 2 = {4}, 3 = {5}. */
typedef struct hdring_fold {
    int p, pof2, rem, log2_pof2;
} hdring_fold_t;

typedef enum hdring_fold_role {
    HDRING_FOLD_ALONE,   /* rank >= 2*rem: survives without a partner */
    HDRING_FOLD_KEEPER,  /* odd rank < 2*rem: survives, absorbing rank - 1 */
    HDRING_FOLD_DROPPED, /* even rank < 2*rem: hands its data to rank + 1 and waits for the result */
} hdring_fold_role_t;

static inline void hdring_fold_init(hdring_fold_t *f, int p)
{
    f->p = p;
    f->log2_pof2 = hdring_floor_log2(p);
    f->pof2 = 1 << f->log2_pof2;
    f->rem = p - f->pof2;
}
static inline hdring_fold_role_t hdring_fold_role(const hdring_fold_t *f, int rank)
{
    return rank >= 2 * f->rem ? HDRING_FOLD_ALONE : (rank & 1) ? HDRING_FOLD_KEEPER : HDRING_FOLD_DROPPED;
}
/* vrank of a surviving rank; -1 for a dropped rank. */
static inline int hdring_fold_vrank(const hdring_fold_t *f, int rank)
{
    return rank >= 2 * f->rem ? rank - f->rem : (rank & 1) ? rank / 2 : -1;
}
/* The surviving rank of vrank v. */
static inline int hdring_fold_survivor(const hdring_fold_t *f, int v) { return v < f->rem ? 2 * v + 1 : v + f->rem; }
/* The first of the ranks vrank v stands for (v stands for [first(v), first(v+1)), first(pof2) = p). */
static inline int hdring_fold_group_first(const hdring_fold_t *f, int v) { return v < f->rem ? 2 * v : v + f->rem; }

/* ---- recursive halving / doubling ----
 * On 2^l ranks, reduce-scatter step k (0 <= k < l) pairs v with v ^ mask(k); both halve the range of
 * positions they hold, keeping the lower half if the mask bit of v is clear. Allgather runs the steps
 * backwards. Two step orders:
 *   DISTANCE_DOUBLING  masks 1, 2, 4, ...: partners are always adjacent groups of consecutive vranks, so the
 *                      lower group's operand can always be put on the left (operand order preserved). Vrank v
 *                      ends holding position bit_reverse(v).
 *   DISTANCE_HALVING   masks 2^(l-1), ..., 1: vrank v ends holding position v (no permutation), but groups
 *                      are strided, so only for commutative operations (or no reduction at all).
 * Trace, l = 2, doubling, vrank 1: step 0 mask 1 partner 0 keeps [2,4); step 1 mask 2 partner 3 keeps [2,3):
 * position 2 = bit_reverse(1). */
typedef enum hdring_rhd_order {
    HDRING_RHD_DISTANCE_DOUBLING,
    HDRING_RHD_DISTANCE_HALVING,
} hdring_rhd_order_t;

static inline int hdring_rhd_mask(hdring_rhd_order_t order, int log2_size, int step)
{
    return HDRING_RHD_DISTANCE_DOUBLING == order ? 1 << step : 1 << (log2_size - 1 - step);
}
/* Position held by v at the end of the reduce-scatter, and the vrank that holds position pos (bit reversal is
 * its own inverse). */
static inline int hdring_rhd_final_position(hdring_rhd_order_t order, int log2_size, int v)
{
    return HDRING_RHD_DISTANCE_DOUBLING == order ? hdring_bit_reverse(v, log2_size) : v;
}
static inline int hdring_rhd_position_holder(hdring_rhd_order_t order, int log2_size, int pos)
{
    return hdring_rhd_final_position(order, log2_size, pos);
}
/* Positions [*lo, *hi) vrank v holds after `steps` reduce-scatter steps (0 <= steps <= log2_size): each step
 * halves the range at its middle, so it is the aligned run of 2^(log2_size - steps) positions holding v's final
 * one (a closed form: no walk through the steps). */
static inline void hdring_rhd_range(hdring_rhd_order_t order, int log2_size, int v, int steps, int *lo, int *hi)
{
    const int size = 1 << (log2_size - steps);
    *lo = hdring_rhd_final_position(order, log2_size, v) & ~(size - 1);
    *hi = *lo + size;
}

/* ---- binary blocks ----
 * p written in binary: p = 2^k0 + 2^k1 + ... with k0 > k1 > ...; block 0 (the largest) holds the lowest ranks.
 *   p = 7: blocks {0..3} {4,5} {6};  p = 9: {0..7} {8}. */
typedef struct hdring_binblocks {
    int nblocks;
    int first[HDRING_MAX_LOG2_P + 1];
    int log2_size[HDRING_MAX_LOG2_P + 1];
} hdring_binblocks_t;

void hdring_binblocks_init(hdring_binblocks_t *bb, int p);
static inline int hdring_binblocks_size(const hdring_binblocks_t *bb, int b) { return 1 << bb->log2_size[b]; }
/* Block of `rank`; *local receives its index within the block. */
int hdring_binblocks_find(const hdring_binblocks_t *bb, int rank, int *local);

#endif
