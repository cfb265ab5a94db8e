#!/bin/sh
# The main job on a fresh Debian 12 machine: set up, build hdring, install it for this user
# ($HOME/.openmpi/components, which Open MPI searches by default), and run hdring against tuned side by side
# for the five collectives (perf/run-ab.sh: NP ranks, default 4): the table on stdout, the table, a CSV and a
# PNG plot in perf/results/main/.
set -e
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh --with-component-dir="$HOME/.openmpi/components"
make -C _build install >/dev/null
echo "installed: $(ls "$HOME/.openmpi/components/mca_coll_hdring.so")"
exec perf/run-ab.sh -n "${NP:-4}" -o perf/results/main
