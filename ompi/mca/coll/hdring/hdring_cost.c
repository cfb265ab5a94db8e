/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring cost model: see hdring_cost.h. Notation: p' = 2^floor(log2 p), l = log2 p', r = p - p',
 * L = ceil(log2 p), B = n/p. */
#include "hdring_cost.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "hdring_defaults.h"
#include "hdring_kernels.h"
#include "hdring_pattern.h"

typedef struct geometry {
    int p, pof2, l, r, L;
} geometry_t;

static geometry_t geometry(int p)
{
    geometry_t g = {p, hdring_floor_pow2(p), hdring_floor_log2(p), p - hdring_floor_pow2(p), hdring_ceil_log2(p)};
    return g;
}

static double max2(double a, double b) { return a > b ? a : b; }

/* Whether t is less than `than` by more than rounding (sums of the same terms in another order). */
static bool less(double t, double than) { return t < than * (1 - 1e-12); }

/* A segment-size search keeps `segment` when its time t beats the best so far. The searches try the segment
 * counts around their closed-form optimum, which ignores rendezvous, and a segment of the eager limit, the
 * largest that avoids them. */
static void consider(double segment, double t, double *best, double *best_time)
{
    if (less(t, *best_time)) {
        *best = segment;
        *best_time = t;
    }
}

int hdring_cost_pick(const double *t, int n)
{
    double fastest = -1;
    for (int i = 0; i < n; ++i) {
        if (t[i] >= 0 && (fastest < 0 || t[i] < fastest)) {
            fastest = t[i];
        }
    }
    for (int i = 0; i < n; ++i) {
        if (t[i] >= 0 && !less(fastest * (1 + HDRING_COST_RESOLUTION), t[i])) {
            return i;
        }
    }
    return -1;
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
static double latencies(link_t lk, int count, double bytes)
{
    const bool rendezvous = lk.eager > 0 && count > 0 && bytes > count * lk.eager;
    return count * lk.alpha * (rendezvous ? 1 + RENDEZVOUS_ALPHAS : 1);
}

/* `count` messages of `bytes` in all on one port, the time of the port itself: never less than the cores of a
 * shared machine take for their software work */
static double port_time(link_t lk, int count, double bytes)
{
    const double lat = latencies(lk, count, bytes);
    return max2(lat + bytes * lk.beta, lk.crowd * lat);
}

/* `count` messages of `bytes` in all, one after another on one port */
static double transfers(link_t lk, int count, double bytes)
{
    return max2(port_time(lk, count, bytes), lk.share * bytes * lk.beta);
}

static double transfer(link_t lk, double bytes) { return transfers(lk, 1, bytes); }

/* ---- cores ---- */

/* The step's `active` ranks spread evenly over the nodes: how many work on `nodes_of_it` of them (at most all their
 * ranks). */
static int busy_on(const hdring_model_t *m, int active, int nodes_of_it)
{
    const int nodes = m->shape.nodes > 0 ? m->shape.nodes : 1;
    const int busy = (active * nodes_of_it + nodes - 1) / nodes, most = m->shape.ppn_max * nodes_of_it;
    return busy < most ? busy : most;
}

/* How much longer `busy` ranks take on `cores` cores than on a core each (cores 0: a core each). */
static double over_cores(int busy, int cores) { return cores > 0 && busy > cores ? (double) busy / cores : 1; }

/* A node's ranks copy messages in and reduce on its cores: when more of them work in one step than the node has
 * cores (m->shape.cores; 0: a core per rank), each takes longer by that ratio, the cores shared out evenly.
 * `active`: the communicator's ranks that copy or reduce in the step, spread over its nodes. */
static double crowding(const hdring_model_t *m, int active)
{
    return over_cores(busy_on(m, active, 1), m->shape.cores);
}

/* Reducing `bytes` in a step where `active` ranks reduce. */
static double reduction(const hdring_model_t *m, double bytes, int active)
{
    return bytes * m->local.gamma * crowding(m, active);
}

static link_t local_link(const hdring_model_t *m, int active)
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
static double machine_crowding(const hdring_model_t *m, int active)
{
    const hdring_shape_t *s = &m->shape;
    return s->machine_nodes > 1 ? over_cores(busy_on(m, active, s->machine_nodes) * m->concurrent, s->machine_cores)
                                : 1;
}

/* A link across nodes, `flows` messages sharing it, in a step where `active` ranks work. */
static link_t network_link(const hdring_model_t *m, int flows, int active)
{
    link_t lk = {m->network.alpha, m->network.beta * flows, m->concurrent, m->network.eager,
                 machine_crowding(m, active)};
    return lk;
}

/* ... for a step where each rank exchanges with one peer, both ways at once */
static link_t network_exchange(const hdring_model_t *m, int flows, int active)
{
    link_t lk = {m->network.alpha, m->network.exchange * flows, m->concurrent, m->network.eager,
                 machine_crowding(m, active)};
    return lk;
}

static int ranks_per_node(const hdring_model_t *m) { return m->shape.ppn > 0 ? m->shape.ppn : m->shape.ppn_max; }

/* Ranks of a node are consecutive in the order the algorithm runs in. */
static bool grouped(const hdring_model_t *m) { return !m->ordered || m->shape.node_major; }

/* Partners at distance d in a step where `active` ranks pair off (recursive halving/doubling, folds): within the
 * nodes when nodes hold aligned runs of 2d ranks; otherwise across, every rank of a node at once. */
static link_t link_pairs(const hdring_model_t *m, int d, int active)
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
static link_t link_next(const hdring_model_t *m)
{
    if (1 == m->shape.nodes) {
        return local_link(m, m->p - 1);
    }
    return network_link(m, grouped(m) ? 1 : ranks_per_node(m), m->p - 1);
}

/* A tree level (binomial bcast and scatter): the ranks holding the data, 2d apart, send to d ranks further (the
 * level's receivers: ceil((p - d) / 2d)), within a node when the node holds aligned runs of 2d ranks; across, one
 * sender per node. */
static bool tree_level_local(const hdring_model_t *m, int d)
{
    return 1 == m->shape.nodes || (grouped(m) && 0 == ranks_per_node(m) % (2 * d));
}

static link_t link_tree(const hdring_model_t *m, int d)
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
static link_t link_shift(const hdring_model_t *m, int d)
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
static link_t link_among(const hdring_model_t *m, int active)
{
    return 1 == m->shape.nodes ? local_link(m, m->p) : network_link(m, ranks_per_node(m), active);
}

static link_t link_any(const hdring_model_t *m) { return link_among(m, m->p); }

/* Whether link_any's links are a node's: there each receiver copies its messages in, so a rank's sends overlap and
 * only receive ports queue; across nodes a rank's sends queue on its send port too. */
static bool sends_overlap(const hdring_model_t *m) { return 1 == m->shape.nodes; }

/* Whether a message within a node goes eagerly, copied out by its sender (so one rank's sends follow one another)
 * rather than copied in by its receiver; an eager limit of 0 (none known) counts as copied in. */
static bool sender_copies(const hdring_model_t *m, double n) { return m->local.eager > 0 && n <= m->local.eager; }

/* The sizes of the p' fine positions an RHD or binary-block schedule works on: `pairs` positions of two
 * units, then single units. Balanced positions have no pairs (unit n/p'); an allgather's whole-block
 * positions have r pairs of blocks (unit n/p). Schedules move aligned runs of positions, the first run of w
 * positions being the largest. */
typedef struct position_sizes {
    double unit;
    int pairs;
} position_sizes_t;

static double run_bytes(const position_sizes_t *s, int w) { return s->unit * (w + (s->pairs < w ? s->pairs : w)); }

/* Recursive halving over `npos` positions, `steps` steps: step k moves (and, with `reduce`, reduces) a run of
 * npos/2^(k+1) of them. Without reducing it is also the recursive-doubling allgather, steps reversed. The rank
 * holding the first run moves the largest at every step and its partners are never later: exact on one node.
 * Partners are 2^k apart (distance doubling) or npos/2^(k+1) (halving), times `spread` ranks per vrank (2 when
 * a fold left every other rank out, roughly); `active` ranks work in each step. */
static double halving(const hdring_model_t *m, const position_sizes_t *s, int npos, int steps, bool doubling,
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
static int fold_spread(const geometry_t *g) { return g->r > 0 ? 2 : 1; }

/* ---- binary blocks ----
 * Reduce phase (per block b of s_b = 2^k_b ranks, position P_b = run of s_0/s_b fine positions):
 *   RS_b       the block's reduce-scatter, all its ranks start at 0;
 *   D_b        latest post of block b's hand-up (after RS and, below the smallest block, its own receipt);
 *   U_b        latest completion of block b's hand-up: s_(b-1)/s_b messages of P_(b-1) queue on its port,
 *              and block b-1 posts its receives after its own reduce-scatter (sends are synchronous).
 * Broadcast phase: E_b, the latest arrival of block b's position from block b-1 (whose ranks post after
 * their own arrival, block 0 after the reduce phase; block b's ranks receive on one port, after U_b); each
 * block allgathers once its hand-down is done. Exact for equal positions (every max is attained); for an
 * allgather's whole-block positions an upper bound (the largest run is charged on every path). */
typedef struct bb_phases {
    double red0;                           /* latest end of block 0's reduce phase */
    double ready[HDRING_MAX_LOG2_P + 1];   /* when block b (b >= 1) posts its broadcast-phase receives */
} bb_phases_t;

static void bb_reduce_phase(const hdring_model_t *mo, const hdring_binblocks_t *bb, const position_sizes_t *fine,
                            bb_phases_t *out)
{
    const int m = bb->nblocks, s0 = hdring_binblocks_size(bb, 0);
    const link_t c = link_any(mo);
    double rs[HDRING_MAX_LOG2_P + 1], post = 0;

    for (int b = 0; b < m; ++b) { /* all blocks at once */
        rs[b] = halving(mo, fine, s0, bb->log2_size[b], true, 1, true, mo->p);
    }
    if (1 == m) {
        out->red0 = rs[0];
        return;
    }
    for (int b = m - 1; b >= 1; --b) {
        const double piece = run_bytes(fine, s0 >> bb->log2_size[b - 1]); /* one of block b-1's positions */
        const int ratio = 1 << (bb->log2_size[b - 1] - bb->log2_size[b]);
        if (b == m - 1) {
            post = rs[b];
        }
        /* a rank's hand-up pieces go out one after another across nodes; within a node they overlap */
        const double last = post + (sends_overlap(mo) ? 0 : (ratio - 1) * transfer(c, piece));
        out->ready[b] = max2(last, rs[b - 1]) + transfer(c, piece);
        /* block b-1 receives its piece and reduces it in, then posts its own hand-up */
        post = max2(rs[b - 1], last) + transfer(c, piece) + reduction(mo, piece, mo->p);
    }
    out->red0 = post;
}

/* When block b (b >= 1) has received its position from block b-1, whose ranks send once `sender_ready`: the
 * last piece leaves after that, and all 2^(k(b-1)-kb) pieces queue on the receiving port after `ready`. */
static double bb_hand_down(const hdring_model_t *mo, const hdring_binblocks_t *bb, int b,
                           const position_sizes_t *fine, double sender_ready, double ready)
{
    const int s0 = hdring_binblocks_size(bb, 0);
    const int ratio = 1 << (bb->log2_size[b - 1] - bb->log2_size[b]);
    const link_t c = link_any(mo);
    const double pieces = transfers(c, ratio, run_bytes(fine, s0 >> bb->log2_size[b]));
    if (sends_overlap(mo)) { /* the receiver copies the pieces in, one after another, once they are sent */
        return max2(sender_ready, ready) + pieces;
    }
    const double last = sender_ready + transfer(c, run_bytes(fine, s0 >> bb->log2_size[b - 1]));
    return max2(last, ready + pieces);
}

static double bb_broadcast_phase(const hdring_model_t *mo, const hdring_binblocks_t *bb,
                                 const position_sizes_t *fine, const bb_phases_t *ph)
{
    const int m = bb->nblocks, s0 = hdring_binblocks_size(bb, 0);
    double arrival = ph->red0, finish = 0;

    for (int b = 0; b < m; ++b) {
        if (b > 0) {
            arrival = bb_hand_down(mo, bb, b, fine, arrival, ph->ready[b]);
        }
        /* the block allgathers after its hand-down completes, i.e. when the next block's arrival is known */
        const double handed = b < m - 1 ? bb_hand_down(mo, bb, b + 1, fine, arrival, ph->ready[b + 1]) : arrival;
        finish = max2(finish, handed + halving(mo, fine, s0, bb->log2_size[b], true, 1, false, mo->p));
    }
    return finish;
}

/* ---- per collective ---- */

/* ---- the ring reduce-scatter ----
 * One step moves and reduces a block of B = n/p bytes, in k segments of s = B/k (a segment size that does not
 * divide B priced as k equal ones, as the chain's): a segment's transfer a = alpha + s beta, its reduction
 * g = s gamma. Across nodes each segment arrives while the one before is reduced: a + g, then one segment per
 * max(a, g). Within a node the receiving rank copies each segment in itself, so transfers and reductions take
 * turns on its CPU: k (a + g), never faster than whole blocks. Exact on one node when the segment divides B (the
 * kernel's schedule on the simulator's CPU, hdring_sim.h). */
static double ring_step(const hdring_model_t *m, double block, double segment)
{
    const double k = segment > 0 && segment < block ? ceil(block / segment) : 1, s = block / k;
    const link_t lk = link_shift(m, 1);
    const double a = transfer(lk, s), g = reduction(m, s, m->p);
    return 1 == m->shape.nodes ? k * (a + g) : a + g + (k - 1) * max2(a, g);
}

/* m->segment, or the segment size of the number of segments k the model finds fastest for a step of the ring
 * reduce-scatter (0: one, whole blocks): one on a node; across nodes, while transfers are the slower,
 * k alpha + B beta + (B/k) gamma, least at k = sqrt(B gamma / alpha); when reductions are, the time falls with k
 * until a segment's transfer reaches its reduction, at k = B (gamma - beta) / alpha. Whole numbers around both
 * and one segment are tried. */
static double ring_segment(const hdring_model_t *m, double n)
{
    if (m->segment > 0) {
        return m->segment;
    }
    const link_t lk = link_shift(m, 1);
    const double block = n / m->p, alpha = lk.alpha, beta = lk.beta, gamma = reduction(m, 1, m->p);
    double best = 0, best_time = ring_step(m, block, block);
    if (block <= 0 || alpha <= 0) {
        return best;
    }
    const double guesses[2] = {sqrt(block * gamma / alpha), block * (gamma - beta) / alpha};
    for (int i = 0; i < 2; ++i) {
        const double k = floor(guesses[i]);
        for (double kk = k; kk <= k + 1; ++kk) {
            if (kk < 2 || kk > block) {
                continue;
            }
            const double segment = ceil(block / kk);
            consider(segment, ring_step(m, block, segment), &best, &best_time);
        }
    }
    if (lk.eager > 0 && lk.eager < block) {
        consider(lk.eager, ring_step(m, block, lk.eager), &best, &best_time);
    }
    return best;
}

double hdring_segment_allreduce_ring(const hdring_model_t *m, double n) { return ring_segment(m, n); }
double hdring_segment_reduce_scatter_ring(const hdring_model_t *m, double n) { return ring_segment(m, n); }

double hdring_cost_allreduce_ring(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    const double p = m->p;
    (void) self, (void) phase;
    return (p - 1) * (ring_step(m, n / p, ring_segment(m, n)) + transfer(link_shift(m, 1), n / p));
}

/* The split fold of p ranks onto p' (partners 1 apart): 2 alpha + n beta + n/2 gamma (the 2r ranks of the pairs
 * swap halves and reduce them, then r of them send theirs on); 0 on powers of two. */
static double fold_time(const hdring_model_t *m, const geometry_t *g, double n)
{
    if (0 == g->r) {
        return 0;
    }
    return transfer(link_pairs(m, 1, 2 * g->r), n / 2) + reduction(m, n / 2, 2 * g->r) +
           transfer(link_pairs(m, 1, g->r), n / 2);
}

/* The whole fold: r ranks send their whole vectors to their partners, which reduce them in; 0 on powers of two. */
static double whole_fold_time(const hdring_model_t *m, const geometry_t *g, double n)
{
    return g->r > 0 ? transfer(link_pairs(m, 1, g->r), n) + reduction(m, n, g->r) : 0;
}

/* Sending the whole vector back to the r folded ranks. */
static double unfold_time(const hdring_model_t *m, const geometry_t *g, double n)
{
    return g->r > 0 ? transfer(link_pairs(m, 1, g->r), n) : 0;
}

double hdring_cost_allreduce_rhd(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    const geometry_t g = geometry(m->p);
    const position_sizes_t even = {n / g.pof2, 0};
    (void) self, (void) phase;
    return fold_time(m, &g, n) + halving(m, &even, g.pof2, g.l, true, fold_spread(&g), true, g.pof2) +
           halving(m, &even, g.pof2, g.l, true, fold_spread(&g), false, g.pof2) + unfold_time(m, &g, n);
}

double hdring_cost_allreduce_recursive_doubling(hdring_alg_t self, const hdring_model_t *m, double n,
                                                hdring_alg_t *phase)
{
    const geometry_t g = geometry(m->p);
    double t = whole_fold_time(m, &g, n) + unfold_time(m, &g, n);
    (void) self, (void) phase;
    for (int k = 0; k < g.l; ++k) {
        const link_t lk = link_pairs(m, (1 << k) * fold_spread(&g), g.pof2);
        t += transfer(lk, n) + reduction(m, n, g.pof2);
    }
    return t;
}

double hdring_cost_allreduce_binary_blocks(hdring_alg_t self, const hdring_model_t *m, double n,
                                           hdring_alg_t *phase)
{
    hdring_binblocks_t bb;
    bb_phases_t ph;
    (void) self, (void) phase;
    hdring_binblocks_init(&bb, m->p);
    const position_sizes_t fine = {n / hdring_binblocks_size(&bb, 0), 0};
    bb_reduce_phase(m, &bb, &fine, &ph);
    return bb_broadcast_phase(m, &bb, &fine, &ph);
}

/* Where a reduce_scatter's result or an allgather's input sits between the collective's core and the ranks
 * owning it: q = p' positions over p equal blocks, position j held by one rank (hdring_algorithms.c).
 * Boundaries are counted in units of n/(p q) bytes, so every overlap is an exact integer. */
typedef enum { HELD_BY_SURVIVORS, HELD_BY_BLOCK0 } holders_t; /* rhd, binary blocks */

typedef struct positions_model {
    const geometry_t *g;
    hdring_fold_t fold;
    holders_t holders;
    hdring_rhd_order_t order;
    bool whole_blocks; /* position j = the blocks of fold group j; otherwise p' equal positions */
} positions_model_t;

static uint64_t position_start(const positions_model_t *pm, int j)
{
    const uint64_t p = (uint64_t) pm->g->p, q = (uint64_t) pm->g->pof2;
    if (j >= pm->g->pof2) {
        return p * q;
    }
    return pm->whole_blocks ? (uint64_t) hdring_fold_group_first(&pm->fold, j) * q : (uint64_t) j * p;
}

static int position_holder(const positions_model_t *pm, int j)
{
    const int v = hdring_rhd_position_holder(pm->order, pm->g->l, j);
    return HELD_BY_BLOCK0 == pm->holders ? v : hdring_fold_survivor(&pm->fold, v);
}

/* Ranks renumbered into locality order own the blocks of other positions: every piece moves. */
static bool renumbered(const hdring_model_t *m) { return !m->ordered && !m->shape.node_major; }

/* Schedules that can choose put their largest exchanges within nodes when nodes hold several ranks (near_first). */
static hdring_rhd_order_t vector_order(const hdring_model_t *m, hdring_rhd_order_t alone)
{
    return m->ordered || (m->shape.nodes > 1 && ranks_per_node(m) > 1) ? HDRING_RHD_DISTANCE_DOUBLING : alone;
}

/* Deliver (and its reverse, collect): every piece where a position and a block overlap moves unless the
 * position's holder owns the block. Bounded by the busiest port, a rank's sends and receives overlapping. A
 * rank holds one position and owns one block, so one walk over the overlaps sums both.
 *
 * A port carries at most LAYOUT_MAX_PIECES pieces (a position of p units spans at most three blocks of p' > p/2
 * units; a block, at most two positions). On a link that carries one flow (share 1) a port's time is
 * c alpha + u beta for its c pieces of u bytes in all, so the busiest port is the largest of a few lines in n:
 * for each c, the most units any port of c pieces carries. Those loads do not depend on n or the link, and
 * a plan asks for the same layout at many sizes, so they are kept per thread for the last few layouts: the walk,
 * O(p), runs once per layout instead of once per size. Links shared by several flows (share > 1) walk each
 * time. */
#define LAYOUT_MAX_PIECES 3
#define LAYOUT_MEMO 8

typedef struct layout_key {
    int p;
    holders_t holders;
    hdring_rhd_order_t order;
    bool whole_blocks, all_move;
    bool holder_ports, owner_ports; /* whose ports a piece occupies (see layout_time) */
} layout_key_t;

typedef struct layout_loads {
    layout_key_t key;
    uint64_t most_units[LAYOUT_MAX_PIECES + 1]; /* [c]: the most units a port of c pieces carries */
    bool overflow; /* a port carried more pieces than that (never seen): the layout walks each time */
    int moved;     /* pieces that move: their senders and receivers are the ranks working */
} layout_loads_t;

static void note_load(layout_loads_t *loads, int pieces, uint64_t units)
{
    if (pieces > LAYOUT_MAX_PIECES) {
        loads->overflow = true;
    } else if (units > loads->most_units[pieces]) {
        loads->most_units[pieces] = units;
    }
}

/* The pieces one port carries in a layout walk. */
typedef struct layout_port {
    double time;
    uint64_t units;
    int pieces;
} layout_port_t;

/* A port's pieces are all counted: its time joins the busiest when the port queues them, and it starts over. */
static void close_port(layout_port_t *port, bool queues, double *busiest, layout_loads_t *loads)
{
    if (queues) {
        *busiest = max2(*busiest, port->time);
        if (NULL != loads) {
            note_load(loads, port->pieces, port->units);
        }
    }
    *port = (layout_port_t) {0, 0, 0};
}

/* One walk: the busiest port's time on link lk and, when loads is not NULL, the loads. */
static double layout_walk(const layout_key_t *k, const geometry_t *g, link_t lk, double unit, layout_loads_t *loads)
{
    positions_model_t pm = {g, {0}, k->holders, k->order, k->whole_blocks};
    const uint64_t block_units = (uint64_t) g->pof2;
    layout_port_t held = {0, 0, 0}, owned = {0, 0, 0}; /* a holder's port (its position), an owner's (its block) */
    double busiest = 0;

    hdring_fold_init(&pm.fold, g->p);
    for (int j = 0, b = 0; j < g->pof2 && b < g->p;) {
        const uint64_t pos_begin = position_start(&pm, j), pos_end = position_start(&pm, j + 1);
        const uint64_t block_begin = (uint64_t) b * block_units, block_end = block_begin + block_units;
        const uint64_t from = pos_begin > block_begin ? pos_begin : block_begin;
        const uint64_t to = pos_end < block_end ? pos_end : block_end;
        if (to > from && (k->all_move || position_holder(&pm, j) != b)) {
            if (NULL != loads) {
                ++loads->moved;
            }
            const double t = transfer(lk, (double) (to - from) * unit);
            held = (layout_port_t) {held.time + t, held.units + (to - from), held.pieces + 1};
            owned = (layout_port_t) {owned.time + t, owned.units + (to - from), owned.pieces + 1};
        }
        if (pos_end <= block_end) {
            close_port(&held, k->holder_ports, &busiest, loads);
            ++j;
        }
        if (block_end <= pos_end) {
            close_port(&owned, k->owner_ports, &busiest, loads);
            ++b;
        }
    }
    return busiest;
}

static bool same_layout(const layout_key_t *a, const layout_key_t *b)
{
    return a->p == b->p && a->holders == b->holders && a->order == b->order && a->whole_blocks == b->whole_blocks &&
           a->all_move == b->all_move && a->holder_ports == b->holder_ports && a->owner_ports == b->owner_ports;
}

/* The loads of a layout: kept, or walked for (and kept, replacing the oldest). */
static const layout_loads_t *layout_loads(const layout_key_t *k, const geometry_t *g)
{
    static _Thread_local layout_loads_t memo[LAYOUT_MEMO];
    static _Thread_local int used, next;
    for (int e = 0; e < used; ++e) {
        if (same_layout(&memo[e].key, k)) {
            return &memo[e];
        }
    }
    const int e = used < LAYOUT_MEMO ? used++ : next;
    next = (e + 1) % LAYOUT_MEMO;
    memset(&memo[e], 0, sizeof(memo[e]));
    memo[e].key = *k;
    const link_t any = {0, 0, 1, 0, 1};
    layout_walk(k, g, any, 0, &memo[e]);
    return &memo[e];
}

/* Deliver (holders send, owners receive) or collect (the reverse). Across nodes a rank's pieces queue on its port
 * both ways; within a node each receiver copies its pieces in, so only the receivers' ports queue. */
static double layout_time(const hdring_model_t *m, bool deliver, holders_t holders, hdring_rhd_order_t order,
                          bool whole_blocks, bool all_move, const geometry_t *g, double n)
{
    const bool queue_sends = !sends_overlap(m); /* a receiver's port always queues */
    const layout_key_t k = {.p = g->p,
                            .holders = holders,
                            .order = order,
                            .whole_blocks = whole_blocks,
                            .all_move = all_move,
                            .holder_ports = queue_sends || !deliver,
                            .owner_ports = queue_sends || deliver};
    const double unit = n / ((double) g->p * g->pof2);
    const layout_loads_t *loads = layout_loads(&k, g);
    const int working = 2 * loads->moved < g->p ? 2 * loads->moved : g->p; /* a sender and a receiver per piece */
    const link_t lk = link_among(m, working);
    if (lk.share > 1 || loads->overflow) {
        return layout_walk(&k, g, lk, unit, NULL);
    }
    double busiest = 0;
    for (int c = 1; c <= LAYOUT_MAX_PIECES; ++c) {
        if (loads->most_units[c] > 0) {
            const double bytes = (double) loads->most_units[c] * unit;
            busiest = max2(busiest, port_time(lk, c, bytes));
        }
    }
    return busiest;
}

double hdring_cost_reduce_scatter_ring(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    (void) self, (void) phase;
    return (m->p - 1) * ring_step(m, n / m->p, ring_segment(m, n));
}

/* rhd's and recursive_halving's reduce-scatter (fold_halve_deliver, hdring_algorithms.c): the split fold onto
 * balanced positions or the whole fold onto whole-block ones, recursive halving on them, delivery to the owners. */
static double fold_halve_deliver_time(const hdring_model_t *m, double n, bool whole_blocks)
{
    const geometry_t g = geometry(m->p);
    const position_sizes_t pos = whole_blocks ? (position_sizes_t) {n / g.p, g.r} : (position_sizes_t) {n / g.pof2, 0};
    const hdring_rhd_order_t order = vector_order(m, HDRING_RHD_DISTANCE_HALVING);
    const double fold = whole_blocks ? whole_fold_time(m, &g, n) : fold_time(m, &g, n);
    return fold +
           halving(m, &pos, g.pof2, g.l, HDRING_RHD_DISTANCE_DOUBLING == order, fold_spread(&g), true, g.pof2) +
           layout_time(m, true, HELD_BY_SURVIVORS, order, whole_blocks, renumbered(m), &g, n);
}

double hdring_cost_reduce_scatter_rhd(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    (void) self, (void) phase;
    return fold_halve_deliver_time(m, n, false);
}

double hdring_cost_reduce_scatter_recursive_halving(hdring_alg_t self, const hdring_model_t *m, double n,
                                                    hdring_alg_t *phase)
{
    (void) self, (void) phase;
    return fold_halve_deliver_time(m, n, true);
}

double hdring_cost_reduce_scatter_binary_blocks(hdring_alg_t self, const hdring_model_t *m, double n,
                                                hdring_alg_t *phase)
{
    const geometry_t g = geometry(m->p);
    const position_sizes_t even = {n / g.pof2, 0};
    hdring_binblocks_t bb;
    bb_phases_t ph;
    (void) self, (void) phase;
    hdring_binblocks_init(&bb, m->p);
    bb_reduce_phase(m, &bb, &even, &ph);
    return ph.red0 + layout_time(m, true, HELD_BY_BLOCK0, HDRING_RHD_DISTANCE_DOUBLING, false, renumbered(m), &g, n);
}

/* Bruck's L steps, step k moving (and, with `reduce`, reducing) the blocks of min(2^k, p - 2^k) ranks; symmetric,
 * so exact on one node for equal blocks. */
static double bruck_time(const hdring_model_t *m, double n, bool reduce)
{
    const double block = n / m->p;
    double t = 0;
    for (int d = 1; d < m->p; d *= 2) {
        const double bytes = hdring_bruck_window(m->p, d) * block;
        t += transfer(link_shift(m, d), bytes) + (reduce ? reduction(m, bytes, m->p) : 0);
    }
    return t;
}

double hdring_cost_reduce_scatter_bruck(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    (void) self, (void) phase;
    return bruck_time(m, n, true);
}

double hdring_cost_allgather_bruck(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    (void) self, (void) phase;
    return bruck_time(m, n, false);
}

double hdring_cost_allgather_ring(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    const link_t lk = link_shift(m, 1);
    (void) self, (void) phase;
    return (m->p - 1) * transfer(lk, n / m->p);
}

/* collect, allgather among the survivors, unfold */
static double allgather_rhd_time(const hdring_model_t *m, double n, hdring_rhd_order_t order, bool all_move)
{
    const geometry_t g = geometry(m->p);
    const position_sizes_t whole_blocks = {n / g.p, g.r};
    return layout_time(m, false, HELD_BY_SURVIVORS, order, true, all_move, &g, n) +
           halving(m, &whole_blocks, g.pof2, g.l, HDRING_RHD_DISTANCE_DOUBLING == order, fold_spread(&g), false,
                   g.pof2) +
           unfold_time(m, &g, n);
}

double hdring_cost_allgather_rhd(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    (void) self, (void) phase;
    return allgather_rhd_time(m, n, vector_order(m, HDRING_RHD_DISTANCE_HALVING), renumbered(m));
}

double hdring_cost_allgather_binary_blocks(hdring_alg_t self, const hdring_model_t *m, double n,
                                           hdring_alg_t *phase)
{
    const geometry_t g = geometry(m->p);
    const position_sizes_t whole_blocks = {n / g.p, g.r};
    hdring_binblocks_t bb;
    bb_phases_t ph;
    (void) self, (void) phase;
    hdring_binblocks_init(&bb, m->p);
    ph.red0 = layout_time(m, false, HELD_BY_BLOCK0, HDRING_RHD_DISTANCE_DOUBLING, true, renumbered(m), &g, n);
    for (int b = 1; b < bb.nblocks; ++b) {
        ph.ready[b] = ph.red0;
    }
    return bb_broadcast_phase(m, &bb, &whole_blocks, &ph);
}

/* A binomial tree from rank 0: the hop of level k (distance 2^k) carries the whole message (bcast) or the blocks of
 * the child's subtree, at most 2^k of them (scatter). Across nodes a rank's sends queue on its port, largest
 * subtree first, so the root's sends of those levels add up. Within a node each receiver copies its message in,
 * so a rank's sends overlap and rank c has its data one hop per set bit of c after its node got it: the tree takes
 * the most any c < p collects, found bit by bit from the top (following p - 1's bits, or leaving one of them
 * clear so that every lower level may be taken whole). Exact when all levels are of one kind; mixed, the root's
 * queue across nodes plus the most within a node bound it. */
static double tree_hop(const hdring_model_t *m, double n, bool scatter, int k, int child)
{
    const int span = (1 << k) < m->p - child ? 1 << k : m->p - child;
    return transfer(link_tree(m, 1 << k), scatter ? n * span / m->p : n);
}

static double tree_time(const hdring_model_t *m, double n, bool scatter)
{
    const int levels = hdring_ceil_log2(m->p), last = m->p - 1;
    double whole_below[HDRING_MAX_LOG2_P + 2]; /* [k]: every local level under k, each hop a whole subtree */
    double queued = 0, path = 0, most = 0;

    whole_below[0] = 0;
    for (int k = 0; k < levels; ++k) {
        whole_below[k + 1] = whole_below[k] + (tree_level_local(m, 1 << k) ? tree_hop(m, n, scatter, k, 0) : 0);
    }
    for (int k = levels - 1; k >= 0; --k) {
        if (!tree_level_local(m, 1 << k)) {
            queued += tree_hop(m, n, scatter, k, 1 << k);
        }
        if (last >> k & 1) {
            most = max2(most, path + whole_below[k]);
            path += tree_level_local(m, 1 << k) ? tree_hop(m, n, scatter, k, last >> k << k) : 0;
        }
    }
    return queued + max2(most, path);
}

double hdring_cost_bcast_binomial(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    (void) self, (void) phase;
    return tree_time(m, n, false);
}

/* The binary tree's messages to its last rank when a rank's sends queue on its port: rank 2^d - 1 + i of level d
 * gets the message after d messages and one more per set bit of i (a turn to the second child). Every level above
 * the last, L = floor(log2 p), ends in 2d; the last holds i = 0 .. p - 2^L, whose most set bits are those of
 * p - 2^L or one fewer than its bit length. */
static int binary_tree_messages(int p)
{
    if (p < 2) {
        return 0;
    }
    const int levels = hdring_floor_log2(p), last = p - (1 << levels);
    const int bits = __builtin_popcount((unsigned) last), below = 0 == last ? 0 : hdring_floor_log2(last);
    const int last_level = levels + (bits > below ? bits : below);
    return last_level > 2 * (levels - 1) ? last_level : 2 * (levels - 1);
}

/* Level d of the binary tree: min(2^d, p - 2^d + 1) receivers. */
static int binary_tree_receivers(int p, int d)
{
    const int width = 1 << d;
    return p - width + 1 < width ? p - width + 1 : width;
}

/* The most receivers of one level: the ranks working at once. */
static int binary_tree_widest(int p)
{
    int widest = 0;
    for (int d = 1; d <= hdring_floor_log2(p); ++d) {
        const int receivers = binary_tree_receivers(p, d);
        widest = receivers > widest ? receivers : widest;
    }
    return widest;
}

/* The binary tree within a node, where a rank's two sends overlap: one message per level, level d's receivers
 * copying at once. */
static double binary_tree_levels(const hdring_model_t *m, double n)
{
    double t = 0;
    for (int d = 1; d <= hdring_floor_log2(m->p); ++d) {
        t += transfer(local_link(m, binary_tree_receivers(m->p, d)), n);
    }
    return t;
}

/* The binary tree. Within a node a message over the eager limit is copied in by its receiver, so a rank's sends
 * overlap (exact); an eager one is copied out by its sender, the two one after another, as across nodes, where a
 * rank's sends queue on its port: exact with one rank per node (link_among is then link_tree's), an upper bound
 * within a node (all its ranks crowding its cores) and on nodes of several ranks, where the tree's levels do not
 * follow node boundaries and every message is priced as crossing. */
double hdring_cost_bcast_binary(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    (void) self, (void) phase;
    if (sends_overlap(m) && !sender_copies(m, n)) {
        return binary_tree_levels(m, n);
    }
    return binary_tree_messages(m->p) * transfer(link_among(m, binary_tree_widest(m->p)), n);
}

/* The flat tree's copies to `receivers` ranks of the root's node. A message the PML sends eagerly is copied out by
 * its sender, so the root's copies follow one another (where a binomial tree shares them out); a larger one waits
 * for its receiver to copy it in, so the receivers of each of the root's exchanges (hdring_flat_batches, shared
 * out evenly: `extra` of them one larger) copy at once, sharing the node's cores. crowding() spreads the ranks it
 * is given over the nodes: these are all on one. */
static double flat_copies(const hdring_model_t *m, int receivers, double n)
{
    const int nodes = m->shape.nodes > 0 ? m->shape.nodes : 1, batches = hdring_flat_batches(receivers);
    if (sender_copies(m, n)) {
        return receivers * transfer(local_link(m, nodes), n);
    }
    if (0 == batches) {
        return 0;
    }
    const int each = receivers / batches, extra = receivers % batches;
    return (batches - extra) * transfer(local_link(m, each * nodes), n) +
           extra * transfer(local_link(m, (each + 1) * nodes), n);
}

/* The flat tree: its copies within the root's node; across nodes the root's sends to the ranks off its node queue
 * on its port, the copies overlapping with them. */
double hdring_cost_bcast_flat(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    (void) self, (void) phase;
    if (1 == m->shape.nodes) {
        return flat_copies(m, m->p - 1, n);
    }
    const int off_node = m->p - ranks_per_node(m);
    return max2(flat_copies(m, ranks_per_node(m) - 1, n), off_node * transfer(network_link(m, 1, 1), n));
}

double hdring_cost_bcast_scatter_ring(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    return tree_time(m, n, true) + hdring_cost_allgather_ring(self, m, n, phase);
}

/* the allgather runs on the scatter's blocks, in rank order from the root */
double hdring_cost_bcast_scatter_rhd(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    (void) self, (void) phase;
    return tree_time(m, n, true) + allgather_rhd_time(m, n, HDRING_RHD_DISTANCE_HALVING, false);
}

/* ---- pipelines ----
 * A chain of p ranks in locality order from the root: p-1 links, one per node boundary across nodes when ranks
 * are grouped by node (with the root first on its node), every one otherwise. A segment of s bytes takes
 * t_e = alpha_e + s beta_e on link e; a rank passes one segment on while it receives the next, so segments leave
 * the chain at the pace of its slowest link: k segments take sum_e t_e + (k - 1) max_e t_e. At most k links
 * carry a segment at once, so min(k, p-1) ranks share the cores (crowding). A segment size that does not divide
 * n is priced as its k = ceil(n / size) segments made equal, of n / k (exact when it divides). */
typedef struct chain {
    link_t local, net;
    int nlocal, nnet; /* links of each kind */
} chain_t;

/* The chain's links when k segments flow down it. */
static chain_t chain_links(const hdring_model_t *m, double k)
{
    const int busy = k < m->p - 1 ? (int) k : m->p - 1;
    chain_t c = {local_link(m, busy), link_next(m), m->p - 1, 0};
    if (m->shape.nodes > 1) {
        c.nnet = grouped(m) ? m->shape.nodes - 1 : m->p - 1;
        c.nlocal = m->p - 1 - c.nnet;
    }
    return c;
}

static double chain_time(const hdring_model_t *m, double n, double segment)
{
    if (n <= 0) {
        return 0;
    }
    const double k = segment > 0 && segment < n ? ceil(n / segment) : 1, s = n / k;
    const chain_t c = chain_links(m, k);
    const double t_local = c.nlocal > 0 ? transfer(c.local, s) : 0, t_net = c.nnet > 0 ? transfer(c.net, s) : 0;
    return c.nlocal * t_local + c.nnet * t_net + (k - 1) * max2(t_local, t_net);
}

/* m->segment, or the segment size of the number of segments k minimising the chain's time: with the slowest
 * link's alpha_m and beta_m and the links' betas summing to B, the time is const + k alpha_m + n (B - beta_m) / k,
 * least at k = sqrt(n (B - beta_m) / alpha_m). Either kind of link may be the slowest, and the links are those of
 * few segments (uncrowded) or of many (crowded): the four candidates, the eager limit, the segment whose bytes
 * take as long as a shared machine's cores take for its latencies (port_time) and one segment are tried, whole
 * bytes. */
/* The chain in k and in k + 1 segments of whole bytes (fewer than one: n whole), against the best so far. */
static void chain_counts(const hdring_model_t *m, double n, double k, double *best, double *best_time)
{
    for (double kk = k; kk <= k + 1; ++kk) {
        const double segment = kk >= 1 ? ceil(n / kk) : n;
        consider(segment, chain_time(m, n, segment), best, best_time);
    }
}

double hdring_segment_bcast_chain(const hdring_model_t *m, double n)
{
    if (m->segment > 0) {
        return m->segment;
    }
    double best = n, best_time = chain_time(m, n, n);
    const double segment_counts[2] = {1, m->p}; /* few segments: uncrowded links; many: crowded */
    for (int j = 0; j < 2; ++j) {
        const chain_t c = chain_links(m, segment_counts[j]);
        const link_t *kinds[2] = {&c.local, &c.net};
        const double sum_beta = c.nlocal * c.local.beta + c.nnet * c.net.beta;
        for (int i = 0; i < 2; ++i) {
            if (kinds[i]->alpha <= 0 || sum_beta <= kinds[i]->beta) {
                continue;
            }
            chain_counts(m, n, floor(sqrt(n * (sum_beta - kinds[i]->beta) / kinds[i]->alpha)), &best, &best_time);
            if (kinds[i]->eager > 0 && kinds[i]->eager < n) {
                consider(kinds[i]->eager, chain_time(m, n, kinds[i]->eager), &best, &best_time);
            }
            if (kinds[i]->crowd > 1 && kinds[i]->beta > 0) { /* bytes as long as a shared machine's latencies */
                chain_counts(m, n, floor(n * kinds[i]->beta / ((kinds[i]->crowd - 1) * kinds[i]->alpha)), &best,
                             &best_time);
            }
        }
    }
    return best;
}

double hdring_cost_bcast_chain(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    (void) self, (void) phase;
    return chain_time(m, n, hdring_segment_bcast_chain(m, n));
}

/* The double binary tree: each half of the message in k segments of s = n/(2k) bytes down its tree, the last
 * segment reaching the deepest rank after `depth` levels. Across nodes every rank with children sends two segments
 * per round on its port, and a segment takes two messages per level; on the simulator the kernel's greedy order
 * (each rank takes a lane's segment t at step t + its depth there) keeps 2 to 2.6 messages per round: the model
 * charges 2.5, (2 depth + 2.5 (k - 1))(alpha + s beta). Within a node a rank's sends overlap and its receive port
 * takes the two lanes' segments: 2 messages per round and one per level, where the simulator takes depth + 2 (k - 1)
 * to 2 messages more (a lane's segment queues behind the other's): the model charges half a message more,
 * (depth + 0.5 + 2 (k - 1))(alpha + s beta). Within 0.7-1.35 of the simulator for p up to 256 (test_cost).
 * Links: every rank's messages may cross its node's link, shared by the node's ranks. On 2 ranks one lane carries
 * the whole message. */
typedef struct double_tree_pace {
    double per_level, queued, per_round; /* messages */
} double_tree_pace_t;

static double_tree_pace_t double_tree_pace(const hdring_model_t *m)
{
    const double_tree_pace_t within = {1, 0.5, 2}, across = {2, 0, 2.5};
    return sends_overlap(m) ? within : across;
}

static double double_tree_depth(const hdring_model_t *m) { return hdring_floor_log2(m->p > 1 ? m->p - 1 : 1) + 1; }

static double double_tree_time(const hdring_model_t *m, double n, double segment)
{
    if (n <= 0 || m->p < 2) {
        return 0;
    }
    if (2 == m->p) { /* both trees are 0 -> 1: the whole message in segments down one link */
        const double k = segment > 0 && segment < n ? ceil(n / segment) : 1;
        return k * transfer(link_any(m), n / k);
    }
    const double_tree_pace_t pace = double_tree_pace(m);
    const double half = n / 2, k = segment > 0 && segment < half ? ceil(half / segment) : 1;
    return (pace.per_level * double_tree_depth(m) + pace.queued + pace.per_round * (k - 1)) *
           transfer(link_any(m), half / k);
}

/* m->segment, or the segment size of the k minimising (c + r k)(alpha + B/k), c = l depth + q - r for the pace's
 * messages per level l, queued q and per round r, B = n beta / 2: k = sqrt(c B / (r alpha)); whole numbers around
 * it and one segment are tried, whole bytes. */
double hdring_segment_bcast_double_tree(const hdring_model_t *m, double n)
{
    if (m->segment > 0) {
        return m->segment;
    }
    const link_t lk = link_any(m);
    const double_tree_pace_t pace = double_tree_pace(m);
    const double half = n / 2, c = pace.per_level * double_tree_depth(m) + pace.queued - pace.per_round;
    double best = ceil(half), best_time = double_tree_time(m, n, best);
    if (lk.alpha > 0 && c > 0) {
        const double k = floor(sqrt(c * half * lk.beta / (pace.per_round * lk.alpha)));
        for (double kk = k; kk <= k + 1; ++kk) {
            const double segment = kk >= 1 ? ceil(half / kk) : ceil(half);
            consider(segment, double_tree_time(m, n, segment), &best, &best_time);
        }
    }
    if (lk.eager > 0 && lk.eager < half) {
        consider(lk.eager, double_tree_time(m, n, lk.eager), &best, &best_time);
    }
    return best;
}

double hdring_cost_bcast_double_tree(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    (void) self, (void) phase;
    return double_tree_time(m, n, hdring_segment_bcast_double_tree(m, n));
}

/* ---- hierarchical ---- */

/* The sub-models of a grid of N nodes x L ranks: one node (L ranks, local links) and one index group (N ranks,
 * one per node, each node's link shared by `flows` groups). */
static hdring_model_t node_model(const hdring_model_t *m)
{
    hdring_model_t sub = *m;
    sub.p = m->shape.ppn;
    sub.ordered = false;
    sub.shape = hdring_shape_single(sub.p);
    sub.shape.cores = m->shape.cores;
    return sub;
}

static hdring_model_t index_model(const hdring_model_t *m, int concurrent)
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

/* The flat algorithm of a collective the model picks on a sub-model (hdring_cost_pick); its time in *t. */
static hdring_alg_t fastest_flat(hdring_coll_t coll, const hdring_model_t *m, double n, double *t)
{
    hdring_alg_t algs[HDRING_NALGS];
    double times[HDRING_NALGS];
    const int nalgs = hdring_algorithms_of(coll, algs);
    for (int a = 0; a < nalgs; ++a) {
        times[a] = HDRING_ALG_NONE == hdring_algorithm(algs[a])->inner ? hdring_cost_time(algs[a], m, n, NULL) : -1;
    }
    const int best = hdring_cost_pick(times, nalgs);
    *t = times[best];
    return algs[best];
}

/* A local copy of n bytes (regrid), every rank at once: at the local link's speed. */
static double copy_time(const hdring_model_t *m, double n) { return n * local_link(m, m->p).beta; }

/* The phases of a hierarchical allreduce, reduce_scatter or allgather move their blocks whole (hdring_hier.c). */
static hdring_model_t whole(hdring_model_t sub)
{
    sub.segment = HUGE_VAL;
    return sub;
}

double hdring_cost_allreduce_hier(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    const hdring_model_t node = whole(node_model(m)), across = whole(index_model(m, m->shape.ppn));
    double first, last;
    phase[HDRING_PHASE_INTRA_FIRST] = fastest_flat(HDRING_COLL_REDUCE_SCATTER, &node, n, &first);
    phase[HDRING_PHASE_INTER] = hdring_algorithm(self)->inner;
    phase[HDRING_PHASE_INTRA_LAST] = fastest_flat(HDRING_COLL_ALLGATHER, &node, n, &last);
    return first + hdring_cost_time(phase[HDRING_PHASE_INTER], &across, n / m->shape.ppn, NULL) + last;
}

double hdring_cost_reduce_scatter_hier(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    const hdring_model_t node = whole(node_model(m)), across = whole(index_model(m, m->shape.ppn));
    double first;
    phase[HDRING_PHASE_INTRA_FIRST] = fastest_flat(HDRING_COLL_REDUCE_SCATTER, &node, n, &first);
    phase[HDRING_PHASE_INTER] = hdring_algorithm(self)->inner;
    phase[HDRING_PHASE_INTRA_LAST] = HDRING_ALG_NONE;
    return (m->shape.index_major ? 0 : copy_time(m, n)) + first +
           hdring_cost_time(phase[HDRING_PHASE_INTER], &across, n / m->shape.ppn, NULL);
}

double hdring_cost_allgather_hier(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    const hdring_model_t node = whole(node_model(m)), across = whole(index_model(m, m->shape.ppn));
    double last;
    phase[HDRING_PHASE_INTRA_FIRST] = HDRING_ALG_NONE;
    phase[HDRING_PHASE_INTER] = hdring_algorithm(self)->inner;
    phase[HDRING_PHASE_INTRA_LAST] = fastest_flat(HDRING_COLL_ALLGATHER, &node, n, &last);
    return hdring_cost_time(phase[HDRING_PHASE_INTER], &across, n / m->shape.ppn, NULL) + last +
           (m->shape.index_major ? 0 : copy_time(m, n));
}

double hdring_cost_bcast_hier(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    const hdring_model_t node = node_model(m), across = index_model(m, 1);
    double last;
    phase[HDRING_PHASE_INTRA_FIRST] = HDRING_ALG_NONE;
    phase[HDRING_PHASE_INTER] = hdring_algorithm(self)->inner;
    phase[HDRING_PHASE_INTRA_LAST] = fastest_flat(HDRING_COLL_BCAST, &node, n, &last);
    return hdring_cost_time(phase[HDRING_PHASE_INTER], &across, n, NULL) + last;
}

bool hdring_cost_applies(hdring_alg_t alg, const hdring_model_t *m)
{
    const hdring_algorithm_t *row = hdring_algorithm(alg);
    if (NULL == row || (m->ordered && !row->keeps_order)) {
        return false;
    }
    return HDRING_ALG_NONE == row->inner || (m->shape.nodes > 1 && m->shape.ppn > 1);
}

hdring_cost_params_t hdring_cost_params_of(double latency_us, double bandwidth_mbs, double reduce_mbs)
{
    hdring_cost_params_t c = {latency_us * 1e-6, 1.0 / (bandwidth_mbs * 1e6), 1.0 / (reduce_mbs * 1e6),
                              1.0 / (bandwidth_mbs * 1e6), 0};
    return c;
}

hdring_model_t hdring_model_single(int p, bool ordered, const hdring_cost_params_t *c)
{
    hdring_model_t m = {p, ordered, hdring_shape_single(p), 1, *c, *c, 0};
    return m;
}

hdring_model_t hdring_model_of(int p, bool ordered, const hdring_shape_t *shape, const hdring_model_units_t *u)
{
    const hdring_cost_params_t local = hdring_cost_params_of(u->latency_us, u->bandwidth_mbs, u->reduce_mbs);
    hdring_model_t m = {p, ordered, *shape, 1, local,
                        hdring_cost_params_of(u->network_latency_us, u->network_bandwidth_mbs, u->reduce_mbs), 0};
    if (u->network_exchange_mbs > 0) {
        m.network.exchange = 1.0 / (u->network_exchange_mbs * 1e6);
    }
    m.local.eager = u->eager_bytes;
    m.network.eager = u->network_eager_bytes;
    return m;
}

double hdring_cost_time(hdring_alg_t alg, const hdring_model_t *m, double n, hdring_alg_t *phase)
{
    const hdring_algorithm_t *row = hdring_algorithm(alg);
    hdring_alg_t unused[HDRING_NPHASES];
    if (NULL == row) {
        return -1;
    }
    const double t = row->cost(alg, m, n, NULL == phase ? unused : phase); /* also chooses a hierarchy's phases */
    return m->p <= 1 ? 0 : t;
}

double hdring_cost_segment(hdring_alg_t alg, const hdring_model_t *m, double n, const hdring_alg_t *phase)
{
    const hdring_algorithm_t *row = hdring_algorithm(alg);
    if (NULL == row) {
        return 0;
    }
    if (NULL != row->segment) {
        return row->segment(m, n);
    }
    if (HDRING_COLL_BCAST == row->coll && HDRING_ALG_NONE != row->inner) {
        const hdring_model_t node = node_model(m), across = index_model(m, 1);
        const hdring_algorithm_t *last = hdring_algorithm(phase[HDRING_PHASE_INTRA_LAST]);
        const hdring_algorithm_t *inter = hdring_algorithm(phase[HDRING_PHASE_INTER]);
        if (NULL != last && NULL != last->segment) {
            return last->segment(&node, n);
        }
        if (NULL != inter && NULL != inter->segment) {
            return inter->segment(&across, n);
        }
    }
    return 0;
}

/* ---- volumes ---- */

static hdring_volume_t volume(double sent, double received, double reduced)
{
    hdring_volume_t v = {sent, received, reduced};
    return v;
}

static hdring_volume_t allreduce_volume(hdring_alg_t alg, const geometry_t *g, int rank, double n)
{
    const double p = g->p, q = g->pof2, rhd = 2 * (q - 1) / q * n, rhd_red = (q - 1) / q * n;
    hdring_fold_t f;
    hdring_fold_init(&f, g->p);
    const hdring_fold_role_t role = hdring_fold_role(&f, rank);

    switch (alg) {
    case HDRING_ALG_ALLREDUCE_RING:
        return volume(2 * (p - 1) / p * n, 2 * (p - 1) / p * n, (p - 1) / p * n);
    case HDRING_ALG_ALLREDUCE_RHD:
        switch (role) {
        case HDRING_FOLD_DROPPED:
            return volume(n, 1.5 * n, n / 2);
        case HDRING_FOLD_KEEPER:
            return volume(n / 2 + rhd + n, n + rhd, n / 2 + rhd_red);
        default:
            return volume(rhd, rhd, rhd_red);
        }
    case HDRING_ALG_ALLREDUCE_RECURSIVE_DOUBLING:
        switch (role) {
        case HDRING_FOLD_DROPPED:
            return volume(n, n, 0);
        case HDRING_FOLD_KEEPER:
            return volume((g->l + 1) * n, (g->l + 1) * n, (g->l + 1) * n);
        default:
            return volume(g->l * n, g->l * n, g->l * n);
        }
    default: { /* binary blocks */
        hdring_binblocks_t bb;
        int local;
        hdring_binblocks_init(&bb, g->p);
        const int b = hdring_binblocks_find(&bb, rank, &local);
        const double s = hdring_binblocks_size(&bb, b), pos = n / s, inner = (1 - 1 / s) * n;
        const double up = b > 0 ? pos : 0, down = b < bb.nblocks - 1 ? pos : 0;
        return volume(2 * inner + up + down, 2 * inner + up + down, inner + down);
    }
    }
}

hdring_volume_t hdring_cost_volume(hdring_alg_t alg, int p, int rank, double n)
{
    const geometry_t g = geometry(p);
    const double B = n / p;
    if (1 == p) {
        return volume(0, 0, 0);
    }
    switch (alg) {
    case HDRING_ALG_ALLREDUCE_RING:
    case HDRING_ALG_ALLREDUCE_RHD:
    case HDRING_ALG_ALLREDUCE_RECURSIVE_DOUBLING:
    case HDRING_ALG_ALLREDUCE_BINARY_BLOCKS:
        return allreduce_volume(alg, &g, rank, n);
    case HDRING_ALG_REDUCE_SCATTER_RING:
    case HDRING_ALG_REDUCE_SCATTER_BRUCK:
        return volume((p - 1) * B, (p - 1) * B, (p - 1) * B);
    case HDRING_ALG_REDUCE_SCATTER_RHD: /* commutative on a power of two: positions end at their owners */
    case HDRING_ALG_REDUCE_SCATTER_RECURSIVE_HALVING:
        return 0 == g.r ? volume(n - B, n - B, n - B) : volume(-1, -1, -1);
    case HDRING_ALG_ALLGATHER_RING:
    case HDRING_ALG_ALLGATHER_BRUCK:
        return volume(n - B, n - B, 0);
    case HDRING_ALG_ALLGATHER_RHD:
        return 0 == g.r ? volume(n - B, n - B, 0) : volume(-1, -1, -1);
    case HDRING_ALG_BCAST_FLAT: /* from root 0 */
        return volume(0 == rank ? (p - 1) * n : 0, 0 == rank ? 0 : n, 0);
    case HDRING_ALG_BCAST_CHAIN: /* from root 0 */
        return volume(rank < p - 1 ? n : 0, rank > 0 ? n : 0, 0);
    case HDRING_ALG_BCAST_DOUBLE_TREE: { /* from root 0: each half once to every rank, on to its children */
        if (2 == p) {
            return volume(0 == rank ? n : 0, 0 == rank ? 0 : n, 0);
        }
        const hdring_tree_t a = hdring_tree_double(p, rank, 0), b = hdring_tree_double(p, rank, 1);
        return volume((a.nchildren + b.nchildren) * n / 2, rank > 0 ? n : 0, 0);
    }
    default:
        return volume(-1, -1, -1);
    }
}

double hdring_cost_link_bytes(hdring_alg_t alg, const hdring_model_t *m, int node, double n)
{
    const hdring_algorithm_t *row = hdring_algorithm(alg);
    if (NULL == row || m->shape.nodes < 2 || m->shape.ppn < 1 || !grouped(m)) {
        return -1;
    }
    if (HDRING_ALG_NONE != row->inner) { /* the node's ranks each carry 1/L of the index groups' vector */
        return hdring_cost_volume(row->inner, m->shape.nodes, node, n).sent;
    }
    switch (alg) { /* one rank of each node sends across: the ring's per-rank volume */
    case HDRING_ALG_ALLREDUCE_RING:
    case HDRING_ALG_REDUCE_SCATTER_RING:
    case HDRING_ALG_ALLGATHER_RING:
        return hdring_cost_volume(alg, m->p, 0, n).sent;
    default:
        return -1;
    }
}

size_t hdring_cost_pieces_bytes(const hdring_shape_t *shape, hdring_coll_t coll, size_t configured)
{
    if (!hdring_shape_crowded(shape)) {
        return 0;
    }
    const size_t two_pieces = 2 * HDRING_PML_INLINE_BYTES;
    const bool a_core_alone = shape->ppn_max < 2 * shape->cores;
    return HDRING_COLL_ALLREDUCE == coll && a_core_alone && configured > two_pieces ? two_pieces : configured;
}
