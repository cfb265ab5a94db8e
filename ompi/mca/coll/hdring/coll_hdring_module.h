/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring module: what the component offers each new communicator.
 */
#ifndef MCA_COLL_HDRING_MODULE_H
#define MCA_COLL_HDRING_MODULE_H

#include "coll_hdring.h"

BEGIN_C_DECLS

OBJ_CLASS_DECLARATION(mca_coll_hdring_module_t);

/* The component's collm_init_query and collm_comm_query. */
int mca_coll_hdring_init_query(bool enable_progress_threads, bool enable_mpi_threads);
mca_coll_base_module_t *mca_coll_hdring_comm_query(struct ompi_communicator_t *comm, int *priority);

END_C_DECLS

#endif
