/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * The simulator driver's --check: inputs that make every result exact (small integers summed as floats, bytes
 * that name their rank and position), and each rank's result compared with the answer computed directly. The
 * study's numbers are only as good as the driver: this proves that hdring's runs on SMPI (and the calls of SMPI's
 * own collectives) move and reduce what they should, with ranks placed on nodes as the study places them.
 */
#ifndef SMPI_CHECK_H
#define SMPI_CHECK_H

#include "smpi_case.h"

/* The rank's inputs (and, for a bcast's root, the message); outputs cleared. */
void smpi_check_fill(smpi_case_t *c);
/* Whether the rank's output is right. */
int smpi_check_verify(const smpi_case_t *c);

#endif
