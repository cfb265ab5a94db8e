/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_ulfm: a rank killed during collectives, under ULFM (Open MPI 5, mpirun --with-ft ulfm).
 *
 *   hdring_ulfm --coll allreduce|bcast|allgather|reduce_scatter_block --count N [--kill before|op|thread]
 *               [--at K] [--in-place] [--tolerant]
 *
 * Every rank calls the collective 2K times on a duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN; rank p-2 is
 * killed (raise(SIGKILL)) at its K-th call (default 10): before it (before), from inside the reduction of an
 * allreduce or reduce_scatter_block (op: a user sum that kills it at its first use in that call, in the middle of
 * the algorithm), or by a thread of its own 200 us into it (thread). Each survivor checks that its calls return,
 * says what the call that failed returned and how long it took, and never crashes.
 *
 * Plain (default): a failed call returns MPI_ERR_PROC_FAILED or MPI_ERR_REVOKED (a call whose data did not
 * depend on the lost rank may succeed); the survivors then agree that one failed, revoke, shrink, and an
 * allreduce on the shrunken communicator is checked.
 * --tolerant (with coll_hdring_tolerant 1; allreduce only): every call up to the K-th returns with the reduction
 * of every rank's contribution, the K-th with MPI_ERR_PROC_FAILED and the reduction of the survivors' (the same
 * bits on every survivor, compared on the survivors afterwards), the calls before it with MPI_SUCCESS.
 * Rank 0 of the survivors ends with "hdring_ulfm: N checks, F failures".
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hdring_mpi_util.h"

static const char *const usage =
    "usage: hdring_ulfm --coll allreduce|bcast|allgather|reduce_scatter_block --count N [--kill before|op|thread] "
    "[--at K] [--in-place] [--tolerant]\n";

static int rank, size, victim, kill_at = 10;
static volatile int call_no = -1; /* the call this rank is in */
static long checks, failures;

static void check(int ok, const char *fmt, ...)
{
    ++checks;
    if (!ok) {
        va_list ap;
        ++failures;
        va_start(ap, fmt);
        printf("FAIL rank %d: ", rank);
        vprintf(fmt, ap);
        printf("\n");
        fflush(stdout);
        va_end(ap);
    }
}

/* A sum of doubles that kills the victim the first time it runs in its kill_at-th call. */
static void killing_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    if (rank == victim && call_no == kill_at) {
        raise(SIGKILL);
    }
    for (int i = 0; i < *len; ++i) {
        ((double *) inout)[i] += ((const double *) in)[i];
    }
}

static void *killer(void *arg)
{
    (void) arg;
    while (call_no != kill_at) {
        usleep(10);
    }
    usleep(200);
    raise(SIGKILL);
    return NULL;
}

static const char *class_name(int cls)
{
    return MPI_SUCCESS == cls ? "MPI_SUCCESS" : MPIX_ERR_PROC_FAILED == cls ? "MPI_ERR_PROC_FAILED"
                                             : MPIX_ERR_REVOKED == cls       ? "MPI_ERR_REVOKED"
                                                                             : "another error";
}

/* Rank r's contribution at element i in call c: exact in doubles, different for every rank, element and call. */
static double value(int r, size_t i, int c) { return (double) ((r + 1) * 1000 + (int) (i % 997) + c * 7); }

int main(int argc, char **argv)
{
    const char *coll = NULL, *how = "before";
    size_t count = 1024;
    int in_place = 0, tolerant = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--coll") && i + 1 < argc) {
            coll = argv[++i];
        } else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
            count = strtoul(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--kill") && i + 1 < argc) {
            how = argv[++i];
        } else if (!strcmp(argv[i], "--at") && i + 1 < argc) {
            kill_at = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--in-place")) {
            in_place = 1;
        } else if (!strcmp(argv[i], "--tolerant")) {
            tolerant = 1;
        } else {
            util_usage_exit("hdring_ulfm", usage, "unknown argument\n");
        }
    }
    const int reduces = NULL != coll && (!strcmp(coll, "allreduce") || !strcmp(coll, "reduce_scatter_block"));
    if (NULL == coll || size < 3 || kill_at < 1 || (tolerant && strcmp(coll, "allreduce")) ||
        (!strcmp(how, "op") && !reduces) || (strcmp(how, "op") && strcmp(how, "thread") && strcmp(how, "before"))) {
        util_usage_exit("hdring_ulfm", usage, "needs 3 ranks or more, --coll; --kill op and --in-place for "
                                              "reductions, --tolerant for allreduce\n");
    }
    victim = size - 2;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Op op;
    MPI_Op_create(killing_sum, 1, &op);
    pthread_t thread;
    if (rank == victim && !strcmp(how, "thread")) {
        pthread_create(&thread, NULL, killer, NULL);
    }
    /* reduce_scatter_block: count per rank */
    const size_t total = !strcmp(coll, "allreduce") || !strcmp(coll, "bcast") ? count : count * (size_t) size;
    double *in = malloc(total * sizeof(double)), *out = malloc(total * sizeof(double));
    int failed_call = -1, failed_class = MPI_SUCCESS;
    double failed_seconds = 0;
    for (int c = 1; c <= (tolerant ? kill_at : 2 * kill_at); ++c) {
        for (size_t i = 0; i < total; ++i) {
            in[i] = value(rank, i, c);
        }
        if (in_place) {
            memcpy(out, in, total * sizeof(double));
        }
        if (rank == victim && c == kill_at && !strcmp(how, "before")) {
            raise(SIGKILL);
        }
        call_no = c;
        const double start = MPI_Wtime();
        int rc;
        if (!strcmp(coll, "allreduce")) {
            rc = MPI_Allreduce(in_place ? MPI_IN_PLACE : in, out, (int) count, MPI_DOUBLE, op, comm);
        } else if (!strcmp(coll, "reduce_scatter_block")) {
            rc = MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : in, out, (int) count, MPI_DOUBLE, op, comm);
        } else if (!strcmp(coll, "bcast")) {
            rc = MPI_Bcast(in, (int) count, MPI_DOUBLE, 0, comm);
        } else {
            rc = MPI_Allgather(in, (int) count, MPI_DOUBLE, out, (int) count, MPI_DOUBLE, comm);
        }
        const double seconds = MPI_Wtime() - start;
        int cls;
        MPI_Error_class(rc, &cls);
        if (tolerant) {
            /* who took part: everyone before the kill, the survivors in its call */
            const int lost = c == kill_at;
            check(cls == (c == kill_at ? MPIX_ERR_PROC_FAILED : MPI_SUCCESS),
                  "tolerant allreduce call %d returned %s", c, class_name(cls));
            for (size_t i = 0; i < count; ++i) {
                double want = 0;
                for (int r = 0; r < size; ++r) {
                    want += lost && r == victim ? 0 : value(r, i, c);
                }
                if (out[i] != want) {
                    check(0, "tolerant allreduce call %d element %zu: %.1f, expected %.1f", c, i, out[i], want);
                    break;
                }
            }
            if (c == kill_at) {
                failed_call = c, failed_class = cls, failed_seconds = seconds;
            }
        } else if (MPI_SUCCESS != rc) {
            failed_call = c, failed_class = cls, failed_seconds = seconds;
            break;
        }
    }
    if (failed_call > 0) {
        printf("hdring_ulfm: rank %d: call %d returned %s after %.3f s\n", rank, failed_call, class_name(failed_class),
               failed_seconds);
    } else {
        printf("hdring_ulfm: rank %d: every call returned MPI_SUCCESS\n", rank);
    }
    fflush(stdout);
    if (!tolerant) {
        check(failed_call < 0 || MPIX_ERR_PROC_FAILED == failed_class || MPIX_ERR_REVOKED == failed_class,
              "call %d returned %s", failed_call, class_name(failed_class));
    }
    /* the survivors: agree that a rank is lost, shrink, and check an allreduce (and, tolerant, the same bits) */
    int flag = failed_call < 0;
    MPIX_Comm_agree(comm, &flag);
    MPIX_Comm_revoke(comm);
    MPI_Comm survivors;
    check(MPI_SUCCESS == MPIX_Comm_shrink(comm, &survivors), "MPIX_Comm_shrink failed");
    int p, r;
    MPI_Comm_size(survivors, &p);
    MPI_Comm_rank(survivors, &r);
    check(p == size - 1, "%d survivors, expected %d", p, size - 1);
    long *v = malloc(count * sizeof(long)), *sum = malloc(count * sizeof(long));
    for (size_t i = 0; i < count; ++i) {
        v[i] = (long) (r + 1) * (long) (i + 1);
    }
    const int rc = MPI_Allreduce(v, sum, (int) count, MPI_LONG, MPI_SUM, survivors);
    size_t wrong = 0;
    for (size_t i = 0; MPI_SUCCESS == rc && i < count; ++i) {
        wrong += sum[i] != (long) p * (p + 1) / 2 * (long) (i + 1);
    }
    check(MPI_SUCCESS == rc && 0 == wrong, "allreduce on the %d survivors: rc %d, %zu elements wrong", p, rc, wrong);
    if (tolerant) {
        check(util_all_equal(survivors, util_hash(out, count * sizeof(double))),
              "the survivors' last results differ in their bits");
    }
    const long all_checks = util_sum(survivors, checks), all_failures = util_sum(survivors, failures);
    if (0 == r) {
        printf("hdring_ulfm: shrunk to %d survivors\n", p);
        printf("hdring_ulfm: %ld checks, %ld failures\n", all_checks, all_failures);
    }
    MPI_Comm_free(&survivors);
    MPI_Comm_free(&comm);
    MPI_Op_free(&op);
    free(in), free(out), free(v), free(sum);
    MPI_Finalize();
    return 0 == failures ? 0 : 1;
}
