/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_eager: which message sizes the PML sends eagerly, on 2 ranks, over whatever BTL mpirun selects. The cost
 * model charges a rendezvous (a round trip before the data go) to every message larger than its eager limit,
 * which hdring derives from the BTL's eager limit; the MPI tests compare that limit with what this program finds.
 *
 *   hdring_eager BYTES...   for each size, rank 0 prints "hdring_eager: BYTES eager" or "BYTES rendezvous"
 *
 * Rank 0 sends BYTES (tag 0) and, once that send has returned, one int (tag 1). Rank 1 first waits for the int
 * while the progress engine runs, and only then posts the receive of tag 0. A send that needs a rendezvous cannot
 * return before its receive is posted, so the int can only arrive first after an eager send: "eager" is proved.
 * Rank 1 stops waiting after GIVE_UP_SECONDS and reports a rendezvous; only an eager send that takes that long
 * (a machine stopped for seconds) could be misreported.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "hdring_mpi_util.h"

#define GIVE_UP_SECONDS 5.0

static const char *const usage = "usage: hdring_eager BYTES...  (2 ranks)\n";

/* Whether the PML sent a message of `bytes` eagerly (the same answer on both ranks). */
static int sent_eagerly(int rank, char *buf, int bytes)
{
    int signal = 0, eager = 0;
    if (0 == rank) {
        MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Send(&signal, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(&eager, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return eager;
    }
    MPI_Request signalled;
    MPI_Irecv(&signal, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &signalled);
    const double start = MPI_Wtime();
    while (!eager && MPI_Wtime() - start < GIVE_UP_SECONDS) {
        MPI_Test(&signalled, &eager, MPI_STATUS_IGNORE);
    }
    MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!eager) {
        MPI_Wait(&signalled, MPI_STATUS_IGNORE);
    }
    MPI_Send(&eager, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    return eager;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size) {
        util_usage_exit("hdring_eager", usage, "needs exactly 2 ranks\n");
    }
    if (argc < 2) {
        util_usage_exit("hdring_eager", usage, "no sizes given\n");
    }
    for (int i = 1; i < argc; ++i) {
        char *end;
        const long bytes = strtol(argv[i], &end, 10);
        if (end == argv[i] || '\0' != *end || bytes < 0 || bytes > 64 * 1024 * 1024) {
            util_usage_exit("hdring_eager", usage, "a size must be a number of bytes from 0 to 64 MiB\n");
        }
        char *buf = calloc(bytes > 0 ? (size_t) bytes : 1, 1);
        if (NULL == buf) {
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        const int eager = sent_eagerly(rank, buf, (int) bytes);
        if (0 == rank) {
            printf("hdring_eager: %ld %s\n", bytes, eager ? "eager" : "rendezvous");
        }
        free(buf);
    }
    MPI_Finalize();
    return 0;
}
