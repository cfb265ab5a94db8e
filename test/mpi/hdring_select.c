/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_select: many calls of one size in a row, as an application's loop makes them, so that measured selection
 * (coll_hdring_select) tries its candidates and decides. Every call's result is checked (integers exactly;
 * floating-point sums against a sum in double precision, to a relative 1e-5), every rank's result bits compared,
 * and a digest of every result printed, so that two runs can be compared bit for bit.
 *
 *   hdring_select [--coll NAME] [--type int|float] [--sizes LIST] [--calls N] [--kind blocking|nonblocking|mixed]
 *
 * --coll: allreduce (default), reduce_scatter_block, allgather or bcast. --sizes: bytes of the whole vector, as the
 * trace's bytes= (default 64,4096,65536). --calls: calls per size (default 60: past hdring's trial). --kind mixed:
 * every third call nonblocking (MPI_Iallreduce and MPI_Wait), the others blocking: nonblocking calls take what the
 * blocking ones decided. Inputs depend on the rank, the size and the call, never on the run.
 *
 * Prints "hdring_select: digest <hex>" (rank 0; the same bits on every rank, checked) and "hdring_select: <n>
 * checks, <m> failures"; exit status 0 only without failures.
 */
#include <math.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_mpi_util.h"

static const char usage[] = "[--coll allreduce|reduce_scatter_block|allgather|bcast] [--type int|float] "
                            "[--sizes LIST] [--calls N] [--kind blocking|nonblocking|mixed]";

enum { ALLREDUCE, REDUCE_SCATTER_BLOCK, ALLGATHER, BCAST };

typedef struct options {
    int coll;
    bool floats;
    size_t sizes[32];
    int nsizes, calls;
    const char *kind;
} options_t;

static void parse(int argc, char **argv, options_t *o)
{
    static const char *const colls[] = {"allreduce", "reduce_scatter_block", "allgather", "bcast"};
    char list[512] = "64,4096,65536";
    *o = (options_t) {.coll = ALLREDUCE, .floats = false, .calls = 60, .kind = "blocking"};
    for (int i = 1; i < argc; ++i) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (0 == strcmp(argv[i], "--help")) {
            util_usage_exit(argv[0], usage, NULL);
        } else if (NULL == val) {
            util_usage_exit(argv[0], usage, "an option takes a value");
        } else if (0 == strcmp(argv[i], "--coll")) {
            o->coll = -1;
            for (int c = 0; c < 4; ++c) {
                o->coll = 0 == strcmp(val, colls[c]) ? c : o->coll;
            }
            if (o->coll < 0) {
                util_usage_exit(argv[0], usage, "unknown --coll");
            }
        } else if (0 == strcmp(argv[i], "--type")) {
            o->floats = 0 == strcmp(val, "float");
        } else if (0 == strcmp(argv[i], "--sizes")) {
            snprintf(list, sizeof(list), "%s", val);
        } else if (0 == strcmp(argv[i], "--calls")) {
            o->calls = atoi(val);
        } else if (0 == strcmp(argv[i], "--kind")) {
            o->kind = val;
        } else {
            util_usage_exit(argv[0], usage, "unknown option");
        }
        ++i;
    }
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); NULL != tok && o->nsizes < 32;
         tok = strtok_r(NULL, ",", &save)) {
        o->sizes[o->nsizes++] = strtoull(tok, NULL, 10);
    }
}

/* Rank r's element i of call k at a size: small integers (their sums are exact in floats too), or floats of
 * very different magnitudes (whose sums depend on the order of the additions). */
static double input(bool floats, int r, int i, int k, size_t bytes)
{
    const unsigned h = (unsigned) (r * 7919 + i * 104729 + k * 1299709 + (int) bytes) * 2654435761u;
    return floats ? ldexp((double) (h % 1000) + 0.5, (int) (h >> 20) % 40 - 20) : (double) (h % 1000) - 500;
}

static long failures, checks;

static void expect(bool ok, const char *what, size_t bytes, int k, int rank)
{
    ++checks;
    if (!ok) {
        ++failures;
        if (failures <= 10) {
            printf("FAIL %s: %zu B, call %d, rank %d\n", what, bytes, k, rank);
        }
    }
}

int main(int argc, char **argv)
{
    options_t o;
    int rank, p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    parse(argc, argv, &o);
    const MPI_Datatype type = o.floats ? MPI_FLOAT : MPI_INT;
    unsigned long long digest = 1469598103934665603ULL;

    for (int s = 0; s < o.nsizes; ++s) {
        const size_t bytes = o.sizes[s];
        /* elements: of the whole vector (allreduce, bcast) or of each rank's block */
        const int whole = (int) (bytes / 4) > 0 ? (int) (bytes / 4) : 1;
        const int block = ALLREDUCE == o.coll || BCAST == o.coll ? whole : (whole / p > 0 ? whole / p : 1);
        const int n = ALLREDUCE == o.coll || BCAST == o.coll ? whole : block * p;
        float *fin = malloc((size_t) n * 4), *fout = malloc((size_t) n * 4);
        int *iin = (int *) fin, *iout = (int *) fout;
        for (int k = 0; k < o.calls; ++k) {
            for (int i = 0; i < n; ++i) {
                const double v = input(o.floats, ALLGATHER == o.coll ? i / block : rank, i, k, bytes);
                if (o.floats) {
                    fin[i] = (float) v;
                } else {
                    iin[i] = (int) v;
                }
            }
            memset(fout, 0, (size_t) n * 4);
            const bool nonblocking = 0 == strcmp(o.kind, "nonblocking") || (0 == strcmp(o.kind, "mixed") && 2 == k % 3);
            MPI_Request req = MPI_REQUEST_NULL;
            const int root = k % p;
            switch (o.coll) {
            case ALLREDUCE:
                if (nonblocking) {
                    MPI_Iallreduce(fin, fout, n, type, MPI_SUM, MPI_COMM_WORLD, &req);
                } else {
                    MPI_Allreduce(fin, fout, n, type, MPI_SUM, MPI_COMM_WORLD);
                }
                break;
            case REDUCE_SCATTER_BLOCK:
                if (nonblocking) {
                    MPI_Ireduce_scatter_block(fin, fout, block, type, MPI_SUM, MPI_COMM_WORLD, &req);
                } else {
                    MPI_Reduce_scatter_block(fin, fout, block, type, MPI_SUM, MPI_COMM_WORLD);
                }
                break;
            case ALLGATHER:
                if (nonblocking) {
                    MPI_Iallgather(fin + rank * block, block, type, fout, block, type, MPI_COMM_WORLD, &req);
                } else {
                    MPI_Allgather(fin + rank * block, block, type, fout, block, type, MPI_COMM_WORLD);
                }
                break;
            default:
                if (rank == root) {
                    memcpy(fout, fin, (size_t) n * 4);
                }
                if (nonblocking) {
                    MPI_Ibcast(fout, n, type, root, MPI_COMM_WORLD, &req);
                } else {
                    MPI_Bcast(fout, n, type, root, MPI_COMM_WORLD);
                }
                break;
            }
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            /* the expected answer, in double precision */
            const int first = REDUCE_SCATTER_BLOCK == o.coll ? rank * block : 0;
            const int count = REDUCE_SCATTER_BLOCK == o.coll ? block : n;
            bool right = true;
            for (int j = 0; j < count; ++j) {
                const int i = first + j;
                double want = 0, scale = 0;
                if (ALLREDUCE == o.coll || REDUCE_SCATTER_BLOCK == o.coll) {
                    for (int r = 0; r < p; ++r) {
                        want += input(o.floats, r, i, k, bytes);
                        scale += fabs(input(o.floats, r, i, k, bytes));
                    }
                } else {
                    want = input(o.floats, ALLGATHER == o.coll ? i / block : root, i, k, bytes);
                    scale = fabs(want);
                }
                const double got = o.floats ? (double) fout[j] : (double) iout[j];
                right &= o.floats ? fabs(got - want) <= 1e-5 * scale : got == want;
            }
            expect(right, "the answer", bytes, k, rank);
            const unsigned long long mine = util_hash(fout, (size_t) count * 4);
            if (REDUCE_SCATTER_BLOCK != o.coll) {
                expect(util_all_equal(MPI_COMM_WORLD, mine), "the same bits on every rank", bytes, k, rank);
            }
            digest = (digest ^ mine) * 1099511628211ULL;
        }
        free(fin);
        free(fout);
    }
    /* every rank's blocks of a reduce_scatter_block are its own: their digests differ; the others' agree */
    const long failed = util_sum(MPI_COMM_WORLD, failures);
    if (0 == rank) {
        printf("hdring_select: digest %016llx\n", digest);
        printf("hdring_select: %ld checks, %ld failures\n", checks, failed);
    }
    MPI_Finalize();
    return 0 == failed ? 0 : 1;
}
