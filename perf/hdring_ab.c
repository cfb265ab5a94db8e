/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_ab: hdring against Open MPI's own collectives (the baseline), side by side in one job.
 *
 * The baseline is what serves a communicator when hdring does not: tuned, or han when the job raises its
 * priority above tuned's (--mca coll_han_priority 35: han's priority cannot be written through MPI_T, so a job
 * compares hdring with one of them). The output names it; "tuned" below stands for either.
 *
 * Three duplicates of MPI_COMM_WORLD are bound, through MPI_T writes of coll_hdring_priority before each
 * MPI_Comm_dup, to hdring (auto, or --alg), to tuned, and to tuned again as a control. For every collective
 * and size the three are timed in interleaved order (hdring tuned control / control tuned hdring / ...) in
 * rounds; each sample is the slowest rank's time per call over a batch of at least --batch-ms (5 ms). Reported
 * per size: the median over rounds of the paired ratio hdring/tuned, its min and max, and control/tuned, which
 * should be 1: a control outside 1 +- 5% marks the size as noisy.
 *
 *   mpirun -np 4 hdring_ab [--coll LIST] [--sizes LIST|MIN:MAX] [--alg NAME] [--rounds N] [--batch-ms MS]
 *                          [--csv FILE] [--compare | --churn | --explore] [--separated]
 *                          [--kind nonblocking|persistent [--against-blocking]]
 *
 * --compare times every hdring algorithm of each collective (one communicator each) and tuned, interleaved
 * the same way, and names the fastest per size: the measurements behind the automatic choice's defaults.
 * --contenders LIST times those instead: algorithm names, each optionally with /BYTES, the segment size of a
 * pipelined algorithm (coll_hdring_<coll>_segment_bytes; 0, the default, is the model's), e.g.
 * "ring,ring/1000000000,rhd" for the ring in the model's segments, the ring in whole blocks, and rhd.
 *
 * --churn times communicator churn instead of calls: each sample is a batch of MPI_Comm_dup of MPI_COMM_WORLD,
 * one call of the collective, MPI_Comm_free, with coll_hdring_priority written before the batch so that the
 * duplicates go to hdring, to tuned or (control) to tuned. It measures what a communicator costs: selection,
 * hdring's locality exchange and its first-call plan.
 *
 * --explore times what measured selection (coll_hdring_select) costs an application: per size and round, the
 * first 200 calls on a fresh duplicate bound to hdring (which measures its candidates in them) against 200 on the
 * hdring duplicate that settled long ago, and on tuned; the median of fresh/settled.
 *
 * --separated times each call alone, as the OSU benchmarks do: a barrier before every call, and a sample is the
 * mean over ranks of their time per call (the barrier excluded) instead of the slowest rank's time for the
 * batch. Back to back, calls overlap: a bcast's root starts the next call while its messages still travel, so
 * the pace is set by the busiest rank (a tree's root and its sends); separated, a call's own latency counts.
 *
 * --kind nonblocking times MPI_Iallreduce (...) and its MPI_Wait, persistent MPI_Start and MPI_Wait of a request
 * made once per communicator and size (MPI_Allreduce_init, or MPIX_ in Open MPI 4.1). The baseline is then what
 * serves nonblocking and persistent calls when hdring does not: libnbc. With --against-blocking the baseline and
 * control are hdring's blocking calls instead (two more duplicates bound to hdring): what a nonblocking call or a
 * persistent start costs over the blocking call it replaces.
 *
 * --alg forces one algorithm on the hdring communicator (for every collective measured). To compare with a
 * forced tuned algorithm, start the job with --mca coll_tuned_use_dynamic_rules 1 --mca
 * coll_tuned_<coll>_algorithm N: tuned reads them when its communicators are created; the header says what
 * tuned ran.
 *
 * Sizes are the whole vector in bytes, as coll_hdring_verbose reports them: allreduce and bcast the buffer,
 * reduce_scatter(_block) the input vector (p equal blocks), allgather the output (p blocks). Reductions use
 * MPI_FLOAT and MPI_SUM, data movement MPI_CHAR, as the OSU benchmarks do. Run with MALLOC_MMAP_THRESHOLD_ and
 * MALLOC_TRIM_THRESHOLD_ set (perf/run-ab.sh does): allocator page faults otherwise swing results. After each
 * collective's table, the CPU each rank ran on: with more ranks than cores, which ranks share one moves results.
 */
#define _GNU_SOURCE /* sched_getcpu */
#include <mpi.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_kinds.h"
#include "hdring_mpi_util.h"

#define MAX_SIZES 64
#define MAX_ROUNDS 101
#define MAX_BATCH (1 << 24) /* calls per sample */
#define WARMUP_CALLS 50 /* per size and communicator: past hdring's measuring of its candidates (47 calls) */

enum { COLL_ALLREDUCE, COLL_REDUCE_SCATTER, COLL_REDUCE_SCATTER_BLOCK, COLL_ALLGATHER, COLL_BCAST, NCOLLS };
static const char *const coll_names[NCOLLS] = {"allreduce", "reduce_scatter", "reduce_scatter_block", "allgather",
                                               "bcast"};

typedef struct options {
    bool colls[NCOLLS];
    size_t sizes[MAX_SIZES];
    int nsizes;
    const char *alg, *csv;
    const char *contenders; /* --compare: what to time instead of every algorithm */
    bool compare; /* time every hdring algorithm instead of hdring against tuned */
    bool churn;   /* time dup + one call + free instead of calls */
    bool separated; /* a barrier before every call, each timed alone */
    bool explore;   /* time a fresh communicator's first calls against a settled one's */
    call_kind_t kind;
    bool against_blocking; /* baseline and control: hdring's blocking calls */
    int rounds;
    double batch_s;
} options_t;

#define MAX_CONTENDERS 16

typedef struct bench {
    MPI_Comm comm[3]; /* hdring, tuned, control */
    MPI_Comm algs[NCOLLS][MAX_CONTENDERS]; /* --compare: one communicator per hdring algorithm */
    MPI_Comm book;    /* bookkeeping (tuned): barriers and the max of the timings */
    const char *hdring_priority; /* --churn: the priority binding a duplicate to hdring */
    bool churn, separated;
    call_kind_t kind;
    bool against_blocking;
    int rank, size;
    char *sbuf, *rbuf;
    int *rcounts;
    size_t cap;
} bench_t;

/* The CPU each rank runs on now, in rank order, printed by rank 0 (-1 where the system cannot say). On a node with
 * more ranks than cores, which ranks share a core decides which messages wait for a turn of the scheduler, and
 * small-message results move with it from one job to the next (perf/TOOLS.md). Printed after each table:
 * right after the launch the scheduler has not yet spread the ranks. */
static void print_cpus(const bench_t *b)
{
    int cpu = -1, *cpus = NULL;
#ifdef __linux__
    cpu = sched_getcpu();
#endif
    if (0 == b->rank && NULL == (cpus = calloc((size_t) b->size, sizeof(int)))) {
        fprintf(stderr, "hdring_ab: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Gather(&cpu, 1, MPI_INT, cpus, 1, MPI_INT, 0, b->book);
    if (0 == b->rank) {
        printf("# CPUs of ranks 0-%d after this table:", b->size - 1);
        for (int i = 0; i < b->size; ++i) {
            printf(" %d", cpus[i]);
        }
        printf("\n");
        free(cpus);
    }
}

/* ---------------------------------------------------------------- MPI_T */

static void cvar_must(const char *name, const char *value)
{
    const int rc = util_cvar_write(name, value);
    if (0 != rc) {
        if (rc > 0) {
            fprintf(stderr, "hdring_ab: no MCA variable %s (is the component loaded?)\n", name);
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static call_kind_t measured_kind; /* what the baseline is depends on it */
static bool baseline_blocking;    /* --against-blocking */

/* Whether the job's ranks span several nodes (han serves only such communicators: on one node it declines). */
static bool spans_nodes(void)
{
    static int answer = -1;
    if (answer < 0) {
        MPI_Comm node;
        int world, local;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        MPI_Comm_size(MPI_COMM_WORLD, &world);
        MPI_Comm_size(node, &local);
        MPI_Comm_free(&node);
        answer = local < world;
    }
    return answer;
}

/* The component serving communicators hdring declines: han if the job ranks it above tuned and spans nodes (Open
 * MPI 5 ranks it so by default), else tuned; libnbc for nonblocking and persistent calls. */
static const char *baseline(void)
{
    int han = -1, tuned = 30;
    if (baseline_blocking) {
        return "hdring-blocking";
    }
    if (KIND_BLOCKING != measured_kind) {
        return "libnbc";
    }
    util_cvar_read_int("coll_tuned_priority", &tuned);
    return 0 == util_cvar_read_int("coll_han_priority", &han) && han > tuned && spans_nodes() ? "han" : "tuned";
}

/* What the baseline runs: its default decision, or (tuned) an algorithm forced for the whole job. */
static const char *tuned_label(int coll)
{
    static char label[96];
    int dynamic = 0, forced = 0;
    char name[96];
    snprintf(name, sizeof(name), "coll_tuned_%s_algorithm", coll_names[coll]);
    if (0 == strcmp(baseline(), "tuned") && 0 == util_cvar_read_int("coll_tuned_use_dynamic_rules", &dynamic) &&
        dynamic && 0 == util_cvar_read_int(name, &forced) && forced > 0) {
        snprintf(label, sizeof(label), "forced algorithm %d", forced);
        return label;
    }
    return "its default decision";
}

/* ---------------------------------------------------------------- one collective call */

/* Persistent requests made so far: one per communicator, collective and size, the oldest replaced. */
#define KEPT 16
static struct {
    MPI_Comm comm;
    int coll;
    size_t bytes;
    MPI_Request r;
} kept[KEPT];
static int nkept, next_kept;

static MPI_Request persistent(const bench_t *b, int coll, size_t bytes, MPI_Comm comm)
{
    const int p = b->size;
    for (int i = 0; i < nkept; ++i) {
        if (kept[i].comm == comm && kept[i].coll == coll && kept[i].bytes == bytes) {
            return kept[i].r;
        }
    }
    const bool reused = nkept == KEPT; /* a slot never used holds no request (zeroes, not MPI_REQUEST_NULL) */
    const int i = reused ? next_kept++ % KEPT : nkept++;
    if (reused) {
        MPI_Request_free(&kept[i].r);
    }
    kept[i].comm = comm;
    kept[i].coll = coll;
    kept[i].bytes = bytes;
    switch (coll) {
    case COLL_ALLREDUCE:
        kind_allreduce_init(b->sbuf, b->rbuf, (int) (bytes / sizeof(float)), MPI_FLOAT, MPI_SUM, comm, &kept[i].r);
        break;
    case COLL_REDUCE_SCATTER:
        kind_reduce_scatter_init(b->sbuf, b->rbuf, b->rcounts, MPI_FLOAT, MPI_SUM, comm, &kept[i].r);
        break;
    case COLL_REDUCE_SCATTER_BLOCK:
        kind_reduce_scatter_block_init(b->sbuf, b->rbuf, (int) (bytes / sizeof(float) / (size_t) p), MPI_FLOAT,
                                       MPI_SUM, comm, &kept[i].r);
        break;
    case COLL_ALLGATHER:
        kind_allgather_init(b->sbuf, (int) (bytes / (size_t) p), MPI_CHAR, b->rbuf, (int) (bytes / (size_t) p),
                            MPI_CHAR, comm, &kept[i].r);
        break;
    default:
        kind_bcast_init(b->rbuf, (int) bytes, MPI_CHAR, 0, comm, &kept[i].r);
        break;
    }
    return kept[i].r;
}

/* A nonblocking call, or a start of its persistent request, and its MPI_Wait. */
static void call_and_wait(const bench_t *b, int coll, size_t bytes, MPI_Comm comm)
{
    const int p = b->size;
    MPI_Request r = MPI_REQUEST_NULL;
    if (KIND_PERSISTENT == b->kind) {
        r = persistent(b, coll, bytes, comm);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        return;
    }
    switch (coll) {
    case COLL_ALLREDUCE:
        MPI_Iallreduce(b->sbuf, b->rbuf, (int) (bytes / sizeof(float)), MPI_FLOAT, MPI_SUM, comm, &r);
        break;
    case COLL_REDUCE_SCATTER:
        MPI_Ireduce_scatter(b->sbuf, b->rbuf, b->rcounts, MPI_FLOAT, MPI_SUM, comm, &r);
        break;
    case COLL_REDUCE_SCATTER_BLOCK:
        MPI_Ireduce_scatter_block(b->sbuf, b->rbuf, (int) (bytes / sizeof(float) / (size_t) p), MPI_FLOAT, MPI_SUM,
                                  comm, &r);
        break;
    case COLL_ALLGATHER:
        MPI_Iallgather(b->sbuf, (int) (bytes / (size_t) p), MPI_CHAR, b->rbuf, (int) (bytes / (size_t) p), MPI_CHAR,
                       comm, &r);
        break;
    default:
        MPI_Ibcast(b->rbuf, (int) bytes, MPI_CHAR, 0, comm, &r);
        break;
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static void call(const bench_t *b, int coll, size_t bytes, MPI_Comm comm)
{
    const int p = b->size;
    if (KIND_BLOCKING != b->kind && (!b->against_blocking || comm == b->comm[0])) {
        call_and_wait(b, coll, bytes, comm);
        return;
    }
    switch (coll) {
    case COLL_ALLREDUCE:
        MPI_Allreduce(b->sbuf, b->rbuf, (int) (bytes / sizeof(float)), MPI_FLOAT, MPI_SUM, comm);
        break;
    case COLL_REDUCE_SCATTER:
        MPI_Reduce_scatter(b->sbuf, b->rbuf, b->rcounts, MPI_FLOAT, MPI_SUM, comm);
        break;
    case COLL_REDUCE_SCATTER_BLOCK:
        MPI_Reduce_scatter_block(b->sbuf, b->rbuf, (int) (bytes / sizeof(float) / (size_t) p), MPI_FLOAT, MPI_SUM, comm);
        break;
    case COLL_ALLGATHER:
        MPI_Allgather(b->sbuf, (int) (bytes / (size_t) p), MPI_CHAR, b->rbuf, (int) (bytes / (size_t) p), MPI_CHAR, comm);
        break;
    default:
        MPI_Bcast(b->rbuf, (int) bytes, MPI_CHAR, 0, comm);
        break;
    }
}

/* --separated: seconds per call for `iters` calls, each after a barrier, averaged over calls and ranks. */
static double timed_separated(const bench_t *b, int coll, size_t bytes, MPI_Comm comm, int iters)
{
    double sum = 0, total;
    for (int i = 0; i < iters; ++i) {
        MPI_Barrier(b->book);
        const double t0 = MPI_Wtime();
        call(b, coll, bytes, comm);
        sum += MPI_Wtime() - t0;
    }
    sum /= iters;
    MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, b->book);
    return total / b->size;
}

/* Seconds per call for `iters` calls, the slowest rank's (with --separated, timed_separated's mean). With
 * --churn, per duplicate + call + free instead; the duplicates go where `comm` goes (to hdring for comm[0], to
 * tuned otherwise). */
static double timed(const bench_t *b, int coll, size_t bytes, MPI_Comm comm, int iters)
{
    if (b->separated) {
        return timed_separated(b, coll, bytes, comm, iters);
    }
    if (b->churn) {
        cvar_must("coll_hdring_priority", comm == b->comm[0] ? b->hdring_priority : "-1");
    }
    MPI_Barrier(b->book);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
        if (b->churn) {
            MPI_Comm dup;
            MPI_Comm_dup(MPI_COMM_WORLD, &dup);
            call(b, coll, bytes, dup);
            MPI_Comm_free(&dup);
        } else {
            call(b, coll, bytes, comm);
        }
    }
    double t = (MPI_Wtime() - t0) / iters, slowest;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, b->book);
    return slowest;
}

static int cmp(const void *x, const void *y)
{
    const double a = *(const double *) x, c = *(const double *) y;
    return a < c ? -1 : a > c;
}

static double median(double *v, int n)
{
    qsort(v, (size_t) n, sizeof(*v), cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The sizes a collective can take at p ranks: whole elements, p equal blocks. */
static size_t usable(int coll, size_t bytes, int p)
{
    const size_t unit = (COLL_ALLREDUCE == coll || COLL_BCAST == coll) ? (COLL_ALLREDUCE == coll ? 4 : 1)
                        : COLL_ALLGATHER == coll                        ? (size_t) p
                                                                        : 4 * (size_t) p;
    return bytes / unit * unit;
}

/* Sets up one size: the bytes the collective can take at p ranks, with recvcounts to match; false to skip. */
static bool prepare(bench_t *b, int coll, size_t requested, size_t *bytes)
{
    *bytes = usable(coll, requested, b->size);
    for (int i = 0; i < b->size; ++i) {
        b->rcounts[i] = (int) (*bytes / sizeof(float) / (size_t) b->size);
    }
    return 0 != *bytes || 0 == requested;
}

typedef struct on_tuned {
    const bench_t *b;
    int coll;
    size_t bytes;
} on_tuned_t;

static double timed_on_tuned(void *ctx, int calls)
{
    const on_tuned_t *x = ctx;
    return timed(x->b, x->coll, x->bytes, x->b->comm[1], calls);
}

/* Calls per sample, so that a sample lasts at least batch_s: sized on the tuned communicator. */
static int batch_iters(const bench_t *b, const options_t *o, int coll, size_t bytes)
{
    on_tuned_t x = {b, coll, bytes};
    return util_calls_per_sample(timed_on_tuned, &x, o->batch_s, MAX_BATCH);
}

/* A size as people read it: "4 B", "1 KiB", "64 KiB", "4 MiB"; "~16 KiB" for a size a little off a whole unit
 * (hdring_ab takes whole blocks: 16383 B at 3 ranks). */
static const char *size_text(size_t bytes, char *buf, size_t len)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB"};
    int u = 0;
    size_t whole = 1;
    while (u < 3 && bytes >= whole * 1024) {
        whole *= 1024;
        ++u;
    }
    if (0 == bytes % whole) {
        snprintf(buf, len, "%zu %s", bytes / whole, unit[u]);
        return buf;
    }
    double v = (double) bytes / (double) whole;
    if (v >= 999.5 && u < 3) {
        v /= 1024;
        ++u;
    }
    snprintf(buf, len, "~%.3g %s", v, unit[u]);
    return buf;
}

/* The q-quantile of sorted v[0..n-1], interpolated. */
static double quantile(const double *v, int n, double q)
{
    const double at = q * (n - 1);
    const int lo = (int) at;
    return lo + 1 < n ? v[lo] + (at - lo) * (v[lo + 1] - v[lo]) : v[n - 1];
}

static void run(bench_t *b, const options_t *o, int coll, FILE *csv)
{
    const int order[6][3] = {{0, 1, 2}, {2, 1, 0}, {1, 2, 0}, {0, 2, 1}, {2, 0, 1}, {1, 0, 2}};
    double hd_ratio[MAX_ROUNDS], ctl_ratio[MAX_ROUNDS], t_hd[MAX_ROUNDS], t_tu[MAX_ROUNDS];

    if (0 == b->rank) {
        char them[32];
        snprintf(them, sizeof(them), "%s (us)", baseline());
        printf("\n# %s%s%s, %d ranks: hdring (%s) vs %s (%s), %d interleaved rounds\n", coll_names[coll],
               KIND_NONBLOCKING == o->kind  ? " nonblocking (the call and MPI_Wait)"
               : KIND_PERSISTENT == o->kind ? " persistent (MPI_Start and MPI_Wait)"
                                            : "",
               o->churn      ? " churn (MPI_Comm_dup, one call, MPI_Comm_free)"
               : o->separated ? " separated (a barrier before each call; mean of the ranks' times per call)"
                              : "",
               b->size, o->alg ? o->alg : "auto",
               baseline(), tuned_label(coll), o->rounds);
        printf("# ratio: the median over rounds of each round's hdring/%s time (so not the quotient of the two\n"
               "# median times); q1-q3 its interquartile range, min and max its extremes\n", baseline());
        printf("%-12s %12s %12s %7s %7s %7s %7s %7s %8s  %s\n", "# size", "hdring (us)", them, "ratio", "q1", "q3",
               "min", "max", "control", "note");
    }
    for (int si = 0; si < o->nsizes; ++si) {
        size_t bytes;
        if (!prepare(b, coll, o->sizes[si], &bytes)) {
            continue;
        }
        for (int c = 0; c < 3; ++c) { /* warm up, past hdring's measuring of its candidates (HDRING_SELECT_CALLS) */
            for (int w = 0; w < WARMUP_CALLS; ++w) {
                call(b, coll, bytes, b->comm[c]);
            }
        }
        const int iters = batch_iters(b, o, coll, bytes);
        for (int r = 0; r < o->rounds; ++r) {
            double t[3];
            for (int k = 0; k < 3; ++k) {
                const int c = order[r % 6][k];
                t[c] = timed(b, coll, bytes, b->comm[c], iters);
            }
            hd_ratio[r] = t[0] / t[1];
            ctl_ratio[r] = t[2] / t[1];
            t_hd[r] = t[0];
            t_tu[r] = t[1];
        }
        if (0 == b->rank) {
            const int n = o->rounds;
            const double med = median(hd_ratio, n); /* sorts */
            const double q1 = quantile(hd_ratio, n, 0.25), q3 = quantile(hd_ratio, n, 0.75);
            const double mn = hd_ratio[0], mx = hd_ratio[n - 1];
            const double ctl = median(ctl_ratio, n);
            const double hd = median(t_hd, n), tu = median(t_tu, n);
            const bool noisy = ctl < 0.95 || ctl > 1.05;
            char size[32];
            printf("%-12s %12.2f %12.2f %7.3f %7.3f %7.3f %7.3f %7.3f %8.3f  %s\n", size_text(bytes, size, sizeof(size)),
                   hd * 1e6, tu * 1e6, med, q1, q3, mn, mx, ctl, noisy ? "noisy: control outside 1+-5%" : "");
            fflush(stdout);
            if (NULL != csv) {
                fprintf(csv, "%s,%d,%s,%zu,%.3f,%.3f,%.5f,%.5f,%.5f,%.5f,%.5f,%.5f,%s\n", coll_names[coll], b->size,
                        o->alg ? o->alg : "auto", bytes, hd * 1e6, tu * 1e6, med, mn, mx, ctl, q1, q3, baseline());
            }
        }
    }
}

/* ---------------------------------------------------------------- --compare: every hdring algorithm */

/* The hdring algorithms of each collective, from its MCA enum (the registry's names), or --contenders. */
static char alg_names[NCOLLS][1024];
static const char *coll_algs[NCOLLS][MAX_CONTENDERS];

/* --explore: what measured selection costs. Per size and round, EXPLORE_CALLS calls on a fresh duplicate bound to
 * hdring (its first calls measure the candidates) against as many on the hdring communicator that settled long
 * ago (running its winner from the start) and on tuned, in alternating order; the ratio fresh/settled per round,
 * its median reported. */
#define EXPLORE_CALLS 200
static double timed_calls(const bench_t *b, int coll, size_t bytes, MPI_Comm comm)
{
    MPI_Barrier(b->book);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < EXPLORE_CALLS; ++i) {
        call(b, coll, bytes, comm);
    }
    double t = MPI_Wtime() - t0, slowest;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, b->book);
    return slowest;
}

static void run_explore(bench_t *b, const options_t *o, int coll)
{
    if (0 == b->rank) {
        printf("# %s, %d ranks: the first %d calls on a fresh communicator (measuring) against %d on one settled "
               "long ago; medians of %d rounds\n",
               coll_names[coll], b->size, EXPLORE_CALLS, EXPLORE_CALLS, o->rounds);
        printf("%-12s %14s %14s %12s %9s %9s %9s\n", "# size", "fresh (us)", "settled (us)", "tuned (us)",
               "fresh/set", "min", "max");
    }
    for (int si = 0; si < o->nsizes; ++si) {
        size_t bytes;
        if (!prepare(b, coll, o->sizes[si], &bytes)) {
            continue;
        }
        for (int w = 0; w < WARMUP_CALLS; ++w) {
            call(b, coll, bytes, b->comm[0]);
            call(b, coll, bytes, b->comm[1]);
        }
        double ratio[MAX_ROUNDS], fresh[MAX_ROUNDS], settled[MAX_ROUNDS], tuned[MAX_ROUNDS];
        for (int r = 0; r < o->rounds; ++r) {
            MPI_Comm dup;
            MPI_Comm_dup(MPI_COMM_WORLD, &dup); /* hdring's priority is in force: a new module, nothing decided */
            if (r % 2) {
                settled[r] = timed_calls(b, coll, bytes, b->comm[0]);
                fresh[r] = timed_calls(b, coll, bytes, dup);
            } else {
                fresh[r] = timed_calls(b, coll, bytes, dup);
                settled[r] = timed_calls(b, coll, bytes, b->comm[0]);
            }
            tuned[r] = timed_calls(b, coll, bytes, b->comm[1]);
            MPI_Comm_free(&dup);
            ratio[r] = fresh[r] / settled[r];
        }
        if (0 == b->rank) {
            char text[32];
            const int n = o->rounds;
            const double med = median(ratio, n); /* sorts */
            const double lo = ratio[0], hi = ratio[n - 1];
            printf("%-12s %14.1f %14.1f %12.1f %9.3f %9.3f %9.3f\n", size_text(bytes, text, sizeof(text)),
                   median(fresh, n) * 1e6, median(settled, n) * 1e6, median(tuned, n) * 1e6, med, lo, hi);
        }
    }
}

static void list_algorithms(const char *contenders)
{
    for (int c = 0; c < NCOLLS; ++c) {
        char var[96];
        int n = 0;
        snprintf(var, sizeof(var), "coll_hdring_%s_algorithm", coll_names[c]);
        if (NULL != contenders) {
            snprintf(alg_names[c], sizeof(alg_names[c]), "%s", contenders);
        } else if (0 != util_cvar_enum_names(var, alg_names[c], sizeof(alg_names[c]))) {
            fprintf(stderr, "hdring_ab: cannot read the values of %s\n", var);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        for (char *name = strtok(alg_names[c], ","); NULL != name && n < MAX_CONTENDERS - 1; name = strtok(NULL, ",")) {
            coll_algs[c][n++] = name;
        }
        coll_algs[c][n] = NULL;
    }
}

static int nalgs(int coll)
{
    int n = 0;
    while (n < MAX_CONTENDERS && NULL != coll_algs[coll][n]) {
        ++n;
    }
    return n;
}

static void run_compare(bench_t *b, const options_t *o, int coll, FILE *csv)
{
    const int n = nalgs(coll) + 1; /* the algorithms, then tuned */
    double t[MAX_ROUNDS][MAX_CONTENDERS + 1];

    if (0 == b->rank) {
        printf("\n# %s, %d ranks: every hdring algorithm and %s (%s), us per call%s, medians of %d interleaved "
               "rounds\n%-12s", coll_names[coll], b->size, baseline(), tuned_label(coll),
               o->separated ? " (a barrier before each call; mean of the ranks' times)" : "", o->rounds, "# Size");
        for (int a = 0; a < n - 1; ++a) {
            printf(" %18s", coll_algs[coll][a]);
        }
        printf(" %12s  %s\n", baseline(), "fastest");
    }
    for (int si = 0; si < o->nsizes; ++si) {
        size_t bytes;
        if (!prepare(b, coll, o->sizes[si], &bytes)) {
            continue;
        }
        for (int a = 0; a < n; ++a) { /* warm up */
            call(b, coll, bytes, a < n - 1 ? b->algs[coll][a] : b->comm[1]);
        }
        const int iters = batch_iters(b, o, coll, bytes);
        for (int r = 0; r < o->rounds; ++r) {
            for (int k = 0; k < n; ++k) { /* rotate, and reverse every other round */
                const int a = (r % 2 ? n - 1 - k + r : k + r) % n;
                t[r][a] = timed(b, coll, bytes, a < n - 1 ? b->algs[coll][a] : b->comm[1], iters);
            }
        }
        if (0 == b->rank) {
            double med[MAX_CONTENDERS + 1], col[MAX_ROUNDS];
            int best = 0;
            for (int a = 0; a < n; ++a) {
                for (int r = 0; r < o->rounds; ++r) {
                    col[r] = t[r][a];
                }
                med[a] = median(col, o->rounds);
                best = a < n - 1 && med[a] < med[best] ? a : best;
            }
            printf("%-12zu", bytes);
            for (int a = 0; a < n - 1; ++a) {
                printf(" %18.2f", med[a] * 1e6);
            }
            printf(" %12.2f  %s\n", med[n - 1] * 1e6, coll_algs[coll][best]);
            fflush(stdout);
            if (NULL != csv) {
                for (int a = 0; a < n; ++a) {
                    fprintf(csv, "%s,%d,%s,%zu,%.3f\n", coll_names[coll], b->size,
                            a < n - 1 ? coll_algs[coll][a] : baseline(), bytes, med[a] * 1e6);
                }
            }
        }
    }
}

/* ---------------------------------------------------------------- setup */

static void usage(const char *why)
{
    util_usage_exit("hdring_ab",
                    "[--coll LIST] [--sizes LIST|MIN:MAX] [--alg NAME] [--rounds N] [--batch-ms MS] [--csv FILE] "
                    "[--compare [--contenders LIST] | --churn | --explore] [--separated] [--kind nonblocking|persistent "
                    "[--against-blocking]]\n(under "
                    "mpirun; the comment at the top "
                    "of perf/hdring_ab.c and perf/TOOLS.md say what each does)",
                    why);
}

static void parse(int argc, char **argv, options_t *o)
{
    o->rounds = 11;
    o->batch_s = 5e-3;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (0 == strcmp(arg, "--help") || 0 == strcmp(arg, "-h")) {
            usage(NULL);
        }
        const bool flag =
            0 == strcmp(arg, "--compare") || 0 == strcmp(arg, "--churn") || 0 == strcmp(arg, "--separated") ||
            0 == strcmp(arg, "--against-blocking") || 0 == strcmp(arg, "--explore");
        if (NULL == val && !flag) {
            usage("missing value");
        }
        ++i;
        if (0 == strcmp(arg, "--coll")) {
            for (int c = 0; c < NCOLLS; ++c) {
                char list[256];
                snprintf(list, sizeof(list), ",%s,", val);
                char item[64];
                snprintf(item, sizeof(item), ",%s,", coll_names[c]);
                o->colls[c] = NULL != strstr(list, item) || 0 == strcmp(val, "all");
            }
        } else if (0 == strcmp(arg, "--sizes")) {
            char *end;
            const size_t lo = strtoull(val, &end, 10);
            o->nsizes = 0;
            if (':' == *end) { /* MIN:MAX, factors of 4 */
                const size_t hi = strtoull(end + 1, NULL, 10);
                for (size_t s = lo; s <= hi && o->nsizes < MAX_SIZES; s *= 4) {
                    o->sizes[o->nsizes++] = s;
                    if (0 == s) {
                        break;
                    }
                }
            } else {
                for (const char *q = val; q && *q && o->nsizes < MAX_SIZES; q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL) {
                    o->sizes[o->nsizes++] = strtoull(q, NULL, 10);
                }
            }
        } else if (0 == strcmp(arg, "--alg")) {
            o->alg = val;
        } else if (0 == strcmp(arg, "--contenders")) {
            o->contenders = val;
        } else if (flag) {
            o->compare |= 0 == strcmp(arg, "--compare");
            o->churn |= 0 == strcmp(arg, "--churn");
            o->separated |= 0 == strcmp(arg, "--separated");
            o->explore |= 0 == strcmp(arg, "--explore");
            o->against_blocking |= 0 == strcmp(arg, "--against-blocking");
            --i; /* no value */
        } else if (0 == strcmp(arg, "--kind")) {
            if (!kind_parse(val) || KIND_MIXED == kind_mode) {
                usage("--kind takes blocking, nonblocking or persistent");
            }
            o->kind = kind_mode;
        } else if (0 == strcmp(arg, "--rounds")) {
            o->rounds = atoi(val);
            if (o->rounds < 1 || o->rounds > MAX_ROUNDS) {
                usage("--rounds takes 1 to 101");
            }
        } else if (0 == strcmp(arg, "--batch-ms")) {
            o->batch_s = atof(val) / 1e3;
        } else if (0 == strcmp(arg, "--csv")) {
            o->csv = val;
        } else {
            usage("unknown option");
        }
    }
    if (o->compare && o->churn) {
        usage("--compare and --churn do not go together");
    }
    if (o->explore && (o->compare || o->churn || o->separated || KIND_BLOCKING != o->kind)) {
        usage("--explore times blocking calls back to back, alone");
    }
    if (o->separated && o->churn) {
        usage("--separated times calls, --churn communicators: not both");
    }
    if (o->against_blocking && (KIND_BLOCKING == o->kind || o->compare || o->churn)) {
        usage("--against-blocking goes with --kind nonblocking or persistent, without --compare or --churn");
    }
    if (NULL != o->contenders && !o->compare) {
        usage("--contenders goes with --compare");
    }
    if (0 == o->nsizes) {
        for (size_t s = 4; s <= ((size_t) 4 << 20); s *= 4) {
            o->sizes[o->nsizes++] = s;
        }
    }
    bool any = false;
    for (int c = 0; c < NCOLLS; ++c) {
        any |= o->colls[c];
    }
    if (!any) {
        for (int c = 0; c < NCOLLS; ++c) {
            o->colls[c] = true;
        }
    }
}

int main(int argc, char **argv)
{
    options_t o = {0};
    bench_t b = {0};
    int provided, priority;
    char value[32];
    FILE *csv = NULL;

    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &b.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b.size);
    spans_nodes(); /* collective: every rank answers it now, before rank 0 alone asks */
    parse(argc, argv, &o);

    if (0 != util_cvar_read_int("coll_hdring_priority", &priority)) {
        if (0 == b.rank) {
            fprintf(stderr, "hdring_ab: coll/hdring is not loaded (see README: Install, use, uninstall)\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (priority < 0) {
        priority = 40;
    }
    list_algorithms(o.contenders);
    for (int c = 0; c < NCOLLS; ++c) {
        char name[96];
        snprintf(name, sizeof(name), "coll_hdring_%s_algorithm", coll_names[c]);
        if (o.colls[c] && NULL != o.alg) {
            cvar_must(name, o.alg);
        }
    }
    snprintf(value, sizeof(value), "%d", priority);
    cvar_must("coll_hdring_priority", value);
    MPI_Comm_dup(MPI_COMM_WORLD, &b.comm[0]);
    for (int c = 0; c < NCOLLS && o.compare; ++c) {
        char name[96];
        snprintf(name, sizeof(name), "coll_hdring_%s_algorithm", coll_names[c]);
        for (int a = 0; a < nalgs(c) && o.colls[c]; ++a) { /* NAME or NAME/SEGMENT_BYTES */
            char alg[64], segment_var[96];
            const char *slash = strchr(coll_algs[c][a], '/');
            snprintf(alg, sizeof(alg), "%.*s", NULL == slash ? 63 : (int) (slash - coll_algs[c][a]), coll_algs[c][a]);
            snprintf(segment_var, sizeof(segment_var), "coll_hdring_%s_segment_bytes", coll_names[c]);
            cvar_must(name, alg);
            if (NULL != slash) {
                cvar_must(segment_var, slash + 1);
            }
            MPI_Comm_dup(MPI_COMM_WORLD, &b.algs[c][a]);
            if (NULL != slash) {
                cvar_must(segment_var, "0");
            }
        }
        cvar_must(name, "auto");
    }
    cvar_must("coll_hdring_priority", o.against_blocking ? value : "-1");
    MPI_Comm_dup(MPI_COMM_WORLD, &b.comm[1]);
    MPI_Comm_dup(MPI_COMM_WORLD, &b.comm[2]);
    MPI_Comm_dup(MPI_COMM_WORLD, &b.book);
    cvar_must("coll_hdring_priority", value);
    b.churn = o.churn;
    b.separated = o.separated;
    b.kind = measured_kind = o.kind;
    b.against_blocking = baseline_blocking = o.against_blocking;
    b.hdring_priority = value;

    size_t max = 0;
    for (int i = 0; i < o.nsizes; ++i) {
        max = o.sizes[i] > max ? o.sizes[i] : max;
    }
    b.cap = max + 64;
    b.sbuf = calloc(1, b.cap);
    b.rbuf = calloc(1, b.cap);
    b.rcounts = calloc((size_t) b.size, sizeof(int));
    if (NULL == b.sbuf || NULL == b.rbuf || NULL == b.rcounts) {
        usage("out of memory");
    }
    if (0 == b.rank) {
        char host[MPI_MAX_PROCESSOR_NAME];
        int len;
        MPI_Get_processor_name(host, &len);
        const char *mmap = getenv("MALLOC_MMAP_THRESHOLD_"), *trim = getenv("MALLOC_TRIM_THRESHOLD_");
        printf("# hdring_ab on %s, %d ranks; ratio = hdring/%s time (< 1: hdring faster), medians of paired "
               "rounds; control = %s/%s\n", host, b.size, baseline(), baseline(), baseline());
        printf("# MALLOC_MMAP_THRESHOLD_=%s MALLOC_TRIM_THRESHOLD_=%s%s\n", mmap ? mmap : "(unset)",
               trim ? trim : "(unset)", mmap && trim ? "" : "  WARNING: allocator page faults may swing results");
        if (NULL != o.csv && NULL == (csv = fopen(o.csv, "a"))) {
            fprintf(stderr, "hdring_ab: cannot write %s\n", o.csv);
        }
        if (NULL != csv && 0 == fseek(csv, 0, SEEK_END) && 0 == ftell(csv)) {
            fputs(o.compare ? "collective,p,algorithm,bytes,us\n"
                            : "collective,p,algorithm,bytes,hdring_us,baseline_us,ratio_median,ratio_min,ratio_max,"
                              "control,ratio_q1,ratio_q3,baseline\n",
                  csv);
        }
    }
    for (int c = 0; c < NCOLLS; ++c) {
        if (o.colls[c]) {
            if (o.explore) {
                run_explore(&b, &o, c);
            } else {
                (o.compare ? run_compare : run)(&b, &o, c, csv);
            }
            print_cpus(&b);
        }
    }
    if (NULL != csv) {
        fclose(csv);
    }
    for (int c = 0; c < 3; ++c) {
        MPI_Comm_free(&b.comm[c]);
    }
    for (int c = 0; c < NCOLLS && o.compare; ++c) {
        for (int a = 0; a < nalgs(c) && o.colls[c]; ++a) {
            MPI_Comm_free(&b.algs[c][a]);
        }
    }
    MPI_Comm_free(&b.book);
    free(b.sbuf);
    free(b.rbuf);
    free(b.rcounts);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
