/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* The collectives in the kind a test asks for: see hdring_kinds.h. */
#include "hdring_kinds.h"

#include <string.h>

/* MPI 4's persistent collectives; Open MPI has them from 5.0 (which still says MPI_VERSION 3). */
#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
#define MPI4_PERSISTENT 1
#else
#include <mpi-ext.h>
#endif

#ifdef MPI4_PERSISTENT
#define PERSISTENT(NAME) MPI_##NAME##_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define PERSISTENT(NAME) MPIX_##NAME##_init
#else
#error "neither MPI 4's persistent collectives nor Open MPI's pcollreq extension"
#endif

call_kind_t kind_mode = KIND_BLOCKING;
const char *const kind_names[4] = {"blocking", "nonblocking", "persistent", "mixed"};
static unsigned long calls, completions;

void kind_restart(void) { calls = completions = 0; }

bool kind_parse(const char *name)
{
    for (int k = 0; k < 4; ++k) {
        if (0 == strcmp(name, kind_names[k])) {
            kind_mode = (call_kind_t) k;
            return true;
        }
    }
    return false;
}

static call_kind_t next_kind(void)
{
    return KIND_MIXED == kind_mode ? (call_kind_t) (calls++ % 3) : kind_mode;
}

int kind_complete(MPI_Request *r)
{
    int done = 0, index, rc = MPI_SUCCESS;
    switch (completions++ % 5) {
    case 0:
        return MPI_Wait(r, MPI_STATUS_IGNORE);
    case 1:
        while (MPI_SUCCESS == rc && !done) {
            rc = MPI_Test(r, &done, MPI_STATUS_IGNORE);
        }
        return rc;
    case 2:
        return MPI_Waitall(1, r, MPI_STATUSES_IGNORE);
    case 3:
        return MPI_Waitany(1, r, &index, MPI_STATUS_IGNORE);
    default:
        while (MPI_SUCCESS == rc && !done) {
            rc = MPI_Testall(1, r, &done, MPI_STATUSES_IGNORE);
        }
        return rc;
    }
}

/* A persistent request's one start, its completion and its end. */
static int once(int rc, MPI_Request *r)
{
    if (MPI_SUCCESS == rc) {
        rc = MPI_Start(r);
    }
    if (MPI_SUCCESS == rc) {
        rc = kind_complete(r);
    }
    if (MPI_REQUEST_NULL != *r) {
        const int freed = MPI_Request_free(r);
        rc = MPI_SUCCESS == rc ? freed : rc;
    }
    return rc;
}

/* The three kinds of one collective: ARGS its arguments, without the request. */
#define KINDS(BLOCKING, NONBLOCKING, INIT, ...)                                                                     \
    MPI_Request r = MPI_REQUEST_NULL;                                                                                \
    int rc;                                                                                                          \
    switch (next_kind()) {                                                                                           \
    case KIND_NONBLOCKING:                                                                                           \
        rc = NONBLOCKING(__VA_ARGS__, &r);                                                                           \
        return MPI_SUCCESS == rc ? kind_complete(&r) : rc;                                                           \
    case KIND_PERSISTENT:                                                                                            \
        return once(INIT(__VA_ARGS__, MPI_INFO_NULL, &r), &r);                                                       \
    default:                                                                                                         \
        return BLOCKING(__VA_ARGS__);                                                                                \
    }

int kind_allreduce(const void *s, void *r_, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    KINDS(MPI_Allreduce, MPI_Iallreduce, PERSISTENT(Allreduce), s, r_, n, t, op, comm)
}

int kind_reduce_scatter(const void *s, void *r_, const int *counts, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    KINDS(MPI_Reduce_scatter, MPI_Ireduce_scatter, PERSISTENT(Reduce_scatter), s, r_, counts, t, op, comm)
}

int kind_reduce_scatter_block(const void *s, void *r_, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    KINDS(MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, PERSISTENT(Reduce_scatter_block), s, r_, n, t, op,
          comm)
}

int kind_allgather(const void *s, int sn, MPI_Datatype st, void *r_, int rn, MPI_Datatype rt, MPI_Comm comm)
{
    KINDS(MPI_Allgather, MPI_Iallgather, PERSISTENT(Allgather), s, sn, st, r_, rn, rt, comm)
}

int kind_bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm)
{
    KINDS(MPI_Bcast, MPI_Ibcast, PERSISTENT(Bcast), b, n, t, root, comm)
}

int kind_iallreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    return MPI_Iallreduce(s, r, n, t, op, comm, req);
}

int kind_allreduce_init(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    return PERSISTENT(Allreduce)(s, r, n, t, op, comm, MPI_INFO_NULL, req);
}

int kind_reduce_scatter_init(const void *s, void *r, const int *counts, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                             MPI_Request *req)
{
    return PERSISTENT(Reduce_scatter)(s, r, counts, t, op, comm, MPI_INFO_NULL, req);
}

int kind_reduce_scatter_block_init(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                                   MPI_Request *req)
{
    return PERSISTENT(Reduce_scatter_block)(s, r, n, t, op, comm, MPI_INFO_NULL, req);
}

int kind_allgather_init(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm comm,
                        MPI_Request *req)
{
    return PERSISTENT(Allgather)(s, sn, st, r, rn, rt, comm, MPI_INFO_NULL, req);
}

int kind_bcast_init(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *req)
{
    return PERSISTENT(Bcast)(b, n, t, root, comm, MPI_INFO_NULL, req);
}
