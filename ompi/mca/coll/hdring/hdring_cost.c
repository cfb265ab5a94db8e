/* hdring cost model: see hdring_cost.h. Notation: p' = 2^floor(log2 p), l = log2 p', r = p - p',
 * L = ceil(log2 p), B = n/p. */
#include "hdring_cost.h"

#include <stdint.h>

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

/* The sizes of the p' fine positions an RHD or binary-block schedule works on: `pairs` positions of two
 * units, then single units. Balanced positions have no pairs (unit n/p'); an allgather's whole-block
 * positions have r pairs of blocks (unit n/p). Schedules move aligned runs of positions, the first run of w
 * positions being the largest. */
typedef struct position_sizes {
    double unit;
    int pairs;
} position_sizes_t;

static double run_bytes(const position_sizes_t *s, int w) { return s->unit * (w + (s->pairs < w ? s->pairs : w)); }

/* Recursive halving over `npos` positions, `steps` steps: step k moves (and, with gamma, reduces) a run of
 * npos/2^(k+1) of them. With gamma 0 it is also the recursive-doubling allgather, steps reversed. The rank
 * holding the first run moves the largest at every step and its partners are never later: exact. */
static double halving(const position_sizes_t *s, int npos, int steps, const hdring_cost_params_t *c, double gamma)
{
    double t = 0;
    for (int k = 0; k < steps; ++k) {
        t += c->alpha + run_bytes(s, npos >> (k + 1)) * (c->beta + gamma);
    }
    return t;
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

static void bb_reduce_phase(const hdring_binblocks_t *bb, const position_sizes_t *fine, const hdring_cost_params_t *c,
                            bb_phases_t *out)
{
    const int m = bb->nblocks, s0 = hdring_binblocks_size(bb, 0);
    double rs[HDRING_MAX_LOG2_P + 1], post = 0;

    for (int b = 0; b < m; ++b) {
        rs[b] = halving(fine, s0, bb->log2_size[b], c, c->gamma);
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
        const double last = post + (ratio - 1) * (c->alpha + piece * c->beta);
        out->ready[b] = max2(last, rs[b - 1]) + c->alpha + piece * c->beta;
        /* block b-1 receives its piece and reduces it in, then posts its own hand-up */
        post = max2(rs[b - 1], last) + c->alpha + piece * c->beta + piece * c->gamma;
    }
    out->red0 = post;
}

/* When block b (b >= 1) has received its position from block b-1, whose ranks send once `sender_ready`: the
 * last piece leaves after that, and all 2^(k(b-1)-kb) pieces queue on the receiving port after `ready`. */
static double bb_hand_down(const hdring_binblocks_t *bb, int b, const position_sizes_t *fine, double sender_ready,
                           double ready, const hdring_cost_params_t *c)
{
    const int s0 = hdring_binblocks_size(bb, 0);
    const int ratio = 1 << (bb->log2_size[b - 1] - bb->log2_size[b]);
    const double last = sender_ready + c->alpha + run_bytes(fine, s0 >> bb->log2_size[b - 1]) * c->beta;
    const double queued = ready + ratio * c->alpha + run_bytes(fine, s0 >> bb->log2_size[b]) * c->beta;
    return max2(last, queued);
}

static double bb_broadcast_phase(const hdring_binblocks_t *bb, const position_sizes_t *fine,
                                 const hdring_cost_params_t *c, const bb_phases_t *ph)
{
    const int m = bb->nblocks, s0 = hdring_binblocks_size(bb, 0);
    double arrival = ph->red0, finish = 0;

    for (int b = 0; b < m; ++b) {
        if (b > 0) {
            arrival = bb_hand_down(bb, b, fine, arrival, ph->ready[b], c);
        }
        /* the block allgathers after its hand-down completes, i.e. when the next block's arrival is known */
        const double handed = b < m - 1 ? bb_hand_down(bb, b + 1, fine, arrival, ph->ready[b + 1], c) : arrival;
        finish = max2(finish, handed + halving(fine, s0, bb->log2_size[b], c, 0));
    }
    return finish;
}

/* ---- per collective ---- */

double hdring_cost_allreduce_ring(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    (void) ordered;
    return 2 * (p - 1) * c->alpha + 2.0 * (p - 1) / p * n * c->beta + (p - 1.0) / p * n * c->gamma;
}

double hdring_cost_allreduce_rhd(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    const geometry_t g = geometry(p);
    const double a = c->alpha, be = c->beta, ga = c->gamma, q = g.pof2;
    (void) ordered;
    return 2 * g.l * a + 2 * (q - 1) / q * n * be + (q - 1) / q * n * ga +
           (g.r > 0 ? 3 * a + 2 * n * be + n / 2 * ga : 0);
}

double hdring_cost_allreduce_recursive_doubling(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    const geometry_t g = geometry(p);
    (void) ordered;
    return g.l * (c->alpha + n * c->beta + n * c->gamma) +
           (g.r > 0 ? 2 * c->alpha + 2 * n * c->beta + n * c->gamma : 0);
}

double hdring_cost_allreduce_binary_blocks(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    hdring_binblocks_t bb;
    bb_phases_t ph;
    (void) ordered;
    hdring_binblocks_init(&bb, p);
    const position_sizes_t fine = {n / hdring_binblocks_size(&bb, 0), 0};
    bb_reduce_phase(&bb, &fine, c, &ph);
    return bb_broadcast_phase(&bb, &fine, c, &ph);
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

static uint64_t position_start(const positions_model_t *m, int j)
{
    const uint64_t p = (uint64_t) m->g->p, q = (uint64_t) m->g->pof2;
    if (j >= m->g->pof2) {
        return p * q;
    }
    return m->whole_blocks ? (uint64_t) hdring_fold_group_first(&m->fold, j) * q : (uint64_t) j * p;
}

static int position_holder(const positions_model_t *m, int j)
{
    const int v = hdring_rhd_position_holder(m->order, m->g->l, j);
    return HELD_BY_BLOCK0 == m->holders ? v : hdring_fold_survivor(&m->fold, v);
}

/* Deliver (and its reverse, collect): every piece where a position and a block overlap moves unless the
 * position's holder owns the block. Bounded by the busiest port, a rank's sends and receives overlapping. A
 * rank holds one position and owns one block, so one walk over the overlaps sums both. */
static double layout_time(holders_t holders, hdring_rhd_order_t order, bool whole_blocks, const geometry_t *g,
                          double n, const hdring_cost_params_t *c)
{
    positions_model_t m = {g, {0}, holders, order, whole_blocks};
    const uint64_t block_units = (uint64_t) g->pof2;
    const double unit = n / ((double) g->p * g->pof2);
    double sends = 0, receives = 0, busiest = 0;

    hdring_fold_init(&m.fold, g->p);
    for (int j = 0, b = 0; j < g->pof2 && b < g->p;) {
        const uint64_t pos_begin = position_start(&m, j), pos_end = position_start(&m, j + 1);
        const uint64_t block_begin = (uint64_t) b * block_units, block_end = block_begin + block_units;
        const uint64_t from = pos_begin > block_begin ? pos_begin : block_begin;
        const uint64_t to = pos_end < block_end ? pos_end : block_end;
        if (to > from && position_holder(&m, j) != b) {
            const double t = c->alpha + (double) (to - from) * unit * c->beta;
            sends += t;
            receives += t;
        }
        if (pos_end <= block_end) {
            busiest = max2(busiest, sends);
            sends = 0;
            ++j;
        }
        if (block_end <= pos_end) {
            busiest = max2(busiest, receives);
            receives = 0;
            ++b;
        }
    }
    return busiest;
}

double hdring_cost_reduce_scatter_ring(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    (void) ordered;
    return (p - 1) * (c->alpha + n / p * (c->beta + c->gamma));
}

/* The fold of a reduce-scatter onto p' survivors (split form), 0 on powers of two. */
static double fold_time(const geometry_t *g, double n, const hdring_cost_params_t *c)
{
    return g->r > 0 ? 2 * c->alpha + n * c->beta + n / 2 * c->gamma : 0;
}

double hdring_cost_reduce_scatter_rhd(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    const geometry_t g = geometry(p);
    const position_sizes_t even = {n / g.pof2, 0};
    const hdring_rhd_order_t order = ordered ? HDRING_RHD_DISTANCE_DOUBLING : HDRING_RHD_DISTANCE_HALVING;
    return fold_time(&g, n, c) + halving(&even, g.pof2, g.l, c, c->gamma) +
           layout_time(HELD_BY_SURVIVORS, order, false, &g, n, c);
}

double hdring_cost_reduce_scatter_binary_blocks(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    const geometry_t g = geometry(p);
    const position_sizes_t even = {n / g.pof2, 0};
    hdring_binblocks_t bb;
    bb_phases_t ph;
    (void) ordered;
    hdring_binblocks_init(&bb, p);
    bb_reduce_phase(&bb, &even, c, &ph);
    return ph.red0 + layout_time(HELD_BY_BLOCK0, HDRING_RHD_DISTANCE_DOUBLING, false, &g, n, c);
}

double hdring_cost_allgather_ring(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    (void) ordered;
    return (p - 1) * (c->alpha + n / p * c->beta);
}

/* collect, allgather among the survivors, unfold */
double hdring_cost_allgather_rhd(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    const geometry_t g = geometry(p);
    const position_sizes_t whole_blocks = {n / g.p, g.r};
    (void) ordered;
    return layout_time(HELD_BY_SURVIVORS, HDRING_RHD_DISTANCE_HALVING, true, &g, n, c) +
           halving(&whole_blocks, g.pof2, g.l, c, 0) + (g.r > 0 ? c->alpha + n * c->beta : 0);
}

double hdring_cost_allgather_binary_blocks(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    const geometry_t g = geometry(p);
    const position_sizes_t whole_blocks = {n / g.p, g.r};
    hdring_binblocks_t bb;
    bb_phases_t ph;
    (void) ordered;
    hdring_binblocks_init(&bb, p);
    ph.red0 = layout_time(HELD_BY_BLOCK0, HDRING_RHD_DISTANCE_DOUBLING, true, &g, n, c);
    for (int b = 1; b < bb.nblocks; ++b) {
        ph.ready[b] = ph.red0;
    }
    return bb_broadcast_phase(&bb, &whole_blocks, c, &ph);
}

/* the binomial scatter of bcast's scatter algorithms */
static double scatter_time(int p, double n, const hdring_cost_params_t *c)
{
    return hdring_ceil_log2(p) * c->alpha + (p - 1.0) / p * n * c->beta;
}

double hdring_cost_bcast_binomial(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    (void) ordered;
    return hdring_ceil_log2(p) * (c->alpha + n * c->beta);
}

double hdring_cost_bcast_scatter_ring(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    return scatter_time(p, n, c) + hdring_cost_allgather_ring(p, n, ordered, c);
}

double hdring_cost_bcast_scatter_rhd(int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    return scatter_time(p, n, c) + hdring_cost_allgather_rhd(p, n, ordered, c);
}

hdring_cost_params_t hdring_cost_params_of(double latency_us, double bandwidth_mbs, double reduce_mbs)
{
    hdring_cost_params_t c = {latency_us * 1e-6, 1.0 / (bandwidth_mbs * 1e6), 1.0 / (reduce_mbs * 1e6)};
    return c;
}

double hdring_cost_time(hdring_alg_t alg, int p, double n, bool ordered, const hdring_cost_params_t *c)
{
    const hdring_algorithm_t *row = hdring_algorithm(alg);
    if (NULL == row) {
        return -1;
    }
    return p <= 1 ? 0 : row->cost(p, n, ordered, c);
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
        return volume((p - 1) * B, (p - 1) * B, (p - 1) * B);
    case HDRING_ALG_REDUCE_SCATTER_RHD: /* commutative on a power of two: positions end at their owners */
        return 0 == g.r ? volume(n - B, n - B, n - B) : volume(-1, -1, -1);
    case HDRING_ALG_ALLGATHER_RING:
        return volume(n - B, n - B, 0);
    case HDRING_ALG_ALLGATHER_RHD:
        return 0 == g.r ? volume(n - B, n - B, 0) : volume(-1, -1, -1);
    default:
        return volume(-1, -1, -1);
    }
}
