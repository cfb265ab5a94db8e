/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_pieces: how many PML messages one message of hdring becomes (coll_hdring_inline_pieces_bytes), on 2
 * ranks of one node, the broadcast forced to an algorithm that sends the root's message to rank 1 once (binomial).
 * Pieces are cut only where a node holds more ranks than cores: coll_hdring_model_cores 1 makes it so.
 *
 *   hdring_pieces BYTES...   for each size, rank 0 prints "hdring_pieces: <BYTES> B <m> messages"
 *
 * Rank 0 broadcasts BYTES bytes on a dup of MPI_COMM_WORLD and, once MPI_Bcast has returned, sends rank 1 a
 * signal on MPI_COMM_WORLD. Rank 1 waits for the signal before it calls MPI_Bcast: the broadcast's messages have
 * reached it by then (one sender, one shared-memory channel, in order) and wait in ob1's queue of unexpected
 * messages, whose length ob1's pvar pml_ob1_unexpected_msgq_length gives; then rank 1's MPI_Bcast takes them.
 * BYTES must be sent eagerly (at most 4040 by default): the root's MPI_Bcast would otherwise wait for rank 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_mpi_util.h"

static const char *const usage = "usage: hdring_pieces BYTES...  (2 ranks of one node)\n";

/* Messages waiting in comm's unexpected queue, from every peer. */
static unsigned long unexpected(MPI_Comm comm)
{
    int num, index = -1, n;
    MPI_T_pvar_get_num(&num);
    for (int i = 0; i < num && index < 0; ++i) {
        char name[256], desc[256];
        int name_len = sizeof(name), desc_len = sizeof(desc), verbosity, var_class, bind, readonly, continuous,
            atomic;
        MPI_Datatype type;
        MPI_T_enum enumtype;
        if (MPI_SUCCESS == MPI_T_pvar_get_info(i, name, &name_len, &verbosity, &var_class, &type, &enumtype, desc,
                                               &desc_len, &bind, &readonly, &continuous, &atomic) &&
            0 == strcmp(name, "pml_ob1_unexpected_msgq_length") && MPI_T_BIND_MPI_COMM == bind) {
            index = i;
        }
    }
    MPI_T_pvar_session session;
    MPI_T_pvar_handle handle;
    unsigned values[64] = {0};
    if (index < 0 || MPI_SUCCESS != MPI_T_pvar_session_create(&session) ||
        MPI_SUCCESS != MPI_T_pvar_handle_alloc(session, index, &comm, &handle, &n) || n > 64 ||
        MPI_SUCCESS != MPI_T_pvar_read(session, handle, values)) {
        fprintf(stderr, "hdring_pieces: ob1's pml_ob1_unexpected_msgq_length cannot be read (is ob1 the PML?)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    unsigned long total = 0;
    for (int i = 0; i < n; ++i) {
        total += values[i];
    }
    MPI_T_pvar_handle_free(session, &handle);
    MPI_T_pvar_session_free(&session);
    return total;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Comm comm;

    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && 0 == strcmp(argv[1], "--help")) {
        util_usage_exit("hdring_pieces", usage, NULL);
    }
    if (2 != size || argc < 2) {
        util_usage_exit("hdring_pieces", usage, 2 != size ? "it runs on 2 ranks" : "no size given");
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    for (int a = 1; a < argc; ++a) {
        const int bytes = atoi(argv[a]);
        char *buf = calloc((size_t) bytes + 1, 1);
        int signal = 0;
        unsigned long waiting = 0;
        if (0 == rank) {
            MPI_Bcast(buf, bytes, MPI_BYTE, 0, comm);
            MPI_Send(&signal, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(&waiting, 1, MPI_UNSIGNED_LONG, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("hdring_pieces: %d B %lu messages\n", bytes, waiting);
        } else {
            MPI_Recv(&signal, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            waiting = unexpected(comm);
            MPI_Bcast(buf, bytes, MPI_BYTE, 0, comm);
            MPI_Send(&waiting, 1, MPI_UNSIGNED_LONG, 0, 1, MPI_COMM_WORLD);
        }
        free(buf);
    }
    MPI_Comm_free(&comm);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
