/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * Recorded schedules (hdring_schedule.h). On virtual ranks (test/sim): every algorithm, recorded and replayed,
 * gives the results of running it directly, bit for bit, with the same messages, bytes and simulated time,
 * for p up to 33, counts 0 to hundreds, blocks of every shape, in place, operand order kept, segments, ranks in
 * locality order, and the hierarchical algorithms on grids of nodes; and several copies of a call at once, their
 * schedules run without blocking and interleaved step by step on channels of their own, each copy right. On one
 * rank of a transport that moves nothing: a run hands the transport exactly the operations a direct run does,
 * nonblocking runs stop at every step whose messages are in flight and carry on from it, and a run stops at the
 * step that fails.
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

/* A pipelined algorithm whole and in segments of 3 and 16 elements. */
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

static const hdring_transport_ops_t null_ops = {null_exchange, null_start, null_wait, null_reduce,
                                                null_copy,     null_take,  NULL,      NULL,
                                                NULL};

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

/* What the transport is asked to do by the algorithm run directly, and by its recorded schedule run blocking. */
static void direct_and_run(int rank, int p, hdring_alg_t alg, const hdring_args_t *a, counts_t *direct,
                           counts_t *ran)
{
    null_ctx_t *c = null_new();
    hdring_schedule_t s;
    hdring_exec_t e;
    const hdring_xport_t x = {&null_ops, c, rank, p, NULL, 0};
    ck_assert_int_eq(HDRING_OK, hdring_run(&x, alg, a));
    *direct = c->n;
    memset(&c->n, 0, sizeof(c->n));
    hdring_schedule_init(&s);
    ck_assert_int_eq(HDRING_OK, hdring_schedule_record(&s, &x, alg, a));
    ck_assert(0 == c->n.sent && 0 == c->n.received && 0 == c->n.reduced); /* recording moves nothing */
    hdring_exec_init(&e, &s);
    ck_assert_int_eq(HDRING_OK, hdring_exec_run(&e, &x, true));
    ck_assert_int_eq(0, c->used);
    *ran = c->n;
    hdring_schedule_free(&s);
    null_free(c);
}

static bool same_counts(counts_t a, counts_t b)
{
    return a.sent == b.sent && a.received == b.received && a.reduced == b.reduced && a.replicated == b.replicated &&
           a.started == b.started && a.waited == b.waited;
}

START_TEST(a_run_asks_the_transport_for_what_the_algorithm_does)
{
    const hdring_args_t a = {.count = 1000, .segment = 37, .phase = {HDRING_ALG_NONE, HDRING_ALG_NONE, HDRING_ALG_NONE}};
    const hdring_alg_t algs[] = {HDRING_ALG_ALLREDUCE_RHD, HDRING_ALG_ALLREDUCE_RECURSIVE_DOUBLING,
                                 HDRING_ALG_ALLREDUCE_RING, HDRING_ALG_BCAST_CHAIN, HDRING_ALG_BCAST_DOUBLE_TREE};
    for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); ++i) {
        counts_t direct, ran;
        direct_and_run(2, 7, algs[i], &a, &direct, &ran);
        ck_assert_msg(direct.sent + direct.received > 0, "%s moved nothing", hdring_alg_name(algs[i]));
        ck_assert_msg(same_counts(direct, ran), "%s: its schedule asked the transport for other work",
                      hdring_alg_name(algs[i]));
    }
}
END_TEST

/* ---- nonblocking runs on a transport whose messages complete when the test says so ---- */

typedef struct manual_ctx {
    int exchanges, waits, tests, fail_at; /* fail_at: the exchange that fails (1-based; 0: none) */
    bool posted;
    int ready; /* tests that find messages in flight before one finds them done */
    int until_ready;
} manual_ctx_t;

static int manual_exchange(const hdring_xport_t *x, const hdring_msg_t *s, int ns, const hdring_msg_t *r, int nr)
{
    (void) x, (void) s, (void) ns, (void) r, (void) nr;
    ck_abort_msg("a nonblocking run called the blocking exchange");
    return HDRING_ERR_TRANSPORT;
}
static int manual_start(const hdring_xport_t *x, const hdring_msg_t *m, bool is_send, hdring_req_t *req)
{
    (void) x, (void) m, (void) is_send;
    *req = 0;
    return HDRING_OK;
}
static int manual_wait(const hdring_xport_t *x, hdring_req_t *reqs, int n)
{
    manual_ctx_t *c = x->ctx;
    ++c->waits;
    for (int i = 0; i < n; ++i) {
        reqs[i] = HDRING_REQ_NONE;
    }
    return HDRING_OK;
}
static int manual_reduce(const hdring_xport_t *x, hdring_loc_t l, hdring_loc_t r, hdring_loc_t d, size_t n, unsigned f)
{
    (void) x, (void) l, (void) r, (void) d, (void) n, (void) f;
    return HDRING_OK;
}
static int manual_copy(const hdring_xport_t *x, hdring_loc_t s, hdring_loc_t d, size_t n)
{
    (void) x, (void) s, (void) d, (void) n;
    return HDRING_OK;
}
static void *manual_take(const hdring_xport_t *x, size_t bytes)
{
    (void) x, (void) bytes;
    return NULL;
}
static int manual_post(const hdring_xport_t *x, const hdring_msg_t *s, int ns, const hdring_msg_t *r, int nr)
{
    manual_ctx_t *c = x->ctx;
    (void) s, (void) ns, (void) r, (void) nr;
    ck_assert_msg(!c->posted, "a second exchange posted before the first completed");
    c->posted = true;
    c->until_ready = c->ready;
    return ++c->exchanges == c->fail_at ? HDRING_ERR_TRANSPORT : HDRING_OK;
}
static int manual_test_exchange(const hdring_xport_t *x, bool *done)
{
    manual_ctx_t *c = x->ctx;
    ck_assert(c->posted);
    ++c->tests;
    *done = 0 == c->until_ready--;
    c->posted = !*done;
    return HDRING_OK;
}
static int manual_test(const hdring_xport_t *x, hdring_req_t *reqs, int n, bool *done)
{
    manual_ctx_t *c = x->ctx;
    ++c->tests;
    *done = true;
    return manual_wait(x, reqs, n);
}
static const hdring_transport_ops_t manual_ops = {manual_exchange, manual_start, manual_wait, manual_reduce,
                                                  manual_copy, manual_take, manual_post, manual_test_exchange,
                                                  manual_test};

/* Recursive doubling on 8 ranks is 3 exchanges: a nonblocking run returns HDRING_PENDING for each test that finds
 * messages in flight and goes on from the same step, never posting an exchange twice; the same run blocking-free
 * with messages that complete at once needs one call. */
START_TEST(nonblocking_runs_stop_where_messages_are_in_flight)
{
    const hdring_args_t a = {.count = 64, .phase = {HDRING_ALG_NONE, HDRING_ALG_NONE, HDRING_ALG_NONE}};
    manual_ctx_t c = {.ready = 2};
    const hdring_xport_t x = {&manual_ops, &c, 5, 8, NULL, 0};
    hdring_schedule_t s;
    hdring_exec_t e;
    hdring_schedule_init(&s);
    ck_assert_int_eq(HDRING_OK, hdring_schedule_record(&s, &x, HDRING_ALG_ALLREDUCE_RECURSIVE_DOUBLING, &a));
    hdring_exec_init(&e, &s);
    int calls = 0, rc;
    while (HDRING_PENDING == (rc = hdring_exec_run(&e, &x, false))) {
        ++calls;
    }
    ck_assert_int_eq(HDRING_OK, rc);
    ck_assert_int_eq(3, c.exchanges);
    ck_assert_int_eq(3 * 2, calls);
    ck_assert_int_eq(3 * 3, c.tests);

    manual_ctx_t at_once = {.ready = 0};
    const hdring_xport_t y = {&manual_ops, &at_once, 5, 8, NULL, 0};
    hdring_exec_init(&e, &s);
    ck_assert_int_eq(HDRING_OK, hdring_exec_run(&e, &y, false));
    ck_assert_int_eq(3, at_once.exchanges);

    /* a failed post stops the run at that step: the error, not HDRING_PENDING, and nothing after it */
    manual_ctx_t failing = {.ready = 0, .fail_at = 2};
    const hdring_xport_t z = {&manual_ops, &failing, 5, 8, NULL, 0};
    hdring_exec_init(&e, &s);
    ck_assert_int_eq(HDRING_ERR_TRANSPORT, hdring_exec_run(&e, &z, false));
    ck_assert_int_eq(2, failing.exchanges);
    int before = 0; /* exchanges before the step where it stopped */
    for (size_t i = 0; i < e.next; ++i) {
        before += HDRING_STEP_EXCHANGE == s.steps[i].kind;
    }
    ck_assert(HDRING_STEP_EXCHANGE == s.steps[e.next].kind && 1 == before);
    hdring_schedule_free(&s);
}
END_TEST

/* Copies of one call at once, interleaved (sim_harness.h, run_t.copies): every flat algorithm at a few sizes of
 * group and vector, pipelined ones in segments, and the hierarchical ones on a grid; each copy right. */
START_TEST(interleaved_copies_each_give_the_answer)
{
    size_t blocks[16];
    const int ps_small[] = {2, 3, 5, 8, 9};
    for (int a = 0; a < HDRING_NALGS; ++a) {
        const hdring_algorithm_t *row = hdring_algorithm((hdring_alg_t) a);
        const bool vector = HDRING_COLL_REDUCE_SCATTER == row->coll || HDRING_COLL_ALLGATHER == row->coll;
        const hdring_alg_t none[HDRING_NPHASES] = {HDRING_ALG_NONE, HDRING_ALG_NONE, HDRING_ALG_NONE};
        for (size_t i = 0; i < sizeof(ps_small) / sizeof(ps_small[0]); ++i) {
            const int p = ps_small[i];
            run_t run = {.alg = row->id, .p = p, .count = 3 * (size_t) p + 2, .kind = &kind_u64_sum, .cost = cost,
                         .root = p - 1, .replay = true, .copies = 3, .phase = none,
                         .segment = NULL != row->segment ? 2 : 0};
            if (HDRING_ALG_NONE != row->inner) {
                const bool reduces = HDRING_COLL_ALLREDUCE == row->coll || HDRING_COLL_REDUCE_SCATTER == row->coll;
                const hdring_coll_t last = HDRING_COLL_BCAST == row->coll ? HDRING_COLL_BCAST : HDRING_COLL_ALLGATHER;
                static hdring_alg_t phase[HDRING_NPHASES];
                phase[0] = reduces ? first_flat(HDRING_COLL_REDUCE_SCATTER) : HDRING_ALG_NONE;
                phase[1] = row->inner;
                phase[2] = HDRING_COLL_REDUCE_SCATTER == row->coll ? HDRING_ALG_NONE : first_flat(last);
                if (0 != p % 2 || p < 4) {
                    continue;
                }
                run.phase = phase;
                run.nodes = 2;
                run.ppn = p / 2;
                run.network = (sim_cost_t) {5.0, 0.05, 0};
            }
            if (vector) {
                make_blocks(blocks, p, 3, SHAPE_IRREGULAR);
                run.blocks = blocks;
            }
            run_result_t res;
            run_collective(&run, &res, false);
            ck_assert_msg(res.ok, "%s %s p=%d, 3 copies interleaved: %s", hdring_coll_name(row->coll), row->name, p,
                          res.why);
            result_free(&res);
        }
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("schedule");
    UNIT_ADD(s, replay_gives_the_direct_run_allreduce_and_bcast);
    UNIT_ADD(s, replay_gives_the_direct_run_reduce_scatter_and_allgather);
    UNIT_ADD(s, replay_gives_the_direct_run_hierarchical);
    UNIT_ADD(s, a_run_asks_the_transport_for_what_the_algorithm_does);
    UNIT_ADD(s, nonblocking_runs_stop_where_messages_are_in_flight);
    UNIT_ADD(s, interleaved_copies_each_give_the_answer);
    return unit_run(s);
}
