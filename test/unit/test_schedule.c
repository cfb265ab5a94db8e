/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * Recorded schedules (hdring_schedule.h). On virtual ranks (test/sim): every algorithm, recorded and replayed,
 * gives the results of running it directly, bit for bit, with the same messages, bytes and simulated time,
 * for p up to 33, counts 0 to hundreds, blocks of every shape, in place, operand order kept, segments, ranks in
 * locality order, and the hierarchical algorithms on grids of nodes. On one rank of a transport that moves
 * nothing: the record-or-run policy (when a schedule is recorded, when its key no longer matches, that an
 * over-long schedule is not kept) and that a replay hands the transport exactly the operations a direct run does.
 */
#include "unit_check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_schedule.h"
#include "sim_harness.h"

static const sim_cost_t cost = {1.0, 0.01, 0.003};

/* Runs `run` directly and replayed: both correct, with the same bits, messages, bytes and times. */
static void check_replay(run_t run, const char *what)
{
    run_result_t direct, replayed;
    run.replay = false;
    run_collective(&run, &direct, true);
    run.replay = true;
    run_collective(&run, &replayed, true);
    const char *alg = hdring_alg_name(run.alg), *coll = hdring_coll_name(hdring_algorithm(run.alg)->coll);
    ck_assert_msg(direct.ok, "%s %s p=%d %s: direct: %s", coll, alg, run.p, what, direct.why);
    ck_assert_msg(replayed.ok, "%s %s p=%d %s: replayed: %s", coll, alg, run.p, what, replayed.why);
    ck_assert_msg(direct.out_hash == replayed.out_hash, "%s %s p=%d %s: other bits replayed", coll, alg, run.p,
                  what);
    ck_assert_msg(direct.time == replayed.time, "%s %s p=%d %s: simulated time %g direct, %g replayed", coll, alg,
                  run.p, what, direct.time, replayed.time);
    for (int r = 0; r < run.p; ++r) {
        const sim_stats_t *a = &direct.stats[r], *b = &replayed.stats[r];
        ck_assert_msg(a->msgs_sent == b->msgs_sent && a->msgs_received == b->msgs_received &&
                          a->bytes_sent == b->bytes_sent && a->bytes_received == b->bytes_received &&
                          a->bytes_reduced == b->bytes_reduced && a->finish == b->finish,
                      "%s %s p=%d %s: rank %d moved or reduced other amounts replayed", coll, alg, run.p, what, r);
    }
    result_free(&direct);
    result_free(&replayed);
}

static const int ps[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 31, 33};
#define NPS ((int) (sizeof(ps) / sizeof(ps[0])))

/* A pipelined algorithm whole and in segments of 3 and 16 elements (shorter ones make schedules of hundreds of
 * vectors' elements longer than HDRING_SCHEDULE_MAX_STEPS). */
static void check_segments(run_t run, const char *what)
{
    check_replay(run, what);
    if (NULL != hdring_algorithm(run.alg)->segment) {
        run.segment = 3;
        check_replay(run, what);
        run.segment = 16;
        check_replay(run, what);
    }
}

START_TEST(replay_gives_the_direct_run_allreduce_and_bcast)
{
    char what[64];
    for (int a = 0; a < HDRING_NALGS; ++a) {
        const hdring_algorithm_t *row = hdring_algorithm((hdring_alg_t) a);
        if (HDRING_ALG_NONE != row->inner || (HDRING_COLL_ALLREDUCE != row->coll && HDRING_COLL_BCAST != row->coll)) {
            continue;
        }
        for (int i = 0; i < NPS; ++i) {
            const int p = ps[i];
            const size_t counts[] = {0, 1, (size_t) p + 1, 3 * (size_t) p + 2, 257};
            for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); ++c) {
                run_t run = {.alg = row->id, .p = p, .count = counts[c], .kind = &kind_u64_sum, .cost = cost,
                             .in_place = 1 == c % 2, .root = (int) c % p};
                snprintf(what, sizeof(what), "count %zu", counts[c]);
                check_segments(run, what);
                if (HDRING_COLL_ALLREDUCE == row->coll) {
                    run.kind = row->keeps_order ? &kind_mat_mul : &kind_double_sum;
                    check_replay(run, what);
                }
            }
        }
    }
}
END_TEST

START_TEST(replay_gives_the_direct_run_reduce_scatter_and_allgather)
{
    char what[64];
    size_t blocks[64];
    int block_of[64];
    for (int a = 0; a < HDRING_NALGS; ++a) {
        const hdring_algorithm_t *row = hdring_algorithm((hdring_alg_t) a);
        if (HDRING_ALG_NONE != row->inner ||
            (HDRING_COLL_REDUCE_SCATTER != row->coll && HDRING_COLL_ALLGATHER != row->coll)) {
            continue;
        }
        for (int i = 0; i < NPS; ++i) {
            const int p = ps[i];
            for (int shape = 0; shape < NSHAPES; ++shape) {
                make_blocks(blocks, p, 3, (shape_t) shape);
                run_t run = {.alg = row->id, .p = p, .blocks = blocks, .kind = &kind_u64_sum, .cost = cost,
                             .in_place = HDRING_COLL_REDUCE_SCATTER == row->coll && 1 == shape % 2};
                snprintf(what, sizeof(what), "block shape %d", shape);
                check_segments(run, what);
                if (row->keeps_order && HDRING_COLL_REDUCE_SCATTER == row->coll) {
                    run.kind = &kind_mat_mul;
                    run.ordered = true;
                    check_replay(run, what);
                }
            }
            if (0 == p % 2) { /* in locality order on two nodes mapped round-robin */
                for (int v = 0; v < p; ++v) {
                    block_of[v] = v % (p / 2) * 2 + v / (p / 2);
                }
                make_blocks(blocks, p, 5, SHAPE_IRREGULAR);
                run_t run = {.alg = row->id, .p = p, .blocks = blocks, .kind = &kind_u64_sum, .cost = cost,
                             .block_of = block_of, .nodes = 2, .ppn = p / 2, .near_first = true,
                             .network = {5.0, 0.05, 0}};
                check_segments(run, "two nodes, round-robin");
            }
        }
    }
}
END_TEST

static hdring_alg_t first_flat(hdring_coll_t coll)
{
    for (int a = 0; a < HDRING_NALGS; ++a) {
        const hdring_algorithm_t *row = hdring_algorithm((hdring_alg_t) a);
        if (row->coll == coll && HDRING_ALG_NONE == row->inner) {
            return row->id;
        }
    }
    return HDRING_ALG_NONE;
}

/* The hierarchical algorithms on grids, the phases within nodes the first flat algorithm of their collective. */
START_TEST(replay_gives_the_direct_run_hierarchical)
{
    const int grids[][2] = {{2, 2}, {3, 2}, {2, 3}, {4, 2}, {3, 3}};
    size_t blocks[16];
    char what[64];
    for (int a = 0; a < HDRING_NALGS; ++a) {
        const hdring_algorithm_t *row = hdring_algorithm((hdring_alg_t) a);
        if (HDRING_ALG_NONE == row->inner) {
            continue;
        }
        const bool reduces = HDRING_COLL_ALLREDUCE == row->coll || HDRING_COLL_REDUCE_SCATTER == row->coll;
        const hdring_coll_t last = HDRING_COLL_BCAST == row->coll ? HDRING_COLL_BCAST : HDRING_COLL_ALLGATHER;
        const hdring_alg_t phase[HDRING_NPHASES] = {
            reduces ? first_flat(HDRING_COLL_REDUCE_SCATTER) : HDRING_ALG_NONE, row->inner,
            HDRING_COLL_REDUCE_SCATTER == row->coll ? HDRING_ALG_NONE : first_flat(last)};
        for (size_t g = 0; g < sizeof(grids) / sizeof(grids[0]); ++g) {
            const int nodes = grids[g][0], ppn = grids[g][1], p = nodes * ppn;
            make_blocks(blocks, p, 4, SHAPE_IRREGULAR);
            const bool vector = HDRING_COLL_REDUCE_SCATTER == row->coll || HDRING_COLL_ALLGATHER == row->coll;
            run_t run = {.alg = row->id, .p = p, .count = 5 * (size_t) p + 3, .blocks = vector ? blocks : NULL,
                         .kind = &kind_u64_sum, .cost = cost, .nodes = nodes, .ppn = ppn, .phase = phase,
                         .network = {5.0, 0.05, 0}, .root = p - 1};
            snprintf(what, sizeof(what), "%d nodes x %d", nodes, ppn);
            check_replay(run, what);
        }
    }
}
END_TEST

/* ---- one rank of a transport that moves nothing, counting what it is asked to do ---- */

typedef struct counts {
    size_t sent, received, reduced, replicated, started, waited; /* elements; messages */
} counts_t;

typedef struct null_ctx {
    counts_t n;
    uint32_t used;
    char *arena;
    size_t arena_used, arena_bytes;
} null_ctx_t;

static int null_exchange(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends, const hdring_msg_t *recvs,
                         int nrecvs)
{
    null_ctx_t *c = x->ctx;
    for (int i = 0; i < nsends; ++i) {
        c->n.sent += sends[i].count;
    }
    for (int i = 0; i < nrecvs; ++i) {
        c->n.received += recvs[i].count;
    }
    return HDRING_OK;
}

static int null_start(const hdring_xport_t *x, const hdring_msg_t *msg, bool is_send, hdring_req_t *req)
{
    null_ctx_t *c = x->ctx;
    if (0 == ~c->used) {
        return HDRING_ERR_TRANSPORT;
    }
    *req = __builtin_ctz(~c->used);
    c->used |= 1u << *req;
    *(is_send ? &c->n.sent : &c->n.received) += msg->count;
    ++c->n.started;
    return HDRING_OK;
}

static int null_wait(const hdring_xport_t *x, hdring_req_t *reqs, int n)
{
    null_ctx_t *c = x->ctx;
    for (int i = 0; i < n; ++i) {
        if (HDRING_REQ_NONE != reqs[i]) {
            c->used &= ~(1u << reqs[i]);
            reqs[i] = HDRING_REQ_NONE;
            ++c->n.waited;
        }
    }
    return HDRING_OK;
}

static int null_reduce(const hdring_xport_t *x, hdring_loc_t left, hdring_loc_t right, hdring_loc_t dst,
                       size_t count, unsigned flags)
{
    (void) left, (void) right, (void) dst;
    null_ctx_t *c = x->ctx;
    c->n.reduced += count;
    c->n.replicated += flags & HDRING_REDUCE_REPLICATED ? count : 0;
    return HDRING_OK;
}

static int null_copy(const hdring_xport_t *x, hdring_loc_t src, hdring_loc_t dst, size_t count)
{
    (void) x, (void) src, (void) dst, (void) count;
    return HDRING_OK;
}

static void *null_take(const hdring_xport_t *x, size_t bytes)
{
    null_ctx_t *c = x->ctx;
    bytes = (bytes + 15) / 16 * 16;
    if (bytes > c->arena_bytes - c->arena_used) {
        return NULL;
    }
    c->arena_used += bytes;
    return c->arena + c->arena_used - bytes;
}

static const hdring_transport_ops_t null_ops = {null_exchange, null_start, null_wait,
                                                null_reduce,   null_copy,  null_take};

static null_ctx_t *null_new(void)
{
    null_ctx_t *c = calloc(1, sizeof(*c));
    ck_assert(NULL != c);
    c->arena_bytes = 64u << 20;
    c->arena = malloc(c->arena_bytes);
    ck_assert(NULL != c->arena);
    return c;
}

static void null_free(null_ctx_t *c)
{
    free(c->arena);
    free(c);
}

/* One call on rank `rank` of p through the policy: what the transport was asked to do. */
static counts_t call(hdring_schedule_t *s, null_ctx_t *c, int rank, int p, hdring_alg_t alg, const hdring_args_t *a,
                     int record_after)
{
    const hdring_xport_t x = {&null_ops, c, rank, p, NULL};
    memset(&c->n, 0, sizeof(c->n));
    c->arena_used = 0;
    ck_assert_int_eq(HDRING_OK, hdring_schedule_run(s, &x, alg, a, record_after));
    ck_assert_int_eq(0, c->used);
    return c->n;
}

static bool same_counts(counts_t a, counts_t b)
{
    return a.sent == b.sent && a.received == b.received && a.reduced == b.reduced && a.replicated == b.replicated &&
           a.started == b.started && a.waited == b.waited;
}

/* Recorded on the record_after-th call with the same arguments, replayed from then on, the key dropped by any
 * change of count, rank or algorithm; record_after 0 never records. */
START_TEST(policy_records_after_repeated_calls)
{
    null_ctx_t *c = null_new();
    hdring_schedule_t s;
    hdring_schedule_init(&s);
    hdring_args_t a = {.count = 1000, .phase = {HDRING_ALG_NONE, HDRING_ALG_NONE, HDRING_ALG_NONE}};
    const hdring_alg_t alg = HDRING_ALG_ALLREDUCE_RHD;

    const counts_t direct = call(&s, c, 2, 7, alg, &a, 3);
    ck_assert(s.keyed && !s.recorded && 1 == s.calls);
    ck_assert(direct.sent > 0 && direct.reduced > 0);
    call(&s, c, 2, 7, alg, &a, 3);
    ck_assert(!s.recorded && 2 == s.calls);
    const counts_t third = call(&s, c, 2, 7, alg, &a, 3);
    ck_assert(s.recorded && 3 == s.calls && s.nsteps > 0);
    ck_assert_msg(same_counts(direct, third), "the replay asked the transport for other work than the direct run");
    const counts_t fourth = call(&s, c, 2, 7, alg, &a, 3);
    ck_assert(s.recorded && 4 == s.calls && same_counts(direct, fourth));

    a.count = 999;
    const counts_t other = call(&s, c, 2, 7, alg, &a, 3);
    ck_assert(!s.recorded && 1 == s.calls && !same_counts(direct, other));
    call(&s, c, 3, 7, alg, &a, 1);
    ck_assert(s.recorded && 1 == s.calls && 3 == s.rank);
    const counts_t doubling = call(&s, c, 3, 7, HDRING_ALG_ALLREDUCE_RECURSIVE_DOUBLING, &a, 1);
    ck_assert(s.recorded && HDRING_ALG_ALLREDUCE_RECURSIVE_DOUBLING == s.alg && doubling.replicated > 0);
    ck_assert(same_counts(doubling, call(&s, c, 3, 7, HDRING_ALG_ALLREDUCE_RECURSIVE_DOUBLING, &a, 1)));

    hdring_schedule_t never;
    hdring_schedule_init(&never);
    const counts_t off = call(&never, c, 3, 7, alg, &a, 0);
    ck_assert(!never.keyed && !never.recorded && off.sent > 0);

    hdring_schedule_free(&s);
    null_free(c);
}
END_TEST

/* Blocks given by boundaries are compared by value: a caller rewriting the same array is a new call. */
START_TEST(policy_compares_block_boundaries_by_value)
{
    null_ctx_t *c = null_new();
    hdring_schedule_t s;
    hdring_schedule_init(&s);
    size_t counts[5] = {3, 0, 4, 4, 1}, displ[6];
    hdring_displs_from_counts(displ, 5, counts);
    hdring_partition_t parts = hdring_partition_of_displs(5, displ);
    hdring_blocks_t blocks = {&parts, NULL, NULL};
    const hdring_args_t a = {.blocks = &blocks, .phase = {HDRING_ALG_NONE, HDRING_ALG_NONE, HDRING_ALG_NONE}};
    const hdring_xport_t x = {&null_ops, c, 1, 5, NULL};

    const counts_t first = call(&s, c, 1, 5, HDRING_ALG_REDUCE_SCATTER_RHD, &a, 1);
    ck_assert(s.recorded && hdring_schedule_matches(&s, &x, HDRING_ALG_REDUCE_SCATTER_RHD, &a));
    counts[1] = 2;
    hdring_displs_from_counts(displ, 5, counts);
    ck_assert(!hdring_schedule_matches(&s, &x, HDRING_ALG_REDUCE_SCATTER_RHD, &a));
    const counts_t second = call(&s, c, 1, 5, HDRING_ALG_REDUCE_SCATTER_RHD, &a, 1);
    ck_assert(s.recorded && second.sent + second.received > first.sent + first.received);

    hdring_schedule_free(&s);
    null_free(c);
}
END_TEST

/* A schedule beyond HDRING_SCHEDULE_MAX_STEPS is not kept: the call runs directly, now and when it repeats. */
START_TEST(policy_runs_over_long_schedules_directly)
{
    null_ctx_t *c = null_new();
    hdring_schedule_t s;
    hdring_schedule_init(&s);
    const int p = 2 * HDRING_SCHEDULE_MAX_STEPS;
    const hdring_partition_t parts = hdring_partition_uniform(p, 1);
    hdring_blocks_t blocks = {&parts, NULL, NULL};
    const hdring_args_t a = {.blocks = &blocks, .phase = {HDRING_ALG_NONE, HDRING_ALG_NONE, HDRING_ALG_NONE}};

    const counts_t first = call(&s, c, 5, p, HDRING_ALG_ALLGATHER_RING, &a, 1);
    ck_assert(!s.recorded && s.direct);
    ck_assert_uint_eq((size_t) p - 1, first.received);
    const counts_t again = call(&s, c, 5, p, HDRING_ALG_ALLGATHER_RING, &a, 1);
    ck_assert(!s.recorded && s.direct && same_counts(first, again));

    hdring_schedule_free(&s);
    null_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("schedule");
    UNIT_ADD(s, replay_gives_the_direct_run_allreduce_and_bcast);
    UNIT_ADD(s, replay_gives_the_direct_run_reduce_scatter_and_allgather);
    UNIT_ADD(s, replay_gives_the_direct_run_hierarchical);
    UNIT_ADD(s, policy_records_after_repeated_calls);
    UNIT_ADD(s, policy_compares_block_boundaries_by_value);
    UNIT_ADD(s, policy_runs_over_long_schedules_directly);
    return unit_run(s);
}
