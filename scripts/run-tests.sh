#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Set up a fresh Debian 12 machine and run every test: unit tests of the MPI-free core and MPI tests under
# real mpirun, each result printed as it comes, against Debian's Open MPI 4.1 (build in _build/). When the Open
# MPI 5.0.9 build for this machine is at hand (/opt/openmpi-5.0.9, or its tarball in ../shared/ompi/, which is
# unpacked there), a second pass builds hdring against it (_build-5.0/) and runs the unit tests and the 5.0 subset
# of the MPI tests (README). Ends with "N passed, N failed" counting individual checks (a failure once) over both
# passes, and the wall time; exit status 0 only if none failed.
# Environment: HDRING_OMPI5 (default /opt/openmpi-5.0.9), HDRING_OMPI5_TARBALL (default: ../shared/ompi/ or
# /work/shared/ompi/openmpi-5.0.9-debian12-x86_64.tar.xz), HDRING_SKIP_OMPI5=1 (4.1 only).
set -e
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/install-deps.sh
status=0 pass=0 failed=0

# check_in BUILD_DIR [MAKE ARGS]: make check there; adds its counts
check_in() {
    dir=$1
    shift
    rc=0
    (cd "$dir" && make check "$@") || rc=$?
    log=$dir/test/test-suite.log
    if [ ! -f "$log" ]; then
        echo "no test results in $dir: see the output above"
        failed=$((failed + 1)) status=1
        return
    fi
    [ "$rc" -eq 0 ] || { status=$rc; echo "failures are described in $log"; }
    pass=$((pass + $(sed -n 's/^# PASS: *//p' "$log")))
    failed=$((failed + $(sed -n 's/^# FAIL: *//p' "$log") + $(sed -n 's/^# ERROR: *//p' "$log")))
}

scripts/build.sh
check_in _build

OMPI5=${HDRING_OMPI5:-/opt/openmpi-5.0.9}
# the tarball: where HDRING_OMPI5_TARBALL says, else next to this checkout or the machine's shared folder
OMPI5_TARBALL=${HDRING_OMPI5_TARBALL:-}
for t in ../shared/ompi /work/shared/ompi; do
    [ -n "$OMPI5_TARBALL" ] || [ ! -f "$t/openmpi-5.0.9-debian12-x86_64.tar.xz" ] ||
        OMPI5_TARBALL=$t/openmpi-5.0.9-debian12-x86_64.tar.xz
done
if [ -z "${HDRING_SKIP_OMPI5:-}" ] && [ ! -x "$OMPI5/bin/mpicc" ] && [ -f "$OMPI5_TARBALL" ]; then
    echo "run-tests: unpacking $OMPI5_TARBALL into $(dirname "$OMPI5")"
    tar -C "$(dirname "$OMPI5")" -xJf "$OMPI5_TARBALL" || echo "run-tests: could not unpack it (root needed for /opt?)"
fi
if [ -n "${HDRING_SKIP_OMPI5:-}" ]; then
    echo "run-tests: the Open MPI 5.0 pass is skipped (HDRING_SKIP_OMPI5)"
elif [ -x "$OMPI5/bin/mpicc" ]; then
    echo "run-tests: the Open MPI 5.0 pass, against $OMPI5"
    HDRING_BUILD_DIR=_build-5.0 PATH="$OMPI5/bin:$PATH" scripts/build.sh --with-ompi="$OMPI5"
    path41=$PATH
    PATH=$OMPI5/bin:$PATH
    check_in _build-5.0 HDRING_MPI_SUITES="${HDRING_OMPI5_SUITES:-foundation matrix nonblocking trace select topology ulfm}" HDRING_MPI_SUBSET=ompi5
    PATH=$path41
else
    echo "run-tests: no Open MPI 5.0 at $OMPI5 nor its tarball (../shared/ompi/): the 5.0 pass is skipped"
fi

elapsed=$(($(date +%s) - start))
echo "$pass passed, $failed failed, in $((elapsed / 60)) min $((elapsed % 60)) s"
exit "$status"
