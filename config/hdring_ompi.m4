dnl Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# hdring_ompi.m4 -- locate an installed Open MPI and check that a coll component can be built against it.

# HDRING_FIND_OMPI
# ----------------
# Sets MPICC, OMPI_INFO, OMPI_CPPFLAGS, OMPI_LDFLAGS and OMPI_PREFIX.
# --with-ompi=PREFIX selects PREFIX/bin/mpicc; otherwise mpicc is taken from PATH.
AC_DEFUN([HDRING_FIND_OMPI], [
    AC_ARG_WITH([ompi],
        [AS_HELP_STRING([--with-ompi=PREFIX],
            [Open MPI installation to build against (default: the one whose mpicc is on PATH)])],
        [], [with_ompi=check])

    AS_CASE([$with_ompi],
        [no], [AC_MSG_ERROR([hdring is an Open MPI component; it cannot be built --without-ompi])],
        [yes|check], [
            AC_PATH_PROG([MPICC], [mpicc])
            AC_PATH_PROG([OMPI_INFO], [ompi_info])],
        [
            AC_MSG_CHECKING([for mpicc in $with_ompi/bin])
            AS_IF([test -x "$with_ompi/bin/mpicc"],
                [MPICC="$with_ompi/bin/mpicc"; AC_MSG_RESULT([$MPICC])],
                [AC_MSG_RESULT([no])])
            AS_IF([test -x "$with_ompi/bin/ompi_info"], [OMPI_INFO="$with_ompi/bin/ompi_info"])])

    AS_IF([test -z "$MPICC" || test -z "$OMPI_INFO"],
        [AC_MSG_ERROR([Open MPI not found (need mpicc and ompi_info).
    On Debian/Ubuntu: apt-get install openmpi-bin libopenmpi-dev
    Elsewhere: pass --with-ompi=PREFIX for an Open MPI installed under PREFIX.])])

    AC_MSG_CHECKING([Open MPI include directories])
    hdring_ompi_incdirs=`"$MPICC" --showme:incdirs 2>/dev/null`
    AS_IF([test -z "$hdring_ompi_incdirs"],
        [AC_MSG_ERROR([$MPICC --showme:incdirs printed nothing; is $MPICC Open MPI's wrapper compiler?])])
    AC_MSG_RESULT([$hdring_ompi_incdirs])
    OMPI_CPPFLAGS=
    for hdring_dir in $hdring_ompi_incdirs; do
        dnl -isystem: warnings inside Open MPI's own headers are not ours to fix, even with -Werror.
        OMPI_CPPFLAGS="$OMPI_CPPFLAGS -isystem $hdring_dir"
    done
    hdring_ompi_first_incdir=`echo $hdring_ompi_incdirs | cut -d' ' -f1`
    OMPI_CPPFLAGS="$OMPI_CPPFLAGS -isystem $hdring_ompi_first_incdir/openmpi"

    AC_MSG_CHECKING([Open MPI library directories])
    hdring_ompi_libdirs=`"$MPICC" --showme:libdirs 2>/dev/null`
    AC_MSG_RESULT([$hdring_ompi_libdirs])
    OMPI_LDFLAGS=
    for hdring_dir in $hdring_ompi_libdirs; do
        OMPI_LDFLAGS="$OMPI_LDFLAGS -L$hdring_dir -Wl,-rpath,$hdring_dir"
    done

    AC_SUBST([MPICC])
    AC_SUBST([OMPI_INFO])
    AC_SUBST([OMPI_CPPFLAGS])
    AC_SUBST([OMPI_LDFLAGS])
])

# HDRING_CHECK_OMPI_DEVEL
# -----------------------
# Checks that Open MPI's internal (component) headers are installed and usable, that the installation is of a
# series hdring is written for (4.1 or 5.0: coll_hdring_ompi.h holds what differs), and supplies our compat
# fint_2_int.h where the installation lacks it. Sets HDRING_COMPAT_CPPFLAGS and HDRING_OMPI_SERIES.
AC_DEFUN([HDRING_CHECK_OMPI_DEVEL], [
    AC_REQUIRE([HDRING_FIND_OMPI])
    hdring_save_CPPFLAGS=$CPPFLAGS
    hdring_save_LDFLAGS=$LDFLAGS
    hdring_save_LIBS=$LIBS
    CPPFLAGS="$CPPFLAGS $OMPI_CPPFLAGS"

    hdring_devel_hint="Open MPI's development headers for components are missing or unusable.
    On Debian/Ubuntu: apt-get install libopenmpi-dev
    An Open MPI built from source installs them with 'make install' (check PREFIX/include/openmpi/ompi_config.h)."

    AC_CHECK_HEADER([ompi_config.h], [], [AC_MSG_ERROR([ompi_config.h not found. $hdring_devel_hint])])

    AC_MSG_CHECKING([Open MPI's release series])
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include "ompi_config.h"
#if !((OMPI_MAJOR_VERSION == 4 && OMPI_MINOR_VERSION == 1) || OMPI_MAJOR_VERSION == 5)
#error "not Open MPI 4.1 or 5"
#endif
]], [])],
        [HDRING_OMPI_SERIES=`"$OMPI_INFO" --version 2>/dev/null | sed -n 's/^Open MPI v\([[0-9]]*\.[[0-9]]*\).*/\1/p'`
         AC_MSG_RESULT([$HDRING_OMPI_SERIES])],
        [AC_MSG_RESULT([not 4.1 or 5.0])
         AC_MSG_ERROR([hdring is built for the coll component interface of Open MPI 4.1.x or 5.0.x.
    Open MPI loads a component only into the release series it was built for; point --with-ompi at such an install.])])

    AC_MSG_CHECKING([for ompi/mpi/fortran/base/fint_2_int.h])
    AC_PREPROC_IFELSE([AC_LANG_SOURCE([[#include "ompi_config.h"
#include "ompi/mpi/fortran/base/fint_2_int.h"
]])], [AC_MSG_RESULT([yes]); HDRING_COMPAT_CPPFLAGS=],
        [AC_MSG_RESULT([no, using hdring's compat header])
         HDRING_COMPAT_CPPFLAGS='-I$(top_srcdir)/config/compat'
         CPPFLAGS="$CPPFLAGS -I$srcdir/config/compat"])

    AC_MSG_CHECKING([whether the coll, op, datatype and pml headers compile])
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include "ompi_config.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/op/op.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/communicator/communicator.h"
#include "ompi/request/request.h"
]], [[mca_coll_base_module_t *m = NULL; (void) m;]])],
        [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no])
         AC_MSG_ERROR([Open MPI's coll component headers do not compile (see config.log). $hdring_devel_hint])])

    AC_MSG_CHECKING([whether a component can link against libmpi and libopen-pal])
    LDFLAGS="$LDFLAGS $OMPI_LDFLAGS"
    LIBS="-lmpi -lopen-pal $LIBS"
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include "ompi_config.h"
#include "opal/util/output.h"
]], [[opal_output(0, "%s", "");]])],
        [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no])
         AC_MSG_ERROR([cannot link with -lmpi -lopen-pal using $OMPI_LDFLAGS (see config.log). $hdring_devel_hint])])

    CPPFLAGS=$hdring_save_CPPFLAGS
    LDFLAGS=$hdring_save_LDFLAGS
    LIBS=$hdring_save_LIBS
    AC_SUBST([HDRING_COMPAT_CPPFLAGS])
    AC_SUBST([HDRING_OMPI_SERIES])
])

# HDRING_CHOOSE_COMPONENT_DIR
# ---------------------------
# Where 'make install' puts mca_coll_hdring.so: Open MPI's own component directory by default,
# or --with-component-dir=DIR (e.g. $HOME/.openmpi/components, searched by default for one user).
AC_DEFUN([HDRING_CHOOSE_COMPONENT_DIR], [
    AC_REQUIRE([HDRING_FIND_OMPI])
    AC_ARG_WITH([component-dir],
        [AS_HELP_STRING([--with-component-dir=DIR],
            [install the component into DIR (default: Open MPI's component directory, ompi_info --path pkglibdir)])],
        [], [with_component_dir=default])
    AC_MSG_CHECKING([where to install the component])
    AS_CASE([$with_component_dir],
        [default|yes], [
            HDRING_COMPONENT_DIR=`"$OMPI_INFO" --path pkglibdir --parsable 2>/dev/null | sed -n 's/^path:pkglibdir://p'`
            AS_IF([test -z "$HDRING_COMPONENT_DIR"],
                [AC_MSG_ERROR(['$OMPI_INFO --path pkglibdir --parsable' gave no directory; use --with-component-dir=DIR])])],
        [no], [AC_MSG_ERROR([--without-component-dir makes no sense: the component must be installed somewhere])],
        [HDRING_COMPONENT_DIR=$with_component_dir])
    AC_MSG_RESULT([$HDRING_COMPONENT_DIR])
    AC_SUBST([HDRING_COMPONENT_DIR])
])
