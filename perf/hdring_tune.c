/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring-tune: measures coll/hdring's cost model on the machines a job runs on and writes the MCA parameters.
 *
 *   mpirun -np P hdring-tune [-o FILE | --install | --print] [--reps N] [--quick]
 *
 * Run it on the allocation your jobs use, with as many ranks per node as they use (P >= 2). Within a node the
 * ranks pair up (2i with 2i+1 of each node); across nodes, the ranks with the same index on nodes 2k and 2k+1.
 * All pairs of a kind measure at once, the way the algorithms' steps load a node's link; leftover ranks wait.
 *   latency        half the round trip of a 1-byte ping-pong, within the first pair of the kind;
 *   bandwidth      every pair exchanges 4 MiB both ways at once (MPI_Sendrecv), per direction (what recursive
 *                  halving and doubling do), and, across nodes, the lower rank of every pair streams 4 MiB one way:
 *                  a link that is not full duplex, or ranks short of CPU, make the exchange slower;
 *   reduction      MPI_Reduce_local of 4 MiB of doubles with MPI_SUM, on rank 0.
 * Each is the median of 2N samples (default N = 25), taken as two interleaved halves: the same measurement
 * twice. When the parameters fitted from the two halves differ by more than 10%, the machine was too busy to
 * measure: hdring-tune says which parameter and writes nothing (exit status 3).
 *
 * Fitted: the network's parameters and the reduction speed. Within a node it reports the latency and bandwidth
 * it measured but does not fit them (keep_to_network below); perf/tune.sh fits those from whole collectives.
 *
 * Then, unless --quick, it checks the model against reality with the fitted parameters in force: allreduce,
 * reduce_scatter_block, allgather and bcast at 64 B, 1 KiB, 16 KiB, 256 KiB, 4 MiB and half and twice each
 * crossover the model predicts in between, on all P ranks and on the first Q, Q of the other
 * kind (P - 1 when P is a power of two, else the largest power of two below it; when Q >= 4), every hdring
 * algorithm and the automatic choice timed in one job (interleaved rounds, one communicator each, the choice twice
 * as a control). Thresholds are set per kind (_pof2, _npof2), each from the size of its kind.
 * Where the choice is more than 10% slower than the fastest algorithm, it writes the thresholds that give those
 * sizes to the latency algorithm (coll_hdring_<coll>_small_bytes_*) or to the bandwidth one (_large_bytes_*),
 * with the timings that justify them in comments (not on fewer than 4 ranks), and says so where no threshold can.
 * A size whose control differs by more than 10% is too noisy to justify anything: the file says so, and no
 * threshold rests on it.
 *
 * Output (rank 0): -o FILE writes an MCA parameter file (use it with mpirun --tune FILE); --install merges it into
 * $HOME/.openmpi/mca-params.conf, which Open MPI reads for every job of this user, replacing an earlier
 * hdring-tune block and commenting out other lines that set the same parameters (nothing else changes);
 * --print (the default) prints it. Only coll_hdring_ parameters are written, with comments saying what was
 * measured, when, and on what; progress goes to stderr.
 */
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "hdring_cost.h"
#include "hdring_defaults.h"
#include "hdring_mpi_util.h"
#include "hdring_plan.h"
#include "hdring_registry.h"
#include "hdring_topo.h"
#include "hdring_tune_file.h"

#define BIG (4 << 20)
#define TOLERANCE 0.10 /* most two measurements of one thing may differ; least loss of the model that counts */

typedef enum { WITHIN_NODE, ACROSS_NODES } pairing_t;

typedef struct placement {
    int rank, size, nodes, ppn_max;
    int *node_of, *index_of; /* per rank: its node (numbered in the order of their lowest ranks), its index there */
} placement_t;

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

/* The median of every `step`-th of n samples from `first`. */
static double median(const double *t, int n, int first, int step)
{
    double sorted[2 * 1000];
    int m = 0;
    for (int i = first; i < n; i += step) {
        sorted[m++] = t[i];
    }
    qsort(sorted, (size_t) m, sizeof(*sorted), cmp);
    return sorted[m / 2];
}

/* The medians of the even samples, the odd ones and all of them: the two interleaved halves and the whole. */
static void halves_and_all(const double *t, int n, double m[3])
{
    m[0] = median(t, n, 0, 2);
    m[1] = median(t, n, 1, 2);
    m[2] = median(t, n, 0, 1);
}

static void place(placement_t *pl)
{
    MPI_Comm node;
    int leader, index;
    MPI_Comm_rank(MPI_COMM_WORLD, &pl->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &pl->size);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &index);
    leader = pl->rank;
    MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, node);
    MPI_Comm_free(&node);
    int *leaders = malloc((size_t) pl->size * sizeof(int));
    pl->node_of = malloc((size_t) pl->size * sizeof(int));
    pl->index_of = malloc((size_t) pl->size * sizeof(int));
    MPI_Allgather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(&index, 1, MPI_INT, pl->index_of, 1, MPI_INT, MPI_COMM_WORLD);
    pl->nodes = pl->ppn_max = 0;
    for (int r = 0; r < pl->size; ++r) { /* a leader is its own lowest rank: nodes in the order of their leaders */
        pl->node_of[r] = leaders[r] == r ? pl->nodes++ : -1;
    }
    for (int r = 0; r < pl->size; ++r) {
        pl->node_of[r] = pl->node_of[leaders[r]];
        pl->ppn_max = pl->index_of[r] + 1 > pl->ppn_max ? pl->index_of[r] + 1 : pl->ppn_max;
    }
    free(leaders);
}

/* A rank's partner of the pairing, -1 for none. */
static int partner(const placement_t *pl, pairing_t kind, int rank)
{
    for (int r = 0; r < pl->size; ++r) {
        const bool same_node = pl->node_of[r] == pl->node_of[rank];
        if (WITHIN_NODE == kind ? same_node && pl->index_of[r] == (pl->index_of[rank] ^ 1)
                                : pl->index_of[r] == pl->index_of[rank] && pl->node_of[r] == (pl->node_of[rank] ^ 1)) {
            return r;
        }
    }
    return -1;
}

/* The most pairs of the kind on one node (the flows sharing a node's link across nodes). */
static int pairs_per_node(const placement_t *pl, pairing_t kind)
{
    int most = 0;
    for (int n = 0; n < pl->nodes; ++n) {
        int paired = 0;
        for (int r = 0; r < pl->size; ++r) {
            paired += pl->node_of[r] == n && partner(pl, kind, r) >= 0;
        }
        most = paired > most ? paired : most;
    }
    return WITHIN_NODE == kind ? most / 2 : most;
}

/* The slowest rank's time of each of 2 reps samples of `measure` (after two untimed ones). */
typedef void (*measure_fn)(int peer, bool lower, bool timed, char *a, char *b);

static void sample(measure_fn measure, int peer, bool lower, bool timed, char *a, char *b, double *t, int n)
{
    for (int i = -2; i < n; ++i) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        measure(peer, lower, timed, a, b);
        double dt = MPI_Wtime() - t0;
        MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (i >= 0) {
            t[i] = dt;
        }
    }
}

/* 100 round trips of 1 byte, by the pair that is timed; per sample: half a round trip. */
static void ping_pong(int peer, bool lower, bool timed, char *a, char *b)
{
    for (int k = 0; k < 100 && timed; ++k) {
        if (lower) {
            MPI_Send(a, 1, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
            MPI_Recv(b, 1, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(b, 1, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(a, 1, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
        }
    }
}

static void exchange(int peer, bool lower, bool timed, char *a, char *b)
{
    (void) lower;
    if (timed) {
        MPI_Sendrecv(a, BIG, MPI_CHAR, peer, 1, b, BIG, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static void one_way(int peer, bool lower, bool timed, char *a, char *b)
{
    if (timed && lower) {
        MPI_Send(a, BIG, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
        MPI_Recv(b, 1, MPI_CHAR, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (timed) {
        MPI_Recv(b, BIG, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(a, 1, MPI_CHAR, peer, 3, MPI_COMM_WORLD);
    }
}

static void reduction(int peer, bool lower, bool timed, char *a, char *b)
{
    (void) peer;
    (void) lower;
    if (timed) {
        MPI_Reduce_local(a, b, BIG / (int) sizeof(double), MPI_DOUBLE, MPI_SUM);
    }
}

/* The link of one pairing, measured (a progress line first): links[0] and links[1] from alternate samples,
 * links[2] from every sample. */
static void measure_link(const placement_t *pl, pairing_t kind, int reps, char *a, char *b, double *t,
                         hdring_tune_link_t *links[3], int phase, int phases)
{
    const int peer = partner(pl, kind, pl->rank), n = 2 * reps, pairs = pairs_per_node(pl, kind);
    int first = peer >= 0 ? (pl->rank < peer ? pl->rank : peer) : pl->size;
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    const bool lower = peer >= 0 && pl->rank < peer, paired = peer >= 0;
    double m[3];

    if (0 == pl->rank) {
        fprintf(stderr, "hdring-tune: %d/%d %s (%d pair%s per node%s)\n", phase, phases,
                WITHIN_NODE == kind ? "within a node" : "across nodes", pairs, 1 == pairs ? "" : "s",
                WITHIN_NODE == kind ? "" : " link");
    }
    for (int k = 0; k < 3; ++k) {
        links[k]->measured = true;
        links[k]->flows = ACROSS_NODES == kind ? pairs : 1;
    }
    sample(ping_pong, peer, lower, paired && (pl->rank == first || peer == first), a, b, t, n);
    halves_and_all(t, n, m);
    for (int k = 0; k < 3; ++k) {
        links[k]->latency = m[k] / 200;
    }
    sample(exchange, peer, lower, paired, a, b, t, n);
    halves_and_all(t, n, m);
    for (int k = 0; k < 3; ++k) {
        links[k]->exchange = m[k];
    }
    sample(one_way, peer, lower, paired, a, b, t, n);
    halves_and_all(t, n, m);
    for (int k = 0; k < 3; ++k) {
        links[k]->one_way = m[k];
    }
}

/* ---------------------------------------------------------------- the check of the model's choices */

enum { CHECK_ALLREDUCE, CHECK_REDUCE_SCATTER_BLOCK, CHECK_ALLGATHER, CHECK_BCAST, NCHECKED };
static const char *const checked_names[NCHECKED] = {"allreduce", "reduce_scatter_block", "allgather", "bcast"};
static const hdring_coll_t checked_core[NCHECKED] = {HDRING_COLL_ALLREDUCE, HDRING_COLL_REDUCE_SCATTER,
                                                     HDRING_COLL_ALLGATHER, HDRING_COLL_BCAST};
#define CHECK_ROUNDS 7
#define SAMPLE_S 0.02 /* the calls of one sample last about this long */
#define MAX_SAMPLE_CALLS (1 << 24)

typedef struct contenders {
    int n;                                  /* hdring's algorithms, then auto, then auto again (the control) */
    MPI_Comm comm[HDRING_TUNE_MAX_CONTENDERS + 2];
    char names[HDRING_TUNE_MAX_CONTENDERS][32];
    int latency, bandwidth;                 /* the algorithms small_bytes and large_bytes select (-1: none) */
} contenders_t;

static void call(int coll, double bytes, MPI_Comm comm, float *sbuf, float *rbuf, int p)
{
    const int n = (int) bytes;
    switch (coll) {
    case CHECK_ALLREDUCE:
        MPI_Allreduce(sbuf, rbuf, n / 4, MPI_FLOAT, MPI_SUM, comm);
        break;
    case CHECK_REDUCE_SCATTER_BLOCK:
        MPI_Reduce_scatter_block(sbuf, rbuf, n / 4 / p, MPI_FLOAT, MPI_SUM, comm);
        break;
    case CHECK_ALLGATHER:
        MPI_Allgather(sbuf, n / p, MPI_CHAR, rbuf, n / p, MPI_CHAR, comm);
        break;
    default:
        MPI_Bcast(rbuf, n, MPI_CHAR, 0, comm);
        break;
    }
}

/* Seconds per call of `iters` calls on comm, the slowest rank's (barrier and maximum on `book`). A bcast is
 * followed by a barrier, as the OSU benchmark times it: back to back, a pipelined bcast would overlap the next
 * call and look faster than an application waiting for its data sees it. */
static double timed(int coll, double bytes, MPI_Comm comm, MPI_Comm book, int iters, float *sbuf, float *rbuf,
                    int p)
{
    MPI_Barrier(book);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
        call(coll, bytes, comm, sbuf, rbuf, p);
        if (CHECK_BCAST == coll) {
            MPI_Barrier(book);
        }
    }
    double t = (MPI_Wtime() - t0) / iters, slowest;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, book);
    return slowest;
}

typedef struct sampled {
    int coll, p;
    double bytes;
    MPI_Comm comm, book;
    float *sbuf, *rbuf;
} sampled_t;

static double timed_sampled(void *ctx, int calls)
{
    const sampled_t *x = ctx;
    return timed(x->coll, x->bytes, x->comm, x->book, calls, x->sbuf, x->rbuf, x->p);
}

/* One communicator per hdring algorithm of the collective (the algorithm forced through MPI_T before its
 * MPI_Comm_dup of base), and two on auto. Hierarchical algorithms only when hier_ok (whole nodes, alike). */
static bool make_contenders(int coll, MPI_Comm base, bool hier_ok, contenders_t *c)
{
    char var[96], list[512];
    snprintf(var, sizeof(var), "coll_hdring_%s_algorithm", checked_names[coll]);
    if (0 != util_cvar_enum_names(var, list, sizeof(list))) {
        return false;
    }
    c->n = 0;
    c->latency = c->bandwidth = -1;
    for (char *save = NULL, *name = strtok_r(list, ",", &save); NULL != name && c->n < HDRING_TUNE_MAX_CONTENDERS;
         name = strtok_r(NULL, ",", &save)) {
        const hdring_alg_t alg = hdring_alg_by_name(checked_core[coll], name);
        const bool hier = HDRING_NALGS != alg && HDRING_ALG_NONE != hdring_algorithm(alg)->inner;
        if (HDRING_NALGS == alg || (hier && !hier_ok) || 0 != util_cvar_write(var, name)) {
            continue;
        }
        snprintf(c->names[c->n], sizeof(c->names[c->n]), "%s", name);
        c->latency = HDRING_ROLE_LATENCY == hdring_algorithm(alg)->role ? c->n : c->latency;
        c->bandwidth = HDRING_ROLE_BANDWIDTH == hdring_algorithm(alg)->role ? c->n : c->bandwidth;
        MPI_Comm_dup(base, &c->comm[c->n++]);
    }
    util_cvar_write(var, "auto");
    MPI_Comm_dup(base, &c->comm[c->n]);
    MPI_Comm_dup(base, &c->comm[c->n + 1]);
    return c->n > 0;
}

/* Every contender and auto twice at one size, CHECK_ROUNDS interleaved rounds (forward, then backward); the
 * medians into pt, and auto's control/auto ratio. */
static double check_point(int coll, double bytes, const contenders_t *c, MPI_Comm book, float *sbuf, float *rbuf,
                          int p, hdring_tune_point_t *pt)
{
    const int all = c->n + 2;
    double t[CHECK_ROUNDS][HDRING_TUNE_MAX_CONTENDERS + 2];
    for (int a = 0; a < all; ++a) { /* warm up: plans, scratch, connections */
        timed(coll, bytes, c->comm[a], book, 1, sbuf, rbuf, p);
    }
    /* samples of SAMPLE_S, sized on auto after the warm-up, so that no first call's setup sizes them */
    sampled_t on_auto = {coll, p, bytes, c->comm[c->n], book, sbuf, rbuf};
    const int iters = util_calls_per_sample(timed_sampled, &on_auto, SAMPLE_S, MAX_SAMPLE_CALLS);
    for (int r = 0; r < CHECK_ROUNDS; ++r) {
        for (int k = 0; k < all; ++k) {
            const int a = r % 2 ? all - 1 - k : k;
            t[r][a] = timed(coll, bytes, c->comm[a], book, iters, sbuf, rbuf, p);
        }
    }
    double med[HDRING_TUNE_MAX_CONTENDERS + 2];
    for (int a = 0; a < all; ++a) {
        double v[CHECK_ROUNDS];
        for (int r = 0; r < CHECK_ROUNDS; ++r) {
            v[r] = t[r][a];
        }
        med[a] = median(v, CHECK_ROUNDS, 0, 1);
    }
    pt->bytes = bytes;
    pt->n = c->n;
    for (int a = 0; a < c->n; ++a) {
        pt->time[a] = med[a];
    }
    pt->chosen = med[c->n];
    double ratio[CHECK_ROUNDS]; /* the control: auto's second communicator against its first, round by round */
    for (int r = 0; r < CHECK_ROUNDS; ++r) {
        ratio[r] = t[r][c->n + 1] / t[r][c->n];
    }
    return median(ratio, CHECK_ROUNDS, 0, 1);
}

/* Writes text to path through a temporary file renamed over it: an interrupted run leaves the old file. */
static bool write_file(const char *path, const char *text)
{
    char tmp[4096];
    snprintf(tmp, sizeof(tmp), "%s.hdring-tune.tmp", path);
    FILE *f = fopen(tmp, "w");
    bool ok = NULL != f && fputs(text, f) >= 0;
    ok = NULL != f && 0 == fclose(f) && ok;
    ok = ok && 0 == rename(tmp, path);
    if (!ok) {
        fprintf(stderr, "hdring-tune: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
    }
    return ok;
}

/* The whole file as a string (NULL, with *missing, when it does not exist). */
static char *read_file(const char *path, bool *missing)
{
    FILE *f = fopen(path, "r");
    *missing = NULL == f && ENOENT == errno;
    if (NULL == f) {
        return NULL;
    }
    size_t len = 0, cap = 4096;
    char *s = malloc(cap);
    for (size_t got; NULL != s && (got = fread(s + len, 1, cap - len - 1, f)) > 0;) {
        len += got;
        if (len + 1 == cap) {
            char *grown = realloc(s, cap *= 2);
            if (NULL == grown) {
                free(s);
            }
            s = grown;
        }
    }
    fclose(f);
    if (NULL != s) {
        s[len] = '\0';
    }
    return s;
}

/* --install: the block merged into $HOME/.openmpi/mca-params.conf. */
static bool install(const char *block)
{
    const char *home = getenv("HOME");
    char dir[4096], path[4096];
    bool missing;
    if (NULL == home || '\0' == home[0]) {
        fprintf(stderr, "hdring-tune: --install needs HOME set\n");
        return false;
    }
    if ((size_t) snprintf(dir, sizeof(dir), "%s/.openmpi", home) >= sizeof(dir) ||
        (size_t) snprintf(path, sizeof(path), "%s/.openmpi/mca-params.conf", home) >= sizeof(path)) {
        fprintf(stderr, "hdring-tune: HOME is too long\n");
        return false;
    }
    if (0 != mkdir(dir, 0755) && EEXIST != errno) {
        fprintf(stderr, "hdring-tune: cannot create %s: %s\n", dir, strerror(errno));
        return false;
    }
    char *old = read_file(path, &missing);
    if (NULL == old && !missing) {
        fprintf(stderr, "hdring-tune: cannot read %s: %s\n", path, strerror(errno));
        return false;
    }
    char *merged = hdring_tune_merge(old, block);
    const bool ok = NULL != merged && write_file(path, merged);
    if (ok) {
        printf("hdring-tune: merged into %s\n", path);
    }
    free(old);
    free(merged);
    return ok;
}

/* Lines for the block: its comments, or its settings, each as long as it is (hdring_tune_file.h). */
typedef hdring_tune_lines_t lines_t;
#define add_line hdring_tune_add_line

static void link_comment(lines_t *comments, const char *what, const hdring_tune_link_t *l)
{
    add_line(comments, "%s: latency %.2f us; 4 MiB exchanged both ways %.3f ms, one way %.3f ms (%d pair%s per node)",
             what, l->latency * 1e6, l->exchange * 1e3, l->one_way * 1e3, l->flows, 1 == l->flows ? "" : "s");
}

/* ob1's header and the shared-memory BTL's name in the Open MPI series this is built for */
#if OMPI_MAJOR_VERSION >= 5
#define OB1_HEADER_BYTES HDRING_PML_EAGER_HEADER_BYTES_5_0
#define SM_EAGER_LIMIT_CVAR "btl_sm_eager_limit"
#else
#define OB1_HEADER_BYTES HDRING_PML_EAGER_HEADER_BYTES_4_1
#define SM_EAGER_LIMIT_CVAR "btl_vader_eager_limit"
#endif

/* An eager limit left at its default follows the BTL's less ob1's header, as the component's does
 * (mca_coll_hdring_config_snapshot). MPI_T does not say where a value came from: one equal to the default counts as
 * left at it. A BTL that is not loaded leaves it. */
static void follow_btl_eager_limit(const char *btl_limit, double default_bytes, double *bytes)
{
    unsigned long limit;
    if (default_bytes == *bytes && 0 == util_cvar_read_ulong(btl_limit, &limit)) {
        *bytes = hdring_pml_eager_bytes(limit, OB1_HEADER_BYTES);
    }
}

/* The model's parameters in force (coll_hdring_model_*, through MPI_T, as the component takes them): after
 * apply(), the fitted ones. */
static bool units_in_force(hdring_model_units_t *u)
{
    if (!(0 == util_cvar_read_double("coll_hdring_model_latency_us", &u->latency_us) &&
          0 == util_cvar_read_double("coll_hdring_model_bandwidth_mbs", &u->bandwidth_mbs) &&
          0 == util_cvar_read_double("coll_hdring_model_reduce_mbs", &u->reduce_mbs) &&
          0 == util_cvar_read_double("coll_hdring_model_network_latency_us", &u->network_latency_us) &&
          0 == util_cvar_read_double("coll_hdring_model_network_bandwidth_mbs", &u->network_bandwidth_mbs) &&
          0 == util_cvar_read_double("coll_hdring_model_network_exchange_mbs", &u->network_exchange_mbs) &&
          0 == util_cvar_read_double("coll_hdring_model_eager_bytes", &u->eager_bytes) &&
          0 == util_cvar_read_double("coll_hdring_model_network_eager_bytes", &u->network_eager_bytes))) {
        return false;
    }
    follow_btl_eager_limit(SM_EAGER_LIMIT_CVAR, HDRING_SM_EAGER_LIMIT - OB1_HEADER_BYTES, &u->eager_bytes);
    follow_btl_eager_limit("btl_tcp_eager_limit", HDRING_TCP_EAGER_LIMIT - OB1_HEADER_BYTES, &u->network_eager_bytes);
    return true;
}

/* Within a node the model's latency and bandwidth are effective values fitted from whole collectives
 * (perf/tune.sh): point-to-point figures make its choices worse there (on perf/fit's data, 9.9% over the
 * fastest algorithm on average with the figures measured on that machine, 7.7% with the defaults). They are
 * reported in a comment, not written. */
static void keep_to_network(hdring_tune_params_t *p)
{
    p->set[HDRING_TUNE_LATENCY_US] = p->set[HDRING_TUNE_BANDWIDTH_MBS] = false;
}

/* Rank 0: the parameters from the timings, unless the two halves disagree; what was measured into comments.
 * Returns the exit status. */
static int fit(const placement_t *pl, int reps, const hdring_tune_timings_t halves[2], const hdring_tune_timings_t *all,
               hdring_tune_params_t *best, lines_t *comments)
{
    hdring_tune_params_t fits[2];
    hdring_tune_param_t worst;
    if (!hdring_tune_fit(&halves[0], &fits[0]) || !hdring_tune_fit(&halves[1], &fits[1]) ||
        !hdring_tune_fit(all, best)) {
        fprintf(stderr, "hdring-tune: the timings leave no time for the bytes (a latency as long as a 4 MiB "
                        "transfer): nothing written. Run it again on an idle allocation\n");
        return 3;
    }
    keep_to_network(&fits[0]);
    keep_to_network(&fits[1]);
    keep_to_network(best);
    const double disagreement = hdring_tune_disagreement(&fits[0], &fits[1], &worst);
    if (disagreement > TOLERANCE) {
        fprintf(stderr, "hdring-tune: the same measurement taken twice differs by %.0f%% (more than %.0f%%) for %s: "
                        "%.4g and %.4g. The machine is too busy to measure: nothing written\n",
                disagreement * 100, TOLERANCE * 100, hdring_tune_param_name(worst), fits[0].value[worst],
                fits[1].value[worst]);
        return 3;
    }
    char when[64];
    const time_t now = time(NULL);
    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", localtime(&now));
    add_line(comments, "measured by hdring-tune on %s: %d ranks on %d node%s (at most %d per node), medians of %d "
             "samples", when, pl->size, pl->nodes, 1 == pl->nodes ? "" : "s", pl->ppn_max, 2 * reps);
    if (all->node.measured) {
        link_comment(comments, "within a node (not written: perf/tune.sh fits these)", &all->node);
    }
    if (all->network.measured) {
        link_comment(comments, "across nodes", &all->network);
    }
    add_line(comments, "reduction: 4 MiB of doubles summed in %.3f ms", all->reduce * 1e3);
    hdring_model_units_t units;
    if (units_in_force(&units)) {
        add_line(comments, "the model's eager limits (the largest message the PML sends without a rendezvous): %.0f B "
                 "within a node, %.0f B between nodes", units.eager_bytes, units.network_eager_bytes);
    }
    add_line(comments, "control: the fits of alternate samples differ by %.1f%% at most (%s)", disagreement * 100,
             hdring_tune_param_name(worst));
    return 0;
}

/* The fitted parameters, in force for the communicators this process creates from now on. */
static void apply(const hdring_tune_params_t *p)
{
    for (int i = 0; i < HDRING_TUNE_NPARAMS; ++i) {
        char value[64];
        snprintf(value, sizeof(value), "%.17g", p->value[i]);
        if (p->set[i]) {
            util_cvar_write(hdring_tune_param_name((hdring_tune_param_t) i), value);
        }
    }
}

/* The bytes a collective can take at p ranks at most `bytes`: whole floats (chars for bcast), p equal blocks. */
static double usable(int coll, double bytes, int p)
{
    const double unit = CHECK_ALLREDUCE == coll ? 4 : CHECK_BCAST == coll ? 1 : CHECK_ALLGATHER == coll ? p : 4.0 * p;
    return floor(bytes / unit) * unit;
}

static bool pow2(int p) { return 0 == (p & (p - 1)); }

/* Where the first p ranks sit, as the component sees them (hdring_topo.h; one domain per node). */
static hdring_shape_t shape_of(const placement_t *pl, int p)
{
    hdring_topo_t topo;
    hdring_shape_t shape = hdring_shape_single(p);
    if (HDRING_OK == hdring_topo_init(&topo, p, pl->node_of, NULL)) {
        shape = topo.shape;
        hdring_topo_free(&topo);
    }
    return shape;
}

/* The sizes to check a collective at on p ranks of that shape, with the parameters in force. */
static int sizes_to_check(int coll, int p, const hdring_shape_t *shape, const hdring_model_units_t *u, double *sizes)
{
    const hdring_plan_input_t in = {checked_core[coll], hdring_model_of(p, false, shape, u), 0, 0};
    hdring_plan_t plan;
    hdring_plan_build(&in, &plan);
    return hdring_tune_sizes(&plan, sizes);
}

/* Whether the first q ranks fill two or more nodes with the same number of ranks, more than one each: what the
 * hierarchical algorithms need. */
static bool whole_nodes(const placement_t *pl, int q)
{
    int *per = calloc((size_t) q, sizeof(int)), nodes = 0; /* nodes are numbered by their lowest rank */
    bool alike = NULL != per;
    for (int r = 0; alike && r < q; ++r) {
        nodes += 0 == per[pl->node_of[r]]++;
    }
    for (int n = 1; alike && n < nodes; ++n) {
        alike = per[n] == per[0];
    }
    alike = alike && nodes > 1 && per[0] > 1;
    free(per);
    return alike;
}

/* The worst control of the check, and where. */
typedef struct control {
    double worst;
    char at[80];
} control_t;

/* One size of a collective timed (check_point), its control judged: noisy beyond TOLERANCE (said in comments),
 * the worst control of the check kept. */
static void measure_point(int coll, double bytes, const contenders_t *c, MPI_Comm book, char *a, char *b, int p,
                          lines_t *comments, control_t *worst, hdring_tune_point_t *pt)
{
    const double control = check_point(coll, bytes, c, book, (float *) a, (float *) b, p, pt);
    pt->noise = fabs(control - 1);
    pt->noisy = pt->noise > TOLERANCE;
    if (pt->noisy) {
        add_line(comments, "%s at %.0f B on %d ranks: not used, its control differed by %.0f%%", checked_names[coll],
                 bytes, p, pt->noise * 100);
    }
    if (pt->noise > worst->worst) {
        worst->worst = pt->noise;
        snprintf(worst->at, sizeof(worst->at), "%s at %.0f B on %d ranks", checked_names[coll], bytes, p);
    }
}

/* The ranks of base (p of them): each checked collective timed at each size with every hdring algorithm and auto
 * (the fitted parameters in force); thresholds where the model loses by more than TOLERANCE, into settings, the
 * evidence into comments. A size whose control (auto timed twice) differs by more than TOLERANCE is noisy: it is
 * said and justifies nothing. */
static void check_size(MPI_Comm base, const placement_t *pl, const hdring_model_units_t *units, char *a, char *b,
                       lines_t *comments, lines_t *settings, control_t *worst)
{
    int p;
    MPI_Comm_size(base, &p);
    const hdring_shape_t shape = shape_of(pl, p);
    int nchecked = 0;
    const char *kind = pow2(p) ? "pof2" : "npof2";
    MPI_Comm book; /* barriers and maxima of the timings, served by Open MPI's own components */
    util_cvar_write("coll_hdring_priority", "-1");
    MPI_Comm_dup(base, &book);
    util_cvar_write("coll_hdring_priority", "100"); /* the contenders are hdring's, whatever the job's priority */

    for (int coll = 0; coll < NCHECKED; ++coll) {
        contenders_t c;
        hdring_tune_point_t pts[HDRING_TUNE_MAX_SIZES + HDRING_TUNE_MAX_REFINES];
        double sizes[HDRING_TUNE_MAX_SIZES];
        int npts = 0;
        const int nsizes = sizes_to_check(coll, p, &shape, units, sizes);
        if (!make_contenders(coll, base, whole_nodes(pl, p), &c)) {
            continue;
        }
        for (int k = 0; k < nsizes; ++k) {
            const double bytes = usable(coll, sizes[k], p);
            if (bytes > 0) {
                measure_point(coll, bytes, &c, book, a, b, p, comments, worst, &pts[npts++]);
            }
        }
        hdring_tune_thresholds_t th = hdring_tune_thresholds(pts, npts, c.latency, c.bandwidth, TOLERANCE);
        for (int extra = 0; extra < HDRING_TUNE_MAX_REFINES; ++extra) { /* narrow the gaps beyond the thresholds */
            const double bytes = usable(coll, hdring_tune_refine(pts, npts, th), p);
            int at = 0;
            while (at < npts && pts[at].bytes < bytes) {
                ++at;
            }
            if (bytes <= 0 || (at < npts && pts[at].bytes == bytes)) {
                break; /* nothing left to narrow, or the size rounds to one already timed */
            }
            memmove(&pts[at + 1], &pts[at], (size_t) (npts++ - at) * sizeof(pts[0]));
            measure_point(coll, bytes, &c, book, a, b, p, comments, worst, &pts[at]);
            th = hdring_tune_thresholds(pts, npts, c.latency, c.bandwidth, TOLERANCE);
        }
        nchecked += npts;
        for (int k = 0; k < npts; ++k) {
            const int fastest = hdring_tune_fastest(&pts[k]);
            const double loss = pts[k].chosen / pts[k].time[fastest] - 1;
            if (hdring_tune_wrong(&pts[k], pts[k].chosen, TOLERANCE)) {
                add_line(comments, "%s at %.0f B on %d ranks: the model's choice %.3g us, %s %.3g us (+%.0f%%; control "
                         "%.0f%%)", checked_names[coll], pts[k].bytes, p, pts[k].chosen * 1e6, c.names[fastest],
                         pts[k].time[fastest] * 1e6, loss * 100, pts[k].noise * 100);
            }
        }
        if (th.small > 0 && p >= HDRING_TUNE_MIN_THRESHOLD_RANKS) {
            add_line(settings, "coll_hdring_%s_small_bytes_%s = %.0f", checked_names[coll], kind, th.small);
        }
        if (th.large > 0 && p >= HDRING_TUNE_MIN_THRESHOLD_RANKS) {
            add_line(settings, "coll_hdring_%s_large_bytes_%s = %.0f", checked_names[coll], kind, th.large);
        }
        if ((th.small > 0 || th.large > 0) && p < HDRING_TUNE_MIN_THRESHOLD_RANKS) {
            add_line(comments, "%s: thresholds not written: on %d ranks every algorithm is an exchange or two, and "
                     "they would apply to larger communicators too (run hdring-tune on %d ranks or more)",
                     checked_names[coll], p, HDRING_TUNE_MIN_THRESHOLD_RANKS);
        }
        if (th.unresolved > 0) {
            add_line(comments, "%s: %d size%s still over %.0f%% slower than the fastest algorithm: no threshold "
                     "gives %s to it", checked_names[coll], th.unresolved, 1 == th.unresolved ? "" : "s",
                     TOLERANCE * 100, 1 == th.unresolved ? "it" : "them");
        }
        for (int x = 0; x < c.n + 2; ++x) {
            MPI_Comm_free(&c.comm[x]);
        }
    }
    MPI_Comm_free(&book);
    add_line(comments, "checked: %s every %.0fx from %.0f B to %.0f B, around the model's crossovers and between "
             "each threshold and the next size (%d sizes in all) on %d ranks, every algorithm timed against the "
             "model's choice (thresholds from it apply to every communicator size that is %s)", "allreduce, reduce_scatter_block, allgather, bcast",
             HDRING_TUNE_GRID_STEP, HDRING_TUNE_SMALLEST, HDRING_TUNE_LARGEST, nchecked, p,
             pow2(p) ? "a power of two" : "not a power of two");
}

/* Every rank: check_size on all P ranks, then on the first hdring_tune_companion_size(P) while the others wait.
 * Rank 0, in both, holds the lines of both for the file. */
static void check_model(const placement_t *pl, char *a, char *b, lines_t *comments, lines_t *settings)
{
    const int q = hdring_tune_companion_size(pl->size);
    int priority = 40;
    control_t worst = {0, ""};
    hdring_model_units_t units;
    if (!units_in_force(&units)) {
        add_line(comments, "not checked: the model's parameters cannot be read through MPI_T");
        return;
    }
    util_cvar_read_int("coll_hdring_priority", &priority);
    check_size(MPI_COMM_WORLD, pl, &units, a, b, comments, settings, &worst);
    if (q > 0) {
        MPI_Comm first;
        MPI_Comm_split(MPI_COMM_WORLD, pl->rank < q ? 0 : MPI_UNDEFINED, pl->rank, &first);
        if (MPI_COMM_NULL != first) {
            check_size(first, pl, &units, a, b, comments, settings, &worst);
            MPI_Comm_free(&first);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        add_line(comments, "no thresholds for communicator sizes that are %sa power of two: checking them needs %d "
                 "ranks or more of that kind, and %d ranks have fewer", pow2(pl->size) ? "not " : "",
                 HDRING_TUNE_MIN_THRESHOLD_RANKS, pl->size);
    }
    char restore[16];
    snprintf(restore, sizeof(restore), "%d", priority);
    util_cvar_write("coll_hdring_priority", restore);
    add_line(comments, "control: the model's choice timed twice differed by %.1f%% at most (%s)", worst.worst * 100,
             worst.at);
}

/* About how long check_size takes on the first p ranks, from the measured links: each sample lasts SAMPLE_S or
 * one call, whichever is longer, a call about 2 log2(p) latencies and the vector twice over the slower link. */
static double check_seconds(const placement_t *pl, int p, const hdring_tune_timings_t *all)
{
    const hdring_tune_link_t *l = all->network.measured ? &all->network : &all->node;
    const hdring_shape_t shape = shape_of(pl, p);
    hdring_model_units_t units;
    if (!units_in_force(&units)) {
        return 0;
    }
    const double per_byte = (l->one_way - 2 * l->latency) / all->bytes / (l->flows > 0 ? l->flows : 1);
    const double steps = 2 * ceil(log2(p));
    const bool hier = whole_nodes(pl, p);
    double total = 0;
    for (int coll = 0; coll < NCHECKED; ++coll) {
        hdring_alg_t algs[HDRING_NALGS];
        int n = 0;
        const int nalgs = hdring_algorithms_of(checked_core[coll], algs);
        for (int k = 0; k < nalgs; ++k) {
            n += hier || HDRING_ALG_NONE == hdring_algorithm(algs[k])->inner;
        }
        double sizes[HDRING_TUNE_MAX_SIZES];
        const int nsizes = sizes_to_check(coll, p, &shape, &units, sizes);
        for (int k = 0; k < nsizes; ++k) {
            const double call = steps * l->latency + 2 * sizes[k] * per_byte;
            total += (n + 2) * (CHECK_ROUNDS + 1) * (call > SAMPLE_S ? call : SAMPLE_S);
        }
    }
    return total;
}

/* Rank 0: the block, to its destination. Returns the exit status. */
static int write_out(const hdring_tune_params_t *best, const lines_t *comments, const lines_t *settings,
                     const char *out, bool do_install)
{
    if (comments->failed || settings->failed) {
        fprintf(stderr, "hdring-tune: out of memory: nothing written\n");
        return 1;
    }
    char *block = hdring_tune_block(best, (const char *const *) comments->text, comments->n,
                                    (const char *const *) settings->text, settings->n);
    if (NULL == block) {
        return 1;
    }
    bool ok = true;
    if (NULL != out) {
        ok = write_file(out, block);
        if (ok) {
            printf("hdring-tune: wrote %s (use it with mpirun --tune %s)\n", out, out);
        }
    } else if (do_install) {
        ok = install(block);
    } else {
        fputs(block, stdout);
    }
    free(block);
    return ok ? 0 : 1;
}

static int usage(int rank, int status)
{
    if (0 == rank) {
        fprintf(stderr,
                "usage: mpirun -np P hdring-tune [-o FILE | --install | --print] [--reps N] [--quick]\n"
                "Measures hdring's cost model on the machines of the job (P >= 2 ranks, placed as your jobs are:\n"
                "the same nodes and ranks per node) and writes the coll_hdring_ parameters it supports:\n"
                "  --print     print the parameter file (the default)\n"
                "  -o FILE     write it to FILE (use it with mpirun --tune FILE)\n"
                "  --install   merge it into $HOME/.openmpi/mca-params.conf, which every job of this user reads\n"
                "  --reps N    samples per measurement, in two interleaved halves (default 25)\n"
                "  --quick     measure the parameters only; skip checking the model against whole collectives\n"
                "It writes nothing when the two halves of a measurement disagree by more than 10%% (exit status\n"
                "3: too busy to measure), and no threshold that its own control timings do not support.\n"
                "Example: mpirun -np 8 --map-by node hdring-tune -o hdring.conf\n");
    }
    MPI_Finalize();
    return status;
}

int main(int argc, char **argv)
{
    int reps = 25, provided;
    const char *out = NULL;
    bool do_install = false, quick = false;
    placement_t pl;

    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &pl.rank);
    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--reps") && i + 1 < argc && atoi(argv[i + 1]) > 0 && atoi(argv[i + 1]) <= 1000) {
            reps = atoi(argv[++i]);
        } else if (0 == strcmp(argv[i], "-o") && i + 1 < argc && !do_install) {
            out = argv[++i];
        } else if (0 == strcmp(argv[i], "--install") && NULL == out) {
            do_install = true;
        } else if (0 == strcmp(argv[i], "--quick")) {
            quick = true;
        } else if (0 != strcmp(argv[i], "--print")) {
            MPI_T_finalize();
            return usage(pl.rank, 0 == strcmp(argv[i], "--help") ? 0 : 2);
        }
    }
    int priority;
    if (0 != util_cvar_read_int("coll_hdring_priority", &priority)) {
        if (0 == pl.rank) {
            fprintf(stderr, "hdring-tune: coll/hdring is not loaded in this job: install it (scripts/install.sh) or "
                            "point mca_component_path at it; ompi_info | grep hdring shows whether Open MPI finds it\n");
        }
        MPI_T_finalize();
        MPI_Finalize();
        return 2;
    }
    place(&pl);
    if (pl.size < 2) {
        if (0 == pl.rank) {
            fprintf(stderr, "hdring-tune: run it on 2 or more ranks\n");
        }
        MPI_T_finalize();
        MPI_Finalize();
        return 2;
    }
    const bool within = pl.ppn_max >= 2, across = pl.nodes >= 2;
    const int phases = within + across + 1 + !quick;
    char *a = malloc(BIG), *b = malloc(BIG);
    double *t = malloc((size_t) 2 * reps * sizeof(*t));
    hdring_tune_timings_t halves[2] = {{.bytes = BIG}, {.bytes = BIG}}, all = {.bytes = BIG};
    int phase = 0;
    memset(a, 1, BIG);
    memset(b, 2, BIG);

    if (within) {
        hdring_tune_link_t *links[3] = {&halves[0].node, &halves[1].node, &all.node};
        measure_link(&pl, WITHIN_NODE, reps, a, b, t, links, ++phase, phases);
    }
    if (across) {
        hdring_tune_link_t *links[3] = {&halves[0].network, &halves[1].network, &all.network};
        measure_link(&pl, ACROSS_NODES, reps, a, b, t, links, ++phase, phases);
    }
    if (0 == pl.rank) {
        fprintf(stderr, "hdring-tune: %d/%d reduction\n", ++phase, phases);
    }
    sample(reduction, -1, false, 0 == pl.rank, a, b, t, 2 * reps);
    double m[3];
    halves_and_all(t, 2 * reps, m);
    halves[0].reduce = m[0];
    halves[1].reduce = m[1];
    all.reduce = m[2];

    static lines_t comments, settings;
    hdring_tune_params_t best = {{false}, {0}};
    int status = 0 == pl.rank ? fit(&pl, reps, halves, &all, &best, &comments) : 0;
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&best, (int) sizeof(best), MPI_BYTE, 0, MPI_COMM_WORLD);
    if (0 == status && !quick) {
        apply(&best);
        if (0 == pl.rank) {
            const int q = hdring_tune_companion_size(pl.size);
            fprintf(stderr, "hdring-tune: %d/%d the model's choices against every algorithm, timed: 4 collectives "
                            "every 16x and around the model's crossovers on %d ranks%s, %d rounds, about %.0f s "
                            "(--quick skips it)\n", ++phase, phases, pl.size, q > 0 ? " and on the first few" : "",
                    CHECK_ROUNDS,
                    check_seconds(&pl, pl.size, &all) + (q > 0 ? check_seconds(&pl, q, &all) : 0));
        }
        check_model(&pl, a, b, &comments, &settings);
    }
    if (0 == status && 0 == pl.rank) {
        status = write_out(&best, &comments, &settings, out, do_install);
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    hdring_tune_lines_free(&comments);
    hdring_tune_lines_free(&settings);
    free(a);
    free(b);
    free(t);
    free(pl.node_of);
    free(pl.index_of);
    MPI_T_finalize();
    MPI_Finalize();
    return status;
}
