#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# The main job on a fresh Debian 12 machine: set up, build hdring, and run it against tuned side by side for the
# five collectives (perf/run-ab.sh: NP ranks, default 4): the table on stdout, the table, a CSV and a PNG plot
# in perf/results/main/. The job loads the freshly built component from _build/test/stage/components; nothing
# is installed (scripts/install.sh does that).
set -e
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
make -C _build/test stage/components/mca_coll_hdring.so >/dev/null
stage=$(pwd)/_build/test/stage/components
echo "run-main: benchmarking the component built in $stage (not installed)"
OMPI_MCA_mca_component_path="$stage:SYS_DEFAULT" perf/run-ab.sh -n "${NP:-4}" -o perf/results/main
echo "run-main: to install hdring for this user: scripts/install.sh (scripts/install.sh --help for the options)"
