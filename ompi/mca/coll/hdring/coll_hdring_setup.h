/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring setups: where a new communicator's ranks sit and the parameters in force
 * (mca_coll_hdring_setup_t), shared by communicators placed alike; and the one exchange hdring makes at
 * communicator creation.
 */
#ifndef MCA_COLL_HDRING_SETUP_H
#define MCA_COLL_HDRING_SETUP_H

#include "coll_hdring.h"

#include "hdring_plan.h"
#include "hdring_topo.h"

BEGIN_C_DECLS

struct mca_coll_hdring_task; /* coll_hdring_task.h */

/* What every call on a communicator is decided and scheduled from: its size, this process's rank, where its
 * ranks sit and the parameters it was created with. Communicators with equal setups (duplicates, most often) share
 * one, and with it the plans and the tasks their calls build. */
typedef struct mca_coll_hdring_setup {
    struct mca_coll_hdring_setup *next; /* in the process's list of setups */
    int refs;                           /* modules using it; with the lock */
    struct ompi_group_t *group;         /* the group it was placed for without an exchange (retained), or NULL */
    unsigned generation;                /* of config (mca_coll_hdring_config_snapshot) */
    int p, rank;
    mca_coll_hdring_config_t config;
    hdring_topo_t topo;
    int source;                          /* what named the nodes (the trace) */
    size_t pieces_bytes[MCA_COLL_HDRING_NCOLLS]; /* messages within a node cut in pieces up to this */
    /* built on first use, with the lock: */
    bool planned[MCA_COLL_HDRING_NCOLLS][2]; /* [coll][operand order kept] */
    hdring_plan_t plan[MCA_COLL_HDRING_NCOLLS][2];
    struct mca_coll_hdring_task *newest, *oldest; /* the task cache, most recently used first (coll_hdring_task.c) */
    int ntasks;
    size_t task_bytes;
} mca_coll_hdring_setup_t;

/* The setup of comm for parameters cfg (of generation `generation`), referenced: one an earlier communicator
 * made, or a new one. Placing the ranks may exchange one value per rank over the PML (mca_coll_hdring_gather_values),
 * on every rank alike; MPI_COMM_WORLD on several nodes measures the network first, once per job
 * (coll_hdring_calibrate), and its setup takes the parameters with the measured values. At coll_hdring_verbose >=
 * 1 rank 0 says where the ranks sit. An Open MPI status. */
int mca_coll_hdring_setup_get(struct ompi_communicator_t *comm, const mca_coll_hdring_config_t *cfg,
                              unsigned generation, mca_coll_hdring_setup_t **out);
void mca_coll_hdring_setup_release(mca_coll_hdring_setup_t *s);
/* At the component's close: every setup, used or not. */
void mca_coll_hdring_setup_forget_all(void);

/* Tells the other processes, through the runtime, which machine this process runs on and its cores (at
 * component open, before MPI_Init's exchange; nothing outside MPI_Init, as in ompi_info). */
void mca_coll_hdring_machine_publish(void);

END_C_DECLS

#endif
