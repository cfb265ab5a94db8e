/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * The five collectives of the MPI tests in the kind of call a test asks for: blocking; nonblocking (the I-call,
 * then its completion); persistent (init, start, completion, free: MPI_*_init from MPI 4, MPIX_*_init of Open MPI
 * 4.1's pcollreq extension before); or each in turn. Nonblocking and persistent calls are completed in turn by
 * MPI_Wait, a loop of MPI_Test, MPI_Waitall, MPI_Waitany and a loop of MPI_Testall, so every way a program
 * completes a request is exercised. Each returns the MPI error code of the call or its completion.
 */
#ifndef HDRING_KINDS_H
#define HDRING_KINDS_H

#include <mpi.h>
#include <stdbool.h>

typedef enum { KIND_BLOCKING, KIND_NONBLOCKING, KIND_PERSISTENT, KIND_MIXED } call_kind_t;

/* The kind every call below makes (KIND_BLOCKING unless set). */
extern call_kind_t kind_mode;
/* Starts the turns of the mixed kind and of the completions afresh: ranks that run different numbers of calls
 * (the halves of a split) call it before a communicator on which all of them take the same turns. */
void kind_restart(void);
/* From "blocking", "nonblocking", "persistent" or "mixed"; false for another name. */
bool kind_parse(const char *name);
extern const char *const kind_names[4];

/* The completion of request r (MPI_Wait, MPI_Test loop, ... in turn). */
int kind_complete(MPI_Request *r);

int kind_allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm);
int kind_reduce_scatter(const void *s, void *r, const int *counts, MPI_Datatype t, MPI_Op op, MPI_Comm comm);
int kind_reduce_scatter_block(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm);
int kind_allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm comm);
int kind_bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm);

/* The nonblocking and persistent forms themselves (request out), for tests that keep several in flight. */
int kind_iallreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *req);
int kind_allreduce_init(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *req);
int kind_reduce_scatter_init(const void *s, void *r, const int *counts, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                             MPI_Request *req);
int kind_reduce_scatter_block_init(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                                   MPI_Request *req);
int kind_allgather_init(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm comm,
                        MPI_Request *req);
int kind_bcast_init(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *req);

#endif
