#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Set up a fresh Debian 12 machine and run every test: unit tests of the MPI-free core and MPI tests under
# real mpirun, each result printed as it comes. Ends with "N passed, N failed" counting individual checks (a
# failure once) and the wall time; exit status 0 only if none failed.
set -e
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/install-deps.sh
scripts/build.sh
cd _build
status=0
make check || status=$?
log=test/test-suite.log
if [ ! -f "$log" ]; then
    echo "0 passed, 1 failed (no test results: see the output above)"
    exit 1
fi
pass=$(sed -n 's/^# PASS: *//p' "$log")
fail=$(sed -n 's/^# FAIL: *//p' "$log")
error=$(sed -n 's/^# ERROR: *//p' "$log")
[ "$status" -eq 0 ] || echo "failures are described in _build/test/test-suite.log"
elapsed=$(($(date +%s) - start))
echo "$pass passed, $((fail + error)) failed, in $((elapsed / 60)) min $((elapsed % 60)) s"
exit "$status"
