/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring topology: see hdring_topo.h. */
#include "hdring_topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sort_key {
    int node, domain, rank;
} sort_key_t;

static int by_locality(const void *a, const void *b)
{
    const sort_key_t *x = a, *y = b;
    if (x->node != y->node) {
        return x->node < y->node ? -1 : 1;
    }
    if (x->domain != y->domain) {
        return x->domain < y->domain ? -1 : 1;
    }
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

hdring_shape_t hdring_shape_single(int p)
{
    hdring_shape_t s = {1, p, p, true, true, 0, 0, 0};
    return s;
}

bool hdring_shape_equal(const hdring_shape_t *a, const hdring_shape_t *b)
{
    return a->nodes == b->nodes && a->ppn == b->ppn && a->ppn_max == b->ppn_max && a->node_major == b->node_major &&
           a->index_major == b->index_major && a->cores == b->cores && a->machine_nodes == b->machine_nodes &&
           a->machine_cores == b->machine_cores;
}

/* Nodes numbered in the order of their lowest rank, in O(p log p): sort the ranks by their node's name (each
 * name's first entry is its lowest rank), then the nodes by that rank. keys and index are scratch of p entries.
 * Returns the number of nodes. */
static int number_nodes(int p, const int *node, sort_key_t *keys, int *index, int *node_of)
{
    int nodes = 0;
    for (int r = 0; r < p; ++r) {
        keys[r] = (sort_key_t){node[r], 0, r};
    }
    qsort(keys, (size_t) p, sizeof(*keys), by_locality);
    for (int i = 0; i < p; ++i) { /* node_of: a provisional number per name */
        nodes += 0 == i || keys[i].node != keys[i - 1].node;
        node_of[keys[i].rank] = nodes - 1;
    }
    for (int r = p - 1; r >= 0; --r) { /* the provisional node's lowest rank */
        index[node_of[r]] = r;
    }
    for (int j = 0; j < nodes; ++j) {
        keys[j] = (sort_key_t){index[j], 0, j};
    }
    qsort(keys, (size_t) nodes, sizeof(*keys), by_locality);
    for (int j = 0; j < nodes; ++j) { /* provisional number -> final number */
        index[keys[j].rank] = j;
    }
    for (int r = 0; r < p; ++r) {
        node_of[r] = index[node_of[r]];
    }
    return nodes;
}

int hdring_topo_init(hdring_topo_t *t, int p, const int *node, const int *domain)
{
    sort_key_t *keys = malloc((size_t) p * sizeof(*keys));
    int *count = calloc((size_t) p, sizeof(*count)); /* scratch, then ranks per node */
    bool identity = true;

    t->p = p;
    t->order = t->vrank_of = NULL;
    t->node_of = malloc((size_t) p * sizeof(*t->node_of));
    if (NULL == keys || NULL == count || NULL == t->node_of) {
        free(keys);
        free(count);
        hdring_topo_free(t);
        return HDRING_ERR_NOMEM;
    }
    const int nodes = number_nodes(p, node, keys, count, t->node_of);
    for (int j = 0; j < nodes; ++j) {
        count[j] = 0;
    }
    for (int r = 0; r < p; ++r) {
        ++count[t->node_of[r]];
        keys[r] = (sort_key_t){t->node_of[r], NULL == domain ? 0 : domain[r], r};
    }
    qsort(keys, (size_t) p, sizeof(*keys), by_locality);
    for (int v = 0; v < p; ++v) {
        identity &= keys[v].rank == v;
    }

    t->shape.nodes = nodes;
    t->shape.cores = 0;
    t->shape.machine_nodes = t->shape.machine_cores = 0;
    t->shape.ppn = count[0];
    t->shape.ppn_max = 0;
    t->shape.node_major = true;
    for (int j = 0; j < nodes; ++j) {
        t->shape.ppn = count[j] == t->shape.ppn ? t->shape.ppn : 0;
        t->shape.ppn_max = count[j] > t->shape.ppn_max ? count[j] : t->shape.ppn_max;
    }
    for (int r = 1; r < p; ++r) { /* a node's ranks are consecutive: node numbers never decrease */
        t->shape.node_major &= t->node_of[r] >= t->node_of[r - 1];
    }
    t->shape.index_major = t->shape.ppn > 0;
    for (int v = 0; v < p && t->shape.index_major; ++v) { /* position v is index v % L of node v / L */
        t->shape.index_major = keys[v].rank == v % t->shape.ppn * nodes + v / t->shape.ppn;
    }
    if (!identity) {
        t->order = malloc((size_t) p * sizeof(*t->order));
        t->vrank_of = malloc((size_t) p * sizeof(*t->vrank_of));
    }
    if (!identity && (NULL == t->order || NULL == t->vrank_of)) {
        free(keys);
        free(count);
        hdring_topo_free(t);
        return HDRING_ERR_NOMEM;
    }
    for (int v = 0; v < p && !identity; ++v) {
        t->order[v] = keys[v].rank;
        t->vrank_of[keys[v].rank] = v;
    }
    free(keys);
    free(count);
    return HDRING_OK;
}

/* A copy of p ints, or NULL for NULL; *ok false when there is no memory for it. */
static int *copy_ints(const int *src, int p, bool *ok)
{
    if (NULL == src) {
        return NULL;
    }
    int *dst = malloc((size_t) p * sizeof(*dst));
    *ok = *ok && NULL != dst;
    if (NULL != dst) {
        memcpy(dst, src, (size_t) p * sizeof(*dst));
    }
    return dst;
}

int hdring_topo_copy(hdring_topo_t *dst, const hdring_topo_t *src)
{
    bool ok = true;
    *dst = *src;
    dst->order = copy_ints(src->order, src->p, &ok);
    dst->vrank_of = copy_ints(src->vrank_of, src->p, &ok);
    dst->node_of = copy_ints(src->node_of, src->p, &ok);
    if (!ok) {
        hdring_topo_free(dst);
        return HDRING_ERR_NOMEM;
    }
    return HDRING_OK;
}

void hdring_topo_free(hdring_topo_t *t)
{
    free(t->order);
    free(t->vrank_of);
    free(t->node_of);
    t->order = t->vrank_of = t->node_of = NULL;
}

void hdring_shape_describe(const hdring_shape_t *s, char *out, size_t len)
{
    int used;
    if (1 == s->nodes) {
        used = snprintf(out, len, "1 node");
    } else if (s->ppn > 0) {
        used = snprintf(out, len, "%d nodes x %d", s->nodes, s->ppn);
    } else {
        used = snprintf(out, len, "%d nodes x 1-%d", s->nodes, s->ppn_max);
    }
    if (hdring_shape_crowded(s) && used >= 0 && (size_t) used < len) {
        used += snprintf(out + used, len - (size_t) used, ", %d cores each", s->cores);
    }
    if (s->machine_nodes > 1 && used >= 0 && (size_t) used < len) {
        char some[24] = "";
        if (s->machine_nodes < s->nodes) {
            snprintf(some, sizeof(some), " %d of them", s->machine_nodes);
        }
        snprintf(out + used, len - (size_t) used, ",%s on one machine of %d cores", some, s->machine_cores);
    }
}
