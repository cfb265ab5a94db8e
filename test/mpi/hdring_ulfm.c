/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_ulfm: a rank killed during collectives, under ULFM (Open MPI 5, mpirun --with-ft ulfm).
 *
 *   hdring_ulfm --coll C --count N [--kind blocking|nonblocking|persistent] [--kill before|between|op|thread]
 *               [--delay US] [--at K] [--in-place] [--tolerant] [--bound S]
 *
 * C is allreduce, reduce_scatter, reduce_scatter_block, allgather or bcast (N elements a rank: the vector of
 * allreduce and bcast, a block of the others). Every rank calls C on a duplicate of MPI_COMM_WORLD with
 * MPI_ERRORS_RETURN, in the kind asked for: blocking; nonblocking (the I-call and MPI_Wait); persistent (one request
 * made before the first call and started for each, so a start after the failure is tried too). Rank p-2 (the
 * victim) is killed with SIGKILL at its K-th call (default 10), once every survivor has started its own K-th call
 * (they count themselves in shared memory: all ranks run on one machine), so the loss happens inside the survivors'
 * call, where hdring can see it:
 *   before   US microseconds (default 200) after the survivors started, before the victim's own call;
 *   op       from inside the reduction (reductions only): a user sum that kills it at its first use in call K, in
 *            the middle of the algorithm;
 *   thread   by a thread of its own, US microseconds into its call (half that in the next call if it missed).
 * A victim that returns from call K alive (no reduction of its own, or its killer not yet struck) dies the same way
 * in a later call; one that returns from all (calls too short for US) says so, and the survivors fail the test.
 *   between  the victim dies after its (K-1)-th call, and the survivors start their K-th only once their Open MPI
 *            knows of the loss: Open MPI then answers the call itself, MPI_ERR_PROC_FAILED before any component
 *            sees it (ompi_comm_iface_coll_check), on every survivor alike, the buffers untouched.
 * Each survivor checks that its calls return: a call that has not returned after S seconds (default 120: far
 * beyond anything a busy machine makes of a call that takes milliseconds) is a hang, said as such, and the job is
 * aborted. It checks what the call that failed returned, never crashes, and says how long that call took.
 *
 * Plain (default): the call that fails returns MPI_ERR_PROC_FAILED or MPI_ERR_REVOKED (a call whose data did not
 * depend on the victim may succeed, as may every call of a bcast root whose sends need no answer). A persistent
 * request is started again where the loss is known, and once more after the communicator is revoked: each start
 * must end in an error too. The survivors then agree that one failed, revoke, shrink, and
 * an allreduce on the shrunken communicator is checked.
 * --tolerant (with coll_hdring_tolerant 1; blocking allreduce only): each call returns MPI_SUCCESS with every rank's
 * contribution, or MPI_ERR_PROC_FAILED with the survivors' (or every rank's, when the victim died after giving its
 * own: README; --kill between: Open MPI's own answer, the buffer as it was); every survivor returns the same class
 * from each call and the same bits from the one that failed; the calls go on until one fails, which must happen by
 * the (K+2)-th.
 * Rank 0 of the survivors ends with "hdring_ulfm: N checks, F failures".
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "hdring_kinds.h"
#include "hdring_mpi_util.h"

static const char *const usage =
    "usage: hdring_ulfm --coll allreduce|reduce_scatter|reduce_scatter_block|allgather|bcast --count N "
    "[--kind blocking|nonblocking|persistent] [--kill before|between|op|thread] [--delay US] [--at K] [--in-place] "
    "[--tolerant] [--bound S]\n";

static int rank, size, victim, kill_at = 10, delay_us = 200;
/* Shared by the job's ranks (one machine): how many survivors have started each call, and returned from it. */
#define MAX_CALLS 64
static volatile int *entered, *left;
static double bound_s = 120;
static volatile int call_no = -1;  /* the call this rank is in; 0 between calls */
static volatile double call_start; /* MPI_Wtime at its start */
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

/* The victim dies once every survivor has started call k, and delay microseconds more. */
static void die_once_all_started(int k, int delay)
{
    while (__atomic_load_n(&entered[k], __ATOMIC_ACQUIRE) < size - 1) {
        usleep(20);
    }
    usleep((useconds_t) delay);
    raise(SIGKILL);
}

/* Every rank maps the job's counters: rank 0 names them. */
static void share_counters(void)
{
    char name[64];
    if (0 == rank) {
        snprintf(name, sizeof(name), "/hdring_ulfm_%ld", (long) getpid());
    }
    MPI_Bcast(name, sizeof(name), MPI_CHAR, 0, MPI_COMM_WORLD);
    const int fd = shm_open(name, O_RDWR | O_CREAT, 0600);
    if (fd < 0 || ftruncate(fd, 2 * MAX_CALLS * sizeof(int)) != 0) {
        perror("hdring_ulfm: shm_open");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    entered = mmap(NULL, 2 * MAX_CALLS * sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    left = entered + MAX_CALLS;
    close(fd);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        shm_unlink(name); /* the mappings stay */
    }
}

/* --kill between: a survivor waits until its Open MPI knows that a rank failed. */
static void wait_until_known(MPI_Comm comm)
{
    for (;;) {
        MPI_Group failed;
        int n = 0, flag;
        MPI_Iprobe(MPI_ANY_SOURCE, 4242, comm, &flag, MPI_STATUS_IGNORE); /* progress */
        MPIX_Comm_get_failed(comm, &failed);
        MPI_Group_size(failed, &n);
        MPI_Group_free(&failed);
        if (n > 0) {
            return;
        }
        usleep(100);
    }
}

/* A sum of doubles that kills the victim the first time it runs in its kill_at-th call (--kill op). */
static int kill_in_op;
static void killing_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    if (kill_in_op && rank == victim && call_no >= kill_at) {
        die_once_all_started(call_no, 0);
    }
    for (int i = 0; i < *len; ++i) {
        ((double *) inout)[i] += ((const double *) in)[i];
    }
}

/* --kill thread: the victim's thread, delay_us into its kill_at-th call once every survivor has started theirs; if
 * by then the victim or any survivor has returned from it, into the next one with half the delay (a loss after
 * some survivor's call ended is a loss between calls, not what this tests; a busy machine may make calls shorter
 * than asked for). */
static void *killer(void *arg)
{
    (void) arg;
    int delay = delay_us;
    for (;;) {
        const int c = call_no;
        if (c >= kill_at && __atomic_load_n(&entered[c], __ATOMIC_ACQUIRE) >= size - 1) {
            usleep((useconds_t) delay);
            if (call_no == c && 0 == __atomic_load_n(&left[c], __ATOMIC_ACQUIRE)) {
                raise(SIGKILL);
            }
            delay /= 2;
            while (call_no == c) {
                usleep(10);
            }
        }
        usleep(10);
    }
    return NULL;
}

/* Every survivor's watchdog: a call that does not return within bound_s is a hang. */
static void *watchdog(void *arg)
{
    (void) arg;
    for (;;) {
        sleep(1);
        const int c = call_no;
        if (c > 0 && MPI_Wtime() - call_start > bound_s) {
            printf("FAIL rank %d: call %d has not returned after %.0f s: a hang\n", rank, c, bound_s);
            fflush(stdout);
            _exit(3);
        }
    }
    return NULL;
}

static const char *other_class(int cls)
{
    static char text[MPI_MAX_ERROR_STRING + 32];
    int len;
    snprintf(text, 32, "error class %d: ", cls);
    MPI_Error_string(cls, text + strlen(text), &len);
    return text;
}

static const char *class_name(int cls)
{
    return MPI_SUCCESS == cls ? "MPI_SUCCESS" : MPIX_ERR_PROC_FAILED == cls ? "MPI_ERR_PROC_FAILED"
                                             : MPIX_ERR_REVOKED == cls       ? "MPI_ERR_REVOKED"
                                                                             : other_class(cls);
}

/* Rank r's contribution at element i in call c: exact in doubles, different for every rank, element and call. */
static double value(int r, size_t i, int c) { return (double) ((r + 1) * 1000 + (int) (i % 997) + c * 7); }

typedef struct call {
    const char *coll;
    int count, in_place;
    MPI_Op op;
    MPI_Comm comm;
    double *in, *out;
    int *counts; /* reduce_scatter */
    MPI_Request persistent;
    MPI_Request spare[2]; /* persistent: made with the first, started only after the failure */
} call_t;

static bool is(const call_t *c, const char *name) { return 0 == strcmp(c->coll, name); }

/* Elements of in and out. */
static size_t in_elems(const call_t *c)
{
    return is(c, "allreduce") || is(c, "bcast") || is(c, "allgather") ? (size_t) c->count
                                                                      : (size_t) c->count * (size_t) size;
}
static size_t out_elems(const call_t *c)
{
    return is(c, "allgather") ? (size_t) c->count * (size_t) size
           : is(c, "allreduce") || (c->in_place && !is(c, "bcast")) ? in_elems(c)
                                                                     : (size_t) c->count;
}

/* The persistent request of call c, made once. */
static int make_persistent(call_t *c, MPI_Request *req)
{
    const void *s = c->in_place ? MPI_IN_PLACE : c->in;
    void *r = c->in_place ? c->in : c->out;
    if (is(c, "allreduce")) {
        return kind_allreduce_init(s, r, c->count, MPI_DOUBLE, c->op, c->comm, req);
    } else if (is(c, "reduce_scatter")) {
        return kind_reduce_scatter_init(s, r, c->counts, MPI_DOUBLE, c->op, c->comm, req);
    } else if (is(c, "reduce_scatter_block")) {
        return kind_reduce_scatter_block_init(s, r, c->count, MPI_DOUBLE, c->op, c->comm, req);
    } else if (is(c, "allgather")) {
        return kind_allgather_init(c->in, c->count, MPI_DOUBLE, c->out, c->count, MPI_DOUBLE, c->comm,
                                   req);
    }
    return kind_bcast_init(c->in, c->count, MPI_DOUBLE, 0, c->comm, req);
}

/* One call in the kind asked for (kind_mode), completed by MPI_Wait; its MPI error code. */
static int one_call(call_t *c)
{
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Request *r = KIND_NONBLOCKING == kind_mode ? &req : NULL;
    const void *s = c->in_place ? MPI_IN_PLACE : c->in;
    void *out = c->in_place ? c->in : c->out;
    int rc;
    if (KIND_PERSISTENT == kind_mode) {
        rc = MPI_Start(&c->persistent);
        return MPI_SUCCESS != rc ? rc : MPI_Wait(&c->persistent, MPI_STATUS_IGNORE);
    }
    if (is(c, "allreduce")) {
        rc = r ? MPI_Iallreduce(s, out, c->count, MPI_DOUBLE, c->op, c->comm, r)
               : MPI_Allreduce(s, out, c->count, MPI_DOUBLE, c->op, c->comm);
    } else if (is(c, "reduce_scatter")) {
        rc = r ? MPI_Ireduce_scatter(s, out, c->counts, MPI_DOUBLE, c->op, c->comm, r)
               : MPI_Reduce_scatter(s, out, c->counts, MPI_DOUBLE, c->op, c->comm);
    } else if (is(c, "reduce_scatter_block")) {
        rc = r ? MPI_Ireduce_scatter_block(s, out, c->count, MPI_DOUBLE, c->op, c->comm, r)
               : MPI_Reduce_scatter_block(s, out, c->count, MPI_DOUBLE, c->op, c->comm);
    } else if (is(c, "allgather")) {
        rc = r ? MPI_Iallgather(c->in, c->count, MPI_DOUBLE, c->out, c->count, MPI_DOUBLE, c->comm, r)
               : MPI_Allgather(c->in, c->count, MPI_DOUBLE, c->out, c->count, MPI_DOUBLE, c->comm);
    } else {
        rc = r ? MPI_Ibcast(c->in, c->count, MPI_DOUBLE, 0, c->comm, r)
               : MPI_Bcast(c->in, c->count, MPI_DOUBLE, 0, c->comm);
    }
    return MPI_SUCCESS != rc || NULL == r ? rc : MPI_Wait(r, MPI_STATUS_IGNORE);
}

/* A persistent request started once the loss is known (or the communicator revoked) ends in an error, not a wait
 * for ever: the one that failed if it is still there (Open MPI 5.0's MPI_Wait frees a request that completed in
 * error), else one made with it and never started. */
static void start_after_failure(call_t *c, int k, const char *when)
{
    MPI_Request *again = &c->persistent;
    for (int s = 0; s < 2 && MPI_REQUEST_NULL == *again; ++s) {
        again = &c->spare[s];
    }
    call_start = MPI_Wtime();
    call_no = k;
    int rc = MPI_Start(again);
    if (MPI_SUCCESS == rc) {
        rc = MPI_Wait(again, MPI_STATUS_IGNORE);
    }
    call_no = 0;
    int cls;
    MPI_Error_class(rc, &cls);
    check(MPIX_ERR_PROC_FAILED == cls || MPIX_ERR_REVOKED == cls, "a persistent request started %s returned %s",
          when, class_name(cls));
}

/* The tolerant allreduce's result of call k: every rank's contribution (lost 0) or the survivors' (lost 1). */
static void check_tolerant(const call_t *c, int k, int cls, bool answered_by_ompi)
{
    const double *got = c->in_place ? c->in : c->out;
    const int lost = MPI_SUCCESS != cls;
    if (answered_by_ompi) { /* --kill between: Open MPI's answer, the call's buffer as it was */
        check(MPIX_ERR_PROC_FAILED == cls, "call %d after a loss known before it returned %s", k, class_name(cls));
        const int was = c->in_place ? k : k - 1; /* in place: this call's input; else the last call's result */
        for (size_t i = 0; i < (size_t) c->count && was > 0; ++i) {
            double want = 0;
            for (int r = 0; r < size; ++r) {
                want += c->in_place && r != rank ? 0 : value(r, i, was);
            }
            if (got[i] != want) {
                check(0, "call %d after a loss known before it changed the buffer: %.1f at %zu, expected %.1f", k,
                      got[i], i, want);
                return;
            }
        }
        return;
    }
    check(MPI_SUCCESS == cls || MPIX_ERR_PROC_FAILED == cls, "tolerant allreduce call %d returned %s", k,
          class_name(cls));
    /* MPI_SUCCESS: every rank's sum; MPI_ERR_PROC_FAILED: the survivors', or every rank's when the victim died after
     * giving its contribution (the same on every survivor: compared at the end) */
    bool survivors_sum = true, every_sum = true;
    for (size_t i = 0; i < (size_t) c->count; ++i) {
        double every = 0;
        for (int r = 0; r < size; ++r) {
            every += value(r, i, k);
        }
        survivors_sum &= got[i] == every - value(victim, i, k);
        every_sum &= got[i] == every;
    }
    check(every_sum || (lost && survivors_sum), "tolerant allreduce call %d (%s): %.1f at 0 is neither %s", k,
          class_name(cls), got[0], lost ? "every rank's sum nor the survivors'" : "every rank's sum");
}

int main(int argc, char **argv)
{
    const char *how = "before";
    call_t c = {.count = 1024, .persistent = MPI_REQUEST_NULL, .spare = {MPI_REQUEST_NULL, MPI_REQUEST_NULL}};
    int tolerant = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--coll") && i + 1 < argc) {
            c.coll = argv[++i];
        } else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
            c.count = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--kind") && i + 1 < argc) {
            if (!kind_parse(argv[++i]) || KIND_MIXED == kind_mode) {
                util_usage_exit("hdring_ulfm", usage, "unknown kind\n");
            }
        } else if (!strcmp(argv[i], "--kill") && i + 1 < argc) {
            how = argv[++i];
        } else if (!strcmp(argv[i], "--delay") && i + 1 < argc) {
            delay_us = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--at") && i + 1 < argc) {
            kill_at = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--bound") && i + 1 < argc) {
            bound_s = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--in-place")) {
            c.in_place = 1;
        } else if (!strcmp(argv[i], "--tolerant")) {
            tolerant = 1;
        } else {
            util_usage_exit("hdring_ulfm", usage, "unknown argument\n");
        }
    }
    const int known = NULL != c.coll && (!strcmp(c.coll, "allreduce") || !strcmp(c.coll, "reduce_scatter") ||
                                         !strcmp(c.coll, "reduce_scatter_block") || !strcmp(c.coll, "allgather") ||
                                         !strcmp(c.coll, "bcast"));
    const int reduces = known && (is(&c, "allreduce") || is(&c, "reduce_scatter") || is(&c, "reduce_scatter_block"));
    const int how_known = !strcmp(how, "before") || !strcmp(how, "between") || !strcmp(how, "op") ||
                          !strcmp(how, "thread");
    if (!known || size < 3 || kill_at < 2 || c.count < 1 || !how_known || (!strcmp(how, "op") && !reduces) ||
        (c.in_place && !reduces) || (tolerant && (!is(&c, "allreduce") || KIND_BLOCKING != kind_mode))) {
        util_usage_exit("hdring_ulfm", usage, "needs 3 ranks or more, a known --coll and --kill, --at 2 or more; "
                                              "--kill op and --in-place for reductions; --tolerant for blocking "
                                              "allreduce\n");
    }
    victim = size - 2;
    kill_in_op = !strcmp(how, "op");
    share_counters();
    MPI_Comm_dup(MPI_COMM_WORLD, &c.comm);
    MPI_Comm_set_errhandler(c.comm, MPI_ERRORS_RETURN);
    MPI_Op_create(killing_sum, 1, &c.op);
    pthread_t thread;
    if (rank == victim && !strcmp(how, "thread")) {
        pthread_create(&thread, NULL, killer, NULL);
    }
    if (rank != victim) {
        pthread_create(&thread, NULL, watchdog, NULL);
    }
    c.in = malloc(in_elems(&c) * sizeof(double));
    c.out = malloc(out_elems(&c) * sizeof(double));
    c.counts = malloc((size_t) size * sizeof(int));
    for (int r = 0; r < size; ++r) {
        c.counts[r] = c.count;
    }
    if (KIND_PERSISTENT == kind_mode) {
        check(MPI_SUCCESS == make_persistent(&c, &c.persistent) && MPI_SUCCESS == make_persistent(&c, &c.spare[0]) &&
                  MPI_SUCCESS == make_persistent(&c, &c.spare[1]),
              "the persistent requests could not be made");
    }
    int failed_call = -1, failed_class = MPI_SUCCESS, last = 0;
    double failed_seconds = 0;
    for (int k = 1; k <= kill_at + 2 && k < MAX_CALLS && failed_call < 0; ++k) {
        for (size_t i = 0; i < in_elems(&c); ++i) {
            c.in[i] = value(rank, i, k);
        }
        if (k == kill_at && !strcmp(how, "between")) {
            if (rank == victim) {
                raise(SIGKILL);
            }
            wait_until_known(c.comm);
        }
        if (rank == victim && k == kill_at && !strcmp(how, "before")) {
            die_once_all_started(k, delay_us);
        }
        if (rank != victim) {
            __atomic_add_fetch(&entered[k], 1, __ATOMIC_RELEASE);
        }
        call_start = MPI_Wtime();
        call_no = k;
        const int rc = one_call(&c);
        const double seconds = MPI_Wtime() - call_start;
        if (rank != victim) {
            __atomic_add_fetch(&left[k], 1, __ATOMIC_RELEASE);
        }
        call_no = 0;
        int cls;
        MPI_Error_class(rc, &cls);
        last = k;
        if (tolerant) {
            check_tolerant(&c, k, cls, k == kill_at && !strcmp(how, "between"));
        }
        if (MPI_SUCCESS != rc) {
            failed_call = k, failed_class = cls, failed_seconds = seconds;
        }
    }
    if (rank == victim) { /* every call returned before its killer struck (too short), or without reducing */
        printf("hdring_ulfm: the victim returned from calls %d-%d alive: make them longer (--count)\n", kill_at, last);
        fflush(stdout);
        raise(SIGKILL);
    }
    if (failed_call > 0) {
        printf("hdring_ulfm: rank %d: call %d returned %s after %.3f s\n", rank, failed_call, class_name(failed_class),
               failed_seconds);
    } else {
        printf("hdring_ulfm: rank %d: every call returned MPI_SUCCESS\n", rank);
    }
    fflush(stdout);
    check(failed_call > 0 || !tolerant, "no call reported the lost rank by call %d", last);
    if (!tolerant) {
        check(failed_call < 0 || MPIX_ERR_PROC_FAILED == failed_class || MPIX_ERR_REVOKED == failed_class,
              "call %d returned %s", failed_call, class_name(failed_class));
    }
    if (KIND_PERSISTENT == kind_mode && failed_call > 0) { /* a start where the loss is known */
        start_after_failure(&c, last + 1, "after the failure");
    }
    /* the survivors: agree that a rank is lost, shrink, and check an allreduce (and, tolerant, the same outcome) */
    int flag = failed_call < 0;
    MPIX_Comm_agree(c.comm, &flag);
    MPIX_Comm_revoke(c.comm);
    if (KIND_PERSISTENT == kind_mode) { /* a start on the revoked communicator */
        start_after_failure(&c, last + 2, "on the revoked communicator");
        for (MPI_Request *q = &c.persistent; q <= &c.spare[1]; ++q) {
            if (MPI_REQUEST_NULL != *q) {
                MPI_Request_free(q);
            }
        }
    }
    MPI_Comm survivors;
    check(MPI_SUCCESS == MPIX_Comm_shrink(c.comm, &survivors), "MPIX_Comm_shrink failed");
    int p, r;
    MPI_Comm_size(survivors, &p);
    MPI_Comm_rank(survivors, &r);
    check(p == size - 1, "%d survivors, expected %d", p, size - 1);
    long *v = malloc((size_t) c.count * sizeof(long)), *sum = malloc((size_t) c.count * sizeof(long));
    for (size_t i = 0; i < (size_t) c.count; ++i) {
        v[i] = (long) (r + 1) * (long) (i + 1);
    }
    const int rc = MPI_Allreduce(v, sum, c.count, MPI_LONG, MPI_SUM, survivors);
    size_t wrong = 0;
    for (size_t i = 0; MPI_SUCCESS == rc && i < (size_t) c.count; ++i) {
        wrong += sum[i] != (long) p * (p + 1) / 2 * (long) (i + 1);
    }
    check(MPI_SUCCESS == rc && 0 == wrong, "allreduce on the %d survivors: rc %d, %zu elements wrong", p, rc, wrong);
    if (tolerant) { /* (with --kill between, in place, each survivor's buffer holds its own input) */
        const double *got = c.in_place ? c.in : c.out;
        check(util_all_equal(survivors, (unsigned long long) failed_call << 16 | (unsigned) failed_class),
              "the survivors' failing calls or their classes differ");
        check((c.in_place && !strcmp(how, "between")) ||
                  util_all_equal(survivors, util_hash(got, (size_t) c.count * sizeof(double))),
              "the survivors' last results differ in their bits");
    }
    const long all_checks = util_sum(survivors, checks), all_failures = util_sum(survivors, failures);
    if (0 == r) {
        printf("hdring_ulfm: shrunk to %d survivors\n", p);
        printf("hdring_ulfm: %ld checks, %ld failures\n", all_checks, all_failures);
    }
    MPI_Comm_free(&survivors);
    MPI_Comm_free(&c.comm);
    MPI_Op_free(&c.op);
    free(c.in), free(c.out), free(c.counts), free(v), free(sum);
    MPI_Finalize();
    return 0 == failures ? 0 : 1;
}
