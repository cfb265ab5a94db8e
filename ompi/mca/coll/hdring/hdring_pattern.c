/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring pattern layer: see hdring_pattern.h. */
#include "hdring_pattern.h"

bool hdring_is_pow2(int p) { return p > 0 && 0 == (p & (p - 1)); }

int hdring_floor_log2(int p)
{
    int l = 0;
    while (p >>= 1) {
        ++l;
    }
    return l;
}

int hdring_ceil_log2(int p)
{
    int l = hdring_floor_log2(p);
    return hdring_is_pow2(p) ? l : l + 1;
}

int hdring_floor_pow2(int p) { return 1 << hdring_floor_log2(p); }

int hdring_bit_reverse(int v, int nbits)
{
    int r = 0;
    for (int i = 0; i < nbits; ++i) {
        r = (r << 1) | ((v >> i) & 1);
    }
    return r;
}

/* ---- partitions ---- */

hdring_partition_t hdring_partition_balanced(int nparts, size_t total)
{
    const hdring_partition_t pt = {nparts, 0, NULL, total / (size_t) nparts, total % (size_t) nparts};
    return pt;
}

hdring_partition_t hdring_partition_uniform(int nparts, size_t each)
{
    const hdring_partition_t pt = {nparts, 0, NULL, each, 0};
    return pt;
}

hdring_partition_t hdring_partition_of_displs(int nparts, const size_t *displ)
{
    const hdring_partition_t pt = {nparts, 0, displ, 0, 0};
    return pt;
}

void hdring_displs_from_counts(size_t *displ, int nparts, const size_t *counts)
{
    displ[0] = 0;
    for (int i = 0; i < nparts; ++i) {
        displ[i + 1] = displ[i] + counts[i];
    }
}

size_t hdring_partition_max_part(const hdring_partition_t *pt)
{
    if (NULL == pt->displ) { /* balanced: the extra elements go to the first parts of the underlying sequence */
        return 0 == pt->nparts ? 0 : pt->base + ((size_t) pt->first < pt->extra ? 1 : 0);
    }
    size_t max = 0;
    for (int i = 0; i < pt->nparts; ++i) {
        size_t c = hdring_part_count(pt, i);
        max = c > max ? c : max;
    }
    return max;
}

/* ---- windows ---- */

size_t hdring_window_count(const hdring_blocks_t *b, int first, int nranks)
{
    const int p = b->parts->nparts;
    size_t total = 0;
    for (int i = 0; i < nranks; ++i) {
        total += hdring_block_count(b, (first + i) % p);
    }
    return total;
}

int hdring_window_run(const hdring_blocks_t *b, int first, int nranks, size_t *offset, size_t *count)
{
    const int p = b->parts->nparts;
    size_t start = 0, end = 0;
    bool any = false;
    int i;
    for (i = 0; i < nranks; ++i) {
        const int r = (first + i) % p;
        const size_t n = hdring_block_count(b, r), at = hdring_block_offset(b, r);
        if (0 == n) {
            continue;
        }
        if (any && at != end) {
            break;
        }
        start = any ? start : at;
        end = at + n;
        any = true;
    }
    *offset = start;
    *count = end - start;
    return i;
}

/* ---- fold ---- */

void hdring_fold_init(hdring_fold_t *f, int p)
{
    f->p = p;
    f->log2_pof2 = hdring_floor_log2(p);
    f->pof2 = 1 << f->log2_pof2;
    f->rem = p - f->pof2;
}

hdring_fold_role_t hdring_fold_role(const hdring_fold_t *f, int rank)
{
    if (rank >= 2 * f->rem) {
        return HDRING_FOLD_ALONE;
    }
    return (rank & 1) ? HDRING_FOLD_KEEPER : HDRING_FOLD_DROPPED;
}

int hdring_fold_vrank(const hdring_fold_t *f, int rank)
{
    switch (hdring_fold_role(f, rank)) {
    case HDRING_FOLD_ALONE:
        return rank - f->rem;
    case HDRING_FOLD_KEEPER:
        return rank / 2;
    default:
        return -1;
    }
}

int hdring_fold_survivor(const hdring_fold_t *f, int v) { return v < f->rem ? 2 * v + 1 : v + f->rem; }

int hdring_fold_group_first(const hdring_fold_t *f, int v) { return v < f->rem ? 2 * v : v + f->rem; }

/* ---- recursive halving / doubling ---- */

int hdring_rhd_mask(hdring_rhd_order_t order, int log2_size, int step)
{
    return HDRING_RHD_DISTANCE_DOUBLING == order ? 1 << step : 1 << (log2_size - 1 - step);
}

void hdring_rhd_range(hdring_rhd_order_t order, int log2_size, int v, int steps, int *lo, int *hi)
{
    int l = 0, h = 1 << log2_size;
    for (int k = 0; k < steps; ++k) {
        int mid = l + (h - l) / 2;
        if (v & hdring_rhd_mask(order, log2_size, k)) {
            l = mid;
        } else {
            h = mid;
        }
    }
    *lo = l;
    *hi = h;
}

int hdring_rhd_final_position(hdring_rhd_order_t order, int log2_size, int v)
{
    return HDRING_RHD_DISTANCE_DOUBLING == order ? hdring_bit_reverse(v, log2_size) : v;
}

int hdring_rhd_position_holder(hdring_rhd_order_t order, int log2_size, int pos)
{
    /* bit reversal is its own inverse */
    return hdring_rhd_final_position(order, log2_size, pos);
}

/* ---- binary blocks ---- */

void hdring_binblocks_init(hdring_binblocks_t *bb, int p)
{
    int first = 0;
    bb->nblocks = 0;
    for (int bit = HDRING_MAX_LOG2_P; bit >= 0; --bit) {
        if (p & (1 << bit)) {
            bb->first[bb->nblocks] = first;
            bb->log2_size[bb->nblocks] = bit;
            ++bb->nblocks;
            first += 1 << bit;
        }
    }
}

int hdring_binblocks_find(const hdring_binblocks_t *bb, int rank, int *local)
{
    int b = bb->nblocks - 1;
    while (b > 0 && rank < bb->first[b]) {
        --b;
    }
    *local = rank - bb->first[b];
    return b;
}

/* ---------------------------------------------------------------- broadcast trees */

hdring_tree_t hdring_tree_chain(int p, int rank)
{
    hdring_tree_t t = {rank - 1, rank + 1 < p ? 1 : 0, rank, {rank + 1, 0}};
    return t;
}

/* Labels of tree `which` over m ranks, and back. */
static int double_label(int m, int rank, int which)
{
    if (0 == which) {
        return rank;
    }
    return 0 == m % 2 ? m + 1 - rank : rank % m + 1;
}

static int double_rank(int m, int label, int which)
{
    if (0 == which) {
        return label;
    }
    return 0 == m % 2 ? m + 1 - label : 1 == label ? m : label - 1;
}

/* In the in-order tree over labels 1 .. m: the parent label of x (0 for the top) and its children. */
static int inorder_parent(int m, int x)
{
    int y = x, h = __builtin_ctz((unsigned) x);
    if (x == hdring_floor_pow2(m)) {
        return 0;
    }
    do { /* up the complete tree until an ancestor exists: its right subtree was cut short at m */
        y = y & (1 << (h + 1)) ? y - (1 << h) : y + (1 << h);
        ++h;
    } while (y > m);
    return y;
}

static int inorder_children(int m, int x, int *child)
{
    const int h = __builtin_ctz((unsigned) x);
    int n = 0;
    if (h > 0) {
        child[n++] = x - (1 << (h - 1));
        for (int j = h - 1; j >= 0; --j) {
            if (x + (1 << j) <= m) {
                child[n++] = x + (1 << j);
                break;
            }
        }
    }
    return n;
}

hdring_tree_t hdring_tree_double(int p, int rank, int which)
{
    const int m = p - 1;
    hdring_tree_t t = {-1, 0, 0, {0, 0}};
    if (0 == rank) {
        if (m > 0) {
            t.child[t.nchildren++] = double_rank(m, hdring_floor_pow2(m), which);
        }
        return t;
    }
    const int x = double_label(m, rank, which);
    const int up = inorder_parent(m, x);
    int labels[HDRING_MAX_CHILDREN];
    t.depth = 1; /* from rank 0 to the top */
    for (int y = up; 0 != y; y = inorder_parent(m, y)) {
        ++t.depth;
    }
    t.parent = 0 == up ? 0 : double_rank(m, up, which);
    t.nchildren = inorder_children(m, x, labels);
    for (int i = 0; i < t.nchildren; ++i) {
        t.child[i] = double_rank(m, labels[i], which);
    }
    return t;
}
