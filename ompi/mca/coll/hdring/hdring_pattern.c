/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring pattern layer: see hdring_pattern.h. */
#include "hdring_pattern.h"

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

hdring_tree_t hdring_tree_binary(int p, int rank)
{
    const int depth = hdring_floor_log2(rank + 1), width = 1 << depth; /* rank's level and its size */
    hdring_tree_t t = {-1, 0, depth, {0, 0}};
    if (rank > 0) { /* the first half of a level are first children */
        t.parent = rank - (rank + 1 - width < width / 2 ? width / 2 : width);
    }
    for (int c = rank + width; c <= rank + 2 * width && c < p; c += width) {
        t.child[t.nchildren++] = c;
    }
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
