/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring compat header, used only when the Open MPI installation lacks ompi/mpi/fortran/base/fint_2_int.h
 * (Debian's libopenmpi-dev ships ompi/op/op.h, which includes it, but not the file itself).
 *
 * op.h needs just the scalar conversions between C int and Fortran INTEGER. They are identities when the
 * two have the same size; any other configuration needs the real header.
 */
#ifndef HDRING_COMPAT_FINT_2_INT_H
#define HDRING_COMPAT_FINT_2_INT_H

#include "ompi_config.h"

#if OMPI_SIZEOF_FORTRAN_INTEGER != SIZEOF_INT
#error "Fortran INTEGER and C int differ in size here: install Open MPI's own fint_2_int.h"
#endif

#define OMPI_INT_2_FINT(a) (a)
#define OMPI_FINT_2_INT(a) (a)

#endif
