/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring cost model (hdring_cost.h): the reductions and gathers of vectors (allreduce, reduce_scatter, allgather),
 * the choice among algorithms, and the model's parameters. Links: hdring_cost_link.h; trees and pipelines:
 * hdring_cost_bcast.c; hierarchical algorithms: hdring_cost_hier.c; volumes: hdring_cost_volume.c. */
#include "hdring_cost_link.h"

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
 * for each c, the most units any port of c pieces carries. Those loads do not depend on n or the link: one
 * walk, O(p), gives them. (They are not kept between calls: the component builds a communicator's plans once, and
 * thread-local memory in a loaded library is allocated on its first use, which a process short of memory
 * cannot survive.) Links shared by several flows (share > 1) walk with the link itself. */
#define LAYOUT_MAX_PIECES 3

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

/* The loads of layout k (its walk at unit 1 on a link of its own). */
static void layout_loads(const layout_key_t *k, const geometry_t *g, layout_loads_t *loads)
{
    memset(loads, 0, sizeof(*loads));
    loads->key = *k;
    const link_t any = {0, 0, 1, 0, 1};
    layout_walk(k, g, any, 0, loads);
}

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
    layout_loads_t loads;
    layout_loads(&k, g, &loads);
    const int working = 2 * loads.moved < g->p ? 2 * loads.moved : g->p; /* a sender and a receiver per piece */
    const link_t lk = link_among(m, working);
    if (lk.share > 1 || loads.overflow) {
        return layout_walk(&k, g, lk, unit, NULL);
    }
    double busiest = 0;
    for (int c = 1; c <= LAYOUT_MAX_PIECES; ++c) {
        if (loads.most_units[c] > 0) {
            const double bytes = (double) loads.most_units[c] * unit;
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
double hdring_cost_allgather_rhd_time(const hdring_model_t *m, double n, hdring_rhd_order_t order, bool all_move)
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
    return hdring_cost_allgather_rhd_time(m, n, vector_order(m, HDRING_RHD_DISTANCE_HALVING), renumbered(m));
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
        const hdring_model_t node = hdring_cost_node_model(m), across = hdring_cost_index_model(m, 1);
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
