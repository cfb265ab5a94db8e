/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * osu_stand_in: a stand-in for the OSU micro-benchmarks' blocking collectives, for the tests of
 * perf/osu-driver.sh where OSU is absent. Called as osu_allreduce, osu_reduce_scatter, osu_reduce_scatter_block,
 * osu_allgather or osu_bcast (a link of that name), it takes OSU's -m MIN:MAX, -i ITERS, -x WARMUP and -c and
 * prints what OSU 7 prints: a title, the header and, per size (powers of two from MIN to MAX, OSU's sizes: the
 * message of allreduce and bcast, the per-rank block of allgather, the whole vector of the reduce_scatters), the
 * average latency in microseconds over the ranks; with -c a "Pass" or "Fail" column from checking the results.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *name = strrchr(argv[0], '/');
    name = NULL == name ? argv[0] : name + 1;
    long min = 1, max = 1 << 20;
    int iters = 100, warmup = 0, validate = 0, rank, p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-m") && i + 1 < argc) {
            if (2 != sscanf(argv[++i], "%ld:%ld", &min, &max)) {
                max = min = atol(argv[i]);
            }
        } else if (!strcmp(argv[i], "-i") && i + 1 < argc) {
            iters = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-x") && i + 1 < argc) {
            warmup = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-c")) {
            validate = 1;
        }
    }
    const int coll = !strcmp(name, "osu_allreduce")              ? 0
                     : !strcmp(name, "osu_reduce_scatter")       ? 1
                     : !strcmp(name, "osu_reduce_scatter_block") ? 2
                     : !strcmp(name, "osu_allgather")            ? 3
                     : !strcmp(name, "osu_bcast")                ? 4
                                                                 : -1;
    if (coll < 0) {
        fprintf(stderr, "osu_stand_in: call me osu_allreduce, osu_reduce_scatter, osu_reduce_scatter_block, "
                        "osu_allgather or osu_bcast\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char *in = malloc((size_t) max * (size_t) p + 1), *out = malloc((size_t) max * (size_t) p + 1);
    int *counts = malloc((size_t) p * sizeof(int));
    if (0 == rank) {
        printf("\n# OSU MPI Stand-in %s Latency Test v7.4\n# Datatype: MPI_CHAR.\n", name + 4);
        printf("# Size       Avg Latency(us)%s\n", validate ? "        Validation" : "");
    }
    for (long size = min < 1 ? 1 : min; size <= max; size *= 2) {
        const int n = (int) size, block = (coll == 1 || coll == 2) ? n / p : n;
        if ((coll == 1 || coll == 2) && 0 == block) {
            continue; /* OSU skips sizes smaller than p for the reduce_scatters */
        }
        for (int b = 0; b < p; ++b) {
            counts[b] = block;
        }
        memset(in, 1, (size_t) n * (size_t) p);
        double total = 0;
        int ok = 1;
        for (int it = -warmup; it < iters; ++it) {
            if (4 == coll && 0 != rank) {
                memset(in, 0, (size_t) n); /* the root's bytes must arrive */
            }
            MPI_Barrier(MPI_COMM_WORLD);
            const double start = MPI_Wtime();
            switch (coll) {
            case 0: MPI_Allreduce(in, out, n, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD); break;
            case 1: MPI_Reduce_scatter(in, out, counts, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD); break;
            case 2: MPI_Reduce_scatter_block(in, out, block, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD); break;
            case 3: MPI_Allgather(in, n, MPI_CHAR, out, n, MPI_CHAR, MPI_COMM_WORLD); break;
            default: MPI_Bcast(in, n, MPI_CHAR, 0, MPI_COMM_WORLD); break;
            }
            total += it < 0 ? 0 : MPI_Wtime() - start;
        }
        if (validate) {
            const int m = coll == 3 ? n * p : coll == 4 ? n : block;
            const char want = coll < 3 ? (char) p : 1;
            for (int i = 0; i < m && ok; ++i) {
                ok = (coll == 4 ? in[i] : out[i]) == want;
            }
            MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        }
        double avg = total * 1e6 / iters, sum;
        MPI_Reduce(&avg, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (0 == rank) {
            printf("%-10ld%18.2f%s\n", size, sum / p, validate ? (ok ? "              Pass" : "              Fail") : "");
            fflush(stdout);
        }
    }
    free(in), free(out), free(counts);
    MPI_Finalize();
    return 0;
}
