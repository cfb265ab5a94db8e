/*
 * hdring_calibrate: measures the cost model's parameters on this machine and prints them as MCA settings.
 *
 *   mpirun -np 2 hdring_calibrate [--reps N]
 *
 * alpha (coll_hdring_model_latency_us): half the round trip of a 1-byte ping-pong between ranks 0 and 1;
 * beta (coll_hdring_model_bandwidth_mbs): from the time of a simultaneous exchange (MPI_Sendrecv) of 4 MiB in
 * each direction, the pattern the algorithms use; gamma (coll_hdring_model_reduce_mbs): MPI_Reduce_local of
 * 4 MiB of doubles with MPI_SUM. It also compares the exchange with a one-way stream of 4 MiB: on a
 * full-duplex link both directions get the full rate. Each is the median of N repetitions (default 51). The
 * output is an MCA parameter file fragment (e.g. for $HOME/.openmpi/mca-params.conf); the MPI_T settings of
 * the same names work too. With the two ranks on different nodes, latency and bandwidth are printed as the
 * network parameters (coll_hdring_model_network_*), which hdring uses on communicators spanning nodes.
 */
#include <mpi.h>
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

int main(int argc, char **argv)
{
    int rank, size, reps = 51;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (3 == argc && 0 == strcmp(argv[1], "--reps")) {
        reps = atoi(argv[2]) > 0 ? atoi(argv[2]) : reps;
    }
    if (2 != size) {
        if (0 == rank) {
            fprintf(stderr, "hdring_calibrate: run it on exactly 2 ranks (mpirun -np 2)\n");
        }
        MPI_Finalize();
        return 2;
    }
    const int peer = 1 - rank;
    MPI_Comm node;
    int node_size;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    MPI_Comm_free(&node);
    const char *link = 2 == node_size ? "" : "network_";
    char *a = malloc(BIG), *b = malloc(BIG);
    double *t = malloc((size_t) reps * sizeof(*t));
    memset(a, 1, BIG);
    memset(b, 2, BIG);

    /* alpha: 1-byte ping-pong, half a round trip */
    for (int i = -5; i < reps; ++i) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        for (int k = 0; k < 100; ++k) {
            if (0 == rank) {
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

    /* beta: both ranks send and receive 4 MiB at once */
    for (int i = -2; i < reps; ++i) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        MPI_Sendrecv(a, BIG, MPI_CHAR, peer, 1, b, BIG, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (i >= 0) {
            t[i] = MPI_Wtime() - t0;
        }
    }
    const double beta = (median(t, reps) - alpha) / BIG;

    /* one way: rank 0 streams 4 MiB to rank 1; a full-duplex link gives the exchange the same rate */
    for (int i = -2; i < reps; ++i) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        if (0 == rank) {
            MPI_Send(a, BIG, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
            MPI_Recv(b, 1, MPI_CHAR, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(b, BIG, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(a, 1, MPI_CHAR, peer, 3, MPI_COMM_WORLD);
        }
        if (i >= 0) {
            t[i] = MPI_Wtime() - t0;
        }
    }
    const double one_way = (median(t, reps) - 2 * alpha) / BIG;

    /* gamma: a local reduction of 4 MiB of doubles */
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
        printf("# measured by hdring_calibrate (2 ranks, %s, medians of %d)\n",
               2 == node_size ? "one node" : "two nodes", reps);
        printf("coll_hdring_model_%slatency_us = %.3f\n", link, alpha * 1e6);
        printf("coll_hdring_model_%sbandwidth_mbs = %.0f\n", link, 1e-6 / beta);
        printf("coll_hdring_model_reduce_mbs = %.0f\n", 1e-6 / gamma);
        printf("# one way %.0f MB/s, exchange %.0f MB/s per direction: exchange/one way = %.2f (1.00 on a full-duplex "
               "link)\n", 1e-6 / one_way, 1e-6 / beta, one_way / beta);
    }
    free(a);
    free(b);
    free(t);
    MPI_Finalize();
    return 0;
}
