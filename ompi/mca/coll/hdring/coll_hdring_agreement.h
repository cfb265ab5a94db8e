/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring agreement: every rank of a new communicator decides from the same parameters.
 */
#ifndef MCA_COLL_HDRING_AGREEMENT_H
#define MCA_COLL_HDRING_AGREEMENT_H

#include "coll_hdring.h"

BEGIN_C_DECLS

/* Whether every rank of the new communicator has the same decisive parameters as cfg (one exchange, for the
 * communicators cfg->check_parameters selects). OMPI_ERR_NOT_SUPPORTED when they differ, said by rank 0 of the
 * communicator: hdring then declines it, on every rank alike. */
int mca_coll_hdring_agreement(const mca_coll_hdring_config_t *cfg, struct ompi_communicator_t *comm);

END_C_DECLS

#endif
