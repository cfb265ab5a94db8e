/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_calibrate: measures the cost model's parameters on this machine and prints them as MCA settings.
 *
 *   mpirun -np P hdring_calibrate [--reps N]        (P >= 2)
 *
 * The ranks form pairs: across nodes when the job spans several (the ranks with the same index on nodes 2k and
 * 2k+1), within the node otherwise (ranks 2i and 2i+1). All pairs measure at once, the way the algorithms' steps
 * load a node's link (so run it with as many ranks per node as the jobs you tune for); leftover ranks wait. Rates
 * across nodes are per node link: a pair's rate times the pairs sharing each node's link.
 *   latency        half the round trip of a 1-byte ping-pong within the first pair;
 *   bandwidth      the lower rank of every pair streams 4 MiB to the other (one way);
 *   exchange       every pair exchanges 4 MiB both ways at once (MPI_Sendrecv), per direction: what recursive
 *                  halving and doubling do; a full-duplex link gives it the one-way rate;
 *   reduction      MPI_Reduce_local of 4 MiB of doubles with MPI_SUM.
 * Each is the median of N repetitions (default 51). The output is an MCA parameter file fragment (e.g. for
 * $HOME/.openmpi/mca-params.conf): within a node coll_hdring_model_latency_us and _bandwidth_mbs (the exchange's
 * rate, the pattern most local steps have), across nodes coll_hdring_model_network_latency_us,
 * _network_bandwidth_mbs (one way) and _network_exchange_mbs.
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (4 << 20)

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double median(double *t, int n)
{
    qsort(t, (size_t) n, sizeof(*t), cmp);
    return t[n / 2];
}

/* This rank's partner (-1: none) and the number of nodes: nodes are numbered by their lowest rank, a rank's
 * index is its rank among its node's. *node_paired: how many of this node's ranks have a partner. */
static int find_partner(int rank, int size, int *nodes, int *node_paired)
{
    MPI_Comm node;
    int leader, index, *leaders = malloc((size_t) size * sizeof(int)), *indices = malloc((size_t) size * sizeof(int));
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &index);
    leader = rank;
    MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, node);
    MPI_Comm_free(&node);
    MPI_Allgather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(&index, 1, MPI_INT, indices, 1, MPI_INT, MPI_COMM_WORLD);
    int *node_of = malloc((size_t) size * sizeof(int));
    *nodes = 0;
    for (int r = 0; r < size; ++r) { /* a leader is its own lowest rank: nodes in the order of their leaders */
        node_of[r] = leaders[r] == r ? (*nodes)++ : -1;
    }
    for (int r = 0; r < size; ++r) {
        node_of[r] = node_of[leaders[r]];
    }
    int partner = -1;
    for (int r = 0; r < size && partner < 0; ++r) {
        if (1 == *nodes) { /* within the node: 2i with 2i+1 */
            partner = r == (rank ^ 1) ? r : -1;
        } else { /* same index, nodes 2k and 2k+1 */
            partner = r != rank && indices[r] == indices[rank] && node_of[r] == (node_of[rank] ^ 1) ? r : -1;
        }
    }
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    *node_paired = partner >= 0;
    MPI_Allreduce(MPI_IN_PLACE, node_paired, 1, MPI_INT, MPI_SUM, node);
    MPI_Comm_free(&node);
    free(leaders);
    free(indices);
    free(node_of);
    return partner;
}

int main(int argc, char **argv)
{
    int rank, size, reps = 51, nodes;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--reps") && i + 1 < argc && atoi(argv[i + 1]) > 0) {
            reps = atoi(argv[++i]);
        } else {
            if (0 == rank) {
                fprintf(stderr, "usage: mpirun -np P hdring_calibrate [--reps N] (P >= 2; pairs across nodes when "
                                "the job spans several)\n");
            }
            MPI_Finalize();
            return 0 == strcmp(argv[i], "--help") ? 0 : 2;
        }
    }
    if (size < 2) {
        if (0 == rank) {
            fprintf(stderr, "hdring_calibrate: run it on 2 or more ranks\n");
        }
        MPI_Finalize();
        return 2;
    }
    int node_paired;
    const int peer = find_partner(rank, size, &nodes, &node_paired);
    int pairs = peer >= 0, first = peer >= 0 ? (rank < peer ? rank : peer) : size, flows = node_paired;
    MPI_Allreduce(MPI_IN_PLACE, &pairs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &flows, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    pairs /= 2;
    flows = 1 == nodes ? 1 : flows; /* a node's link carries this many pairs' flows */
    if (0 == pairs) {
        if (0 == rank) {
            fprintf(stderr, "hdring_calibrate: no two ranks to pair (an odd number of nodes of one rank each?)\n");
        }
        MPI_Finalize();
        return 2;
    }
    const bool lower = peer >= 0 && rank < peer;
    char *a = malloc(BIG), *b = malloc(BIG);
    double *t = malloc((size_t) reps * sizeof(*t));
    memset(a, 1, BIG);
    memset(b, 2, BIG);

    /* latency: 1-byte ping-pong within the first pair, half a round trip */
    for (int i = -5; i < reps; ++i) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        for (int k = 0; k < 100 && peer >= 0 && (rank == first || peer == first); ++k) {
            if (lower) {
                MPI_Send(a, 1, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
                MPI_Recv(b, 1, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(b, 1, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(a, 1, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
            }
        }
        if (i >= 0) {
            t[i] = (MPI_Wtime() - t0) / 200;
        }
    }
    const double alpha = median(t, reps);

    /* exchange: every pair sends and receives 4 MiB at once; the slowest rank's time */
    for (int i = -2; i < reps; ++i) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        if (peer >= 0) {
            MPI_Sendrecv(a, BIG, MPI_CHAR, peer, 1, b, BIG, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        double dt = MPI_Wtime() - t0;
        MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (i >= 0) {
            t[i] = dt;
        }
    }
    const double exchange = (median(t, reps) - alpha) / BIG;

    /* one way: the lower rank of every pair streams 4 MiB to the other */
    for (int i = -2; i < reps; ++i) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        if (lower) {
            MPI_Send(a, BIG, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
            MPI_Recv(b, 1, MPI_CHAR, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (peer >= 0) {
            MPI_Recv(b, BIG, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(a, 1, MPI_CHAR, peer, 3, MPI_COMM_WORLD);
        }
        double dt = MPI_Wtime() - t0;
        MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (i >= 0) {
            t[i] = dt;
        }
    }
    const double one_way = (median(t, reps) - 2 * alpha) / BIG;

    /* reduction: 4 MiB of doubles */
    double *x = (double *) a, *y = (double *) b;
    for (int i = -2; i < reps; ++i) {
        const double t0 = MPI_Wtime();
        MPI_Reduce_local(x, y, BIG / (int) sizeof(double), MPI_DOUBLE, MPI_SUM);
        if (i >= 0) {
            t[i] = MPI_Wtime() - t0;
        }
    }
    const double gamma = median(t, reps) / BIG;

    if (0 == rank) {
        printf("# measured by hdring_calibrate: %d ranks on %d node%s, %d pair%s %s at once (%d per node link), "
               "medians of %d\n", size, nodes, 1 == nodes ? "" : "s", pairs, 1 == pairs ? "" : "s",
               1 == nodes ? "within the node" : "across nodes", flows, reps);
        if (1 == nodes) {
            printf("coll_hdring_model_latency_us = %.3f\n", alpha * 1e6);
            printf("coll_hdring_model_bandwidth_mbs = %.0f\n", 1e-6 / exchange);
        } else {
            printf("coll_hdring_model_network_latency_us = %.3f\n", alpha * 1e6);
            printf("coll_hdring_model_network_bandwidth_mbs = %.0f\n", flows * 1e-6 / one_way);
            printf("coll_hdring_model_network_exchange_mbs = %.0f\n", flows * 1e-6 / exchange);
        }
        printf("coll_hdring_model_reduce_mbs = %.0f\n", 1e-6 / gamma);
        printf("# one way %.0f MB/s, exchange %.0f MB/s per direction%s: exchange/one way = %.2f (1.00 on a "
               "full-duplex link)\n", flows * 1e-6 / one_way, flows * 1e-6 / exchange, 1 == nodes ? "" : " per link",
               one_way / exchange);
    }
    free(a);
    free(b);
    free(t);
    MPI_Finalize();
    return 0;
}
