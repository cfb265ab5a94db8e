/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Test harness on top of hdring_sim: see sim_harness.h. */
#include "sim_harness.h"

#include "hdring_schedule.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD_ELEMS 3
#define GUARD_BYTE 0x5C
#define GARBAGE_BYTE 0xEE

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBull;
    return h ^ (h >> 29);
}

/* ---- element kinds ---- */

static void u64_gen(void *e, int rank, size_t i) { *(uint64_t *) e = mix((uint64_t) rank, i) >> 8; }
static void u64_apply(const void *l, const void *r, void *d, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        ((uint64_t *) d)[i] = ((const uint64_t *) l)[i] + ((const uint64_t *) r)[i];
    }
}
const elem_kind_t kind_u64_sum = {"u64 sum", sizeof(uint64_t), true, u64_gen, u64_apply, true};

typedef struct { uint32_t m[4]; } mat_t;
static void mat_gen(void *e, int rank, size_t i)
{
    mat_t *x = e;
    for (int k = 0; k < 4; ++k) {
        x->m[k] = (uint32_t) mix((uint64_t) rank * 4 + (uint64_t) k, i);
    }
}
static void mat_apply(const void *l, const void *r, void *d, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        const mat_t *a = (const mat_t *) l + i, *b = (const mat_t *) r + i;
        mat_t c;
        c.m[0] = a->m[0] * b->m[0] + a->m[1] * b->m[2];
        c.m[1] = a->m[0] * b->m[1] + a->m[1] * b->m[3];
        c.m[2] = a->m[2] * b->m[0] + a->m[3] * b->m[2];
        c.m[3] = a->m[2] * b->m[1] + a->m[3] * b->m[3];
        ((mat_t *) d)[i] = c;
    }
}
const elem_kind_t kind_mat_mul = {"2x2 matrix product", sizeof(mat_t), false, mat_gen, mat_apply, true};

static void double_gen(void *e, int rank, size_t i)
{
    const uint64_t h = mix((uint64_t) rank, i);
    *(double *) e = ldexp((double) (h % 1000000 + 1) * (h & 1 ? -1 : 1), (int) ((h >> 20) % 81) - 60);
}
static void double_apply(const void *l, const void *r, void *d, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        ((double *) d)[i] = ((const double *) l)[i] + ((const double *) r)[i];
    }
}
const elem_kind_t kind_double_sum = {"double sum", sizeof(double), true, double_gen, double_apply, false};

/* ---- blocks ---- */

void make_blocks(size_t *blocks, int p, size_t scale, shape_t shape)
{
    for (int i = 0; i < p; ++i) {
        switch (shape) {
        case SHAPE_UNIFORM:
            blocks[i] = scale;
            break;
        case SHAPE_IRREGULAR:
            blocks[i] = 1 == i % 3 ? 0 : scale + (size_t) (i % 7);
            break;
        case SHAPE_ONE_RANK:
            blocks[i] = i == p / 2 ? scale * (size_t) p : 0;
            break;
        default:
            blocks[i] = mix((uint64_t) i, scale) % (2 * scale + 1);
            break;
        }
    }
}

/* ---- one run ---- */

typedef struct guarded {
    char *mem;   /* guard, data, guard */
    size_t elems;
} guarded_t;

static char *guarded_alloc(guarded_t *g, size_t elems, size_t esize)
{
    g->elems = elems;
    g->mem = malloc((elems + 2 * GUARD_ELEMS) * esize);
    if (NULL != g->mem) {
        memset(g->mem, GUARD_BYTE, GUARD_ELEMS * esize);
        memset(g->mem + (GUARD_ELEMS + elems) * esize, GUARD_BYTE, GUARD_ELEMS * esize);
        memset(g->mem + GUARD_ELEMS * esize, GARBAGE_BYTE, elems * esize);
    }
    return NULL == g->mem ? NULL : g->mem + GUARD_ELEMS * esize;
}

static bool guards_intact(const guarded_t *g, size_t esize)
{
    if (NULL == g->mem) {
        return true;
    }
    for (size_t i = 0; i < GUARD_ELEMS * esize; ++i) {
        if (GUARD_BYTE != (unsigned char) g->mem[i] ||
            GUARD_BYTE != (unsigned char) g->mem[(GUARD_ELEMS + g->elems) * esize + i]) {
            return false;
        }
    }
    return true;
}

typedef struct rank_bufs {
    guarded_t in, out, tmp, work;
} rank_bufs_t;

typedef struct body_arg {
    const run_t *run;
    size_t (*elems)[HDRING_NBUFS]; /* per rank: of each copy's window of each buffer */
    hdring_partition_t part;
    size_t *displ;
    hdring_blocks_t blocks;
    int *owner_of;
    hdring_args_t args;
} body_arg_t;

#define MAX_COPIES 8

/* The copies of an interleaved run: each records its schedule on its own windows of the buffers, then all run
 * without blocking, a step at a time each, on channels of their own, copy c joining at round c. */
static int interleaved(const hdring_xport_t *x, const body_arg_t *a, int copies)
{
    hdring_schedule_t s[MAX_COPIES];
    hdring_exec_t e[MAX_COPIES];
    hdring_xport_t on[MAX_COPIES];
    int state[MAX_COPIES], rc = HDRING_OK;

    for (int c = 0; c < copies; ++c) {
        hdring_view_t v;
        hdring_xport_t window = hdring_view(x, &v, 0, 1, x->size, 0);
        for (int b = 0; b < HDRING_NBUFS; ++b) {
            v.buf[b] = hdring_at((hdring_buf_t) b, (size_t) c * a->elems[x->rank][b]);
        }
        hdring_schedule_init(&s[c]);
        if (HDRING_OK == rc) {
            rc = hdring_schedule_record(&s[c], &window, a->run->alg, &a->args);
        }
        hdring_exec_init(&e[c], &s[c]);
        on[c] = *x;
        on[c].channel = c;
        state[c] = HDRING_PENDING;
    }
    for (int round = 0, pending = copies; HDRING_OK == rc && pending > 0; ++round) {
        bool moved = false;
        for (int c = 0; c < copies && c <= round && HDRING_OK == rc; ++c) {
            if (HDRING_PENDING == state[c]) {
                const size_t before = e[c].next;
                state[c] = hdring_exec_run(&e[c], &on[c], false);
                rc = HDRING_PENDING == state[c] ? HDRING_OK : state[c];
                pending -= HDRING_OK == state[c];
                moved |= e[c].next != before || HDRING_OK == state[c];
            }
        }
        if (!moved && round >= copies) {
            sim_poll(x); /* every copy waits for messages */
        }
    }
    for (int c = 0; c < copies; ++c) {
        hdring_schedule_free(&s[c]);
    }
    return rc;
}

static int body(const hdring_xport_t *x, void *varg)
{
    const body_arg_t *a = varg;
    if (!a->run->replay) {
        return hdring_run(x, a->run->alg, &a->args);
    }
    if (a->run->copies > 1) {
        return interleaved(x, a, a->run->copies);
    }
    hdring_schedule_t s;
    hdring_exec_t e;
    hdring_schedule_init(&s);
    int rc = hdring_schedule_record(&s, x, a->run->alg, &a->args);
    if (HDRING_OK == rc) {
        hdring_exec_init(&e, &s);
        rc = hdring_exec_run(&e, x, true);
    }
    hdring_schedule_free(&s);
    return rc;
}

static unsigned long long hash_bytes(const void *buf, size_t bytes)
{
    const unsigned char *b = buf;
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < bytes; ++i) {
        h = (h ^ b[i]) * 1099511628211ULL;
    }
    return h;
}

/* A double result within the classic bound of a sum of p terms: p eps sum |x_r|. */
static bool close_enough(const run_t *run, size_t i, const double *got)
{
    long double exact = 0, mag = 0;
    double x;
    for (int r = 0; r < run->p; ++r) {
        run->kind->gen(&x, r, i);
        exact += x;
        mag += fabsl((long double) x);
    }
    return fabsl((long double) *got - exact) <= (long double) run->p * 0x1p-52L * mag;
}

#define FAIL(...)                                                                                            \
    do {                                                                                                     \
        res->ok = false;                                                                                     \
        snprintf(res->why, sizeof(res->why), __VA_ARGS__);                                                   \
        goto out;                                                                                            \
    } while (0)

void run_collective(const run_t *run, run_result_t *res, bool keep_stats)
{
    const int p = run->p;
    const size_t es = run->kind->size;
    const sim_op_t op = {es, run->kind->apply};
    const hdring_coll_t coll = hdring_algorithm(run->alg)->coll;
    body_arg_t arg = {.run = run, .blocks = {NULL, run->block_of, NULL}};
    rank_bufs_t *bufs = calloc((size_t) p, sizeof(*bufs));
    char *want = NULL, *elem = malloc(es);
    sim_world_t *w = sim_create(p, &op, run->cost);
    size_t total = run->count;
    hdring_scratch_t need = {0, 0};

    memset(res, 0, sizeof(*res));
    res->ok = true;
    if (NULL == bufs || NULL == w || NULL == elem) {
        FAIL("out of memory");
    }
    arg.args.count = run->count;
    arg.args.ordered = run->ordered;
    arg.args.root = run->root;
    arg.args.near_first = run->near_first;
    arg.args.nodes = run->nodes;
    arg.args.ppn = run->ppn;
    arg.args.segment = run->segment;
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        arg.args.phase[k] = NULL == run->phase ? HDRING_ALG_NONE : run->phase[k];
    }
    if (HDRING_COLL_REDUCE_SCATTER == coll || HDRING_COLL_ALLGATHER == coll) {
        arg.displ = malloc(((size_t) p + 1) * sizeof(*arg.displ));
        if (NULL == arg.displ) {
            FAIL("out of memory");
        }
        hdring_displs_from_counts(arg.displ, p, run->blocks);
        arg.part = hdring_partition_of_displs(p, arg.displ);
        total = hdring_partition_total(&arg.part);
        arg.blocks.parts = &arg.part;
        if (NULL != run->block_of) {
            arg.owner_of = malloc((size_t) p * sizeof(*arg.owner_of));
            if (NULL == arg.owner_of) {
                FAIL("out of memory");
            }
            for (int r = 0; r < p; ++r) {
                arg.owner_of[run->block_of[r]] = r;
            }
            arg.blocks.owner_of = arg.owner_of;
        }
        arg.args.blocks = &arg.blocks;
    }
    if (run->nodes > 0) {
        int *node_of = malloc((size_t) p * sizeof(*node_of));
        if (NULL == node_of) {
            FAIL("out of memory");
        }
        for (int r = 0; r < p; ++r) {
            node_of[r] = NULL != run->node_of ? run->node_of[r] : r / run->ppn;
        }
        const int rc = sim_set_nodes(w, run->nodes, node_of, run->network);
        free(node_of);
        if (0 != rc) {
            FAIL("out of memory");
        }
    }
    need = hdring_scratch(sim_xport(w, 0), run->alg, &arg.args);

    /* the expected result: the reduction in rank order, or the root's / each block owner's data */
    want = malloc(total * es + 1);
    if (NULL == want) {
        FAIL("out of memory");
    }
    for (size_t i = 0; i < total; ++i) {
        char *dst = want + i * es;
        if (HDRING_COLL_ALLGATHER == coll) {
            int block = 0;
            while (i >= hdring_part_offset(&arg.part, block + 1)) {
                ++block;
            }
            run->kind->gen(dst, hdring_owner_of(&arg.blocks, block), i);
        } else if (HDRING_COLL_BCAST == coll) {
            run->kind->gen(dst, run->root, i);
        } else {
            run->kind->gen(dst, 0, i);
            if (HDRING_COLL_BCAST != coll) {
                for (int r = 1; r < p; ++r) {
                    run->kind->gen(elem, r, i);
                    run->kind->apply(dst, elem, dst, 1);
                }
            }
        }
    }

    const int copies = run->replay && run->copies > 1 ? run->copies : 1;
    if (copies > MAX_COPIES) {
        FAIL("at most %d copies", MAX_COPIES);
    }
    arg.elems = calloc((size_t) p, sizeof(*arg.elems));
    if (NULL == arg.elems) {
        FAIL("out of memory");
    }
    for (int r = 0; r < p; ++r) {
        rank_bufs_t *b = &bufs[r];
        const size_t mine = HDRING_COLL_REDUCE_SCATTER == coll ? hdring_block_count(&arg.blocks, r) : total;
        const size_t out_elems = run->in_place && HDRING_COLL_REDUCE_SCATTER == coll ? total : mine;
        char *out = guarded_alloc(&b->out, out_elems * (size_t) copies, es);
        char *tmp = guarded_alloc(&b->tmp, need.tmp * (size_t) copies, es);
        char *work = guarded_alloc(&b->work, need.work * (size_t) copies, es);
        if (NULL == out || NULL == tmp || NULL == work) {
            FAIL("out of memory");
        }
        arg.elems[r][HDRING_BUF_OUT] = out_elems;
        arg.elems[r][HDRING_BUF_TMP] = need.tmp;
        arg.elems[r][HDRING_BUF_WORK] = need.work;
        arg.elems[r][HDRING_BUF_IN] = run->in_place ? out_elems : total;
        sim_set_buffer(w, r, HDRING_BUF_OUT, out, b->out.elems, true);
        sim_set_buffer(w, r, HDRING_BUF_TMP, tmp, b->tmp.elems, true);
        sim_set_buffer(w, r, HDRING_BUF_WORK, work, b->work.elems, true);
        for (int c = 0; c < copies; ++c) {
            char *window = out + (size_t) c * out_elems * es;
            if (HDRING_COLL_ALLREDUCE == coll || HDRING_COLL_REDUCE_SCATTER == coll) {
                char *in = window;
                if (!run->in_place) {
                    if (0 == c && NULL == guarded_alloc(&b->in, total * (size_t) copies, es)) {
                        FAIL("out of memory");
                    }
                    in = b->in.mem + (GUARD_ELEMS + (size_t) c * total) * es;
                }
                for (size_t i = 0; i < total; ++i) {
                    run->kind->gen(in + i * es, r, i);
                }
            } else if (HDRING_COLL_ALLGATHER == coll) {
                const size_t first = hdring_block_offset(&arg.blocks, r);
                for (size_t i = first; i < first + hdring_block_count(&arg.blocks, r); ++i) {
                    run->kind->gen(window + i * es, r, i);
                }
            } else if (run->root == r) {
                memcpy(window, want, total * es);
            }
        }
        if (HDRING_COLL_ALLREDUCE == coll || HDRING_COLL_REDUCE_SCATTER == coll) {
            sim_set_buffer(w, r, HDRING_BUF_IN, run->in_place ? out : b->in.mem + GUARD_ELEMS * es,
                           run->in_place ? b->out.elems : b->in.elems, run->in_place);
        }
    }

    if (0 != sim_run(w, body, &arg)) {
        FAIL("%s", sim_error(w));
    }
    res->time = sim_time(w);

    for (int r = 0; r < p; ++r) {
        rank_bufs_t *b = &bufs[r];
        const size_t first = HDRING_COLL_REDUCE_SCATTER == coll ? hdring_block_offset(&arg.blocks, r) : 0;
        const size_t n = HDRING_COLL_REDUCE_SCATTER == coll ? hdring_block_count(&arg.blocks, r) : total;
        if (!guards_intact(&b->in, es) || !guards_intact(&b->out, es) || !guards_intact(&b->tmp, es) ||
            !guards_intact(&b->work, es)) {
            FAIL("rank %d: a write outside a buffer (guard zone changed)", r);
        }
        for (int c = 0; c < copies; ++c) {
            const char *out = b->out.mem + (GUARD_ELEMS + (size_t) c * arg.elems[r][HDRING_BUF_OUT]) * es;
            for (size_t i = 0; i < n; ++i) {
                if (run->kind->exact ? 0 != memcmp(out + i * es, want + (first + i) * es, es)
                                     : !close_enough(run, first + i, (const double *) out + i)) {
                    FAIL("rank %d: element %zu of the result of copy %d is wrong", r, first + i, c);
                }
            }
            /* every rank of an allreduce holds the same bits, and every copy */
            if (HDRING_COLL_ALLREDUCE == coll && 0 != memcmp(out, bufs[0].out.mem + GUARD_ELEMS * es, total * es)) {
                FAIL("rank %d, copy %d holds other bits than rank 0, copy 0", r, c);
            }
            if (NULL != b->in.mem) {
                const char *in = b->in.mem + (GUARD_ELEMS + (size_t) c * total) * es;
                for (size_t i = 0; i < total; ++i) {
                    run->kind->gen(elem, r, i);
                    if (0 != memcmp(in + i * es, elem, es)) {
                        FAIL("rank %d: input element %zu of copy %d was modified", r, i, c);
                    }
                }
            }
        }
    }
    res->out_hash = hash_bytes(bufs[0].out.mem + GUARD_ELEMS * es,
                               (HDRING_COLL_REDUCE_SCATTER == coll ? hdring_block_count(&arg.blocks, 0) : total) * es);
    if (keep_stats) {
        res->stats = malloc((size_t) p * sizeof(*res->stats));
        res->links = run->nodes > 0 ? malloc((size_t) run->nodes * sizeof(*res->links)) : NULL;
        if (NULL == res->stats || (run->nodes > 0 && NULL == res->links)) {
            FAIL("out of memory");
        }
        for (int r = 0; r < p; ++r) {
            res->stats[r] = *sim_stats(w, r);
        }
        for (int j = 0; j < run->nodes; ++j) {
            res->links[j] = *sim_link_stats(w, j);
        }
    }
out:
    if (NULL != bufs) {
        for (int r = 0; r < p; ++r) {
            free(bufs[r].in.mem);
            free(bufs[r].out.mem);
            free(bufs[r].tmp.mem);
            free(bufs[r].work.mem);
        }
    }
    free(bufs);
    free(want);
    free(elem);
    free(arg.owner_of);
    free(arg.displ);
    free(arg.elems);
    sim_destroy(w);
}

void result_free(run_result_t *res)
{
    free(res->stats);
    free(res->links);
    res->stats = NULL;
    res->links = NULL;
}
