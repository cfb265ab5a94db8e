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

/* Whether Open MPI can make allreduces tolerant (built with ULFM). */
#define MCA_COLL_HDRING_TOLERANT_POSSIBLE HDRING_HAVE_ULFM

/* The module's blocking allreduce when it is tolerant (coll_hdring_tolerant 1): an allreduce on comm that
 * survives process failures. OMPI_SUCCESS when no rank was lost; when one was, a reduction in rbuf, the same bits
 * on each survivor (coll_hdring_tolerant.c says which), and HDRING_ERR_PROC_FAILED. Another error as the plain call
 * (the module's plain_allreduce) would return it. */
int mca_coll_hdring_tolerant_allreduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                                       struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                       mca_coll_base_module_t *module);

END_C_DECLS

#endif
