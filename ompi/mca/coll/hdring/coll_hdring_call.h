/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring calls: the one path every collective of every kind takes.
 */
#ifndef MCA_COLL_HDRING_CALL_H
#define MCA_COLL_HDRING_CALL_H

#include "coll_hdring.h"

BEGIN_C_DECLS

/* Serves call a of `kind` on module m's communicator comm: the fallback's function, or a run of its task
 * (blocking: to its end; nonblocking: *request started; persistent: *request made for MPI_Start). At
 * coll_hdring_verbose >= 1 rank 0 traces the call's decision, at 2 whether its schedule was built or cached. An
 * Open MPI status. */
int mca_coll_hdring_call(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                         const mca_coll_hdring_args_t *a, mca_coll_hdring_kind_t kind, struct ompi_request_t **request);

/* Lets go of what module m remembers of its last calls (its tasks, their datatypes and ops): when it goes. */
void mca_coll_hdring_call_forget(mca_coll_hdring_module_t *m);

END_C_DECLS

#endif
