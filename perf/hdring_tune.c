/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring-tune: measures coll/hdring's cost model on the machines a job runs on and writes the MCA parameters.
 *
 *   mpirun -np P hdring-tune [-o FILE | --install | --print] [--reps N]
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
 * What it writes: the network's parameters and the reduction speed. Within a node it reports the latency and
 * bandwidth it measured but does not write them (keep_to_network below); perf/tune.sh fits those.
 *
 * Output (rank 0): -o FILE writes an MCA parameter file (use it with mpirun --tune FILE); --install merges it into
 * $HOME/.openmpi/mca-params.conf, which Open MPI reads for every job of this user, replacing an earlier
 * hdring-tune block and commenting out other lines that set the same parameters (nothing else changes);
 * --print (the default) prints it. Only coll_hdring_model_* parameters are written, with comments saying what was
 * measured, when, and on what. A job on one node measures only the node's figures and the reduction; one rank
 * per node, only the network's and the reduction.
 */
#include <errno.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "hdring_tune_file.h"

#define BIG (4 << 20)
#define TOLERANCE 0.10 /* most the two halves' fits may differ */

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
    const int firsts[3] = {0, 1, 0}, steps[3] = {2, 2, 1};

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
    for (int k = 0; k < 3; ++k) {
        links[k]->latency = median(t, n, firsts[k], steps[k]) / 200;
    }
    sample(exchange, peer, lower, paired, a, b, t, n);
    for (int k = 0; k < 3; ++k) {
        links[k]->exchange = median(t, n, firsts[k], steps[k]);
    }
    sample(one_way, peer, lower, paired, a, b, t, n);
    for (int k = 0; k < 3; ++k) {
        links[k]->one_way = median(t, n, firsts[k], steps[k]);
    }
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

static void link_comment(char *out, size_t len, const char *what, const hdring_tune_link_t *l)
{
    snprintf(out, len, "%s: latency %.2f us; 4 MiB exchanged both ways %.3f ms, one way %.3f ms (%d pair%s per node)",
             what, l->latency * 1e6, l->exchange * 1e3, l->one_way * 1e3, l->flows, 1 == l->flows ? "" : "s");
}

/* Within a node the model's latency and bandwidth are effective values fitted from whole collectives
 * (perf/tune.sh): point-to-point figures make its choices worse there (on perf/fit's data, 19.6% over the
 * fastest algorithm on average with the figures measured on that machine, 8.0% with the defaults). They are
 * reported in a comment, not written. */
static void keep_to_network(hdring_tune_params_t *p)
{
    p->set[HDRING_TUNE_LATENCY_US] = p->set[HDRING_TUNE_BANDWIDTH_MBS] = false;
}

/* Rank 0: the block, its check and its destination. Returns the exit status. */
static int conclude(const placement_t *pl, int reps, const hdring_tune_timings_t halves[2],
                    const hdring_tune_timings_t *all, const char *out, bool do_install)
{
    hdring_tune_params_t fit[2], best;
    hdring_tune_param_t worst;
    if (!hdring_tune_fit(&halves[0], &fit[0]) || !hdring_tune_fit(&halves[1], &fit[1]) ||
        !hdring_tune_fit(all, &best)) {
        fprintf(stderr, "hdring-tune: the timings leave no time for the bytes (a latency as long as a 4 MiB "
                        "transfer): nothing written. Run it again on an idle allocation\n");
        return 3;
    }
    keep_to_network(&fit[0]);
    keep_to_network(&fit[1]);
    keep_to_network(&best);
    const double disagreement = hdring_tune_disagreement(&fit[0], &fit[1], &worst);
    if (disagreement > TOLERANCE) {
        fprintf(stderr, "hdring-tune: the same measurement taken twice differs by %.0f%% (more than %.0f%%) for %s: "
                        "%.4g and %.4g. The machine is too busy to measure: nothing written\n",
                disagreement * 100, TOLERANCE * 100, hdring_tune_param_name(worst), fit[0].value[worst],
                fit[1].value[worst]);
        return 3;
    }
    char when[64], what[256], node[320] = "", network[256] = "", reduce[128], control[192];
    const time_t now = time(NULL);
    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", localtime(&now));
    snprintf(what, sizeof(what), "measured by hdring-tune on %s: %d ranks on %d node%s (at most %d per node), "
             "medians of %d samples", when, pl->size, pl->nodes, 1 == pl->nodes ? "" : "s", pl->ppn_max, 2 * reps);
    if (all->node.measured) {
        link_comment(node, sizeof(node), "within a node (not written: perf/tune.sh fits these)", &all->node);
    }
    if (all->network.measured) {
        link_comment(network, sizeof(network), "across nodes", &all->network);
    }
    snprintf(reduce, sizeof(reduce), "reduction: 4 MiB of doubles summed in %.3f ms", all->reduce * 1e3);
    snprintf(control, sizeof(control), "control: the fits of alternate samples differ by %.1f%% at most (%s)",
             disagreement * 100, hdring_tune_param_name(worst));
    const char *comments[5];
    int ncomments = 0;
    comments[ncomments++] = what;
    if ('\0' != node[0]) {
        comments[ncomments++] = node;
    }
    if ('\0' != network[0]) {
        comments[ncomments++] = network;
    }
    comments[ncomments++] = reduce;
    comments[ncomments++] = control;
    char *block = hdring_tune_block(&best, comments, ncomments);
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
        fprintf(stderr, "usage: mpirun -np P hdring-tune [-o FILE | --install | --print] [--reps N]\n"
                        "(P >= 2, placed as your jobs are; the comment at the top of perf/hdring_tune.c and the "
                        "README's Tuning section say more)\n");
    }
    MPI_Finalize();
    return status;
}

int main(int argc, char **argv)
{
    int reps = 25;
    const char *out = NULL;
    bool do_install = false;
    placement_t pl;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &pl.rank);
    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--reps") && i + 1 < argc && atoi(argv[i + 1]) > 0 && atoi(argv[i + 1]) <= 1000) {
            reps = atoi(argv[++i]);
        } else if (0 == strcmp(argv[i], "-o") && i + 1 < argc && !do_install) {
            out = argv[++i];
        } else if (0 == strcmp(argv[i], "--install") && NULL == out) {
            do_install = true;
        } else if (0 != strcmp(argv[i], "--print")) {
            return usage(pl.rank, 0 == strcmp(argv[i], "--help") ? 0 : 2);
        }
    }
    place(&pl);
    if (pl.size < 2) {
        if (0 == pl.rank) {
            fprintf(stderr, "hdring-tune: run it on 2 or more ranks\n");
        }
        MPI_Finalize();
        return 2;
    }
    const bool within = pl.ppn_max >= 2, across = pl.nodes >= 2;
    const int phases = within + across + 1;
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
    halves[0].reduce = median(t, 2 * reps, 0, 2);
    halves[1].reduce = median(t, 2 * reps, 1, 2);
    all.reduce = median(t, 2 * reps, 0, 1);

    const int status = 0 == pl.rank ? conclude(&pl, reps, halves, &all, out, do_install) : 0;
    int worst = status;
    MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    free(a);
    free(b);
    free(t);
    free(pl.node_of);
    free(pl.index_of);
    MPI_Finalize();
    return worst;
}
