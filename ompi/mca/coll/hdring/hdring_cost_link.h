/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring cost model, its links: what one message of a step costs where it goes (within a node, across nodes,
 * on a machine whose cores several nodes share), and what a step of several costs. Private to the model's files
 * (hdring_cost*.c): each part of the model (hdring_cost.c, the collectives' vectors; hdring_cost_bcast.c, trees and
 * pipelines; hdring_cost_hier.c, the hierarchical algorithms; hdring_cost_volume.c, what moves) prices its
 * messages through these. Notation: p' = 2^floor(log2 p), l = log2 p', r = p - p', L = ceil(log2 p), B = n/p.
 */
#ifndef HDRING_COST_LINK_H
#define HDRING_COST_LINK_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "hdring_cost.h"
#include "hdring_defaults.h"
#include "hdring_kernels.h"
#include "hdring_pattern.h"

typedef struct geometry {
    int p, pof2, l, r, L;
} geometry_t;

static inline geometry_t geometry(int p)
{
    geometry_t g = {p, hdring_floor_pow2(p), hdring_floor_log2(p), p - hdring_floor_pow2(p), hdring_ceil_log2(p)};
    return g;
}

static inline double max2(double a, double b) { return a > b ? a : b; }

/* Whether t is less than `than` by more than rounding (sums of the same terms in another order). */
static inline bool less(double t, double than) { return t < than * (1 - 1e-12); }

/* A segment-size search keeps `segment` when its time t beats the best so far. The searches try the segment
 * counts around their closed-form optimum, which ignores rendezvous, and a segment of the eager limit, the
 * largest that avoids them. */
static inline void consider(double segment, double t, double *best, double *best_time)
{
    if (less(t, *best_time)) {
        *best = segment;
        *best_time = t;
    }
}

/* ---- links ----
 * The time of one message of a step: alpha + bytes * beta, with the parameters of the link it crosses. Within
 * a node: the local parameters. Across nodes: the network's, with beta times the number of the step's messages
 * that share a node's link in lockstep (its flows): every rank of a node in a step where all pair off across
 * nodes, one in a ring (only the node's last rank sends across). When m->concurrent copies of the collective run
 * at once on each node (the index groups of a hierarchical algorithm), they go at their own pace: each message
 * takes its own alpha + bytes beta, and the link carries the copies' messages one after another, whichever is
 * longer. Ranks are in locality order unless the operation keeps rank order; in rank order they are grouped by
 * node only when mapped by slot (shape.node_major). */
typedef struct link {
    double alpha, beta;
    int share;    /* copies sharing the link */
    double eager; /* bytes a message carries without a rendezvous (0: any) */
    double crowd; /* across nodes on a shared machine: the step's software work, in latencies (machine_crowding) */
} link_t;

/* A message larger than the PML sends eagerly waits for its receiver's answer before its data go: a round trip
 * more, RENDEZVOUS_ALPHAS latencies. */
#define RENDEZVOUS_ALPHAS 2

/* The latencies of `count` messages of `bytes` in all, rendezvous included. */
static inline double latencies(link_t lk, int count, double bytes)
{
    const bool rendezvous = lk.eager > 0 && count > 0 && bytes > count * lk.eager;
    return count * lk.alpha * (rendezvous ? 1 + RENDEZVOUS_ALPHAS : 1);
}

/* `count` messages of `bytes` in all on one port, the time of the port itself: never less than the cores of a
 * shared machine take for their software work */
static inline double port_time(link_t lk, int count, double bytes)
{
    const double lat = latencies(lk, count, bytes);
    return max2(lat + bytes * lk.beta, lk.crowd * lat);
}

/* `count` messages of `bytes` in all, one after another on one port */
static inline double transfers(link_t lk, int count, double bytes)
{
    return max2(port_time(lk, count, bytes), lk.share * bytes * lk.beta);
}

static inline double transfer(link_t lk, double bytes) { return transfers(lk, 1, bytes); }

/* ---- cores ---- */

/* The step's `active` ranks spread evenly over the nodes: how many work on `nodes_of_it` of them (at most all their
 * ranks). */
static inline int busy_on(const hdring_model_t *m, int active, int nodes_of_it)
{
    const int nodes = m->shape.nodes > 0 ? m->shape.nodes : 1;
    const int busy = (active * nodes_of_it + nodes - 1) / nodes, most = m->shape.ppn_max * nodes_of_it;
    return busy < most ? busy : most;
}

/* How much longer `busy` ranks take on `cores` cores than on a core each (cores 0: a core each). */
static inline double over_cores(int busy, int cores) { return cores > 0 && busy > cores ? (double) busy / cores : 1; }

/* A node's ranks copy messages in and reduce on its cores: when more of them work in one step than the node has
 * cores (m->shape.cores; 0: a core per rank), each takes longer by that ratio, the cores shared out evenly.
 * `active`: the communicator's ranks that copy or reduce in the step, spread over its nodes. */
static inline double crowding(const hdring_model_t *m, int active)
{
    return over_cores(busy_on(m, active, 1), m->shape.cores);
}

/* Reducing `bytes` in a step where `active` ranks reduce. */
static inline double reduction(const hdring_model_t *m, double bytes, int active)
{
    return bytes * m->local.gamma * crowding(m, active);
}

static inline link_t local_link(const hdring_model_t *m, int active)
{
    const double crowd = crowding(m, active);
    link_t lk = {m->local.alpha * crowd, m->local.beta * crowd, 1, m->local.eager, 1};
    return lk;
}

/* ---- machines ----
 * Nodes that run on one machine (containers, network namespaces: shape.machine_nodes > 1) share its cores, and
 * the software work of a message across (system calls, the kernel's network stack: its latency, taken as core
 * time) runs on them: when more of the machine's ranks send or receive across in one step than it has cores,
 * the step takes at least that ratio of its messages' latencies (port_time), however fast the link. Large
 * messages, whose time is the link's, are not slowed. `active`: the communicator's ranks working in the step,
 * spread evenly over its nodes; concurrent groups (a hierarchical algorithm's phases across) multiply them. */
static inline double machine_crowding(const hdring_model_t *m, int active)
{
    const hdring_shape_t *s = &m->shape;
    return s->machine_nodes > 1 ? over_cores(busy_on(m, active, s->machine_nodes) * m->concurrent, s->machine_cores)
                                : 1;
}

/* A link across nodes, `flows` messages sharing it, in a step where `active` ranks work. */
static inline link_t network_link(const hdring_model_t *m, int flows, int active)
{
    link_t lk = {m->network.alpha, m->network.beta * flows, m->concurrent, m->network.eager,
                 machine_crowding(m, active)};
    return lk;
}

/* ... for a step where each rank exchanges with one peer, both ways at once */
static inline link_t network_exchange(const hdring_model_t *m, int flows, int active)
{
    link_t lk = {m->network.alpha, m->network.exchange * flows, m->concurrent, m->network.eager,
                 machine_crowding(m, active)};
    return lk;
}

static inline int ranks_per_node(const hdring_model_t *m) { return m->shape.ppn > 0 ? m->shape.ppn : m->shape.ppn_max; }

/* Ranks of a node are consecutive in the order the algorithm runs in. */
static inline bool grouped(const hdring_model_t *m) { return !m->ordered || m->shape.node_major; }

/* Partners at distance d in a step where `active` ranks pair off (recursive halving/doubling, folds): within the
 * nodes when nodes hold aligned runs of 2d ranks; otherwise across, every rank of a node at once. */
static inline link_t link_pairs(const hdring_model_t *m, int d, int active)
{
    const int per_node = ranks_per_node(m);
    if (1 == m->shape.nodes) {
        return local_link(m, active);
    }
    if (grouped(m) && 0 == per_node % (2 * d)) {
        return local_link(m, active);
    }
    return network_exchange(m, per_node, active);
}

/* A chain's links, each rank to the next: one rank per node sends across when grouped, every rank otherwise;
 * once the pipeline is full every rank but the root receives. */
static inline link_t link_next(const hdring_model_t *m)
{
    if (1 == m->shape.nodes) {
        return local_link(m, m->p - 1);
    }
    return network_link(m, grouped(m) ? 1 : ranks_per_node(m), m->p - 1);
}

/* A tree level (binomial bcast and scatter): the ranks holding the data, 2d apart, send to d ranks further (the
 * level's receivers: ceil((p - d) / 2d)), within a node when the node holds aligned runs of 2d ranks; across, one
 * sender per node. */
static inline bool tree_level_local(const hdring_model_t *m, int d)
{
    return 1 == m->shape.nodes || (grouped(m) && 0 == ranks_per_node(m) % (2 * d));
}

static inline link_t link_tree(const hdring_model_t *m, int d)
{
    if (tree_level_local(m, d)) {
        return local_link(m, (m->p - d + 2 * d - 1) / (2 * d));
    }
    return network_link(m, grouped(m) ? 1 : ranks_per_node(m), (m->p - d + 2 * d - 1) / (2 * d));
}

/* A shift (Bruck's steps, ring steps at d = 1): every rank sends to the rank d away on one side and receives from
 * the rank d away on the other. With ranks grouped by node, the first min(d, L) ranks of each node send across;
 * otherwise all of them. When 2d is a multiple of p those two ranks are one: the step is an exchange (a ring of
 * 2, Bruck's last step on 4 ranks). */
static inline link_t link_shift(const hdring_model_t *m, int d)
{
    if (1 == m->shape.nodes) {
        return local_link(m, m->p);
    }
    const int per_node = ranks_per_node(m);
    const int flows = grouped(m) && d < per_node ? d : per_node;
    return 0 == 2 * d % m->p ? network_exchange(m, flows, m->p) : network_link(m, flows, m->p);
}

/* Messages with no pattern (redistribution between positions and owners, hand-offs between binary blocks, the
 * double tree): every rank at once; across nodes, all of a node's ranks share its link, and `active` of the
 * communicator's ranks work at once (link_any: all). */
static inline link_t link_among(const hdring_model_t *m, int active)
{
    return 1 == m->shape.nodes ? local_link(m, m->p) : network_link(m, ranks_per_node(m), active);
}

static inline link_t link_any(const hdring_model_t *m) { return link_among(m, m->p); }

/* Whether link_any's links are a node's: there each receiver copies its messages in, so a rank's sends overlap and
 * only receive ports queue; across nodes a rank's sends queue on its send port too. */
static inline bool sends_overlap(const hdring_model_t *m) { return 1 == m->shape.nodes; }

/* Whether a message within a node goes eagerly, copied out by its sender (so one rank's sends follow one another)
 * rather than copied in by its receiver; an eager limit of 0 (none known) counts as copied in. */
static inline bool sender_copies(const hdring_model_t *m, double n) { return m->local.eager > 0 && n <= m->local.eager; }

/* The sizes of the p' fine positions an RHD or binary-block schedule works on: `pairs` positions of two
 * units, then single units. Balanced positions have no pairs (unit n/p'); an allgather's whole-block
 * positions have r pairs of blocks (unit n/p). Schedules move aligned runs of positions, the first run of w
 * positions being the largest. */
typedef struct position_sizes {
    double unit;
    int pairs;
} position_sizes_t;

static inline double run_bytes(const position_sizes_t *s, int w) { return s->unit * (w + (s->pairs < w ? s->pairs : w)); }

/* Recursive halving over `npos` positions, `steps` steps: step k moves (and, with `reduce`, reduces) a run of
 * npos/2^(k+1) of them. Without reducing it is also the recursive-doubling allgather, steps reversed. The rank
 * holding the first run moves the largest at every step and its partners are never later: exact on one node.
 * Partners are 2^k apart (distance doubling) or npos/2^(k+1) (halving), times `spread` ranks per vrank (2 when
 * a fold left every other rank out, roughly); `active` ranks work in each step. */
static inline double halving(const hdring_model_t *m, const position_sizes_t *s, int npos, int steps, bool doubling,
                      int spread, bool reduce, int active)
{
    double t = 0;
    for (int k = 0; k < steps; ++k) {
        const link_t lk = link_pairs(m, (doubling ? 1 << k : npos >> (k + 1)) * spread, active);
        const double bytes = run_bytes(s, npos >> (k + 1));
        t += transfer(lk, bytes) + (reduce ? reduction(m, bytes, active) : 0);
    }
    return t;
}

/* Ranks per vrank of an RHD schedule on the survivors of a fold. */
static inline int fold_spread(const geometry_t *g) { return g->r > 0 ? 2 : 1; }


/* ---- parts one file of the model prices for another ---- */

/* The recursive-doubling allgather of n bytes in all on m's ranks, its steps in `order`; all_move: every block
 * moves to its rank first (ranks renumbered) (hdring_cost.c). */
double hdring_cost_allgather_rhd_time(const hdring_model_t *m, double n, hdring_rhd_order_t order, bool all_move);

/* The sub-models of a grid of N nodes x L ranks: one node (L ranks, local links) and one index group (N ranks,
 * one per node, each node's link shared by `flows` groups). */
static inline hdring_model_t hdring_cost_node_model(const hdring_model_t *m)
{
    hdring_model_t sub = *m;
    sub.p = m->shape.ppn;
    sub.ordered = false;
    sub.shape = hdring_shape_single(sub.p);
    sub.shape.cores = m->shape.cores;
    return sub;
}

static inline hdring_model_t hdring_cost_index_model(const hdring_model_t *m, int concurrent)
{
    hdring_model_t sub = *m;
    sub.p = m->shape.nodes;
    sub.ordered = false;
    sub.shape.nodes = sub.p;
    sub.shape.ppn = sub.shape.ppn_max = 1;
    sub.shape.node_major = sub.shape.index_major = true;
    sub.concurrent = concurrent;
    return sub;
}

#endif
