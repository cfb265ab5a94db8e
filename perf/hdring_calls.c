/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_calls: one collective call, the same every time, N times in a row on MPI_COMM_WORLD: the workload that
 * perf/count-instructions.sh runs under callgrind to count what a call costs in instructions, whoever serves it.
 *
 *   mpirun -np 2 hdring_calls --coll allreduce|reduce_scatter|reduce_scatter_block|allgather|bcast --bytes B
 *                             --calls N [--kind blocking|nonblocking|persistent] [--post-delay-us US]
 *
 * Sizes and types as hdring_ab: B is the whole vector (allreduce and bcast the buffer, reduce_scatter(_block) the
 * input, allgather the output); reductions are MPI_FLOAT sums, data movement MPI_CHAR; bcast's root is rank 0.
 * Nonblocking: MPI_I<coll> then MPI_Wait; persistent: one request made before the calls, then MPI_Start and
 * MPI_Wait. --post-delay-us sleeps between posting and waiting, so that the peer's messages are there when the
 * wait first looks and a count of instructions has few empty polls in it.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hdring_kinds.h"
#include "hdring_mpi_util.h"

static const char *const usage =
    "usage: hdring_calls --coll allreduce|reduce_scatter|reduce_scatter_block|allgather|bcast --bytes B --calls N "
    "[--kind blocking|nonblocking|persistent] [--post-delay-us US]\n";

int main(int argc, char **argv)
{
    const char *coll = NULL;
    long bytes = -1, calls = -1;
    int delay_us = 0, p, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--coll") && i + 1 < argc) {
            coll = argv[++i];
        } else if (!strcmp(argv[i], "--bytes") && i + 1 < argc) {
            bytes = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--calls") && i + 1 < argc) {
            calls = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--kind") && i + 1 < argc) {
            if (!kind_parse(argv[++i]) || KIND_MIXED == kind_mode) {
                util_usage_exit("hdring_calls", usage, "unknown --kind\n");
            }
        } else if (!strcmp(argv[i], "--post-delay-us") && i + 1 < argc) {
            delay_us = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--help")) {
            util_usage_exit("hdring_calls", usage, NULL);
        } else {
            util_usage_exit("hdring_calls", usage, "unknown argument\n");
        }
    }
    const int reduces = NULL != coll && (!strcmp(coll, "allreduce") || !strcmp(coll, "reduce_scatter") ||
                                         !strcmp(coll, "reduce_scatter_block"));
    const int moves = NULL != coll && (!strcmp(coll, "allgather") || !strcmp(coll, "bcast"));
    if ((!reduces && !moves) || bytes < 0 || calls < 0) {
        util_usage_exit("hdring_calls", usage, "--coll, --bytes and --calls are needed\n");
    }
    /* elements of the whole vector, and of one rank's block */
    const int whole = (int) (reduces ? bytes / (long) sizeof(float) : bytes);
    const int block = !strcmp(coll, "allreduce") || !strcmp(coll, "bcast") ? whole : whole / p;
    const MPI_Datatype t = reduces ? MPI_FLOAT : MPI_CHAR;
    char *in = calloc((size_t) whole + 1, sizeof(float)), *out = calloc((size_t) whole + 1, sizeof(float));
    int *counts = malloc((size_t) p * sizeof(int));
    for (int r = 0; r < p; ++r) {
        counts[r] = block;
    }
    MPI_Request req = MPI_REQUEST_NULL;
    if (KIND_PERSISTENT == kind_mode) {
        if (!strcmp(coll, "allreduce")) {
            kind_allreduce_init(in, out, whole, t, MPI_SUM, MPI_COMM_WORLD, &req);
        } else if (!strcmp(coll, "reduce_scatter")) {
            kind_reduce_scatter_init(in, out, counts, t, MPI_SUM, MPI_COMM_WORLD, &req);
        } else if (!strcmp(coll, "reduce_scatter_block")) {
            kind_reduce_scatter_block_init(in, out, block, t, MPI_SUM, MPI_COMM_WORLD, &req);
        } else if (!strcmp(coll, "allgather")) {
            kind_allgather_init(in, block, t, out, block, t, MPI_COMM_WORLD, &req);
        } else {
            kind_bcast_init(in, whole, t, 0, MPI_COMM_WORLD, &req);
        }
    }
    int rc = MPI_SUCCESS;
    for (long c = 0; c < calls && MPI_SUCCESS == rc; ++c) {
        MPI_Request *r = KIND_BLOCKING == kind_mode ? NULL : &req;
        if (KIND_PERSISTENT == kind_mode) {
            rc = MPI_Start(&req);
        } else if (!strcmp(coll, "allreduce")) {
            rc = r ? MPI_Iallreduce(in, out, whole, t, MPI_SUM, MPI_COMM_WORLD, r)
                   : MPI_Allreduce(in, out, whole, t, MPI_SUM, MPI_COMM_WORLD);
        } else if (!strcmp(coll, "reduce_scatter")) {
            rc = r ? MPI_Ireduce_scatter(in, out, counts, t, MPI_SUM, MPI_COMM_WORLD, r)
                   : MPI_Reduce_scatter(in, out, counts, t, MPI_SUM, MPI_COMM_WORLD);
        } else if (!strcmp(coll, "reduce_scatter_block")) {
            rc = r ? MPI_Ireduce_scatter_block(in, out, block, t, MPI_SUM, MPI_COMM_WORLD, r)
                   : MPI_Reduce_scatter_block(in, out, block, t, MPI_SUM, MPI_COMM_WORLD);
        } else if (!strcmp(coll, "allgather")) {
            rc = r ? MPI_Iallgather(in, block, t, out, block, t, MPI_COMM_WORLD, r)
                   : MPI_Allgather(in, block, t, out, block, t, MPI_COMM_WORLD);
        } else {
            rc = r ? MPI_Ibcast(in, whole, t, 0, MPI_COMM_WORLD, r) : MPI_Bcast(in, whole, t, 0, MPI_COMM_WORLD);
        }
        if (NULL != r && MPI_SUCCESS == rc) {
            if (delay_us > 0) {
                usleep((useconds_t) delay_us);
            }
            rc = MPI_Wait(r, MPI_STATUS_IGNORE);
        }
    }
    if (MPI_REQUEST_NULL != req) {
        MPI_Request_free(&req);
    }
    if (0 == rank) {
        printf("hdring_calls: %ld %s %s calls of %ld B on %d ranks: %s\n", calls, kind_names[kind_mode], coll, bytes,
               p, MPI_SUCCESS == rc ? "done" : "FAILED");
    }
    free(in), free(out), free(counts);
    MPI_Finalize();
    return MPI_SUCCESS == rc ? 0 : 1;
}
