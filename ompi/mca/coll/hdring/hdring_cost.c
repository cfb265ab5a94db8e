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

static double allreduce_time(hdring_alg_t alg, const geometry_t *g, double n, const hdring_cost_params_t *c)
{
    const double a = c->alpha, be = c->beta, ga = c->gamma, p = g->p, q = g->pof2;
    const bool fold = g->r > 0;

    switch (alg) {
    case HDRING_ALG_RING:
        return 2 * (p - 1) * a + 2 * (p - 1) / p * n * be + (p - 1) / p * n * ga;
    case HDRING_ALG_RHD:
        return 2 * g->l * a + 2 * (q - 1) / q * n * be + (q - 1) / q * n * ga +
               (fold ? 3 * a + 2 * n * be + n / 2 * ga : 0);
    case HDRING_ALG_RECURSIVE_DOUBLING:
        return g->l * (a + n * be + n * ga) + (fold ? 2 * a + 2 * n * be + n * ga : 0);
    case HDRING_ALG_BINARY_BLOCKS: {
        hdring_binblocks_t bb;
        bb_phases_t ph;
        hdring_binblocks_init(&bb, g->p);
        const position_sizes_t fine = {n / hdring_binblocks_size(&bb, 0), 0};
        bb_reduce_phase(&bb, &fine, c, &ph);
        return bb_broadcast_phase(&bb, &fine, c, &ph);
    }
    default:
        return -1;
    }
}

/* Where a reduce_scatter's result or an allgather's input sits between the collective's core and the ranks
 * owning it: q = p' positions over p equal blocks, position j held by one rank (hdring_algorithms.c).
 * Boundaries are counted in units of n/(p q) bytes, so every overlap is an exact integer. */
typedef struct positions_model {
    const geometry_t *g;
    hdring_fold_t fold;
    hdring_alg_t alg;
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
    return HDRING_ALG_BINARY_BLOCKS == m->alg ? v : hdring_fold_survivor(&m->fold, v);
}

/* Deliver (and its reverse, collect): every piece where a position and a block overlap moves unless the
 * position's holder owns the block. Bounded by the busiest port, a rank's sends and receives overlapping. A
 * rank holds one position and owns one block, so one walk over the overlaps sums both. */
static double layout_time(hdring_alg_t alg, hdring_rhd_order_t order, bool whole_blocks, const geometry_t *g,
                          double n, const hdring_cost_params_t *c)
{
    positions_model_t m = {g, {0}, alg, order, whole_blocks};
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

static double reduce_scatter_time(hdring_alg_t alg, const geometry_t *g, double n, bool ordered,
                                  const hdring_cost_params_t *c)
{
    const position_sizes_t even = {n / g->pof2, 0};
    const double fold = g->r > 0 ? 2 * c->alpha + n * c->beta + n / 2 * c->gamma : 0;

    switch (alg) {
    case HDRING_ALG_RING:
        return (g->p - 1) * (c->alpha + n / g->p * (c->beta + c->gamma));
    case HDRING_ALG_RHD: {
        const hdring_rhd_order_t order = ordered ? HDRING_RHD_DISTANCE_DOUBLING : HDRING_RHD_DISTANCE_HALVING;
        return fold + halving(&even, g->pof2, g->l, c, c->gamma) + layout_time(alg, order, false, g, n, c);
    }
    case HDRING_ALG_BINARY_BLOCKS: {
        hdring_binblocks_t bb;
        bb_phases_t ph;
        hdring_binblocks_init(&bb, g->p);
        bb_reduce_phase(&bb, &even, c, &ph);
        return ph.red0 + layout_time(alg, HDRING_RHD_DISTANCE_DOUBLING, false, g, n, c);
    }
    default:
        return -1;
    }
}

static double allgather_time(hdring_alg_t alg, const geometry_t *g, double n, const hdring_cost_params_t *c)
{
    const position_sizes_t whole_blocks = {n / g->p, g->r};

    switch (alg) {
    case HDRING_ALG_RING:
        return (g->p - 1) * (c->alpha + n / g->p * c->beta);
    case HDRING_ALG_RHD:
        return layout_time(alg, HDRING_RHD_DISTANCE_HALVING, true, g, n, c) +
               halving(&whole_blocks, g->pof2, g->l, c, 0) +
               (g->r > 0 ? c->alpha + n * c->beta : 0); /* collect, allgather, unfold */
    case HDRING_ALG_BINARY_BLOCKS: {
        hdring_binblocks_t bb;
        bb_phases_t ph;
        hdring_binblocks_init(&bb, g->p);
        ph.red0 = layout_time(alg, HDRING_RHD_DISTANCE_DOUBLING, true, g, n, c);
        for (int b = 1; b < bb.nblocks; ++b) {
            ph.ready[b] = ph.red0;
        }
        return bb_broadcast_phase(&bb, &whole_blocks, c, &ph);
    }
    default:
        return -1;
    }
}

static double bcast_time(hdring_alg_t alg, const geometry_t *g, double n, const hdring_cost_params_t *c)
{
    const double scatter = g->L * c->alpha + (g->p - 1.0) / g->p * n * c->beta;

    switch (alg) {
    case HDRING_ALG_BINOMIAL:
        return g->L * (c->alpha + n * c->beta);
    case HDRING_ALG_SCATTER_RING:
        return scatter + allgather_time(HDRING_ALG_RING, g, n, c);
    case HDRING_ALG_SCATTER_RHD:
        return scatter + allgather_time(HDRING_ALG_RHD, g, n, c);
    default:
        return -1;
    }
}

double hdring_cost_time(hdring_cost_coll_t coll, hdring_alg_t alg, int p, double n, bool ordered,
                        const hdring_cost_params_t *c)
{
    const geometry_t g = geometry(p);
    if (1 == p) {
        return 0;
    }
    switch (coll) {
    case HDRING_COST_ALLREDUCE:
        return allreduce_time(alg, &g, n, c);
    case HDRING_COST_REDUCE_SCATTER:
        return reduce_scatter_time(alg, &g, n, ordered, c);
    case HDRING_COST_ALLGATHER:
        return allgather_time(alg, &g, n, c);
    case HDRING_COST_BCAST:
        return bcast_time(alg, &g, n, c);
    default:
        return -1;
    }
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
    case HDRING_ALG_RING:
        return volume(2 * (p - 1) / p * n, 2 * (p - 1) / p * n, (p - 1) / p * n);
    case HDRING_ALG_RHD:
        switch (role) {
        case HDRING_FOLD_DROPPED:
            return volume(n, 1.5 * n, n / 2);
        case HDRING_FOLD_KEEPER:
            return volume(n / 2 + rhd + n, n + rhd, n / 2 + rhd_red);
        default:
            return volume(rhd, rhd, rhd_red);
        }
    case HDRING_ALG_RECURSIVE_DOUBLING:
        switch (role) {
        case HDRING_FOLD_DROPPED:
            return volume(n, n, 0);
        case HDRING_FOLD_KEEPER:
            return volume((g->l + 1) * n, (g->l + 1) * n, (g->l + 1) * n);
        default:
            return volume(g->l * n, g->l * n, g->l * n);
        }
    case HDRING_ALG_BINARY_BLOCKS: {
        hdring_binblocks_t bb;
        int local;
        hdring_binblocks_init(&bb, g->p);
        const int b = hdring_binblocks_find(&bb, rank, &local);
        const double s = hdring_binblocks_size(&bb, b), pos = n / s, inner = (1 - 1 / s) * n;
        const double up = b > 0 ? pos : 0, down = b < bb.nblocks - 1 ? pos : 0;
        return volume(2 * inner + up + down, 2 * inner + up + down, inner + down);
    }
    default:
        return volume(-1, -1, -1);
    }
}

hdring_volume_t hdring_cost_volume(hdring_cost_coll_t coll, hdring_alg_t alg, int p, int rank, double n)
{
    const geometry_t g = geometry(p);
    const double B = n / p;
    if (1 == p) {
        return volume(0, 0, 0);
    }
    switch (coll) {
    case HDRING_COST_ALLREDUCE:
        return allreduce_volume(alg, &g, rank, n);
    case HDRING_COST_REDUCE_SCATTER:
        if (HDRING_ALG_RING == alg) {
            return volume((p - 1) * B, (p - 1) * B, (p - 1) * B);
        }
        if (HDRING_ALG_RHD == alg && 0 == g.r) { /* commutative: positions end at their owners */
            return volume(n - B, n - B, n - B);
        }
        break;
    case HDRING_COST_ALLGATHER:
        if (HDRING_ALG_RING == alg || (HDRING_ALG_RHD == alg && 0 == g.r)) {
            return volume(n - B, n - B, 0);
        }
        break;
    default:
        break;
    }
    return volume(-1, -1, -1);
}

int hdring_cost_algorithms(hdring_cost_coll_t coll, hdring_alg_t *algs)
{
    switch (coll) {
    case HDRING_COST_ALLREDUCE:
        algs[0] = HDRING_ALG_RECURSIVE_DOUBLING;
        algs[1] = HDRING_ALG_RHD;
        algs[2] = HDRING_ALG_BINARY_BLOCKS;
        algs[3] = HDRING_ALG_RING;
        return 4;
    case HDRING_COST_REDUCE_SCATTER:
    case HDRING_COST_ALLGATHER:
        algs[0] = HDRING_ALG_RHD;
        algs[1] = HDRING_ALG_BINARY_BLOCKS;
        algs[2] = HDRING_ALG_RING;
        return 3;
    case HDRING_COST_BCAST:
        algs[0] = HDRING_ALG_BINOMIAL;
        algs[1] = HDRING_ALG_SCATTER_RHD;
        algs[2] = HDRING_ALG_SCATTER_RING;
        return 3;
    default:
        return 0;
    }
}

const char *hdring_cost_coll_name(hdring_cost_coll_t coll)
{
    static const char *const names[HDRING_COST_NCOLLS] = {"allreduce", "reduce_scatter", "allgather", "bcast"};
    return coll < HDRING_COST_NCOLLS ? names[coll] : "unknown";
}
