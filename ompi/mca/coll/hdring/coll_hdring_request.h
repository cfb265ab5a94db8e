/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring requests: nonblocking and persistent calls. A request holds a run of its call's task
 * (coll_hdring_run.h); starting it posts the schedule's first steps, and a progress function registered with Open
 * MPI's progress engine (called from MPI_Test, MPI_Wait and every other blocking call) advances every request in
 * flight by as many steps as their messages allow, and completes them. Requests are Open MPI's nonblocking
 * collective requests (ompi_coll_base_nbc_request_t), so MPI_Wait, MPI_Test, their -all, -any and -some forms and
 * MPI_Request_free treat them as any other, and the MPI layer keeps the call's datatype and op alive until they
 * complete (nonblocking) or are freed (persistent).
 *
 * Each call takes a tag of its own from the communicator's counter of nonblocking tags, which libnbc and every
 * other component share (ompi_coll_base_nbc_reserve_tags, coll_hdring_call.c): collectives in flight on one
 * communicator never mix their messages, whoever serves them; a persistent request keeps the tag it was made
 * with, as libnbc's do.
 */
#ifndef MCA_COLL_HDRING_REQUEST_H
#define MCA_COLL_HDRING_REQUEST_H

#include "coll_hdring.h"

BEGIN_C_DECLS

/* A request for call a of key on module m's communicator comm, its messages tagged `tag`, of task (referenced by
 * the request from now on; NULL when this rank had no memory to build it: each start tries again, and runs the
 * algorithm without it when it still has none, coll_hdring_run.h): started (nonblocking), or made inactive for
 * MPI_Start (persistent). An Open MPI status (no memory for the request: a few are made when the component opens,
 * so a process short of memory still has them); on failure *request is left. */
int mca_coll_hdring_request_new(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                                mca_coll_hdring_task_t *task, const mca_coll_hdring_key_t *key,
                                const mca_coll_hdring_args_t *a, int tag, bool persistent,
                                struct ompi_request_t **request);

/* At the component's open and close. */
void mca_coll_hdring_request_open(void);
void mca_coll_hdring_request_close(void);

END_C_DECLS

#endif
