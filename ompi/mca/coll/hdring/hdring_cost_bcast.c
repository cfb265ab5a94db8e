/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring cost model (hdring_cost.h): bcast's trees (binomial, binary, flat), its scatters and its pipelines (chain,
 * double binary tree). */
#include "hdring_cost_link.h"

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
    return tree_time(m, n, true) + hdring_cost_allgather_rhd_time(m, n, HDRING_RHD_DISTANCE_HALVING, false);
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
