/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring's bootstrap exchange: the one collective hdring makes while a communicator is being created (where
 * its ranks sit, the network's measurement), before it can serve any call.
 */
#ifndef MCA_COLL_HDRING_BOOTSTRAP_H
#define MCA_COLL_HDRING_BOOTSTRAP_H

#include "coll_hdring.h"

BEGIN_C_DECLS

/* An allgather of n int64 values per rank into all (p n values, in rank order), for hdring's own bookkeeping at
 * communicator creation: a fixed algorithm (rhd) over the PML whatever the parameters say, so ranks whose
 * parameters differ still match. A rank without memory for its values (mine or all NULL) takes part with empty
 * messages, and every rank returns an error. An Open MPI status. */
int mca_coll_hdring_gather_values(struct ompi_communicator_t *comm, const int64_t *mine, int n, int64_t *all);

END_C_DECLS

#endif
