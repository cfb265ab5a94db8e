/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_check: correctness of the five collectives hdring provides, on real ranks.
 *
 * For each collective and each algorithm (forced through MPI_T before the communicators are created, or auto)
 * it runs the collective on a dup of MPI_COMM_WORLD (MPI_COMM_WORLD itself with --alg env), both halves of an
 * uneven split and a rank-reversed communicator, over a list of counts (0, 1, p-1, p, p+1, non-divisible, medium, large), datatypes (predefined,
 * pair types, a non-contiguous derived type with a lower-bound gap, a 2x2 matrix type) and operations (every
 * predefined op that applies, a commutative user op, a non-commutative user op), with and without
 * MPI_IN_PLACE, and compares every element with the answer computed locally. Every failure is printed with
 * collective, algorithm, p, communicator, count, type, op, root, rank and index.
 *
 *   hdring_check [--coll LIST] [--alg LIST] [--counts LIST] [--types LIST] [--quick]   correctness matrix
 *                [--repeat N]            each case N times in a row, new buffers and data each time (calls that
 *                                        repeat the one before take hdring's repeat path); datatypes freed and
 *                                        created again between repeated bcasts; other calls and freed user ops
 *                                        between repeated allreduces
 *   hdring_check --repro [--alg ...]     floating-point results: identical on all ranks and run after run
 *   hdring_check --large [--alg ...]     vectors of more than 2^31 bytes (allreduce, allgather, bcast,
 *                                        reduce_scatter_block)
 *   --kind K                             every collective call blocking (default), nonblocking (the I-call and a
 *                                        completion), persistent (init, start, completion, free) or mixed (each in
 *                                        turn); completions by MPI_Wait, MPI_Test, MPI_Waitall, MPI_Waitany and
 *                                        MPI_Testall in turn (hdring_kinds.h)
 *
 * --alg takes algorithm names, "auto", "all" (default: auto plus every algorithm of the collective) or "env"
 * (leave coll_hdring_<coll>_algorithm as the MCA parameters set it). With --large, "all" is auto, every flat
 * algorithm and the first hierarchical one (the hierarchical algorithms of a collective share their own code and
 * run the flat ones inside). Rank 0 says "hdring_check: starting <what>" before each group of cases, so a run
 * that stops shows where; the last line on rank 0 is "hdring_check: <n> cases, <m> failures"; the exit status is
 * 0 only without failures.
 * Bookkeeping uses point-to-point messages only, never the collectives under test.
 */
#include <math.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_kinds.h"
#include "hdring_mpi_util.h"

#define MAX_REPORTS 20 /* failures printed per rank */

/* ---------------------------------------------------------------- element types and operations */

typedef struct { double v; int k; } dint_t;           /* MPI_DOUBLE_INT */
typedef struct { int v; int k; } iint_t;              /* MPI_2INT */
typedef struct { int pad0, a, pad1, b, pad2; } gap_t; /* two ints at 4 and 12, extent 20: true lb 4 */
typedef struct { uint32_t m[4]; } mat_t;              /* 2x2 matrix, row major */

#define GAP_SENTINEL 0x5A5A5A5A
#define OUT_GARBAGE 0xEE

static MPI_Datatype gap_type, mat_type, pair_int_type;
static MPI_Op gap_sum_op, mat_mul_op;

static uint32_t mix(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u ^ (c + 0x165667B1u) * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

/* inoutvec = invec (op) inoutvec, invec holding the lower ranks' operand */
static void gap_sum_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    const gap_t *a = in;
    gap_t *b = inout;
    for (int i = 0; i < *len; ++i) {
        b[i].a += a[i].a;
        b[i].b += a[i].b;
    }
}

static mat_t mat_mul(const mat_t *x, const mat_t *y)
{
    mat_t r;
    r.m[0] = x->m[0] * y->m[0] + x->m[1] * y->m[2];
    r.m[1] = x->m[0] * y->m[1] + x->m[1] * y->m[3];
    r.m[2] = x->m[2] * y->m[0] + x->m[3] * y->m[2];
    r.m[3] = x->m[2] * y->m[1] + x->m[3] * y->m[3];
    return r;
}

static void mat_mul_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    const mat_t *a = in;
    mat_t *b = inout;
    for (int i = 0; i < *len; ++i) {
        b[i] = mat_mul(&a[i], &b[i]);
    }
}

/* A datatype/operation combination: how to fill a rank's input, fold in the next rank's input, compare. */
typedef struct kind {
    const char *type_name, *op_name;
    size_t size; /* C size == MPI extent */
    MPI_Datatype *type;
    MPI_Op *op; /* NULL: data movement only (allgather, bcast) */
    void (*fill)(void *buf, size_t n, int rank, int salt);
    void (*combine)(void *acc, const void *in, size_t n); /* acc = acc (op) in; acc holds the lower ranks */
    bool (*equal)(const void *got, const void *want, size_t i);
    void (*show)(const void *buf, size_t i, char *out, size_t len);
    bool heavy; /* also run at the large counts */
} kind_t;

static MPI_Datatype mpi_int = MPI_INT, mpi_llong = MPI_LONG_LONG, mpi_uchar = MPI_UNSIGNED_CHAR,
                    mpi_float = MPI_FLOAT, mpi_double = MPI_DOUBLE, mpi_dint = MPI_DOUBLE_INT, mpi_2int = MPI_2INT;
static MPI_Op op_sum = MPI_SUM, op_prod = MPI_PROD, op_max = MPI_MAX, op_min = MPI_MIN, op_band = MPI_BAND,
              op_bor = MPI_BOR, op_bxor = MPI_BXOR, op_land = MPI_LAND, op_lor = MPI_LOR, op_lxor = MPI_LXOR,
              op_minloc = MPI_MINLOC, op_maxloc = MPI_MAXLOC;

/* scalar kinds: T, generator, combine expression over a (acc) and b (in) */
#define SCALAR_KIND(NAME, T, FMT, GEN, COMBINE)                                                              \
    static void fill_##NAME(void *buf, size_t n, int rank, int salt)                                         \
    {                                                                                                        \
        T *x = buf;                                                                                          \
        for (size_t i = 0; i < n; ++i) {                                                                     \
            const uint32_t h = mix((uint32_t) rank, (uint32_t) i, (uint32_t) salt);                          \
            (void) h;                                                                                        \
            x[i] = (T) (GEN);                                                                                \
        }                                                                                                    \
    }                                                                                                        \
    static void combine_##NAME(void *acc, const void *in, size_t n)                                          \
    {                                                                                                        \
        T *a = acc;                                                                                          \
        const T *b = in;                                                                                     \
        for (size_t i = 0; i < n; ++i) {                                                                     \
            a[i] = (T) (COMBINE);                                                                            \
        }                                                                                                    \
    }                                                                                                        \
    static bool equal_##NAME(const void *got, const void *want, size_t i)                                    \
    {                                                                                                        \
        return 0 == memcmp((const T *) got + i, (const T *) want + i, sizeof(T));                            \
    }                                                                                                        \
    static void show_##NAME(const void *buf, size_t i, char *out, size_t len)                                \
    {                                                                                                        \
        snprintf(out, len, FMT, ((const T *) buf)[i]);                                                       \
    }

SCALAR_KIND(int_sum, int, "%d", (rank % 13 + 1) * (int) ((i + (size_t) salt) % 17 + 1), a[i] + b[i])
SCALAR_KIND(int_prod, int, "%d", 0 == h % 5 ? 2 : (0 == h % 7 ? -1 : 1), a[i] * b[i])
SCALAR_KIND(int_max, int, "%d", (int) (h % 1000) - 500, a[i] > b[i] ? a[i] : b[i])
SCALAR_KIND(int_min, int, "%d", (int) (h % 1000) - 500, a[i] < b[i] ? a[i] : b[i])
SCALAR_KIND(int_band, int, "%d", h | mix(h, 1, 2), a[i] & b[i])
SCALAR_KIND(int_bor, int, "%d", h & mix(h, 3, 4) & 0x7FFFFFF, a[i] | b[i])
SCALAR_KIND(int_bxor, int, "%d", h, a[i] ^ b[i])
SCALAR_KIND(int_land, int, "%d", 0 != h % 4, a[i] && b[i])
SCALAR_KIND(int_lor, int, "%d", 0 == h % 4, a[i] || b[i])
SCALAR_KIND(int_lxor, int, "%d", h % 2, !a[i] != !b[i])
SCALAR_KIND(llong_sum, long long, "%lld", (long long) h * 4096 - (1LL << 40), a[i] + b[i])
SCALAR_KIND(uchar_sum, unsigned char, "%u", h % 64, a[i] + b[i])
SCALAR_KIND(float_sum, float, "%g", (int) (h % 201) - 100, a[i] + b[i])
SCALAR_KIND(double_sum, double, "%.17g", (int) (h % 2001) - 1000, a[i] + b[i])

/* value/index pair kinds (MPI_DOUBLE_INT, MPI_2INT): few distinct values, so ties decide: lowest index wins */
#define PAIR_KIND(NAME, T, VALUES, FMT)                                                                      \
    static void fill_##NAME(void *buf, size_t n, int rank, int salt)                                         \
    {                                                                                                        \
        T *x = buf;                                                                                          \
        for (size_t i = 0; i < n; ++i) {                                                                     \
            x[i].v = mix((uint32_t) rank, (uint32_t) i, (uint32_t) salt) % (VALUES);                         \
            x[i].k = rank;                                                                                   \
        }                                                                                                    \
    }                                                                                                        \
    static void combine_##NAME##_min(void *acc, const void *in, size_t n)                                    \
    {                                                                                                        \
        T *a = acc;                                                                                          \
        const T *b = in;                                                                                     \
        for (size_t i = 0; i < n; ++i) {                                                                     \
            if (b[i].v < a[i].v || (b[i].v == a[i].v && b[i].k < a[i].k)) {                                  \
                a[i] = b[i];                                                                                 \
            }                                                                                                \
        }                                                                                                    \
    }                                                                                                        \
    static void combine_##NAME##_max(void *acc, const void *in, size_t n)                                    \
    {                                                                                                        \
        T *a = acc;                                                                                          \
        const T *b = in;                                                                                     \
        for (size_t i = 0; i < n; ++i) {                                                                     \
            if (b[i].v > a[i].v || (b[i].v == a[i].v && b[i].k < a[i].k)) {                                  \
                a[i] = b[i];                                                                                 \
            }                                                                                                \
        }                                                                                                    \
    }                                                                                                        \
    static bool equal_##NAME(const void *got, const void *want, size_t i)                                    \
    {                                                                                                        \
        const T *g = (const T *) got + i, *w = (const T *) want + i;                                         \
        return g->v == w->v && g->k == w->k;                                                                 \
    }                                                                                                        \
    static void show_##NAME(const void *buf, size_t i, char *out, size_t len)                                \
    {                                                                                                        \
        const T *x = (const T *) buf + i;                                                                    \
        snprintf(out, len, "(" FMT ",%d)", x->v, x->k);                                                      \
    }

PAIR_KIND(dint, dint_t, 4, "%g")
PAIR_KIND(iint, iint_t, 3, "%d")

static void fill_gap(void *buf, size_t n, int rank, int salt)
{
    gap_t *x = buf;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t h = mix((uint32_t) rank, (uint32_t) i, (uint32_t) salt);
        x[i].pad0 = x[i].pad1 = x[i].pad2 = GAP_SENTINEL;
        x[i].a = (int) (h % 1000);
        x[i].b = -(int) (h % 777);
    }
}
static void combine_gap(void *acc, const void *in, size_t n)
{
    int len = (int) n;
    gap_sum_fn((void *) in, acc, &len, NULL);
}
/* The gaps are not part of the datatype: nobody may write them. */
static bool equal_gap(const void *got, const void *want, size_t i)
{
    const gap_t *g = (const gap_t *) got + i, *w = (const gap_t *) want + i;
    return g->a == w->a && g->b == w->b && GAP_SENTINEL == g->pad0 && GAP_SENTINEL == g->pad1 &&
           GAP_SENTINEL == g->pad2;
}
static void show_gap(const void *buf, size_t i, char *out, size_t len)
{
    const gap_t *x = (const gap_t *) buf + i;
    snprintf(out, len, "(a=%d,b=%d,gaps=%x/%x/%x)", x->a, x->b, (unsigned) x->pad0, (unsigned) x->pad1,
             (unsigned) x->pad2);
}

static void fill_mat(void *buf, size_t n, int rank, int salt)
{
    mat_t *x = buf;
    for (size_t i = 0; i < n; ++i) {
        for (int e = 0; e < 4; ++e) {
            x[i].m[e] = mix((uint32_t) rank, (uint32_t) (4 * i + (size_t) e), (uint32_t) salt);
        }
    }
}
static void combine_mat(void *acc, const void *in, size_t n)
{
    mat_t *a = acc;
    const mat_t *b = in;
    for (size_t i = 0; i < n; ++i) {
        a[i] = mat_mul(&a[i], &b[i]);
    }
}
static bool equal_mat(const void *got, const void *want, size_t i)
{
    return 0 == memcmp((const mat_t *) got + i, (const mat_t *) want + i, sizeof(mat_t));
}
static void show_mat(const void *buf, size_t i, char *out, size_t len)
{
    const mat_t *x = (const mat_t *) buf + i;
    snprintf(out, len, "[%u %u; %u %u]", x->m[0], x->m[1], x->m[2], x->m[3]);
}

static const kind_t reduction_kinds[] = {
    {"int", "sum", sizeof(int), &mpi_int, &op_sum, fill_int_sum, combine_int_sum, equal_int_sum, show_int_sum, true},
    {"int", "prod", sizeof(int), &mpi_int, &op_prod, fill_int_prod, combine_int_prod, equal_int_prod, show_int_prod, false},
    {"int", "max", sizeof(int), &mpi_int, &op_max, fill_int_max, combine_int_max, equal_int_max, show_int_max, false},
    {"int", "min", sizeof(int), &mpi_int, &op_min, fill_int_min, combine_int_min, equal_int_min, show_int_min, false},
    {"int", "band", sizeof(int), &mpi_int, &op_band, fill_int_band, combine_int_band, equal_int_band, show_int_band, false},
    {"int", "bor", sizeof(int), &mpi_int, &op_bor, fill_int_bor, combine_int_bor, equal_int_bor, show_int_bor, false},
    {"int", "bxor", sizeof(int), &mpi_int, &op_bxor, fill_int_bxor, combine_int_bxor, equal_int_bxor, show_int_bxor, false},
    {"int", "land", sizeof(int), &mpi_int, &op_land, fill_int_land, combine_int_land, equal_int_land, show_int_land, false},
    {"int", "lor", sizeof(int), &mpi_int, &op_lor, fill_int_lor, combine_int_lor, equal_int_lor, show_int_lor, false},
    {"int", "lxor", sizeof(int), &mpi_int, &op_lxor, fill_int_lxor, combine_int_lxor, equal_int_lxor, show_int_lxor, false},
    {"long_long", "sum", sizeof(long long), &mpi_llong, &op_sum, fill_llong_sum, combine_llong_sum, equal_llong_sum, show_llong_sum, false},
    {"unsigned_char", "sum", 1, &mpi_uchar, &op_sum, fill_uchar_sum, combine_uchar_sum, equal_uchar_sum, show_uchar_sum, false},
    {"float", "sum", sizeof(float), &mpi_float, &op_sum, fill_float_sum, combine_float_sum, equal_float_sum, show_float_sum, false},
    {"double", "sum", sizeof(double), &mpi_double, &op_sum, fill_double_sum, combine_double_sum, equal_double_sum, show_double_sum, true},
    {"double_int", "minloc", sizeof(dint_t), &mpi_dint, &op_minloc, fill_dint, combine_dint_min, equal_dint, show_dint, false},
    {"double_int", "maxloc", sizeof(dint_t), &mpi_dint, &op_maxloc, fill_dint, combine_dint_max, equal_dint, show_dint, false},
    {"2int", "minloc", sizeof(iint_t), &mpi_2int, &op_minloc, fill_iint, combine_iint_min, equal_iint, show_iint, false},
    {"2int", "maxloc", sizeof(iint_t), &mpi_2int, &op_maxloc, fill_iint, combine_iint_max, equal_iint, show_iint, false},
    {"gap", "user_sum", sizeof(gap_t), &gap_type, &gap_sum_op, fill_gap, combine_gap, equal_gap, show_gap, true},
    {"mat2x2", "user_matmul", sizeof(mat_t), &mat_type, &mat_mul_op, fill_mat, combine_mat, equal_mat, show_mat, true},
};
#define NREDUCTION_KINDS (sizeof(reduction_kinds) / sizeof(reduction_kinds[0]))

static const kind_t movement_kinds[] = {
    {"int", "-", sizeof(int), &mpi_int, NULL, fill_int_bxor, NULL, equal_int_bxor, show_int_bxor, true},
    {"double_int", "-", sizeof(dint_t), &mpi_dint, NULL, fill_dint, NULL, equal_dint, show_dint, false},
    {"gap", "-", sizeof(gap_t), &gap_type, NULL, fill_gap, NULL, equal_gap, show_gap, true},
};
#define NMOVEMENT_KINDS (sizeof(movement_kinds) / sizeof(movement_kinds[0]))

/* Bytes of an output buffer before the call: garbage in data, sentinels in the gaps of gap_t. */
static void init_out(const kind_t *k, void *buf, size_t n)
{
    memset(buf, OUT_GARBAGE, n * k->size);
    if (k->fill == fill_gap) {
        gap_t *x = buf;
        for (size_t i = 0; i < n; ++i) {
            x[i].pad0 = x[i].pad1 = x[i].pad2 = GAP_SENTINEL;
        }
    }
}

static void setup_types(void)
{
    const int blocklens[2] = {1, 1};
    const MPI_Aint displs[2] = {4, 12};
    MPI_Datatype two_ints;
    MPI_Type_create_hindexed(2, blocklens, displs, MPI_INT, &two_ints);
    MPI_Type_create_resized(two_ints, 0, sizeof(gap_t), &gap_type);
    MPI_Type_commit(&gap_type);
    MPI_Type_free(&two_ints);
    MPI_Type_contiguous(4, MPI_UINT32_T, &mat_type);
    MPI_Type_commit(&mat_type);
    MPI_Type_contiguous(2, MPI_INT, &pair_int_type);
    MPI_Type_commit(&pair_int_type);
    MPI_Op_create(gap_sum_fn, 1, &gap_sum_op);
    MPI_Op_create(mat_mul_fn, 0, &mat_mul_op);
}

/* ---------------------------------------------------------------- the run's bookkeeping */

typedef struct ctx {
    const char *coll, *alg, *comm_name;
    MPI_Comm comm;
    int rank, size, world_rank;
    long cases, failures, reports;
    int salt;
} ctx_t;

static void report(ctx_t *c, const kind_t *k, size_t count, bool in_place, int root, size_t index,
                   const void *got, const void *want, const char *what)
{
    char g[128], w[128];
    ++c->failures;
    if (c->reports++ >= MAX_REPORTS) {
        return;
    }
    k->show(got, index, g, sizeof(g));
    k->show(want, index, w, sizeof(w));
    printf("FAIL %s alg=%s np=%d comm=%s count=%zu type=%s op=%s in_place=%d root=%d rank=%d index=%zu: %s got %s "
           "expected %s\n",
           c->coll, c->alg, c->size, c->comm_name, count, k->type_name, k->op_name, in_place, root, c->rank, index,
           what, g, w);
    fflush(stdout);
}

static void check_range(ctx_t *c, const kind_t *k, size_t count, bool in_place, int root, const void *got,
                        const void *want, size_t n, size_t index_base, const char *what)
{
    for (size_t i = 0; i < n; ++i) {
        if (!k->equal(got, want, i)) {
            report(c, k, count, in_place, root, index_base + i, got, want, what);
            return; /* one report per buffer */
        }
    }
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (NULL == p) {
        fprintf(stderr, "hdring_check: out of memory (%zu bytes)\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* While a case repeats (--repeat), its buffers are freed only when its repetitions are over (free_deferred), so
 * that every repeated call has buffers at addresses of its own, never the previous call's. */
#define MAX_DEFERRED 256
static bool repeating;
static void *deferred[MAX_DEFERRED];
static int ndeferred;

static void xfree(void *buf)
{
    if (!repeating) {
        free(buf);
    } else if (ndeferred < MAX_DEFERRED) {
        deferred[ndeferred++] = buf;
    } else {
        fprintf(stderr, "hdring_check: more than %d buffers in one repeated case\n", MAX_DEFERRED);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static void free_deferred(void)
{
    repeating = false;
    while (ndeferred > 0) {
        free(deferred[--ndeferred]);
    }
}

/* want[0..n) = input_0 (op) input_1 (op) ... over ranks, each input being fill(offset .. offset + n) */
static void *expected_reduction(const ctx_t *c, const kind_t *k, size_t total, int salt)
{
    char *want = xmalloc(total * k->size), *next = xmalloc(total * k->size);
    k->fill(want, total, 0, salt);
    for (int r = 1; r < c->size; ++r) {
        k->fill(next, total, r, salt);
        k->combine(want, next, total);
    }
    xfree(next);
    return want;
}

/* ---------------------------------------------------------------- the collectives */

static void run_allreduce(ctx_t *c, const kind_t *k, size_t count, bool in_place)
{
    const int salt = ++c->salt;
    char *sbuf = xmalloc(count * k->size), *rbuf = xmalloc(count * k->size), *orig = xmalloc(count * k->size);
    k->fill(sbuf, count, c->rank, salt);
    k->fill(orig, count, c->rank, salt);
    if (in_place) {
        memcpy(rbuf, sbuf, count * k->size);
    } else {
        init_out(k, rbuf, count);
    }
    kind_allreduce(in_place ? MPI_IN_PLACE : sbuf, rbuf, (int) count, *k->type, *k->op, c->comm);
    char *want = expected_reduction(c, k, count, salt);
    check_range(c, k, count, in_place, -1, rbuf, want, count, 0, "result");
    if (!in_place) {
        check_range(c, k, count, in_place, -1, sbuf, orig, count, 0, "send buffer modified:");
    }
    ++c->cases;
    xfree(want);
    xfree(sbuf);
    xfree(rbuf);
    xfree(orig);
}

/* recvcounts shapes for reduce_scatter: uniform, irregular with zeros, everything to the last rank */
static void shape_counts(int shape, int p, size_t n, int *rcounts)
{
    for (int i = 0; i < p; ++i) {
        switch (shape) {
        case 0:
            rcounts[i] = (int) n;
            break;
        case 1:
            rcounts[i] = 1 == i % 3 ? 0 : (int) n + i;
            break;
        default:
            rcounts[i] = i == p - 1 ? (int) n * p : 0;
            break;
        }
    }
}

static void run_reduce_scatter(ctx_t *c, const kind_t *k, size_t n, int shape, bool block, bool in_place)
{
    const int salt = ++c->salt;
    int *rcounts = xmalloc((size_t) c->size * sizeof(int));
    size_t total = 0, mine_at = 0;
    shape_counts(block ? 0 : shape, c->size, n, rcounts);
    for (int i = 0; i < c->size; ++i) {
        if (i == c->rank) {
            mine_at = total;
        }
        total += (size_t) rcounts[i];
    }
    const size_t mine = (size_t) rcounts[c->rank];
    char *sbuf = xmalloc(total * k->size), *orig = xmalloc(total * k->size);
    char *rbuf = xmalloc((in_place ? total : mine) * k->size);
    k->fill(sbuf, total, c->rank, salt);
    k->fill(orig, total, c->rank, salt);
    if (in_place) {
        memcpy(rbuf, sbuf, total * k->size);
    } else {
        init_out(k, rbuf, mine);
    }
    const void *send = in_place ? MPI_IN_PLACE : sbuf;
    if (block) {
        kind_reduce_scatter_block(send, rbuf, (int) n, *k->type, *k->op, c->comm);
    } else {
        kind_reduce_scatter(send, rbuf, rcounts, *k->type, *k->op, c->comm);
    }
    char *want = expected_reduction(c, k, total, salt);
    check_range(c, k, total, in_place, -1, rbuf, want + mine_at * k->size, mine, mine_at, "result");
    if (!in_place) {
        check_range(c, k, total, in_place, -1, sbuf, orig, total, 0, "send buffer modified:");
    }
    ++c->cases;
    xfree(want);
    xfree(sbuf);
    xfree(orig);
    xfree(rbuf);
    xfree(rcounts);
}

/* Rank r's block of an allgather: element i of the whole vector, generated from the vector index. */
static void fill_block(const kind_t *k, void *buf, size_t n, int rank, int salt)
{
    char *tmp = xmalloc((size_t) (rank + 1) * n * k->size + k->size);
    k->fill(tmp, (size_t) (rank + 1) * n, 0, salt);
    memcpy(buf, tmp + (size_t) rank * n * k->size, n * k->size);
    xfree(tmp);
}

static void run_allgather(ctx_t *c, const kind_t *k, size_t n, bool in_place)
{
    const int salt = ++c->salt;
    const size_t total = n * (size_t) c->size;
    char *sbuf = xmalloc(n * k->size), *rbuf = xmalloc(total * k->size), *want = xmalloc(total * k->size);
    k->fill(want, total, 0, salt);
    fill_block(k, sbuf, n, c->rank, salt);
    init_out(k, rbuf, total);
    if (in_place) {
        memcpy(rbuf + (size_t) c->rank * n * k->size, sbuf, n * k->size);
        kind_allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, (int) n, *k->type, c->comm);
    } else {
        kind_allgather(sbuf, (int) n, *k->type, rbuf, (int) n, *k->type, c->comm);
    }
    check_range(c, k, total, in_place, -1, rbuf, want, total, 0, "result");
    ++c->cases;
    xfree(sbuf);
    xfree(rbuf);
    xfree(want);
}

/* The same n pairs of ints under three (count, datatype) descriptions with one type signature, as ranks may
 * use them in one call: view 0 is 2n MPI_INTs, 1 is n contiguous pairs, 2 is n gap_t (not contiguous). The
 * expected values are gap_t, checked with the gap kind. */
static const kind_t int_pairs_kind = {"int_pairs(mixed views)", "-", sizeof(gap_t), &gap_type, NULL,
                                      fill_gap, NULL, equal_gap, show_gap, true};

static int view_count(int view, size_t n) { return (int) (0 == view ? 2 * n : n); }
static MPI_Datatype view_type(int view) { return 0 == view ? MPI_INT : 1 == view ? pair_int_type : gap_type; }

static void *view_alloc(int view, size_t n)
{
    void *buf = xmalloc(n * sizeof(gap_t));
    if (2 == view) {
        init_out(&int_pairs_kind, buf, n);
    } else {
        memset(buf, OUT_GARBAGE, n * 2 * sizeof(int));
    }
    return buf;
}

static void to_view(int view, void *buf, const gap_t *pairs, size_t n)
{
    if (2 == view) {
        memcpy(buf, pairs, n * sizeof(gap_t));
        return;
    }
    int *x = buf;
    for (size_t i = 0; i < n; ++i) {
        x[2 * i] = pairs[i].a;
        x[2 * i + 1] = pairs[i].b;
    }
}

static void from_view(int view, const void *buf, gap_t *pairs, size_t n)
{
    if (2 == view) {
        memcpy(pairs, buf, n * sizeof(gap_t));
        return;
    }
    const int *x = buf;
    for (size_t i = 0; i < n; ++i) {
        pairs[i].pad0 = pairs[i].pad1 = pairs[i].pad2 = GAP_SENTINEL;
        pairs[i].a = x[2 * i];
        pairs[i].b = x[2 * i + 1];
    }
}

/* Each rank sends its block in one view and receives in another. */
static void run_allgather_mixed(ctx_t *c, size_t n)
{
    const int salt = ++c->salt, sview = (c->rank + 1) % 3, rview = c->rank % 3;
    const size_t total = n * (size_t) c->size;
    gap_t *want = xmalloc(total * sizeof(gap_t)), *got = xmalloc(total * sizeof(gap_t));
    void *sbuf = view_alloc(sview, n), *rbuf = view_alloc(rview, total);
    fill_gap(want, total, 0, salt);
    to_view(sview, sbuf, want + (size_t) c->rank * n, n);
    kind_allgather(sbuf, view_count(sview, n), view_type(sview), rbuf, view_count(rview, n), view_type(rview),
                  c->comm);
    from_view(rview, rbuf, got, total);
    check_range(c, &int_pairs_kind, total, false, -1, got, want, total, 0, "result");
    ++c->cases;
    xfree(sbuf);
    xfree(rbuf);
    xfree(want);
    xfree(got);
}

static void run_bcast(ctx_t *c, const kind_t *k, size_t count, int root)
{
    const int salt = ++c->salt;
    char *buf = xmalloc(count * k->size), *want = xmalloc(count * k->size);
    k->fill(want, count, root, salt);
    if (c->rank == root) {
        memcpy(buf, want, count * k->size);
    } else {
        init_out(k, buf, count);
    }
    kind_bcast(buf, (int) count, *k->type, root, c->comm);
    check_range(c, k, count, false, root, buf, want, count, 0, "result");
    ++c->cases;
    xfree(buf);
    xfree(want);
}

/* Every rank describes the message in its own view. */
static void run_bcast_mixed(ctx_t *c, size_t n, int root)
{
    const int salt = ++c->salt, view = c->rank % 3;
    gap_t *want = xmalloc(n * sizeof(gap_t)), *got = xmalloc(n * sizeof(gap_t));
    void *buf = view_alloc(view, n);
    fill_gap(want, n, root, salt);
    if (c->rank == root) {
        to_view(view, buf, want, n);
    }
    kind_bcast(buf, view_count(view, n), view_type(view), root, c->comm);
    from_view(view, buf, got, n);
    check_range(c, &int_pairs_kind, n, false, root, got, want, n, 0, "result");
    ++c->cases;
    xfree(buf);
    xfree(want);
    xfree(got);
}

/* ---------------------------------------------------------------- the matrix */

typedef struct options {
    const char *colls;
    const char *algs;
    const char *counts;
    const char *types;
    bool quick, repro, large;
    int repeat; /* calls of each case in a row, each with new buffers and data */
} options_t;

/* Runs `call` o->repeat times in a row, its buffers at other addresses each time. */
#define REPEATED(o, call)                                                                                          \
    do {                                                                                                           \
        repeating = (o)->repeat > 1;                                                                               \
        for (int rep_ = 0; rep_ < (o)->repeat; ++rep_) {                                                           \
            call;                                                                                                  \
        }                                                                                                          \
        free_deferred();                                                                                           \
    } while (0)

/* "env,auto," and the algorithms of a collective as hdring's MCA enum lists them (just "env,auto" without
 * hdring loaded). */
static void coll_algs(int coll, char *out, size_t len)
{
    char var[96], names[1024];
    snprintf(var, sizeof(var), "coll_hdring_%s_algorithm", util_coll_names[coll]);
    if (0 != util_cvar_enum_names(var, names, sizeof(names))) {
        names[0] = '\0';
    }
    snprintf(out, len, "env,auto%s%s", names[0] ? "," : "", names);
}

static void starting(const ctx_t *c, const char *what)
{
    if (0 == c->world_rank) {
        printf("hdring_check: starting %s\n", what);
        fflush(stdout);
    }
}

/* --alg LIST selects algorithms by name; without it (or with "all"): auto and every algorithm. "env" runs with
 * whatever the MCA parameters say and is only run when asked for. */
static bool selected(const options_t *o, const char *alg)
{
    if (NULL == o->algs || util_listed(o->algs, "all")) {
        return 0 != strcmp(alg, "env");
    }
    return util_listed(o->algs, alg);
}

static size_t counts_for(const options_t *o, int p, size_t *out)
{
    size_t n = 0;
    if (NULL != o->counts) {
        for (const char *s = o->counts; s && *s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL) {
            out[n++] = strtoul(s, NULL, 10);
        }
        return n;
    }
    const size_t up = (size_t) p;
    size_t all[] = {0, 1, up > 1 ? up - 1 : 2, up, up + 1, 3 * up + 2, 1000 + up, 40003};
    size_t quick[] = {0, 1, up + 1, 3 * up + 2, 1000 + up};
    const size_t *src = o->quick ? quick : all;
    n = o->quick ? sizeof(quick) / sizeof(quick[0]) : sizeof(all) / sizeof(all[0]);
    memcpy(out, src, n * sizeof(size_t));
    return n;
}

static bool is_large(size_t count) { return count >= 10000; }

static void run_collective(ctx_t *c, const options_t *o, int coll)
{
    size_t counts[32];
    const size_t ncounts = counts_for(o, c->size, counts);

    for (size_t ci = 0; ci < ncounts; ++ci) {
        const size_t count = counts[ci];
        if (coll <= 2) {
            for (size_t ki = 0; ki < NREDUCTION_KINDS; ++ki) {
                const kind_t *k = &reduction_kinds[ki];
                if ((is_large(count) && !k->heavy) || (NULL != o->types && !util_listed(o->types, k->type_name))) {
                    continue;
                }
                for (int in_place = 0; in_place <= 1; ++in_place) {
                    if (0 == coll) {
                        REPEATED(o, run_allreduce(c, k, count, in_place));
                    } else {
                        /* per-rank count: about count / p, so the vector is about count */
                        const size_t per = count / (size_t) c->size + (count % 3);
                        const int nshapes = 1 == coll ? 3 : 1;
                        for (int shape = 0; shape < nshapes; ++shape) {
                            REPEATED(o, run_reduce_scatter(c, k, per, shape, 2 == coll, in_place));
                        }
                    }
                }
            }
        } else {
            for (size_t ki = 0; ki < NMOVEMENT_KINDS; ++ki) {
                const kind_t *k = &movement_kinds[ki];
                if ((is_large(count) && !k->heavy) || (NULL != o->types && !util_listed(o->types, k->type_name))) {
                    continue;
                }
                if (3 == coll) {
                    const size_t per = count / (size_t) c->size + (count % 3);
                    REPEATED(o, run_allgather(c, k, per, false));
                    REPEATED(o, run_allgather(c, k, per, true));
                    if (0 == ki) {
                        REPEATED(o, run_allgather_mixed(c, per));
                    }
                } else {
                    const int roots[3] = {0, c->size - 1, c->size / 2};
                    for (int ri = 0; ri < 3; ++ri) {
                        if (ri > 0 && roots[ri] == roots[ri - 1]) {
                            continue;
                        }
                        REPEATED(o, run_bcast(c, k, count, roots[ri]));
                        if (0 == ki) {
                            REPEATED(o, run_bcast_mixed(c, count, roots[ri]));
                        }
                    }
                }
            }
        }
    }
}

/* The communicators each algorithm is checked on. */
typedef struct comms {
    MPI_Comm dup, split, reversed;
} comms_t;

static void with_comms(ctx_t *c, const options_t *o, int coll)
{
    comms_t cs;
    int wr, wp;
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    MPI_Comm_size(MPI_COMM_WORLD, &wp);
    MPI_Comm_dup(MPI_COMM_WORLD, &cs.dup);
    MPI_Comm_split(MPI_COMM_WORLD, wr < (wp + 2) / 3 ? 0 : 1, wr, &cs.split); /* uneven halves */
    MPI_Comm_split(MPI_COMM_WORLD, 0, wp - wr, &cs.reversed);

    const struct {
        const char *name;
        MPI_Comm comm;
    } list[] = {{"world", MPI_COMM_WORLD}, {"dup", cs.dup}, {"split", cs.split}, {"reversed", cs.reversed}};
    for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); ++i) {
        /* MPI_COMM_WORLD was created before any MPI_T write: it only runs what the MCA parameters say */
        const bool env = 0 == strcmp(c->alg, "env");
        if ((0 == i && !env) || (1 == i && env) || (o->quick && 3 == i)) {
            continue;
        }
        char what[160];
        snprintf(what, sizeof(what), "%s alg=%s comm=%s", c->coll, c->alg, list[i].name);
        starting(c, what);
        c->comm = list[i].comm;
        c->comm_name = list[i].name;
        c->salt = 0; /* every rank of a communicator runs the same cases from here, in the same kinds */
        kind_restart();
        MPI_Comm_rank(c->comm, &c->rank);
        MPI_Comm_size(c->comm, &c->size);
        run_collective(c, o, coll);
    }
    MPI_Comm_free(&cs.dup);
    MPI_Comm_free(&cs.split);
    MPI_Comm_free(&cs.reversed);
}

/* Forces `alg` for `coll` (communicators created afterwards use it); "env" keeps what the MCA parameters say.
 * Without hdring loaded only auto and env make sense (they then test whatever serves the call); a named
 * algorithm is an error, not a silent skip. */
static void force(const char *coll, const char *alg)
{
    char var[96];
    if (0 == strcmp(alg, "env")) {
        return;
    }
    snprintf(var, sizeof(var), "coll_hdring_%s_algorithm", coll);
    const int rc = util_cvar_write(var, alg);
    if (rc < 0 || (rc > 0 && 0 != strcmp(alg, "auto"))) {
        if (rc > 0) {
            fprintf(stderr, "hdring_check: %s does not exist (coll/hdring not loaded?): cannot force %s\n", var, alg);
        }
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

/* Bcasts of 37 elements of a datatype, o->repeat in a row, then the datatype freed and one of the same size and
 * another layout created (two ints, contiguous or with an int's gap between them): repeated calls must follow
 * the new layout and leave its gaps alone (an algorithm that cuts the message packs the gapped layout, and sends
 * the contiguous one as it is). Open MPI gives a new datatype the address of the one freed last (seen), so
 * hdring, which keeps the previous call's datatype, must hold it for as long as it does. */
static void run_retyped(ctx_t *c, const options_t *o)
{
    const size_t count = 37;
    char what[160];
    snprintf(what, sizeof(what), "bcast alg=%s comm=dup, datatypes freed and created again between repeated calls",
             c->alg);
    c->comm_name = "dup";
    starting(c, what);
    MPI_Comm_dup(MPI_COMM_WORLD, &c->comm);
    MPI_Comm_rank(c->comm, &c->rank);
    MPI_Comm_size(c->comm, &c->size);
    for (int round = 0; round < 6; ++round) {
        const bool gapped = 1 == round % 2;
        const size_t ints = count * (gapped ? 3 : 2); /* extents: 3 ints (int, gap, int) or 2 */
        MPI_Datatype type;
        if (gapped) {
            MPI_Type_vector(2, 1, 2, MPI_INT, &type);
        } else {
            MPI_Type_contiguous(2, MPI_INT, &type);
        }
        MPI_Type_commit(&type);
        repeating = true;
        for (int rep = 0; rep < o->repeat; ++rep) {
            int *buf = xmalloc(ints * sizeof(int));
            for (size_t i = 0; i < ints; ++i) {
                buf[i] = 0 == c->rank ? (int) mix((uint32_t) round, (uint32_t) rep, (uint32_t) i) : -1;
            }
            kind_bcast(buf, (int) count, type, 0, c->comm);
            for (size_t i = 0; i < ints; ++i) {
                const bool data = !gapped || 1 != i % 3;
                const int want = data || 0 == c->rank ? (int) mix((uint32_t) round, (uint32_t) rep, (uint32_t) i) : -1;
                if (buf[i] != want) {
                    ++c->failures;
                    printf("FAIL bcast alg=%s np=%d comm=dup count=%zu type=%s round=%d call=%d rank=%d int=%zu: "
                           "got %d expected %d\n",
                           c->alg, c->size, count, gapped ? "vector(2,1,2,int)" : "contiguous(2,int)",
                           round, rep, c->rank, i, buf[i], want);
                    fflush(stdout);
                    break;
                }
            }
            ++c->cases;
            xfree(buf);
        }
        free_deferred();
        MPI_Type_free(&type);
    }
    MPI_Comm_free(&c->comm);
}

/* inoutvec = invec (op) inoutvec on ints: a sum and a max, for user operations created and freed in turn */
static void int_sum_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    for (int i = 0; i < *len; ++i) {
        ((int *) inout)[i] += ((const int *) in)[i];
    }
}

static void int_max_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    for (int i = 0; i < *len; ++i) {
        const int a = ((const int *) in)[i], b = ((int *) inout)[i];
        ((int *) inout)[i] = a > b ? a : b;
    }
}

/* Rank r's value at index i: (r + 1) (i mod 1000 + 1), so a sum over p ranks is p (p + 1) / 2 (i mod 1000 + 1)
 * and a max p (i mod 1000 + 1). */
static int interleaved_value(int rank, size_t i) { return (rank + 1) * (int) (i % 1000 + 1); }

/* One reduction of ints checked: an allreduce of n (block 0), or a reduce_scatter_block of n per rank. */
static void interleaved_case(ctx_t *c, bool scatter, size_t n, MPI_Op op, bool max, const char *what)
{
    const size_t total = scatter ? n * (size_t) c->size : n;
    int *in = xmalloc(total * sizeof(int)), *out = xmalloc(n * sizeof(int));
    for (size_t i = 0; i < total; ++i) {
        in[i] = interleaved_value(c->rank, i);
    }
    if (scatter) {
        kind_reduce_scatter_block(in, out, (int) n, MPI_INT, op, c->comm);
    } else {
        kind_allreduce(in, out, (int) n, MPI_INT, op, c->comm);
    }
    const size_t first = scatter ? (size_t) c->rank * n : 0;
    for (size_t i = 0; i < n; ++i) {
        const int unit = (int) ((first + i) % 1000 + 1);
        const int want = max ? c->size * unit : c->size * (c->size + 1) / 2 * unit;
        if (out[i] != want) {
            ++c->failures;
            printf("FAIL %s np=%d comm=dup count=%zu rank=%d index=%zu: got %d expected %d\n", what, c->size, n,
                   c->rank, i, out[i], want);
            fflush(stdout);
            break;
        }
    }
    ++c->cases;
    xfree(in);
    xfree(out);
}

/* Repeated reductions with other calls between them, auto: an allreduce o->repeat times in a row (kept for
 * hdring's repeat path), a reduce_scatter_block of a vector larger each round (its scratch replaces the
 * module's, likely elsewhere), the allreduce again (its scratch found in the new place); then allreduces with a
 * user operation freed and another created between repeated calls (a sum, then a max, in turn). */
static void run_interleaved(ctx_t *c, const options_t *o)
{
    c->coll = "allreduce";
    c->alg = "auto";
    c->comm_name = "dup";
    starting(c, "allreduce alg=auto comm=dup, repeated with other calls and freed operations between");
    MPI_Comm_dup(MPI_COMM_WORLD, &c->comm);
    MPI_Comm_rank(c->comm, &c->rank);
    MPI_Comm_size(c->comm, &c->size);
    for (int round = 0; round < 4; ++round) {
        repeating = true;
        for (int rep = 0; rep < o->repeat; ++rep) {
            interleaved_case(c, false, 1000, MPI_SUM, false, "allreduce (repeated)");
        }
        interleaved_case(c, true, (size_t) 20000 << round, MPI_SUM, false, "reduce_scatter_block (between)");
        interleaved_case(c, false, 1000, MPI_SUM, false, "allreduce (after)");
        free_deferred();
    }
    for (int round = 0; round < 6; ++round) {
        const bool max = 1 == round % 2;
        MPI_Op op;
        MPI_Op_create(max ? int_max_fn : int_sum_fn, 1, &op);
        repeating = true;
        for (int rep = 0; rep < o->repeat; ++rep) {
            interleaved_case(c, false, 1000, op, max, max ? "allreduce (user max)" : "allreduce (user sum)");
        }
        free_deferred();
        MPI_Op_free(&op);
    }
    MPI_Comm_free(&c->comm);
}

static void run_matrix(ctx_t *c, const options_t *o)
{
    for (int coll = 0; coll < UTIL_NCOLLS; ++coll) {
        if (NULL != o->colls && !util_listed(o->colls, util_coll_names[coll])) {
            continue;
        }
        char algs[1024];
        coll_algs(coll, algs, sizeof(algs));
        for (char *alg = strtok(algs, ","); NULL != alg; alg = strtok(NULL, ",")) {
            if (!selected(o, alg)) {
                continue;
            }
            force(util_coll_names[coll], alg);
            c->coll = util_coll_names[coll];
            c->alg = alg;
            with_comms(c, o, coll);
            if (o->repeat > 1 && 0 == strcmp(c->coll, "bcast") && 0 != strcmp(alg, "env")) {
                run_retyped(c, o);
            }
            force(util_coll_names[coll], "auto");
        }
    }
}

/* ---------------------------------------------------------------- floating-point reproducibility */

/* Values from 2^-40 to 2^40 with both signs: the sum depends on the order of additions. */
static void fill_wild(double *x, size_t n, int rank, int salt)
{
    for (size_t i = 0; i < n; ++i) {
        const uint32_t h = mix((uint32_t) rank, (uint32_t) i, (uint32_t) salt);
        x[i] = ldexp((double) (h % 100000 + 1) * (h & 1 ? -1.0 : 1.0), (int) (h >> 8) % 81 - 40 - 17);
    }
}

/* MAX and MIN where IEEE leaves the answer to the operand roles: NaN against numbers, +0 against -0. Any
 * answer is allowed there, but every rank must hold the same bits, run after run; without NaN the value must
 * be the maximum (minimum). */
static void run_repro_roles(ctx_t *c, const char *alg, size_t n)
{
    static const double pool[] = {NAN, 0.0, -0.0, 1.0, -1.0, 0.5};
    const MPI_Op ops[2] = {MPI_MAX, MPI_MIN};
    double *in = xmalloc(n * sizeof(double)), *r[2] = {xmalloc(n * sizeof(double)), xmalloc(n * sizeof(double))};

    for (int oi = 0; oi < 2; ++oi) {
        for (int in_place = 0; in_place <= 1; ++in_place) {
            for (size_t i = 0; i < n; ++i) {
                in[i] = pool[mix((uint32_t) c->rank, (uint32_t) i, (uint32_t) (n + (size_t) oi)) % 6];
            }
            for (int rep = 0; rep < 2; ++rep) {
                if (in_place) {
                    memcpy(r[rep], in, n * sizeof(double));
                    kind_allreduce(MPI_IN_PLACE, r[rep], (int) n, MPI_DOUBLE, ops[oi], c->comm);
                } else {
                    kind_allreduce(in, r[rep], (int) n, MPI_DOUBLE, ops[oi], c->comm);
                }
            }
            ++c->cases;
            const char *op = 0 == oi ? "max" : "min";
            if (0 != memcmp(r[0], r[1], n * sizeof(double))) {
                ++c->failures;
                printf("FAIL allreduce alg=%s op=%s in_place=%d np=%d count=%zu rank=%d: two identical calls gave "
                       "different bits\n", alg, op, in_place, c->size, n, c->rank);
            }
            if (!util_all_equal(c->comm, util_hash(r[0], n * sizeof(double)))) {
                ++c->failures;
                if (0 == c->rank) {
                    printf("FAIL allreduce alg=%s op=%s in_place=%d np=%d count=%zu: ranks hold different bits\n",
                           alg, op, in_place, c->size, n);
                }
            }
            for (size_t i = 0; i < n; ++i) {
                bool nan = false;
                double best = 0 == oi ? -INFINITY : INFINITY;
                for (int q = 0; q < c->size; ++q) {
                    const double v = pool[mix((uint32_t) q, (uint32_t) i, (uint32_t) (n + (size_t) oi)) % 6];
                    nan = nan || isnan(v);
                    best = 0 == oi ? (v > best ? v : best) : (v < best ? v : best);
                }
                if (!nan && r[0][i] != best) {
                    ++c->failures;
                    printf("FAIL allreduce alg=%s op=%s in_place=%d np=%d count=%zu rank=%d index=%zu: %g, not %g\n",
                           alg, op, in_place, c->size, n, c->rank, i, r[0][i], best);
                    break;
                }
            }
        }
    }
    xfree(in);
    xfree(r[0]);
    xfree(r[1]);
}

static void run_repro(ctx_t *c, const options_t *o)
{
    const size_t counts[] = {1, 7, 1000, 40001};
    for (int coll = 0; coll < 3; ++coll) {
        char algs[1024];
        coll_algs(coll, algs, sizeof(algs));
        for (char *alg = strtok(algs, ","); NULL != alg; alg = strtok(NULL, ",")) {
            if (!selected(o, alg)) {
                continue;
            }
            force(util_coll_names[coll], alg);
            char what[160];
            snprintf(what, sizeof(what), "%s alg=%s floating-point reproducibility", util_coll_names[coll], alg);
            starting(c, what);
            MPI_Comm comm;
            MPI_Comm_dup(MPI_COMM_WORLD, &comm);
            c->coll = util_coll_names[coll];
            c->alg = alg;
            c->comm_name = "dup";
            c->comm = comm;
            MPI_Comm_rank(comm, &c->rank);
            MPI_Comm_size(comm, &c->size);
            for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ++ci) {
                const size_t n = counts[ci], per = n / (size_t) c->size + 1, total = per * (size_t) c->size;
                const size_t len = 0 == coll ? n : total, out = 0 == coll ? n : per;
                double *in = xmalloc(len * sizeof(double)), *r1 = xmalloc(len * sizeof(double)),
                       *r2 = xmalloc(len * sizeof(double));
                fill_wild(in, len, c->rank, (int) n);
                for (int rep = 0; rep < 2; ++rep) {
                    double *r = rep ? r2 : r1;
                    if (0 == coll) {
                        kind_allreduce(in, r, (int) n, MPI_DOUBLE, MPI_SUM, comm);
                    } else if (1 == coll) {
                        int *rc = xmalloc((size_t) c->size * sizeof(int));
                        for (int i = 0; i < c->size; ++i) {
                            rc[i] = (int) per;
                        }
                        kind_reduce_scatter(in, r, rc, MPI_DOUBLE, MPI_SUM, comm);
                        xfree(rc);
                    } else {
                        kind_reduce_scatter_block(in, r, (int) per, MPI_DOUBLE, MPI_SUM, comm);
                    }
                }
                ++c->cases;
                if (0 != memcmp(r1, r2, out * sizeof(double))) {
                    ++c->failures;
                    printf("FAIL %s alg=%s np=%d count=%zu rank=%d: two identical calls gave different bits\n", c->coll,
                           alg, c->size, n, c->rank);
                }
                if (0 == coll && !util_all_equal(comm, util_hash(r1, n * sizeof(double)))) {
                    ++c->failures;
                    if (0 == c->rank) {
                        printf("FAIL allreduce alg=%s np=%d count=%zu: ranks hold different bits\n", alg, c->size, n);
                    }
                }
                /* accuracy: within the classic bound p * eps * sum |x| of the exactly rounded sum */
                double *x = xmalloc(len * sizeof(double));
                long double *exact = xmalloc(out * sizeof(long double)), *mag = xmalloc(out * sizeof(long double));
                const size_t first = 0 == coll ? 0 : (size_t) c->rank * per;
                for (size_t i = 0; i < out; ++i) {
                    exact[i] = mag[i] = 0;
                }
                for (int r = 0; r < c->size; ++r) {
                    fill_wild(x, len, r, (int) n);
                    for (size_t i = 0; i < out; ++i) {
                        exact[i] += x[first + i];
                        mag[i] += fabsl((long double) x[first + i]);
                    }
                }
                for (size_t i = 0; i < out; ++i) {
                    if (fabsl((long double) r1[i] - exact[i]) > (long double) c->size * 0x1p-52L * mag[i]) {
                        ++c->failures;
                        printf("FAIL %s alg=%s np=%d count=%zu rank=%d index=%zu: %.17g is not the sum %.17Lg\n",
                               c->coll, alg, c->size, n, c->rank, first + i, r1[i], exact[i]);
                        break;
                    }
                }
                xfree(exact);
                xfree(mag);
                xfree(x);
                xfree(in);
                xfree(r1);
                xfree(r2);
                if (0 == coll) {
                    run_repro_roles(c, alg, n);
                }
            }
            MPI_Comm_free(&comm);
            force(util_coll_names[coll], "auto");
        }
    }
}

/* ---------------------------------------------------------------- more than 2^31 bytes */

static void run_large(ctx_t *c, const options_t *o)
{
    /* Data movement in 1 KiB elements, so counts stay small while byte offsets pass 2^31; reductions (a
     * predefined op needs a predefined type) in ints, 2^29 + 3 of them. */
    enum { INTS = 256 };
    MPI_Datatype kib;
    MPI_Type_contiguous(INTS, MPI_INT, &kib);
    MPI_Type_commit(&kib);
    const size_t elements = ((size_t) 1 << 21) + 3; /* 2 GiB + 3 KiB */

    const char *colls[] = {"allreduce", "allgather", "bcast", "reduce_scatter_block"};
    const int alg_list[] = {0, 3, 4, 2};
    for (int ci = 0; ci < 4; ++ci) {
        char algs[1024];
        bool hier_done = false;
        coll_algs(alg_list[ci], algs, sizeof(algs));
        for (char *alg = strtok(algs, ","); NULL != alg; alg = strtok(NULL, ",")) {
            const bool hier = 0 == strncmp(alg, "hier_", 5);
            if (!selected(o, alg) || (hier && hier_done && (NULL == o->algs || util_listed(o->algs, "all")))) {
                continue;
            }
            hier_done |= hier;
            char what[160];
            snprintf(what, sizeof(what), "%s alg=%s of more than 2^31 bytes", colls[ci], alg);
            starting(c, what);
            force(colls[ci], alg);
            MPI_Comm comm;
            MPI_Comm_dup(MPI_COMM_WORLD, &comm);
            MPI_Comm_rank(comm, &c->rank);
            MPI_Comm_size(comm, &c->size);
            const size_t per = elements / (size_t) c->size + 1;
            const size_t n = 1 == ci || 3 == ci ? per * (size_t) c->size : elements;
            int *buf = xmalloc(n * INTS * sizeof(int));
            long bad = -1;
            if (0 == ci) {
                for (size_t i = 0; i < n * INTS; ++i) {
                    buf[i] = (c->rank + 1) * (int) (i % 1000);
                }
                kind_allreduce(MPI_IN_PLACE, buf, (int) (n * INTS), MPI_INT, MPI_SUM, comm);
                const int factor = c->size * (c->size + 1) / 2;
                for (size_t i = 0; i < n * INTS && bad < 0; ++i) {
                    bad = buf[i] == factor * (int) (i % 1000) ? -1 : (long) i;
                }
            } else if (1 == ci) {
                for (size_t i = (size_t) c->rank * per * INTS; i < (size_t) (c->rank + 1) * per * INTS; ++i) {
                    buf[i] = (int) (i % 100003);
                }
                kind_allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (int) per, kib, comm);
                for (size_t i = 0; i < n * INTS && bad < 0; ++i) {
                    bad = buf[i] == (int) (i % 100003) ? -1 : (long) i;
                }
            } else if (2 == ci) {
                for (size_t i = 0; i < n * INTS; ++i) {
                    buf[i] = 0 == c->rank ? (int) (i % 99991) : -1;
                }
                kind_bcast(buf, (int) n, kib, 0, comm);
                for (size_t i = 0; i < n * INTS && bad < 0; ++i) {
                    bad = buf[i] == (int) (i % 99991) ? -1 : (long) i;
                }
            } else { /* in place: the vector in buf, this rank's block of the sum at its start */
                for (size_t i = 0; i < n * INTS; ++i) {
                    buf[i] = (c->rank + 1) * (int) (i % 1000);
                }
                kind_reduce_scatter_block(MPI_IN_PLACE, buf, (int) (per * INTS), MPI_INT, MPI_SUM, comm);
                const int factor = c->size * (c->size + 1) / 2;
                const size_t first = (size_t) c->rank * per * INTS;
                for (size_t i = 0; i < per * INTS && bad < 0; ++i) {
                    bad = buf[i] == factor * (int) ((first + i) % 1000) ? -1 : (long) (first + i);
                }
            }
            ++c->cases;
            if (bad >= 0) {
                ++c->failures;
                printf("FAIL %s alg=%s np=%d count=%zu (1 KiB elements, %zu bytes) rank=%d: wrong int at %ld\n", colls[ci],
                       alg, c->size, n, n * 1024, c->rank, bad);
            }
            xfree(buf);
            MPI_Comm_free(&comm);
            force(colls[ci], "auto");
        }
    }
    MPI_Type_free(&kib);
}

/* ---------------------------------------------------------------- main */

static void usage(const char *why)
{
    util_usage_exit("hdring_check",
                    "[--coll LIST] [--alg LIST] [--counts LIST] [--types LIST] [--quick] [--repeat N] [--repro] "
                    "[--large] [--kind blocking|nonblocking|persistent|mixed]\n"
                    "(under mpirun; the comment at the top of test/mpi/hdring_check.c says what each does)",
                    why);
}

int main(int argc, char **argv)
{
    int provided;
    options_t o = {.repeat = 1};
    ctx_t c = {0};

    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--coll") && i + 1 < argc) {
            o.colls = argv[++i];
        } else if (0 == strcmp(argv[i], "--alg") && i + 1 < argc) {
            o.algs = argv[++i];
        } else if (0 == strcmp(argv[i], "--counts") && i + 1 < argc) {
            o.counts = argv[++i];
        } else if (0 == strcmp(argv[i], "--types") && i + 1 < argc) {
            o.types = argv[++i];
        } else if (0 == strcmp(argv[i], "--repeat") && i + 1 < argc) {
            o.repeat = atoi(argv[++i]);
            if (o.repeat < 1) {
                usage("--repeat takes a count of at least 1");
            }
        } else if (0 == strcmp(argv[i], "--kind") && i + 1 < argc) {
            if (!kind_parse(argv[++i])) {
                usage("--kind takes blocking, nonblocking, persistent or mixed");
            }
        } else if (0 == strcmp(argv[i], "--quick")) {
            o.quick = true;
        } else if (0 == strcmp(argv[i], "--repro")) {
            o.repro = true;
        } else if (0 == strcmp(argv[i], "--large")) {
            o.large = true;
        } else if (0 == strcmp(argv[i], "--help") || 0 == strcmp(argv[i], "-h")) {
            usage(NULL);
        } else {
            usage("unknown option or missing value");
        }
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &c.world_rank);
    setup_types();

    if (o.repro) {
        run_repro(&c, &o);
    } else if (o.large) {
        run_large(&c, &o);
    } else {
        run_matrix(&c, &o);
        if (o.repeat > 1 && (NULL == o.colls || util_listed(o.colls, "allreduce"))) {
            run_interleaved(&c, &o);
        }
    }

    const long failures = util_sum(MPI_COMM_WORLD, c.failures);
    if (0 == c.world_rank) {
        printf("hdring_check: %ld cases, %ld failures\n", c.cases, failures);
    }
    MPI_Op_free(&gap_sum_op);
    MPI_Op_free(&mat_mul_op);
    MPI_Type_free(&gap_type);
    MPI_Type_free(&mat_type);
    MPI_Type_free(&pair_int_type);
    MPI_T_finalize();
    MPI_Finalize();
    return 0 == failures ? 0 : 1;
}
