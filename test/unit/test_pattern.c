/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * Unit tests of the pattern layer (hdring_pattern.h): pure arithmetic, checked exhaustively over p.
 */
#include <stdlib.h>

#include "unit_check.h"

#include "hdring_pattern.h"

START_TEST(pow2_helpers)
{
    for (int p = 1; p <= 5000; ++p) {
        const int l = hdring_floor_log2(p);
        ck_assert_int_le(1 << l, p);
        ck_assert_int_gt(2 << l, p);
        ck_assert_int_eq(hdring_floor_pow2(p), 1 << l);
        ck_assert_int_eq(hdring_is_pow2(p), p == (1 << l));
        ck_assert_int_eq(hdring_ceil_log2(p), hdring_is_pow2(p) ? l : l + 1);
    }
    ck_assert(!hdring_is_pow2(0));
}
END_TEST

START_TEST(bit_reverse_is_an_involution)
{
    for (int bits = 0; bits <= 12; ++bits) {
        for (int v = 0; v < (1 << bits); ++v) {
            const int r = hdring_bit_reverse(v, bits);
            ck_assert_int_lt(r, 1 << bits);
            ck_assert_int_eq(hdring_bit_reverse(r, bits), v);
        }
    }
    ck_assert_int_eq(hdring_bit_reverse(1, 3), 4);
    ck_assert_int_eq(hdring_bit_reverse(6, 3), 3);
}
END_TEST

START_TEST(balanced_partition_differs_by_at_most_one)
{
    const size_t totals[] = {0, 1, 2, 7, 63, 64, 65, 1000, 123457};
    for (int p = 1; p <= 70; ++p) {
        for (size_t t = 0; t < sizeof(totals) / sizeof(totals[0]); ++t) {
            const hdring_partition_t pt = hdring_partition_balanced(p, totals[t]);
            size_t min = (size_t) -1, max = 0;
            ck_assert_uint_eq(hdring_part_offset(&pt, 0), 0);
            for (int i = 0; i < p; ++i) {
                const size_t c = hdring_part_count(&pt, i);
                min = c < min ? c : min;
                max = c > max ? c : max;
                ck_assert_uint_eq(c, totals[t] / (size_t) p + ((size_t) i < totals[t] % (size_t) p));
            }
            ck_assert_uint_le(max - min, 1);
            ck_assert_uint_eq(hdring_partition_total(&pt), totals[t]);
            ck_assert_uint_eq(hdring_partition_max_part(&pt), max);
            for (int first = 0; first < p; ++first) { /* sub-partitions: closed forms from any part on */
                const hdring_partition_t sub = hdring_partition_sub(&pt, first, p - first);
                size_t sub_max = 0;
                for (int i = 0; i < p - first; ++i) {
                    ck_assert_uint_eq(hdring_part_count(&sub, i), hdring_part_count(&pt, first + i));
                    ck_assert_uint_eq(hdring_part_offset(&sub, i),
                                      hdring_part_offset(&pt, first + i) - hdring_part_offset(&pt, first));
                    sub_max = hdring_part_count(&sub, i) > sub_max ? hdring_part_count(&sub, i) : sub_max;
                }
                ck_assert_uint_eq(hdring_partition_max_part(&sub), sub_max);
            }
        }
    }
}
END_TEST

START_TEST(partition_from_counts_and_uniform)
{
    const size_t counts[] = {3, 0, 5, 0, 0, 2, 9};
    size_t displ[8];
    hdring_displs_from_counts(displ, 7, counts);
    hdring_partition_t pt = hdring_partition_of_displs(7, displ);
    ck_assert_uint_eq(hdring_partition_total(&pt), 19);
    ck_assert_uint_eq(hdring_part_offset(&pt, 5), 8);
    ck_assert_uint_eq(hdring_part_count(&pt, 1), 0);
    ck_assert_uint_eq(hdring_part_count(&pt, 6), 9);
    ck_assert_uint_eq(hdring_partition_max_part(&pt), 9);
    const hdring_partition_t sub = hdring_partition_sub(&pt, 2, 4);
    ck_assert_uint_eq(hdring_part_offset(&sub, 3), 5);
    ck_assert_uint_eq(hdring_partition_total(&sub), 7);
    ck_assert_uint_eq(hdring_partition_max_part(&sub), 5);

    pt = hdring_partition_uniform(4, 6);
    ck_assert_uint_eq(hdring_part_offset(&pt, 3), 18);
    ck_assert_uint_eq(hdring_partition_total(&pt), 24);
    ck_assert_uint_eq(hdring_partition_max_part(&pt), 6);
}
END_TEST

/* Every rank is a survivor or dropped; survivors are numbered 0..pof2-1 in rank order, each standing for itself
 * or for itself and the dropped rank just below it, so the groups tile 0..p-1 in order. */
START_TEST(segments_cover_the_count_in_order)
{
    ck_assert_uint_eq(hdring_segments(10, 4), 3);
    ck_assert_uint_eq(hdring_segment_count(10, 4, 2), 2);
    ck_assert_uint_eq(hdring_segments(0, 4), 0);
    for (size_t count = 1; count <= 40; ++count) {
        for (size_t seg = 1; seg <= count + 2; ++seg) {
            size_t covered = 0;
            for (size_t j = 0; j < hdring_segments(count, seg); ++j) {
                const size_t n = hdring_segment_count(count, seg, j);
                ck_assert(n >= 1 && n <= seg);
                ck_assert(n == seg || j + 1 == hdring_segments(count, seg)); /* only the last is short */
                covered += n;
            }
            ck_assert_uint_eq(covered, count);
        }
    }
}
END_TEST

START_TEST(fold_map_covers_every_rank_once)
{
    for (int p = 1; p <= 300; ++p) {
        hdring_fold_t f;
        hdring_fold_init(&f, p);
        ck_assert_int_eq(f.pof2 + f.rem, p);
        ck_assert(hdring_is_pow2(f.pof2));
        ck_assert_int_lt(f.rem, f.pof2);
        int next = 0; /* first rank not yet covered */
        for (int v = 0; v < f.pof2; ++v) {
            const int survivor = hdring_fold_survivor(&f, v);
            ck_assert_int_eq(hdring_fold_vrank(&f, survivor), v);
            ck_assert_int_eq(hdring_fold_group_first(&f, v), next);
            if (HDRING_FOLD_KEEPER == hdring_fold_role(&f, survivor)) {
                ck_assert_int_eq(survivor, next + 1);
                ck_assert_int_eq(hdring_fold_role(&f, next), HDRING_FOLD_DROPPED);
                ck_assert_int_eq(hdring_fold_vrank(&f, next), -1);
            } else {
                ck_assert_int_eq(hdring_fold_role(&f, survivor), HDRING_FOLD_ALONE);
                ck_assert_int_eq(survivor, next);
            }
            next = survivor + 1;
        }
        ck_assert_int_eq(next, p);
        ck_assert_int_eq(hdring_fold_group_first(&f, f.pof2), p);
    }
}
END_TEST

/* After all steps each vrank holds one position, all distinct; ranges are the halving walk, around the final
 * position; doubling pairs adjacent groups (operand order), halving ends on the identity. */
START_TEST(rhd_ranges_and_positions)
{
    const hdring_rhd_order_t orders[] = {HDRING_RHD_DISTANCE_DOUBLING, HDRING_RHD_DISTANCE_HALVING};
    for (int o = 0; o < 2; ++o) {
        for (int l = 0; l <= 10; ++l) {
            const int n = 1 << l;
            char *seen = calloc((size_t) n, 1);
            for (int v = 0; v < n; ++v) {
                const int pos = hdring_rhd_final_position(orders[o], l, v);
                int lo, hi;
                ck_assert_int_eq(hdring_rhd_position_holder(orders[o], l, pos), v);
                ck_assert(!seen[pos]);
                seen[pos] = 1;
                /* the closed form against the halving itself: step k keeps the upper half where v has mask bit k */
                int walk_lo = 0, walk_hi = n;
                for (int k = 0; k <= l; ++k) {
                    hdring_rhd_range(orders[o], l, v, k, &lo, &hi);
                    ck_assert_int_eq(lo, walk_lo);
                    ck_assert_int_eq(hi, walk_hi);
                    ck_assert(lo <= pos && pos < hi);
                    if (k < l) {
                        const int mid = walk_lo + (walk_hi - walk_lo) / 2;
                        if (v & hdring_rhd_mask(orders[o], l, k)) {
                            walk_lo = mid;
                        } else {
                            walk_hi = mid;
                        }
                    }
                }
                if (HDRING_RHD_DISTANCE_HALVING == orders[o]) {
                    ck_assert_int_eq(pos, v);
                }
            }
            if (HDRING_RHD_DISTANCE_DOUBLING == orders[o]) {
                /* what each vrank has combined after k steps: an aligned run of 2^k vranks, joined at every
                 * step with the run just above or below it, lower run first (operand order) */
                int *lo = malloc((size_t) n * sizeof(int)), *hi = malloc((size_t) n * sizeof(int));
                for (int v = 0; v < n; ++v) {
                    lo[v] = v;
                    hi[v] = v + 1;
                }
                for (int k = 0; k < l; ++k) {
                    for (int v = 0; v < n; ++v) {
                        const int u = v ^ hdring_rhd_mask(orders[o], l, k);
                        if (u > v) {
                            ck_assert_int_eq(hi[v], lo[u]);
                            hi[v] = hi[u];
                            lo[u] = lo[v];
                        }
                    }
                    for (int v = 0; v < n; ++v) {
                        ck_assert_int_eq(hi[v] - lo[v], 2 << k);
                        ck_assert_int_eq(lo[v] % (2 << k), 0);
                    }
                }
                free(lo);
                free(hi);
            }
            free(seen);
        }
    }
}
END_TEST

START_TEST(binary_blocks_decompose_p)
{
    for (int p = 1; p <= 1100; p += p < 300 ? 1 : 37) {
        hdring_binblocks_t bb;
        hdring_binblocks_init(&bb, p);
        int sum = 0;
        for (int b = 0; b < bb.nblocks; ++b) {
            ck_assert_int_eq(bb.first[b], sum);
            if (b > 0) {
                ck_assert_int_lt(bb.log2_size[b], bb.log2_size[b - 1]);
            }
            sum += hdring_binblocks_size(&bb, b);
        }
        ck_assert_int_eq(sum, p);
        ck_assert_int_eq(bb.nblocks, __builtin_popcount((unsigned) p));
        for (int r = 0; r < p; ++r) {
            int local;
            const int b = hdring_binblocks_find(&bb, r, &local);
            ck_assert_int_eq(bb.first[b] + local, r);
            ck_assert_int_lt(local, hdring_binblocks_size(&bb, b));
        }
    }
}
END_TEST

/* Windows against a walk over their blocks: p up to 40, every first rank and width, blocks in rank order and
 * permuted, with empty blocks. A window's runs, taken one after another, cover its blocks in order; each run's
 * blocks are consecutive in memory, and the block after a run is not where the run ends. */
START_TEST(windows_count_and_split_into_runs)
{
    for (int p = 1; p <= 40; ++p) {
        size_t *counts = malloc((size_t) p * sizeof(*counts)), *displ = malloc(((size_t) p + 1) * sizeof(*displ));
        int *block_of = malloc((size_t) p * sizeof(*block_of)), *owner_of = malloc((size_t) p * sizeof(*owner_of));
        for (int permuted = 0; permuted <= (0 == p % 3 ? 0 : 1); ++permuted) { /* r -> 3r + 1 mod p permutes */
            for (int i = 0; i < p; ++i) {
                counts[i] = (size_t) ((i * 7 + p) % 4); /* zeros included */
                block_of[i] = permuted ? (i * 3 + 1) % p : i;
                owner_of[block_of[i]] = i;
            }
            hdring_displs_from_counts(displ, p, counts);
            const hdring_partition_t parts = hdring_partition_of_displs(p, displ);
            const hdring_blocks_t b = {&parts, permuted ? block_of : NULL, permuted ? owner_of : NULL};
            int runs_seen = 0;
            for (int first = 0; first < p; ++first) {
                for (int n = 0; n <= p; ++n) {
                    size_t expect = 0, covered = 0;
                    for (int i = 0; i < n; ++i) {
                        expect += hdring_block_count(&b, (first + i) % p);
                    }
                    ck_assert_uint_eq(hdring_window_count(&b, first, n), expect);
                    for (int i = 0; i < n;) {
                        size_t at, count, next = (size_t) -1;
                        const int k = hdring_window_run(&b, (first + i) % p, n - i, &at, &count);
                        ck_assert_int_ge(k, 1);
                        ck_assert_int_le(k, n - i);
                        for (int j = i; j < i + k; ++j) {
                            const int r = (first + j) % p;
                            if (0 != hdring_block_count(&b, r)) {
                                ck_assert_uint_eq(hdring_block_offset(&b, r), (size_t) -1 == next ? at : next);
                                next = hdring_block_offset(&b, r) + hdring_block_count(&b, r);
                            }
                        }
                        ck_assert_uint_eq((size_t) -1 == next ? 0 : next - at, count);
                        if (i + k < n) { /* the run stopped at a block that does not follow it */
                            const int r = (first + i + k) % p;
                            ck_assert_uint_ne(hdring_block_count(&b, r), 0);
                            ck_assert_uint_ne(hdring_block_offset(&b, r), at + count);
                            ++runs_seen;
                        }
                        covered += count;
                        i += k;
                    }
                    ck_assert_uint_eq(covered, expect);
                }
            }
            ck_assert(p < 3 || runs_seen > 0); /* windows that wrap or skip were met */
        }
        free(counts);
        free(displ);
        free(block_of);
        free(owner_of);
    }
}
END_TEST

/* A tree: rank 0 its root, every other rank reached from it once, parent and child links agreeing; its depth
 * (edges from rank 0 to the deepest rank) into *depth. */
static void check_tree(int p, int which, hdring_tree_t (*tree)(int, int, int), int *depth)
{
    int *level = malloc((size_t) p * sizeof(*level));
    *depth = 0;
    for (int r = 0; r < p; ++r) {
        const hdring_tree_t t = tree(p, r, which);
        ck_assert_int_eq(t.parent < 0, 0 == r);
        ck_assert(t.parent < p && t.parent != r && t.nchildren >= 0 && t.nchildren <= HDRING_MAX_CHILDREN);
        if (r > 0) {
            const hdring_tree_t up = tree(p, t.parent, which);
            int listed = 0;
            for (int i = 0; i < up.nchildren; ++i) {
                listed += up.child[i] == r;
            }
            ck_assert_msg(1 == listed, "p=%d tree %d: rank %d's parent %d lists it %d times", p, which, r, t.parent,
                          listed);
        }
        for (int i = 0; i < t.nchildren; ++i) {
            ck_assert(t.child[i] > 0 && t.child[i] < p && tree(p, t.child[i], which).parent == r);
        }
        level[r] = 0; /* edges up to rank 0: at most p - 1, or there is a cycle */
        for (int u = r; u != 0 && level[r] < p; u = tree(p, u, which).parent) {
            ++level[r];
        }
        ck_assert_msg(level[r] < p, "p=%d tree %d: rank %d never reaches rank 0", p, which, r);
        ck_assert_int_eq(t.depth, level[r]);
        *depth = level[r] > *depth ? level[r] : *depth;
    }
    free(level);
}

static hdring_tree_t chain(int p, int rank, int which)
{
    (void) which;
    return hdring_tree_chain(p, rank);
}

static hdring_tree_t binary(int p, int rank, int which)
{
    (void) which;
    return hdring_tree_binary(p, rank);
}

START_TEST(broadcast_trees_reach_every_rank_once)
{
    for (int p = 1; p <= 600; p += p < 130 ? 1 : 37) {
        int depth;
        check_tree(p, 0, chain, &depth);
        ck_assert_int_eq(depth, p - 1);
        check_tree(p, 0, binary, &depth);
        ck_assert_int_eq(depth, hdring_floor_log2(p));
        for (int which = 0; which < 2; ++which) {
            check_tree(p, which, hdring_tree_double, &depth);
            ck_assert_msg(depth == (p > 1 ? hdring_floor_log2(p - 1) + 1 : 0), "p=%d tree %d: depth %d", p, which,
                          depth);
        }
    }
}
END_TEST

/* The two trees of the double binary tree are complementary: no rank but 0 passes data on in both, so every rank
 * sends at most two halves; and from p = 3 on no rank has the same parent in both (so the two halves never travel
 * between the same two ranks, and need no common order). */
START_TEST(double_tree_interior_ranks_are_leaves_of_the_other_tree)
{
    for (int p = 2; p <= 1100; p += p < 200 ? 1 : 31) {
        for (int r = 1; r < p; ++r) {
            const hdring_tree_t a = hdring_tree_double(p, r, 0), b = hdring_tree_double(p, r, 1);
            ck_assert_msg(0 == a.nchildren || 0 == b.nchildren, "p=%d: rank %d has children in both trees", p, r);
            ck_assert_msg(p < 3 || a.parent != b.parent, "p=%d: rank %d has parent %d in both trees", p, r, a.parent);
        }
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pattern");
    UNIT_ADD(s, pow2_helpers);
    UNIT_ADD(s, bit_reverse_is_an_involution);
    UNIT_ADD(s, balanced_partition_differs_by_at_most_one);
    UNIT_ADD(s, partition_from_counts_and_uniform);
    UNIT_ADD(s, segments_cover_the_count_in_order);
    UNIT_ADD(s, fold_map_covers_every_rank_once);
    UNIT_ADD(s, rhd_ranges_and_positions);
    UNIT_ADD(s, binary_blocks_decompose_p);
    UNIT_ADD(s, broadcast_trees_reach_every_rank_once);
    UNIT_ADD(s, double_tree_interior_ranks_are_leaves_of_the_other_tree);
    UNIT_ADD(s, windows_count_and_split_into_runs);
    return unit_run(s);
}
