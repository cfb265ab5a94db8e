/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_nbc: nonblocking and persistent collectives in flight together.
 *
 *   hdring_nbc --outstanding [--alg LIST]  for every algorithm of every collective (forced through MPI_T before the
 *                                          communicator is made; "auto" too), one call of each of the five
 *                                          collectives in flight at once, plus a second allreduce and a blocking
 *                                          bcast among them, on a dup and on a rank-reversed split; completed by
 *                                          MPI_Waitall, by MPI_Wait in reverse order, by MPI_Test round-robin, by
 *                                          MPI_Waitany and by MPI_Waitsome in turn; then the same across two
 *                                          communicators at once, and beside a libnbc MPI_Ialltoall
 *   hdring_nbc --persistent [--alg LIST]   each collective's persistent request started 12 times with new data
 *                                          each time, all five in flight together (MPI_Startall) every other time
 *   hdring_nbc --threads                   (MPI_THREAD_MULTIPLE) 3 threads per process, each with a communicator
 *                                          of its own, each running nonblocking, persistent and blocking calls
 *   hdring_nbc --free                      a communicator freed while its collective is in flight: the collective
 *                                          still completes right (MPI keeps the communicator until it does)
 *
 * Every result is checked element by element against the answer computed locally (integer sums: exact).
 * Prints "hdring_nbc: <n> checks, <m> failures" on rank 0; exit status 0 only without failures.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_kinds.h"
#include "hdring_mpi_util.h"

#define NTHREADS 3
#define STARTS 12

static int world_rank, world_size;
static long checks, failures;
static pthread_mutex_t tally = PTHREAD_MUTEX_INITIALIZER;

static void check(bool ok, const char *what, const char *alg, int detail)
{
    pthread_mutex_lock(&tally);
    ++checks;
    if (!ok) {
        if (++failures <= 20) {
            printf("FAIL %s alg=%s rank=%d (%d)\n", what, alg, world_rank, detail);
            fflush(stdout);
        }
    }
    pthread_mutex_unlock(&tally);
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (NULL == p) {
        fprintf(stderr, "hdring_nbc: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* rank r's element i of call `salt` */
static int value(int r, int i, int salt) { return (r + 1) * (i % 97 + 1) + salt; }

/* ---- one set of the five collectives: buffers, start, check ---- */

typedef struct set {
    MPI_Comm comm;
    int rank, size, salt, n;
    int *ar_in, *ar_out, *ar2_in, *ar2_out;   /* two allreduces of n and n + 3 */
    int *rsb_in, *rsb_out, *rs_in, *rs_out, *rs_counts;
    int *ag_in, *ag_out, *bc;
    int root;
} set_t;

static void set_make(set_t *s, MPI_Comm comm, int n)
{
    memset(s, 0, sizeof(*s));
    s->comm = comm;
    MPI_Comm_rank(comm, &s->rank);
    MPI_Comm_size(comm, &s->size);
    s->n = n;
    const size_t p = (size_t) s->size, m = (size_t) n;
    s->ar_in = xmalloc(m * sizeof(int));
    s->ar_out = xmalloc(m * sizeof(int));
    s->ar2_in = xmalloc((m + 3) * sizeof(int));
    s->ar2_out = xmalloc((m + 3) * sizeof(int));
    s->rsb_in = xmalloc(p * m * sizeof(int));
    s->rsb_out = xmalloc(m * sizeof(int));
    s->rs_counts = xmalloc(p * sizeof(int));
    size_t total = 0;
    for (int b = 0; b < s->size; ++b) {
        s->rs_counts[b] = (b * 7 + n) % (n + 2);
        total += (size_t) s->rs_counts[b];
    }
    s->rs_in = xmalloc(total * sizeof(int));
    s->rs_out = xmalloc((m + 2) * sizeof(int));
    s->ag_in = xmalloc(m * sizeof(int));
    s->ag_out = xmalloc(p * m * sizeof(int));
    s->bc = xmalloc(m * sizeof(int));
}

static void set_free(set_t *s)
{
    free(s->ar_in), free(s->ar_out), free(s->ar2_in), free(s->ar2_out), free(s->rsb_in), free(s->rsb_out);
    free(s->rs_counts), free(s->rs_in), free(s->rs_out), free(s->ag_in), free(s->ag_out), free(s->bc);
}

/* New inputs for call `salt`; outputs to garbage. */
static void set_fill(set_t *s, int salt)
{
    const int n = s->n, p = s->size, me = s->rank;
    s->salt = salt;
    s->root = salt % p;
    for (int i = 0; i < n; ++i) {
        s->ar_in[i] = value(me, i, salt);
        s->ag_in[i] = value(me, i, salt + 1);
        s->bc[i] = me == s->root ? value(me, i, salt + 2) : -1;
    }
    for (int i = 0; i < n + 3; ++i) {
        s->ar2_in[i] = value(me, i, salt + 3);
    }
    for (int i = 0; i < p * n; ++i) {
        s->rsb_in[i] = value(me, i, salt + 4);
        s->ag_out[i] = -1;
    }
    int total = 0;
    for (int b = 0; b < p; ++b) {
        total += s->rs_counts[b];
    }
    for (int i = 0; i < total; ++i) {
        s->rs_in[i] = value(me, i, salt + 5);
    }
    memset(s->ar_out, 0xEE, (size_t) n * sizeof(int));
    memset(s->ar2_out, 0xEE, (size_t) (n + 3) * sizeof(int));
    memset(s->rsb_out, 0xEE, (size_t) n * sizeof(int));
    memset(s->rs_out, 0xEE, (size_t) (n + 2) * sizeof(int));
}

static int sum(int p, int i, int salt)
{
    int total = 0;
    for (int r = 0; r < p; ++r) {
        total += value(r, i, salt);
    }
    return total;
}

static void set_check(const set_t *s, const char *what, const char *alg)
{
    const int n = s->n, p = s->size, me = s->rank, salt = s->salt;
    int bad = -1;
    for (int i = 0; i < n && bad < 0; ++i) {
        bad = s->ar_out[i] == sum(p, i, salt) ? -1 : i;
    }
    check(bad < 0, what, alg, 1000000 + bad);
    bad = -1;
    for (int i = 0; i < n + 3 && bad < 0; ++i) {
        bad = s->ar2_out[i] == sum(p, i, salt + 3) ? -1 : i;
    }
    check(bad < 0, what, alg, 2000000 + bad);
    bad = -1;
    for (int i = 0; i < n && bad < 0; ++i) {
        bad = s->rsb_out[i] == sum(p, me * n + i, salt + 4) ? -1 : i;
    }
    check(bad < 0, what, alg, 3000000 + bad);
    int first = 0;
    for (int b = 0; b < me; ++b) {
        first += s->rs_counts[b];
    }
    bad = -1;
    for (int i = 0; i < s->rs_counts[me] && bad < 0; ++i) {
        bad = s->rs_out[i] == sum(p, first + i, salt + 5) ? -1 : i;
    }
    check(bad < 0, what, alg, 4000000 + bad);
    bad = -1;
    for (int i = 0; i < p * n && bad < 0; ++i) {
        bad = s->ag_out[i] == value(i / n, i % n, salt + 1) ? -1 : i;
    }
    check(bad < 0, what, alg, 5000000 + bad);
    bad = -1;
    for (int i = 0; i < n && bad < 0; ++i) {
        bad = s->bc[i] == value(s->root, i, salt + 2) ? -1 : i;
    }
    check(bad < 0, what, alg, 6000000 + bad);
}

/* The five nonblocking calls (and a second allreduce) of s into req[0 .. 6). */
static void set_start(set_t *s, MPI_Request *req)
{
    MPI_Iallreduce(s->ar_in, s->ar_out, s->n, MPI_INT, MPI_SUM, s->comm, &req[0]);
    MPI_Ibcast(s->bc, s->n, MPI_INT, s->root, s->comm, &req[1]);
    MPI_Iallgather(s->ag_in, s->n, MPI_INT, s->ag_out, s->n, MPI_INT, s->comm, &req[2]);
    MPI_Ireduce_scatter_block(s->rsb_in, s->rsb_out, s->n, MPI_INT, MPI_SUM, s->comm, &req[3]);
    MPI_Ireduce_scatter(s->rs_in, s->rs_out, s->rs_counts, MPI_INT, MPI_SUM, s->comm, &req[4]);
    MPI_Iallreduce(s->ar2_in, s->ar2_out, s->n + 3, MPI_INT, MPI_SUM, s->comm, &req[5]);
}

/* Completes n requests the way `how` says. */
static void complete_all(MPI_Request *req, int n, int how)
{
    int done = 0, index, outcount, indices[16];
    switch (how % 5) {
    case 0:
        MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
        break;
    case 1:
        for (int i = n - 1; i >= 0; --i) {
            MPI_Wait(&req[i], MPI_STATUS_IGNORE);
        }
        break;
    case 2:
        while (done < n) {
            done = 0;
            for (int i = 0; i < n; ++i) {
                int flag;
                MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE);
                done += flag;
            }
        }
        break;
    case 3:
        for (int i = 0; i < n; ++i) {
            MPI_Waitany(n, req, &index, MPI_STATUS_IGNORE);
        }
        break;
    default:
        while (done < n) {
            MPI_Waitsome(n, req, &outcount, indices, MPI_STATUSES_IGNORE);
            done += MPI_UNDEFINED == outcount ? n : outcount;
        }
        break;
    }
}

/* ---- algorithms ---- */

static const char *const nb_colls[] = {"allreduce", "bcast", "allgather", "reduce_scatter_block", "reduce_scatter"};
#define NB_COLLS 5

/* Forces alg for every collective that has it (the others auto). */
static void force_everywhere(const char *alg)
{
    char name[96], names[1024];
    for (int c = 0; c < NB_COLLS; ++c) {
        snprintf(name, sizeof(name), "coll_hdring_%s_algorithm", nb_colls[c]);
        const bool has = 0 == strcmp(alg, "auto") ||
                         (0 == util_cvar_enum_names(name, names, sizeof(names)) && util_listed(names, alg));
        util_cvar_write(name, has ? alg : "auto");
    }
}

/* Every algorithm name of any of the five collectives, and "auto", comma separated. */
static void all_algorithms(char *out, size_t len)
{
    char name[96], names[1024];
    snprintf(out, len, "auto");
    for (int c = 0; c < NB_COLLS; ++c) {
        snprintf(name, sizeof(name), "coll_hdring_%s_algorithm", nb_colls[c]);
        if (0 != util_cvar_enum_names(name, names, sizeof(names))) {
            continue;
        }
        for (char *tok = strtok(names, ","); NULL != tok; tok = strtok(NULL, ",")) {
            if (!util_listed(out, tok) && strlen(out) + strlen(tok) + 2 < len) {
                strcat(out, ",");
                strcat(out, tok);
            }
        }
    }
}

/* ---- the tests ---- */

static void outstanding(const char *alg, int round)
{
    MPI_Comm dup, rev;
    set_t a, b;
    MPI_Request req[16], other[16];
    const int sizes[] = {1, 7, 300, 5000};

    force_everywhere(alg);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &rev);
    for (int k = 0; k < 4; ++k) {
        const int n = sizes[k];
        /* one communicator, a blocking bcast among the calls in flight */
        set_make(&a, 0 == k % 2 ? dup : rev, n);
        set_fill(&a, 10 * k + round);
        set_start(&a, req);
        int *extra = xmalloc((size_t) n * sizeof(int));
        for (int i = 0; i < n; ++i) {
            extra[i] = 0 == a.rank ? i * 3 : -1;
        }
        MPI_Bcast(extra, n, MPI_INT, 0, a.comm);
        complete_all(req, 6, k + round);
        set_check(&a, "outstanding (one communicator)", alg);
        int bad = -1;
        for (int i = 0; i < n && bad < 0; ++i) {
            bad = extra[i] == i * 3 ? -1 : i;
        }
        check(bad < 0, "blocking bcast among calls in flight", alg, bad);
        free(extra);

        /* two communicators at once, completed together */
        set_make(&b, 0 == k % 2 ? rev : dup, n + 1);
        set_fill(&a, 10 * k + round + 1);
        set_fill(&b, 10 * k + round + 2);
        set_start(&a, req);
        set_start(&b, req + 6);
        complete_all(req, 12, k + round + 1);
        set_check(&a, "outstanding (two communicators)", alg);
        set_check(&b, "outstanding (two communicators)", alg);

        /* beside a libnbc collective on the same communicator */
        int *s = xmalloc((size_t) world_size * sizeof(int)), *r = xmalloc((size_t) world_size * sizeof(int));
        for (int i = 0; i < world_size; ++i) {
            s[i] = a.rank * 1000 + i;
        }
        set_fill(&a, 10 * k + round + 3);
        MPI_Ialltoall(s, 1, MPI_INT, r, 1, MPI_INT, a.comm, &other[0]);
        set_start(&a, req);
        complete_all(req, 6, k);
        MPI_Wait(&other[0], MPI_STATUS_IGNORE);
        set_check(&a, "beside a libnbc ialltoall", alg);
        bad = -1;
        for (int i = 0; i < a.size && bad < 0; ++i) {
            bad = r[i] == i * 1000 + a.rank ? -1 : i;
        }
        check(bad < 0, "libnbc ialltoall beside hdring", alg, bad);
        free(s);
        free(r);
        set_free(&a);
        set_free(&b);
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&rev);
}

static void persistent(const char *alg)
{
    MPI_Comm dup;
    set_t s;
    MPI_Request req[6];
    const int sizes[] = {1, 300, 5000};

    force_everywhere(alg);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int k = 0; k < 3; ++k) {
        set_make(&s, dup, sizes[k]);
        set_fill(&s, 0);
        kind_allreduce_init(s.ar_in, s.ar_out, s.n, MPI_INT, MPI_SUM, dup, &req[0]);
        kind_bcast_init(s.bc, s.n, MPI_INT, s.root, dup, &req[1]);
        kind_allgather_init(s.ag_in, s.n, MPI_INT, s.ag_out, s.n, MPI_INT, dup, &req[2]);
        kind_reduce_scatter_block_init(s.rsb_in, s.rsb_out, s.n, MPI_INT, MPI_SUM, dup, &req[3]);
        kind_reduce_scatter_init(s.rs_in, s.rs_out, s.rs_counts, MPI_INT, MPI_SUM, dup, &req[4]);
        kind_allreduce_init(s.ar2_in, s.ar2_out, s.n + 3, MPI_INT, MPI_SUM, dup, &req[5]);
        for (int start = 0; start < STARTS; ++start) {
            const int root = s.root;
            set_fill(&s, 7 * start); /* new data in the same buffers; the bcast's root stays the init's */
            s.root = root;
            for (int i = 0; i < s.n; ++i) {
                s.bc[i] = s.rank == root ? value(root, i, s.salt + 2) : -1;
            }
            if (0 == start % 2) {
                MPI_Startall(6, req);
                complete_all(req, 6, start);
            } else {
                for (int i = 0; i < 6; ++i) {
                    MPI_Start(&req[i]);
                    kind_complete(&req[i]);
                }
            }
            set_check(&s, "persistent, started again with new data", alg);
        }
        for (int i = 0; i < 6; ++i) {
            MPI_Request_free(&req[i]);
        }
        set_free(&s);
    }
    MPI_Comm_free(&dup);
}

typedef struct thread_arg {
    MPI_Comm comm;
    int id;
} thread_arg_t;

static void *thread_body(void *varg)
{
    thread_arg_t *a = varg;
    set_t s;
    MPI_Request req[6];
    for (int round = 0; round < 20; ++round) {
        set_make(&s, a->comm, 1 + (round * 37 + a->id * 11) % 700);
        set_fill(&s, round + 100 * a->id);
        set_start(&s, req);
        complete_all(req, 6, round + a->id);
        set_check(&s, "threads: nonblocking", "auto");
        set_fill(&s, round + 100 * a->id + 50);
        MPI_Allreduce(s.ar_in, s.ar_out, s.n, MPI_INT, MPI_SUM, s.comm);
        int bad = -1;
        for (int i = 0; i < s.n && bad < 0; ++i) {
            bad = s.ar_out[i] == sum(s.size, i, s.salt) ? -1 : i;
        }
        check(bad < 0, "threads: blocking allreduce", "auto", bad);
        kind_allreduce_init(s.ar_in, s.ar_out, s.n, MPI_INT, MPI_SUM, s.comm, &req[0]);
        MPI_Start(&req[0]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        MPI_Request_free(&req[0]);
        bad = -1;
        for (int i = 0; i < s.n && bad < 0; ++i) {
            bad = s.ar_out[i] == sum(s.size, i, s.salt) ? -1 : i;
        }
        check(bad < 0, "threads: persistent allreduce", "auto", bad);
        set_free(&s);
    }
    return NULL;
}

static void threads(void)
{
    pthread_t t[NTHREADS];
    thread_arg_t arg[NTHREADS];
    for (int i = 0; i < NTHREADS; ++i) { /* made one after another, on the main thread: collective */
        MPI_Comm_dup(MPI_COMM_WORLD, &arg[i].comm);
        arg[i].id = i;
    }
    for (int i = 0; i < NTHREADS; ++i) {
        pthread_create(&t[i], NULL, thread_body, &arg[i]);
    }
    for (int i = 0; i < NTHREADS; ++i) {
        pthread_join(t[i], NULL);
        MPI_Comm_free(&arg[i].comm);
    }
}

static void freed_in_flight(void)
{
    for (int round = 0; round < 10; ++round) {
        MPI_Comm dup;
        set_t s;
        MPI_Request req[6];
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        set_make(&s, dup, 1 + round * 500);
        set_fill(&s, round);
        set_start(&s, req);
        MPI_Comm_free(&dup);
        complete_all(req, 6, round);
        set_check(&s, "communicator freed with its collectives in flight", "auto");
        set_free(&s);
    }
}

static void usage(const char *why)
{
    util_usage_exit("hdring_nbc", "--outstanding | --persistent | --threads | --free [--alg LIST] (under mpirun)",
                    why);
}

int main(int argc, char **argv)
{
    const char *test = NULL, *algs = NULL;
    int provided;
    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--alg") && i + 1 < argc) {
            algs = argv[++i];
        } else if ('-' == argv[i][0] && '-' == argv[i][1] && NULL == test) {
            test = argv[i] + 2;
        } else {
            test = "?";
        }
    }
    const bool threaded = NULL != test && 0 == strcmp(test, "threads");
    MPI_Init_thread(&argc, &argv, threaded ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    MPI_T_init_thread(provided, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    if (NULL == test) {
        usage("which test?");
    }
    char all[2048];
    if (NULL == algs) {
        all_algorithms(all, sizeof(all));
        algs = all;
    }
    char list[2048];
    snprintf(list, sizeof(list), "%s", algs);
    if (0 == strcmp(test, "outstanding") || 0 == strcmp(test, "persistent")) {
        int round = 0;
        for (char *alg = strtok(list, ","); NULL != alg; alg = strtok(NULL, ","), ++round) {
            if (0 == world_rank) {
                printf("hdring_nbc: starting %s alg=%s\n", test, alg);
                fflush(stdout);
            }
            if ('o' == test[0]) {
                outstanding(alg, round);
            } else {
                persistent(alg);
            }
        }
    } else if (threaded) {
        if (MPI_THREAD_MULTIPLE != provided) {
            usage("needs MPI_THREAD_MULTIPLE");
        }
        threads();
    } else if (0 == strcmp(test, "free")) {
        freed_in_flight();
    } else {
        usage("unknown test");
    }
    const long all_failures = util_sum(MPI_COMM_WORLD, failures), all_checks = util_sum(MPI_COMM_WORLD, checks);
    if (0 == world_rank) {
        printf("hdring_nbc: %ld checks, %ld failures\n", all_checks, all_failures);
    }
    MPI_T_finalize();
    MPI_Finalize();
    return 0 == all_failures ? 0 : 1;
}
