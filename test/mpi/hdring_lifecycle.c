/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_lifecycle: communicators come and go, and each gets the component it asked for.
 *
 *   --binding  write coll_hdring_priority through MPI_T: -1, then dup (comm "tuned"); back to the default, then
 *              dup (comm "hdring"). Allreduce 7 ints on "hdring" and 11 ints on "tuned": with
 *              coll_hdring_verbose 1 the trace must show bytes=28 and never bytes=44 (the runner checks).
 *   --churn    100 rounds of dup, split and free, with a checked allreduce on every new communicator.
 *   --adopt    (odd np, coll_hdring_verbose 2) 30 communicators one after another, each freed before the next:
 *              dups of MPI_COMM_WORLD, and every third a split with the ranks reversed (same size and node,
 *              other ranks but the middle one's). Each takes 1 or 3 rounds of allreduce, allgather, bcast from
 *              rank 1 and reduce_scatter_block, all checked: communicators of one setup share its cached tasks
 *              (the runner counts the schedules the trace says were built), which must still send to the right
 *              ranks.
 *   --self     MPI_COMM_SELF and size-1 split communicators.
 *   --intercomm  an intercommunicator between two halves of MPI_COMM_WORLD, which hdring declines (the
 *              runner checks coll_base_verbose output); allreduce and bcast must still be right.
 *   --threads  (first, for MPI_THREAD_MULTIPLE) 3 threads per process at once, each 50 rounds of dup of its own
 *              communicator, a checked allreduce of a size of its own, a bcast, and free: calls on several
 *              communicators at once must not share a module's state (two communicators handed one state give
 *              wrong sums here), and creation and release from several threads go through the component's
 *              shared tables (parameter snapshot, setups and their task caches).
 *
 * Prints "hdring_lifecycle: <n> checks, <m> failures" on rank 0; exit status 0 only without failures.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_mpi_util.h"

/* per thread: --threads adds its threads' counts to the main thread's once they have joined */
static _Thread_local long checks, failures;

/* allreduce of count ints on comm, checked: element i sums (rank + 1) * (i + 1) over the ranks */
static void checked_allreduce(MPI_Comm comm, int count, const char *what)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *in = malloc(sizeof(int) * (size_t) (count + 1)), *out = malloc(sizeof(int) * (size_t) (count + 1));
    for (int i = 0; i < count; ++i) {
        in[i] = (rank + 1) * (i + 1);
        out[i] = -1;
    }
    MPI_Allreduce(in, out, count, MPI_INT, MPI_SUM, comm);
    ++checks;
    for (int i = 0; i < count; ++i) {
        if (out[i] != size * (size + 1) / 2 * (i + 1)) {
            ++failures;
            printf("FAIL %s: rank %d of %d, element %d is %d\n", what, rank, size, i, out[i]);
            break;
        }
    }
    free(in);
    free(out);
}

static void binding(void)
{
    MPI_Comm hdring_comm, tuned_comm;
    char priority[32];
    int rc, initial;

    /* verbose is per communicator too: on for both, so the trace shows which one hdring serves */
    if (0 != util_cvar_write("coll_hdring_verbose", "1")) {
        ++failures;
        printf("FAIL binding: coll_hdring_verbose is not writable through MPI_T (is hdring loaded?)\n");
        return;
    }
    rc = util_cvar_read_int("coll_hdring_priority", &initial);
    rc |= util_cvar_write("coll_hdring_priority", "-1");
    MPI_Comm_dup(MPI_COMM_WORLD, &tuned_comm);
    snprintf(priority, sizeof(priority), "%d", initial);
    rc |= util_cvar_write("coll_hdring_priority", priority);
    MPI_Comm_dup(MPI_COMM_WORLD, &hdring_comm);
    ++checks;
    if (0 != rc) {
        ++failures;
        printf("FAIL binding: coll_hdring_priority is not writable through MPI_T\n");
    }
    checked_allreduce(hdring_comm, 7, "binding (hdring communicator)");
    checked_allreduce(tuned_comm, 11, "binding (tuned communicator)");
    MPI_Comm_free(&hdring_comm);
    MPI_Comm_free(&tuned_comm);
}

static void churn(void)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int round = 0; round < 100; ++round) {
        MPI_Comm dup, split, dup_of_split;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_split(dup, rank % (1 + round % 3), (round & 1) ? size - rank : rank, &split);
        MPI_Comm_dup(split, &dup_of_split);
        checked_allreduce(dup, 1 + round % 5, "churn (dup)");
        checked_allreduce(split, 3 + round, "churn (split)");
        checked_allreduce(dup_of_split, 2 * size + 1, "churn (dup of split)");
        MPI_Comm_free(&dup_of_split);
        MPI_Comm_free(&split);
        MPI_Comm_free(&dup);
    }
}

/* allgather, bcast from rank 1 and reduce_scatter_block of ints on comm, checked */
static void checked_others(MPI_Comm comm, const char *what)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *gathered = malloc(sizeof(int) * (size_t) size), *contrib = malloc(sizeof(int) * (size_t) size);
    const int root = 1 % size, mine = 100 + rank;
    int value = rank == root ? 4242 : -1, reduced = -1;
    for (int r = 0; r < size; ++r) {
        gathered[r] = -1;
        contrib[r] = (rank + 1) * (r + 1);
    }
    MPI_Allgather(&mine, 1, MPI_INT, gathered, 1, MPI_INT, comm);
    MPI_Bcast(&value, 1, MPI_INT, root, comm);
    MPI_Reduce_scatter_block(contrib, &reduced, 1, MPI_INT, MPI_SUM, comm);
    checks += 3;
    for (int r = 0; r < size; ++r) {
        if (gathered[r] != 100 + r) {
            ++failures;
            printf("FAIL %s: rank %d of %d, allgather block %d is %d\n", what, rank, size, r, gathered[r]);
            break;
        }
    }
    if (4242 != value || reduced != size * (size + 1) / 2 * (rank + 1)) {
        ++failures;
        printf("FAIL %s: rank %d of %d got bcast %d, reduce_scatter_block %d\n", what, rank, size, value, reduced);
    }
    free(gathered);
    free(contrib);
}

static void adopt(void)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int round = 0; round < 30; ++round) {
        MPI_Comm comm;
        const bool reversed = 2 == round % 3;
        const char *what = reversed ? "adopt (reversed split)" : "adopt (dup)";
        if (reversed) {
            MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &comm);
        } else {
            MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        }
        for (int call = 0; call < (round % 2 ? 1 : 3); ++call) {
            checked_allreduce(comm, 5, what);
            checked_others(comm, what);
        }
        MPI_Comm_free(&comm);
    }
}

#define THREADS 3
#define THREAD_ROUNDS 50

typedef struct {
    MPI_Comm parent; /* the thread's own: threads may not call collectives on one communicator at once */
    int id;
    long checks, failures;
} thread_work_t;

static void *thread_rounds(void *arg)
{
    thread_work_t *w = arg;
    int rank;
    MPI_Comm_rank(w->parent, &rank);
    for (int round = 0; round < THREAD_ROUNDS; ++round) {
        MPI_Comm dup;
        MPI_Comm_dup(w->parent, &dup);
        checked_allreduce(dup, 1 + w->id * 7 + round % 4, "threads (dup)");
        int value = 0 == rank ? 1000 * w->id + round : -1;
        MPI_Bcast(&value, 1, MPI_INT, 0, dup);
        ++checks;
        if (value != 1000 * w->id + round) {
            ++failures;
            printf("FAIL threads: thread %d round %d rank %d got bcast %d\n", w->id, round, rank, value);
        }
        MPI_Comm_free(&dup);
    }
    w->checks = checks;
    w->failures = failures;
    return NULL;
}

static void threads(void)
{
    pthread_t tid[THREADS];
    thread_work_t work[THREADS];
    int started = 0;
    for (int i = 0; i < THREADS; ++i) {
        work[i] = (thread_work_t) {.id = i};
        MPI_Comm_dup(MPI_COMM_WORLD, &work[i].parent);
    }
    for (; started < THREADS; ++started) {
        if (0 != pthread_create(&tid[started], NULL, thread_rounds, &work[started])) {
            ++failures;
            printf("FAIL threads: cannot start thread %d\n", started);
            break;
        }
    }
    for (int i = 0; i < started; ++i) {
        pthread_join(tid[i], NULL);
        checks += work[i].checks;
        failures += work[i].failures;
    }
    for (int i = 0; i < THREADS; ++i) {
        MPI_Comm_free(&work[i].parent);
    }
}

static void self(void)
{
    int rank;
    MPI_Comm single;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    checked_allreduce(MPI_COMM_SELF, 5, "self");
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &single);
    checked_allreduce(single, 9, "size-1 split");
    int x = rank, gathered = -1, reduced = -1;
    MPI_Bcast(&x, 1, MPI_INT, 0, single);
    MPI_Allgather(&x, 1, MPI_INT, &gathered, 1, MPI_INT, single);
    MPI_Reduce_scatter_block(&x, &reduced, 1, MPI_INT, MPI_SUM, single);
    checks += 3;
    if (x != rank || gathered != rank || reduced != rank) {
        ++failures;
        printf("FAIL size-1 split: rank %d got bcast %d, allgather %d, reduce_scatter_block %d\n", rank, x, gathered,
               reduced);
    }
    MPI_Comm_free(&single);
}

static void intercomm(void)
{
    int rank, size, local_size, remote_size;
    MPI_Comm half, inter;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        return;
    }
    const int color = rank < size / 2 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 0 == color ? size / 2 : 0, 77, &inter);
    MPI_Comm_size(inter, &local_size);
    MPI_Comm_remote_size(inter, &remote_size);

    /* each group receives the reduction of the other group's contributions: 13 ints, a size no other check uses */
    int in[13], out[13];
    for (int i = 0; i < 13; ++i) {
        in[i] = color ? 1000 : 1;
        out[i] = -1;
    }
    MPI_Allreduce(in, out, 13, MPI_INT, MPI_SUM, inter);
    ++checks;
    if (out[12] != remote_size * (color ? 1 : 1000)) {
        ++failures;
        printf("FAIL intercomm allreduce: rank %d got %d\n", rank, out[12]);
    }
    /* group 0's rank 0 broadcasts to group 1 */
    int root, value = 0 == color ? 4242 : -1;
    if (0 == color) {
        MPI_Comm_rank(half, &root);
        root = 0 == root ? MPI_ROOT : MPI_PROC_NULL;
    } else {
        root = 0;
    }
    MPI_Bcast(&value, 1, MPI_INT, root, inter);
    ++checks;
    if (1 == color && 4242 != value) {
        ++failures;
        printf("FAIL intercomm bcast: rank %d got %d\n", rank, value);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    const bool with_threads = argc > 1 && 0 == strcmp(argv[1], "--threads");
    int provided, t_provided, rank;
    MPI_Init_thread(&argc, &argv, with_threads ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    /* at MPI's own level: Open MPI 4.1.4's MPI_T_init_thread sets the level MPI_Query_thread reports */
    MPI_T_init_thread(provided, &t_provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--threads") && 1 == i) {
            int level;
            MPI_Query_thread(&level);
            ++checks;
            if (MPI_THREAD_MULTIPLE != level) {
                ++failures;
                printf("FAIL threads: MPI_THREAD_MULTIPLE not provided (%d)\n", level);
            } else {
                threads();
            }
        } else if (0 == strcmp(argv[i], "--binding")) {
            binding();
        } else if (0 == strcmp(argv[i], "--churn")) {
            churn();
        } else if (0 == strcmp(argv[i], "--adopt")) {
            adopt();
        } else if (0 == strcmp(argv[i], "--self")) {
            self();
        } else if (0 == strcmp(argv[i], "--intercomm")) {
            intercomm();
        } else {
            util_usage_exit("hdring_lifecycle",
                            "[--threads] [--binding] [--churn] [--adopt] [--self] [--intercomm] (under mpirun)",
                            0 == strcmp(argv[i], "--help") || 0 == strcmp(argv[i], "-h") ? NULL : "unknown option");
        }
    }
    const long total = util_sum(MPI_COMM_WORLD, failures);
    if (0 == rank) {
        printf("hdring_lifecycle: %ld checks, %ld failures\n", checks, total);
    }
    MPI_T_finalize();
    MPI_Finalize();
    return 0 == total ? 0 : 1;
}
