#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Install the hdring component where Open MPI finds it, say where, and print the command that removes it.
# Usage: below, or scripts/install.sh --help.
set -e
cd "$(dirname "$0")/.."
usage() {
    cat <<'USAGE'
usage: scripts/install.sh [--user | --system | --dir DIR] [--opt-in]
Builds hdring (scripts/build.sh) and installs it:
  --user      (default) into $HOME/.openmpi/components, which Open MPI searches for this user's jobs; no root
  --system    into Open MPI's own component directory (ompi_info --path pkglibdir), for every user; needs root
  --dir DIR   into DIR (add it to the mca_component_path parameter yourself)
  --opt-in    with coll_hdring_priority -1: hdring serves no job until the job raises it
              (mpirun --mca coll_hdring_priority 40 ...). Without it the priority is 40, above tuned's 30, and
              every MPI job that finds the component uses it for the five collectives it provides.
Removal: scripts/uninstall.sh
USAGE
    exit "${1:-2}"
}
where=user dir="" priority=""
while [ $# -gt 0 ]; do
    case $1 in
    --user) where=user ;;
    --system) where=system ;;
    --dir) [ $# -ge 2 ] || usage; where=dir dir=$2; shift ;;
    --opt-in) priority=-1 ;;
    -h | --help) usage 0 ;;
    *) usage ;;
    esac
    shift
done
case $where in
user) dir=$HOME/.openmpi/components ;;
system) dir=$(ompi_info --path pkglibdir --parsable | sed -n 's/^path:pkglibdir://p') ;;
esac
[ -n "$dir" ] || { echo "install.sh: no directory to install into" >&2; exit 1; }

scripts/install-deps.sh
scripts/build.sh ${priority:+--with-priority="$priority"} >/dev/null
mkdir -p "$dir"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# (libtool's advice to run 'libtool --finish' concerns libraries, not a component: not shown)
make -C _build/ompi/mca/coll/hdring install componentdir="$dir" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
echo "install.sh: installed $dir/mca_coll_hdring.so and $dir/help-coll-hdring.txt"
if [ -n "$priority" ]; then
    echo "install.sh: hdring is off (priority -1) until a job raises it: mpirun --mca coll_hdring_priority 40 ..."
else
    echo "install.sh: MPI jobs that find this directory now use hdring (priority 40, above tuned's 30);"
    echo "install.sh: one job without it: mpirun --mca coll ^hdring ..."
fi
echo "install.sh: to remove it: scripts/uninstall.sh --dir $dir"
