/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring tolerant allreduce (coll_hdring_tolerant, Open MPI 5 with ULFM): an allreduce that loses a rank
 * still completes on every survivor.
 */
#ifndef MCA_COLL_HDRING_TOLERANT_H
#define MCA_COLL_HDRING_TOLERANT_H

#include "coll_hdring.h"

BEGIN_C_DECLS

/* Whether blocking allreduces on module m are tolerant (the parameter is on and Open MPI has ULFM). */
bool mca_coll_hdring_tolerant(const mca_coll_hdring_module_t *m);

/* A blocking allreduce (a) on comm that survives process failures: OMPI_SUCCESS when no rank was lost; when one
 * was, the survivors' reduction in a->rbuf, the same bits on each survivor, and HDRING_ERR_PROC_FAILED. Another
 * error as the plain call would return it. */
int mca_coll_hdring_tolerant_allreduce(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                                       const mca_coll_hdring_args_t *a);

END_C_DECLS

#endif
