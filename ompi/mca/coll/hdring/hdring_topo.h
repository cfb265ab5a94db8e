/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring topology: where a communicator's ranks sit, in the form the algorithms and the cost model use, MPI-free.
 *
 * Input (the locality map, built by the component): for each rank the node it runs on and its domain within
 * the node (package or NUMA node), as arbitrary integers. Output:
 *   shape          how many nodes, how many ranks each;
 *   the locality order: ranks numbered node by node (nodes in the order of their lowest rank; within a node by
 *                  domain, then rank). In this order a node's ranks are consecutive, so a ring crosses each node
 *                  boundary once per direction, recursive halving pairs neighbours first, and a uniform shape of
 *                  N nodes x L ranks is a grid: node j holds ranks jL .. jL+L-1.
 * Trace, p = 6 on 3 nodes mapped round-robin (rank r on node r mod 3): order 0 3 | 1 4 | 2 5, shape 3 x 2.
 */
#ifndef HDRING_TOPO_H
#define HDRING_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#include "hdring_status.h"

typedef struct hdring_shape {
    int nodes;       /* 1: the communicator lives on one node */
    int ppn;         /* ranks per node when every node has the same number; 0 otherwise */
    int ppn_max;     /* the most ranks on one node */
    bool node_major; /* in rank order every node's ranks are consecutive (mapped by slot) */
    bool index_major; /* uniform nodes and rank i N + j is index i of node j in the locality order (mapped
                         round-robin): blocks in rank order are in the order the hierarchical algorithms use */
    int cores;       /* cores per node its ranks share (the fewest on any node); 0: a core per rank or more */
    int machine_nodes; /* the most of its nodes that run on one machine (containers, network namespaces: one
                          kernel, so one set of cores); 0 or 1: every node is a machine of its own */
    int machine_cores; /* that machine's cores (machine_nodes > 1) */
} hdring_shape_t;

typedef struct hdring_topo {
    int p;
    hdring_shape_t shape;
    int *order;    /* position in the locality order -> rank; NULL when that order is the rank order */
    int *vrank_of; /* rank -> position in the locality order; NULL likewise */
    int *node_of;  /* rank -> node, numbered 0..nodes-1 in the locality order */
} hdring_topo_t;

/* From node[r] and domain[r] (domain may be NULL: one domain per node). HDRING_ERR_NOMEM on failure. */
int hdring_topo_init(hdring_topo_t *t, int p, const int *node, const int *domain);
void hdring_topo_free(hdring_topo_t *t);
/* dst = a copy of src, with arrays of its own: HDRING_OK, or HDRING_ERR_NOMEM (dst's arrays then NULL). */
int hdring_topo_copy(hdring_topo_t *dst, const hdring_topo_t *src);

/* The shape of one node holding all p ranks. */
hdring_shape_t hdring_shape_single(int p);
/* Field by field (the structure has padding). */
bool hdring_shape_equal(const hdring_shape_t *a, const hdring_shape_t *b);

/* Whether a node holds more ranks than cores (cores counted: hdring_shape_t.cores). */
static inline bool hdring_shape_crowded(const hdring_shape_t *s) { return s->cores > 0 && s->ppn_max > s->cores; }

/* "4 nodes x 2", "3 nodes x 1-4", "1 node", ", 2 cores each" when a node holds more ranks than cores, and
 * ", on one machine of 2 cores" (", 3 of them on one machine of 2 cores") when nodes share a machine: for the
 * trace. */
void hdring_shape_describe(const hdring_shape_t *s, char *out, size_t len);

#endif
