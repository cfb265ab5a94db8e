/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring runs: one call's task on the call's buffers. Every kind runs the same way: a run is prepared
 * (transport, buffers, scratch, what the collective does around its algorithm), advanced until done (blocking
 * calls in one go, nonblocking ones as Open MPI's progress engine calls), and ended. UCC's rule: blocking is
 * post and wait.
 *
 * Around the algorithm: allgather copies this rank's block into place (overlapping the first exchange where the
 * schedule allows); a bcast whose algorithm cuts the message runs on its bytes, packed into scratch before (root)
 * and unpacked after (the others) when they do not lie in one run.
 *
 * A rank that cannot get its scratch or pack its message runs poisoned (coll_hdring_pml.h): every rank of the
 * call returns an error, none waits forever, and the next call is right.
 */
#ifndef MCA_COLL_HDRING_RUN_H
#define MCA_COLL_HDRING_RUN_H

#include "coll_hdring.h"

BEGIN_C_DECLS

/* Room for a nonblocking exchange kept in a run itself; wider ones take memory of their own. */
#define MCA_COLL_HDRING_RUN_SIDES 16

typedef struct mca_coll_hdring_run {
    const mca_coll_hdring_task_t *task;
    mca_coll_hdring_pml_t t;
    hdring_exec_t exec;
    bool blocking;
    mca_coll_hdring_scratch_t *scratch; /* kept from call to call: the module's (blocking), the request's, or none */
    mca_coll_hdring_scratch_layout_t layout; /* of its scratch in that memory */
    void *own_scratch;
    char *packed;        /* bcast on bytes, not contiguous: the message's bytes in scratch */
    void *buf;           /* bcast: the caller's buffer, count and type (unpacked into after) */
    int count;
    struct ompi_datatype_t *dtype;
    mca_coll_hdring_tables_t tables; /* nonblocking runs' own */
    mca_coll_hdring_pml_side_t sides[MCA_COLL_HDRING_RUN_SIDES];
    struct ompi_request_t *reqs[MCA_COLL_HDRING_RUN_SIDES * HDRING_MAX_PIECES];
    void *wide;          /* room for wider exchanges */
    int status;          /* the schedule's hdring status once done */
} mca_coll_hdring_run_t;

/* Prepares a run of task (not a fallback) for call a on comm, module m, its messages tagged `tag`, its scratch kept
 * in `scratch` (m's for a blocking call, its request's for the others; NULL: memory of its own). Blocking runs use
 * m's tables and no room for nonblocking exchanges; nonblocking ones their own. Cannot fail: a rank short of
 * memory runs poisoned. */
void mca_coll_hdring_run_init(mca_coll_hdring_run_t *run, mca_coll_hdring_module_t *m,
                              struct ompi_communicator_t *comm, const mca_coll_hdring_task_t *task,
                              const mca_coll_hdring_args_t *a, int tag, bool blocking,
                              mca_coll_hdring_scratch_t *scratch);
/* Runs again, to its end, run, initialized for a blocking call on module m and ended since, for call a, which is
 * like that call (the same task, datatypes and op, coll_hdring_call.c): what a run changes is reset, the rest
 * kept. The call's Open MPI status. The path of most small calls: it costs what it must and no more. */
int mca_coll_hdring_run_repeat(mca_coll_hdring_run_t *run, const mca_coll_hdring_args_t *a);
/* Prepares again run, initialized for a nonblocking call a (a persistent request's) and ended since, for the same
 * call: what a run changes is reset, the rest kept. */
void mca_coll_hdring_run_restart(mca_coll_hdring_run_t *run, const mca_coll_hdring_args_t *a);
/* Advances the run: HDRING_OK when its schedule is done (or failed: mca_coll_hdring_run_end says how);
 * HDRING_PENDING when a nonblocking run waits for messages. */
int mca_coll_hdring_run_progress(mca_coll_hdring_run_t *run);
/* Ends a run that progress reported done: unpacks, withdraws what a failure left in flight, frees its memory.
 * The call's Open MPI status. */
int mca_coll_hdring_run_end(mca_coll_hdring_run_t *run);

/* A call of key on module m whose task this rank had no memory to build: the algorithm itself, blocking, from a task
 * decided and sized without allocating, its tables in the process's reserve (coll_hdring_memory.h), so that the
 * other ranks still find every message (empty ones when it cannot run it either). Its Open MPI status;
 * OMPI_ERR_NOT_SUPPORTED when the decision is the fallback (the caller hands the call on). */
int mca_coll_hdring_run_unbuilt(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                                const mca_coll_hdring_key_t *key, const mca_coll_hdring_args_t *a, int tag);

END_C_DECLS

#endif
