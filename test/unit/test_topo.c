/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * Unit tests of the topology layer (hdring_topo.h): the locality order and shape of node maps by slot, round-robin,
 * random and uneven, with and without domains.
 */
#include <stdlib.h>
#include <string.h>

#include "unit_check.h"

#include "hdring_topo.h"

/* The order is a permutation grouping each node's ranks, nodes in the order of their lowest rank, ranks of a node
 * by domain then rank; vrank_of inverts it; node_of numbers nodes that way. */
static void check_order(int p, const int *node, const int *domain)
{
    hdring_topo_t t;
    ck_assert_int_eq(hdring_topo_init(&t, p, node, domain), HDRING_OK);
    int *seen = calloc((size_t) p, sizeof(int));
    int prev_node = -1, prev_domain = 0, prev_rank = -1, nodes = 0;
    for (int v = 0; v < p; ++v) {
        const int r = NULL == t.order ? v : t.order[v];
        ck_assert_int_eq(NULL == t.vrank_of ? r : t.vrank_of[r], v);
        ck_assert(!seen[r]);
        seen[r] = 1;
        const int j = t.node_of[r], d = NULL == domain ? 0 : domain[r];
        if (j != prev_node) {
            ck_assert_int_eq(j, nodes); /* a new node, never one seen before */
            ++nodes;
        } else {
            ck_assert(d > prev_domain || (d == prev_domain && r > prev_rank));
        }
        prev_node = j, prev_domain = d, prev_rank = r;
    }
    ck_assert_int_eq(nodes, t.shape.nodes);
    int *lowest = malloc((size_t) nodes * sizeof(int)); /* nodes numbered in the order of their lowest rank */
    for (int r = p - 1; r >= 0; --r) {
        lowest[t.node_of[r]] = r;
    }
    for (int j = 1; j < nodes; ++j) {
        ck_assert_int_lt(lowest[j - 1], lowest[j]);
    }
    free(lowest);
    for (int r = 0; r < p; ++r) { /* same name, same node */
        for (int q = 0; q < p; ++q) {
            ck_assert_int_eq(node[r] == node[q], t.node_of[r] == t.node_of[q]);
        }
    }
    free(seen);
    hdring_topo_free(&t);
}

START_TEST(locality_order_groups_nodes)
{
    for (int nodes = 1; nodes <= 9; ++nodes) {
        for (int ppn = 1; ppn <= 6; ++ppn) {
            const int p = nodes * ppn;
            int *node = malloc((size_t) p * sizeof(int)), *domain = malloc((size_t) p * sizeof(int));
            for (int r = 0; r < p; ++r) { /* by slot, names not in rank order */
                node[r] = 1000 - 7 * (r / ppn);
                domain[r] = (r * 5) % 3;
            }
            check_order(p, node, NULL);
            check_order(p, node, domain);
            for (int r = 0; r < p; ++r) { /* round-robin */
                node[r] = r % nodes;
            }
            check_order(p, node, NULL);
            check_order(p, node, domain);
            srand((unsigned) (p * 31 + nodes));
            for (int r = 0; r < p; ++r) { /* random, uneven */
                node[r] = rand() % nodes;
            }
            check_order(p, node, domain);
            free(node);
            free(domain);
        }
    }
}
END_TEST

/* The trace's words for shape s are `text`. */
static void says(const hdring_shape_t *s, const char *text)
{
    char got[128];
    hdring_shape_describe(s, got, sizeof(got));
    ck_assert_str_eq(got, text);
}

START_TEST(shape_of_common_mappings)
{
    enum { N = 4, L = 2, P = N * L };
    int slot[P], robin[P], uneven[7] = {0, 0, 0, 1, 2, 2, 1};
    for (int r = 0; r < P; ++r) {
        slot[r] = r / L;
        robin[r] = r % N;
    }
    hdring_topo_t t;

    ck_assert_int_eq(hdring_topo_init(&t, P, slot, NULL), HDRING_OK);
    ck_assert_int_eq(t.shape.nodes, N);
    ck_assert_int_eq(t.shape.ppn, L);
    ck_assert(t.shape.node_major);
    ck_assert(!t.shape.index_major);
    ck_assert_ptr_null(t.order); /* by slot, the rank order already is the locality order */
    hdring_topo_free(&t);

    ck_assert_int_eq(hdring_topo_init(&t, P, robin, NULL), HDRING_OK);
    ck_assert_int_eq(t.shape.nodes, N);
    ck_assert_int_eq(t.shape.ppn, L);
    ck_assert(!t.shape.node_major);
    ck_assert(t.shape.index_major);
    const int want[P] = {0, 4, 1, 5, 2, 6, 3, 7};
    for (int v = 0; v < P; ++v) {
        ck_assert_int_eq(t.order[v], want[v]);
    }
    hdring_topo_free(&t);

    ck_assert_int_eq(hdring_topo_init(&t, 7, uneven, NULL), HDRING_OK);
    ck_assert_int_eq(t.shape.nodes, 3);
    ck_assert_int_eq(t.shape.ppn, 0);
    ck_assert_int_eq(t.shape.ppn_max, 3);
    ck_assert(!t.shape.node_major);
    const int want_uneven[7] = {0, 1, 2, 3, 6, 4, 5};
    for (int v = 0; v < 7; ++v) {
        ck_assert_int_eq(t.order[v], want_uneven[v]);
    }
    hdring_topo_free(&t);

    const hdring_shape_t one = hdring_shape_single(5);
    ck_assert_int_eq(one.nodes, 1);
    ck_assert_int_eq(one.ppn, 5);
    says(&one, "1 node");
    hdring_shape_t crowded = one; /* cores are named only when a node holds more ranks */
    crowded.cores = 2;
    says(&crowded, "1 node, 2 cores each");
    crowded.cores = 5;
    says(&crowded, "1 node");

    hdring_shape_t shared = one; /* nodes that share a machine: all of them, or some */
    shared.nodes = 5;
    shared.ppn = shared.ppn_max = 1;
    shared.machine_nodes = 5;
    shared.machine_cores = 2;
    says(&shared, "5 nodes x 1, on one machine of 2 cores");
    shared.machine_nodes = 3;
    says(&shared, "5 nodes x 1, 3 of them on one machine of 2 cores");
}
END_TEST

/* A copy has the same shape and maps in memory of its own (the component keeps one for the next communicator of
 * the same processes and frees the original with its module). */
START_TEST(copy_is_equal_and_independent)
{
    const int round_robin[6] = {0, 1, 2, 0, 1, 2}, one_node[3] = {7, 7, 7};
    const int *maps[2] = {round_robin, one_node}, sizes[2] = {6, 3};
    for (int k = 0; k < 2; ++k) {
        const int p = sizes[k];
        hdring_topo_t t, c;
        ck_assert_int_eq(hdring_topo_init(&t, p, maps[k], NULL), HDRING_OK);
        ck_assert_int_eq(hdring_topo_copy(&c, &t), HDRING_OK);
        ck_assert_int_eq(c.p, p);
        ck_assert_int_eq(c.shape.nodes, t.shape.nodes);
        ck_assert_int_eq(c.shape.ppn, t.shape.ppn);
        ck_assert_int_eq(c.shape.index_major, t.shape.index_major);
        ck_assert_int_eq(NULL == c.order, NULL == t.order);
        ck_assert_int_eq(NULL == c.order, 1 == k); /* round-robin is renumbered, one node is not */
        for (int r = 0; r < p; ++r) {
            ck_assert_int_eq(c.node_of[r], t.node_of[r]);
            if (NULL != t.order) {
                ck_assert_int_eq(c.order[r], t.order[r]);
                ck_assert_int_eq(c.vrank_of[r], t.vrank_of[r]);
            }
        }
        ck_assert_ptr_ne(c.node_of, t.node_of);
        ck_assert(NULL == t.order || c.order != t.order);
        hdring_topo_free(&t); /* the copy outlives its original */
        for (int r = 0; r < p; ++r) {
            ck_assert_int_eq(c.node_of[r], maps[k][r] - maps[k][0]); /* node labels here are 0, 1, ... or one */
        }
        hdring_topo_free(&c);
    }
}
END_TEST

/* Shapes compare by their fields, whatever their padding holds (the module keeps a state's plans and kept calls
 * for the next communicator only if its shape is equal), and differ in any one field. */
START_TEST(shape_equal_by_fields)
{
    const hdring_shape_t a = hdring_shape_single(4);
    hdring_shape_t b;
    memset(&b, 0xa5, sizeof(b)); /* padding unlike a's */
    b.nodes = a.nodes;
    b.ppn = a.ppn;
    b.ppn_max = a.ppn_max;
    b.node_major = a.node_major;
    b.index_major = a.index_major;
    b.cores = a.cores;
    b.machine_nodes = a.machine_nodes;
    b.machine_cores = a.machine_cores;
    ck_assert(hdring_shape_equal(&a, &b));
    for (int field = 0; field < 8; ++field) {
        hdring_shape_t c = a;
        switch (field) {
        case 0: c.nodes = 2; break;
        case 1: c.ppn = 0; break;
        case 2: c.ppn_max = 5; break;
        case 3: c.node_major = false; break;
        case 4: c.index_major = false; break;
        case 5: c.cores = 2; break;
        case 6: c.machine_nodes = 2; break;
        default: c.machine_cores = 2; break;
        }
        ck_assert_msg(!hdring_shape_equal(&a, &c), "field %d", field);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("topo");
    UNIT_ADD(s, locality_order_groups_nodes);
    UNIT_ADD(s, shape_of_common_mappings);
    UNIT_ADD(s, copy_is_equal_and_independent);
    UNIT_ADD(s, shape_equal_by_fields);
    return unit_run(s);
}
