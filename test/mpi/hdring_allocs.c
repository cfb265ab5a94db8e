/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_allocs: no heap allocation on the hot path. For every collective and every algorithm hdring offers (and
 * auto), on a fresh communicator, a few warm-up calls (the first call may build the plan and grow the module's
 * caches), then MEASURED calls during which this program counts the heap allocations its main thread makes:
 * there must be none. Threads of Open MPI's runtime are not counted. Allocations made inside the PML and the
 * transports below it (a frame of an mca_pml_, mca_btl_, mca_allocator_, mca_mpool_ or mca_rcache_ component
 * on the stack, known by its object or, where Open MPI 5 builds them into libmpi, by its name: the transport growing its fragment pools, which happens now and then as timing varies, with
 * tuned as with hdring) are counted apart and reported, not failed, and so are those of the fallback (a frame of
 * another coll component or of Open MPI's coll base: tuned allocates per call, and hdring hands a call to it where
 * that measured faster); every other allocation fails the check. The warm-up is long enough for measured
 * selection (coll_hdring_select) to decide: at most HDRING_SELECT_CALLS calls (hdring_select.h).
 *
 * The counting replaces malloc, calloc, realloc and the aligned allocators of the C library for the whole
 * process (the executable's definitions take precedence over libc's for every shared object, the component
 * included) and forwards them to glibc's own entry points. Before anything else it checks that an allocation
 * inside the window is counted, so a build where the replacement does not take effect fails instead of passing.
 *
 *   --colls LIST   collectives to check (default: all five)
 *   --sizes LIST   message sizes in bytes (default 8,64,1024,4096,65536)
 *
 * --starve-bcast-root checks instead what a bcast does when its root cannot allocate: for every bcast algorithm
 * and auto, a 64 KiB message of a non-contiguous datatype (which the algorithms that cut it pack into scratch,
 * allocated per call here), broadcast once while every allocation of the root outside the PML fails. Either
 * every rank returns success with the right data, or every rank returns an error (MPI_ERRORS_RETURN): none may
 * wait forever (the run's time limit catches that) or take wrong data for right. The root must fail for at
 * least the algorithms that pack; and a bcast after it must deliver the right data everywhere.
 *
 * --starve-rank checks the same of any rank and any call: for every collective, every algorithm (and auto) and
 * every kind of call (blocking, nonblocking, persistent), rank 0 (never the bcast's root) has every allocation
 * outside the PML refused during one call: at its first call on a new communicator (the call builds its task),
 * and after a warm-up (scratch is allocated per call: coll_hdring_scratch_cache_bytes 0). Every rank must return,
 * a rank that returns success must hold the right answer, and the next call must be right everywhere.
 *
 * Prints "hdring_allocs: <n> checks, <m> failures" on rank 0; exit status 0 only without failures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <malloc.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_kinds.h"
#include "hdring_mpi_util.h"

/* ---- the counting allocator ---- */

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *ptr);

/* volatile: the compiler knows malloc as a builtin that touches no program state, and would otherwise drop the
 * window's stores around it */
static __thread volatile int counting; /* this thread is inside a measured window */
static __thread volatile long allocations, below; /* below: inside the PML and its transports */
static __thread volatile int starving; /* this thread's allocations outside the PML fail */

/* The address ranges of the PML and transport components, found once they are loaded. */
#define MAX_RANGES 256
static struct range {
    uintptr_t lo, hi;
} transport[MAX_RANGES];
static int ntransport;

static int note_transport(struct dl_phdr_info *info, size_t size, void *unused)
{
    /* and the dynamic loader, which allocates a thread's storage for a library's thread-local variables on their
     * first use (and aborts the process when it gets none) */
    static const char *const kinds[] = {"mca_pml_", "mca_btl_", "mca_allocator_", "mca_mpool_", "mca_rcache_",
                                        "mca_coll_tuned", "mca_coll_basic", "mca_coll_han", "ld-linux"};
    const char *base = strrchr(info->dlpi_name, '/');
    bool wanted = false;
    (void) size, (void) unused;
    base = NULL == base ? info->dlpi_name : base + 1;
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); ++k) {
        wanted |= 0 == strncmp(base, kinds[k], strlen(kinds[k]));
    }
    for (int i = 0; wanted && i < info->dlpi_phnum && ntransport < MAX_RANGES; ++i) {
        if (PT_LOAD == info->dlpi_phdr[i].p_type) {
            const uintptr_t lo = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            transport[ntransport].lo = lo;
            transport[ntransport++].hi = lo + info->dlpi_phdr[i].p_memsz;
        }
    }
    return 0;
}

/* Whether a frame's function is a PML's or transport's by its name: where Open MPI builds its components into
 * libmpi (5.0), they have no object of their own. A function without a symbol of its own is named after the
 * nearest one before it, which in a component's code is one of that component's. */
static bool named_transport(void *frame)
{
    static const char *const kinds[] = {"mca_pml_",       "mca_btl_",        "mca_allocator_", "mca_mpool_",
                                        "mca_rcache_",    "ompi_coll_base_", "ompi_coll_tuned_", "mca_coll_tuned_",
                                        "mca_coll_basic_", "mca_coll_han_"};
    Dl_info info;
    if (0 == dladdr(frame, &info) || NULL == info.dli_sname) {
        return false;
    }
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); ++k) {
        if (0 == strncmp(info.dli_sname, kinds[k], strlen(kinds[k]))) {
            return true;
        }
    }
    return false;
}

static bool from_transport(void)
{
    void *frames[64];
    const int n = backtrace(frames, 64);
    for (int f = 0; f < n; ++f) {
        for (int i = 0; i < ntransport; ++i) {
            if ((uintptr_t) frames[f] >= transport[i].lo && (uintptr_t) frames[f] < transport[i].hi) {
                return true;
            }
        }
        if (named_transport(frames[f])) {
            return true;
        }
    }
    return false;
}

/* Counts an allocation; false when it must fail. */
static bool admitted(void)
{
    if (starving) {
        starving = 0; /* backtrace must not starve itself */
        const bool refused = !from_transport();
        starving = 1;
        allocations += refused;
        errno = refused ? ENOMEM : errno;
        return !refused;
    }
    if (counting) {
        counting = 0; /* backtrace must not count itself */
        if (from_transport()) {
            ++below;
        } else {
            ++allocations;
        }
        counting = 1;
    }
    return true;
}

void *malloc(size_t size) { return admitted() ? __libc_malloc(size) : NULL; }

void *calloc(size_t n, size_t size) { return admitted() ? __libc_calloc(n, size) : NULL; }

void *realloc(void *ptr, size_t size) { return admitted() ? __libc_realloc(ptr, size) : NULL; }

void free(void *ptr) { __libc_free(ptr); }

void *memalign(size_t alignment, size_t size) { return admitted() ? __libc_memalign(alignment, size) : NULL; }

void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void **out, size_t alignment, size_t size)
{
    if (0 == alignment || 0 != (alignment & (alignment - 1)) || 0 != alignment % sizeof(void *)) {
        return EINVAL;
    }
    void *p = memalign(alignment, size);
    if (NULL == p) {
        return ENOMEM;
    }
    *out = p;
    return 0;
}

static void window_open(void)
{
    allocations = below = 0;
    counting = 1;
}

static long window_close(void)
{
    counting = 0;
    return allocations;
}

/* ---- the checks ---- */

#define WARMUP 50 /* >= HDRING_SELECT_CALLS */
#define MEASURED 5

static long checks, failures, transport_growths;
static int world_rank, world_size;


/* One call of collective `coll` moving about `bytes` bytes in all (the vector, as hdring's bytes= counts them). */
static void call(int coll, MPI_Comm comm, size_t bytes, double *in, double *out, int *rcounts)
{
    int p;
    MPI_Comm_size(comm, &p);
    const int total = (int) (bytes / sizeof(double)) > 0 ? (int) (bytes / sizeof(double)) : 1;
    const int per = total / p > 0 ? total / p : 1;
    switch (coll) {
    case 0:
        MPI_Allreduce(in, out, total, MPI_DOUBLE, MPI_SUM, comm);
        break;
    case 1:
        for (int i = 0; i < p; ++i) { /* uneven blocks: rank i gets per + i % 3 elements */
            rcounts[i] = per + i % 3;
        }
        MPI_Reduce_scatter(in, out, rcounts, MPI_DOUBLE, MPI_SUM, comm);
        break;
    case 2:
        MPI_Reduce_scatter_block(in, out, per, MPI_DOUBLE, MPI_SUM, comm);
        break;
    case 3:
        MPI_Allgather(in, per, MPI_DOUBLE, out, per, MPI_DOUBLE, comm);
        break;
    default:
        MPI_Bcast(out, total, MPI_DOUBLE, p - 1, comm);
        break;
    }
}

/* The communicator a forced algorithm is measured on: created after the MPI_T write, so it runs that algorithm. */
static void check_one(int coll, const char *alg, size_t bytes, double *in, double *out, int *rcounts)
{
    char var[96];
    MPI_Comm comm;
    snprintf(var, sizeof(var), "coll_hdring_%s_algorithm", util_coll_names[coll]);
    if (0 != util_cvar_write(var, alg)) {
        printf("hdring_allocs: cannot write %s=%s (is coll/hdring loaded?)\n", var, alg);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    for (int i = 0; i < WARMUP; ++i) {
        call(coll, comm, bytes, in, out, rcounts);
    }
    window_open();
    for (int i = 0; i < MEASURED; ++i) {
        call(coll, comm, bytes, in, out, rcounts);
    }
    const long mine = window_close();
    transport_growths += below;
    MPI_Comm_free(&comm);
    util_cvar_write(var, "auto");

    const long all = util_sum(MPI_COMM_WORLD, mine);
    ++checks;
    if (0 != all) {
        ++failures;
    }
    if (0 != mine) {
        printf("FAIL %s alg=%s bytes=%zu: rank %d of %d allocated %ld times in %d calls\n", util_coll_names[coll], alg,
               bytes, world_rank, world_size, mine, MEASURED);
    }
}

/* ---- a bcast root that cannot allocate ---- */

#define STARVED_ELEMS 8192 /* 64 KiB of doubles, each followed by a gap */

/* The message through a vector type: element i of the message at buf[2 i]. */
static int starved_bcast(MPI_Comm comm, MPI_Datatype every_other, double *buf, int root, int round, bool starve)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    for (int i = 0; i < STARVED_ELEMS; ++i) {
        buf[2 * i] = rank == root ? round * 1e6 + i : -1;
    }
    starving = starve && rank == root;
    allocations = 0;
    const int rc = MPI_Bcast(buf, 1, every_other, root, comm);
    starving = 0;
    return rc;
}

static bool starved_data_right(const double *buf, int round)
{
    for (int i = 0; i < STARVED_ELEMS; ++i) {
        if (buf[2 * i] != round * 1e6 + i) {
            return false;
        }
    }
    return true;
}

/* One check whose outcome every rank knows alike: counted, and on failure printed once ("FAIL ..."). */
static void expect(bool ok, const char *fmt, ...)
{
    ++checks;
    if (!ok) {
        ++failures;
        if (0 == world_rank) {
            va_list ap;
            va_start(ap, fmt);
            fputs("FAIL ", stdout);
            vprintf(fmt, ap);
            putchar('\n');
            va_end(ap);
        }
    }
}

/* One algorithm: returns whether the root failed. */
static bool check_starved_root(const char *alg, MPI_Datatype every_other, double *buf)
{
    MPI_Comm comm;
    const int root = world_size - 1;
    util_cvar_write("coll_hdring_bcast_algorithm", alg);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);

    int rc = starved_bcast(comm, every_other, buf, root, 1, false); /* warm-up: plans and tables built */
    const int rc_starved = starved_bcast(comm, every_other, buf, root, 2, true);
    const long refused = allocations;
    const bool right = MPI_SUCCESS == rc_starved && starved_data_right(buf, 2);
    const int rc_after = starved_bcast(comm, every_other, buf, root, 3, false);
    const bool right_after = MPI_SUCCESS == rc && MPI_SUCCESS == rc_after && starved_data_right(buf, 3);
    MPI_Comm_free(&comm);
    util_cvar_write("coll_hdring_bcast_algorithm", "auto");

    const long root_failed = util_sum(MPI_COMM_WORLD, world_rank == root && MPI_SUCCESS != rc_starved);
    const long failed = util_sum(MPI_COMM_WORLD, MPI_SUCCESS != rc_starved);
    const long wrong = util_sum(MPI_COMM_WORLD, MPI_SUCCESS == rc_starved && !right);
    const long wrong_after = util_sum(MPI_COMM_WORLD, !right_after);
    const long refused_at_root = util_sum(MPI_COMM_WORLD, world_rank == root ? refused : 0);
    if (0 == world_rank) {
        printf("bcast alg=%s, root %d starved (%ld allocations refused there): %s\n", alg, root, refused_at_root,
               0 == failed ? "every rank succeeded" : root_failed ? "every rank failed" : "ranks but the root failed");
    }
    expect(0 == failed || failed == world_size, "bcast alg=%s: %ld of %d ranks returned an error, the others success",
           alg, failed, world_size);
    expect(0 == wrong, "bcast alg=%s: %ld ranks returned success with wrong data", alg, wrong);
    expect(0 == wrong_after, "bcast alg=%s: the bcast after the starved one failed or was wrong on %ld ranks", alg,
           wrong_after);
    return 0 != root_failed;
}

/* Every bcast algorithm and auto; the ones that pack must have failed at the root, or nothing was tested. */
static void check_starved_roots(void)
{
    char algs[1024], list[1100];
    MPI_Datatype every_other;
    double *buf = calloc(2 * STARVED_ELEMS, sizeof(double));
    MPI_Type_vector(STARVED_ELEMS, 1, 2, MPI_DOUBLE, &every_other);
    MPI_Type_commit(&every_other);
    if (0 != util_cvar_write("coll_hdring_scratch_cache_bytes", "0") ||
        0 != util_cvar_enum_names("coll_hdring_bcast_algorithm", algs, sizeof(algs))) {
        printf("hdring_allocs: cannot set coll_hdring_ parameters (is coll/hdring loaded?)\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    snprintf(list, sizeof(list), "auto,%s", algs);
    for (char *alg = strtok(list, ","); NULL != alg; alg = strtok(NULL, ",")) {
        /* the algorithms that cut the message (the registry's SPLIT and PIPELINED rows, hdring_registry.h) pack a
         * message of a datatype that does not lie in one run: scatter_rhd, scatter_ring, chain, double_tree, and the
         * hierarchical ones whose phase across nodes does */
        const bool packs = NULL != strstr(alg, "scatter_") || 0 == strcmp(alg, "chain") ||
                           0 == strcmp(alg, "double_tree");
        const bool root_failed = check_starved_root(alg, every_other, buf);
        expect(!packs || root_failed, "bcast alg=%s packs, yet its starved root did not fail: nothing was tested", alg);
    }
    MPI_Type_free(&every_other);
    free(buf);
}

/* ---- any rank that cannot allocate, any call ---- */

#define STARVE_N 3000 /* elements per rank and block: 24 KB vectors of doubles */

/* A call of collective coll in the current kind (kind_mode) on comm, its inputs from `round`; whether this rank's
 * result is right (when the call succeeded), and the call's status in *rc. */
static bool starve_call(int coll, MPI_Comm comm, int round, int *rc, double *in, double *out, int *rcounts)
{
    const int p = world_size, me = world_rank, n = STARVE_N, root = p - 1;
    for (int i = 0; i < p * n; ++i) {
        in[i] = (double) (round * 1000 + me * 7 + i % 101);
        out[i] = -1;
    }
    switch (coll) {
    case 0:
        *rc = kind_allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, comm);
        break;
    case 1:
        for (int b = 0; b < p; ++b) {
            rcounts[b] = n - b % 3;
        }
        *rc = kind_reduce_scatter(in, out, rcounts, MPI_DOUBLE, MPI_SUM, comm);
        break;
    case 2:
        *rc = kind_reduce_scatter_block(in, out, n, MPI_DOUBLE, MPI_SUM, comm);
        break;
    case 3:
        *rc = kind_allgather(in, n, MPI_DOUBLE, out, n, MPI_DOUBLE, comm);
        break;
    default:
        for (int i = 0; i < n; ++i) {
            out[i] = me == root ? (double) (round * 1000 + i) : -1;
        }
        *rc = kind_bcast(out, n, MPI_DOUBLE, root, comm);
        break;
    }
    if (MPI_SUCCESS != *rc) {
        return true;
    }
    int first = me * n, count = n; /* this rank's part of the vector */
    if (1 == coll) {
        first = 0;
        for (int b = 0; b < me; ++b) {
            first += rcounts[b];
        }
        count = rcounts[me];
    }
    const double ranks = (double) p * (p - 1) / 2 * 7;
    for (int i = 0; i < (3 == coll ? p * n : count); ++i) {
        double want;
        switch (coll) {
        case 0:
            want = p * (double) (round * 1000 + i % 101) + ranks;
            break;
        case 1:
        case 2:
            want = p * (double) (round * 1000 + (first + i) % 101) + ranks;
            break;
        case 3:
            want = (double) (round * 1000 + (i / n) * 7 + (i % n) % 101);
            break;
        default:
            want = (double) (round * 1000 + i);
            break;
        }
        if (out[i] != want) {
            return false;
        }
    }
    return true;
}

/* Cases whose starved rank had allocations refused, and whose starved rank returned an error: a run where neither
 * happened tested nothing. */
static long starved_refusals, starved_failures;

/* One collective, algorithm and kind: rank 0 starved at the first call (warmed = false) or after a warm-up. A rank
 * refused memory may still succeed (it ran the algorithm without its cached schedule, say): then with the right
 * answer. */
static void check_starved_rank(int coll, const char *alg, bool warmed, double *in, double *out, int *rcounts)
{
    char var[96];
    MPI_Comm comm;
    int rc = MPI_SUCCESS, rc_starved, rc_after;
    snprintf(var, sizeof(var), "coll_hdring_%s_algorithm", util_coll_names[coll]);
    util_cvar_write(var, alg);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    bool right = true;
    if (warmed) {
        right = starve_call(coll, comm, 1, &rc, in, out, rcounts) && MPI_SUCCESS == rc;
    }
    starving = 0 == world_rank;
    allocations = 0;
    const double t0 = MPI_Wtime();
    const bool right_starved = starve_call(coll, comm, 2, &rc_starved, in, out, rcounts);
    const double took = MPI_Wtime() - t0;
    starving = 0;
    const long refused = allocations;
    const bool right_after = starve_call(coll, comm, 3, &rc_after, in, out, rcounts) && MPI_SUCCESS == rc_after;
    MPI_Comm_free(&comm);
    util_cvar_write(var, "auto");

    const char *kind = kind_names[kind_mode], *when = warmed ? "after a warm-up" : "at its first call";
    const long wrong = util_sum(MPI_COMM_WORLD, !right_starved), wrong_after = util_sum(MPI_COMM_WORLD, !right_after);
    const long failed = util_sum(MPI_COMM_WORLD, MPI_SUCCESS != rc_starved);
    const long starved_failed = util_sum(MPI_COMM_WORLD, 0 == world_rank && MPI_SUCCESS != rc_starved);
    const long refused_there = util_sum(MPI_COMM_WORLD, 0 == world_rank ? refused : 0);
    if (0 == world_rank && (0 != failed || 0 != refused_there)) {
        printf("%s alg=%s %s, rank 0 starved %s (%ld allocations refused): %ld of %d ranks returned an error%s "
               "(%.3f s)\n", util_coll_names[coll], alg, kind, when, refused_there, failed, world_size,
               starved_failed ? ", rank 0 among them" : "", took);
    }
    expect(0 == util_sum(MPI_COMM_WORLD, !right), "%s alg=%s %s: the warm-up call was wrong", util_coll_names[coll],
           alg, kind);
    expect(0 == wrong, "%s alg=%s %s, rank 0 starved %s: %ld ranks returned success with wrong data",
           util_coll_names[coll], alg, kind, when, wrong);
    expect(0 == wrong_after, "%s alg=%s %s, rank 0 starved %s: the call after it failed or was wrong on %ld ranks",
           util_coll_names[coll], alg, kind, when, wrong_after);
    starved_failures += 0 != starved_failed;
    starved_refusals += 0 != refused_there;
}

static void check_starved_ranks(const char *colls, const char *kinds)
{
    double *in = calloc((size_t) world_size * STARVE_N, sizeof(double));
    double *out = calloc((size_t) world_size * STARVE_N, sizeof(double));
    int *rcounts = calloc((size_t) world_size, sizeof(int));
    util_cvar_write("coll_hdring_scratch_cache_bytes", "0");
    /* Open MPI 4.1 reports the errors of nonblocking collectives' requests to MPI_COMM_WORLD's handler, whatever
     * their communicator's */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int k = KIND_BLOCKING; k <= KIND_PERSISTENT; ++k) {
        kind_mode = (call_kind_t) k;
        if (NULL != kinds && !util_listed(kinds, kind_names[k])) {
            continue;
        }
        for (int coll = 0; coll < UTIL_NCOLLS; ++coll) {
            char var[96], algs[1024], list[1100];
            if (NULL != colls && !util_listed(colls, util_coll_names[coll])) {
                continue;
            }
            snprintf(var, sizeof(var), "coll_hdring_%s_algorithm", util_coll_names[coll]);
            util_cvar_enum_names(var, algs, sizeof(algs));
            snprintf(list, sizeof(list), "auto,%s", algs);
            for (char *alg = strtok(list, ","); NULL != alg; alg = strtok(NULL, ",")) {
                check_starved_rank(coll, alg, false, in, out, rcounts);
                check_starved_rank(coll, alg, true, in, out, rcounts);
            }
        }
    }
    expect(starved_refusals > 0 && starved_failures > 0,
           "starving rank 0 refused %ld of its calls memory and failed %ld: nothing was tested", starved_refusals,
           starved_failures);
    free(in);
    free(out);
    free(rcounts);
}

/* The counting must see an allocation made inside the window, through the library's own path too. */
static void check_counting(void)
{
    window_open();
    void *volatile probe = malloc(24);
    char *volatile dup = strdup("hdring");
    const long seen = window_close();
    free(probe);
    free(dup);
    if (seen < 2) {
        printf("FAIL rank %d: the allocation counter saw %ld of 2 allocations: malloc is not replaced\n", world_rank,
               seen);
    }
    ++checks;
    failures += 0 != util_sum(MPI_COMM_WORLD, seen < 2);
}

static void usage(const char *why)
{
    util_usage_exit("hdring_allocs",
                    "[--colls LIST] [--sizes LIST] | --starve-bcast-root | --starve-rank [--colls LIST] [--kinds LIST]",
                    why);
}

int main(int argc, char **argv)
{
    const char *colls = NULL, *kinds = NULL, *sizes = "8,64,1024,4096,65536";
    bool starve_bcast_root = false, starve_rank = false;
    int provided;

    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--colls") && i + 1 < argc) {
            colls = argv[++i];
        } else if (0 == strcmp(argv[i], "--kinds") && i + 1 < argc) {
            kinds = argv[++i];
        } else if (0 == strcmp(argv[i], "--sizes") && i + 1 < argc) {
            sizes = argv[++i];
        } else if (0 == strcmp(argv[i], "--starve-bcast-root")) {
            starve_bcast_root = true;
        } else if (0 == strcmp(argv[i], "--starve-rank")) {
            starve_rank = true;
        } else if (0 == strcmp(argv[i], "--help")) {
            usage(NULL);
        } else {
            usage("unknown argument");
        }
    }

    size_t largest = 0;
    for (const char *s = sizes; s && *s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL) {
        const size_t b = strtoul(s, NULL, 10);
        largest = b > largest ? b : largest;
    }
    const size_t elems = largest / sizeof(double) + 3 * (size_t) world_size + 8; /* room for uneven blocks */
    double *in = calloc(elems, sizeof(double)), *out = calloc(elems, sizeof(double));
    int *rcounts = calloc((size_t) world_size, sizeof(int));
    for (size_t i = 0; i < elems; ++i) {
        in[i] = (double) (world_rank + 1) * (double) (i % 7);
    }

    void *warm[4];
    backtrace(warm, 4); /* its first call loads libgcc: not inside a window */
    dl_iterate_phdr(note_transport, NULL);
    if (0 == ntransport) {
        printf("hdring_allocs: no PML component found among the loaded objects\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    check_counting();
    if (starve_bcast_root) {
        check_starved_roots();
    }
    if (starve_rank) {
        check_starved_ranks(colls, kinds);
    }
    for (int coll = 0; coll < UTIL_NCOLLS && !starve_bcast_root && !starve_rank; ++coll) {
        char var[96], algs[1024];
        if (NULL != colls && !util_listed(colls, util_coll_names[coll])) {
            continue;
        }
        snprintf(var, sizeof(var), "coll_hdring_%s_algorithm", util_coll_names[coll]);
        if (0 != util_cvar_enum_names(var, algs, sizeof(algs))) {
            printf("hdring_allocs: %s does not exist (is coll/hdring loaded?)\n", var);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        char list[1100];
        snprintf(list, sizeof(list), "auto,%s", algs);
        for (char *alg = strtok(list, ","); NULL != alg; alg = strtok(NULL, ",")) {
            for (const char *s = sizes; s && *s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL) {
                check_one(coll, alg, strtoul(s, NULL, 10), in, out, rcounts);
            }
        }
    }

    free(in);
    free(out);
    free(rcounts);
    const long all_failures = failures; /* every check counts its failure on every rank */
    const long all_growths = util_sum(MPI_COMM_WORLD, transport_growths);
    if (0 == world_rank) {
        printf("hdring_allocs: the PML and its transports allocated %ld times in all measured calls (not hdring's)\n",
               all_growths);
        printf("hdring_allocs: %ld checks, %ld failures\n", checks, all_failures);
    }
    MPI_T_finalize();
    MPI_Finalize();
    return 0 == all_failures ? 0 : 1;
}
