#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Install the hdring component where Open MPI finds it, and hdring-tune (which measures the model's parameters)
# where the shell finds it; say where, and print the command that removes them.
# Usage: below, or scripts/install.sh --help.
set -e
cd "$(dirname "$0")/.."
usage() {
    cat <<'USAGE'
usage: scripts/install.sh [--user | --system | --dir DIR] [--bindir BINDIR] [--opt-in]
Builds hdring (scripts/build.sh) and installs the component, and hdring-tune into BINDIR:
  --user      (default) into $HOME/.openmpi/components, which Open MPI searches for this user's jobs, and
              hdring-tune into $HOME/.local/bin; no root
  --system    into Open MPI's own component directory (ompi_info --path pkglibdir), for every user, and
              hdring-tune into /usr/local/bin; needs root
  --dir DIR   into DIR (add it to the mca_component_path parameter yourself), hdring-tune too
  --bindir BINDIR  hdring-tune there instead
  --opt-in    with coll_hdring_priority -1: hdring serves no job until the job raises it
              (mpirun --mca coll_hdring_priority 40 ...). Without it the priority is 40, above tuned's 30, and
              every MPI job that finds the component uses it for the five collectives it provides.
Removal: scripts/uninstall.sh
USAGE
    exit "${1:-2}"
}
where=user dir="" bindir="" priority=""
while [ $# -gt 0 ]; do
    case $1 in
    --user) where=user ;;
    --system) where=system ;;
    --dir) [ $# -ge 2 ] || usage; where=dir dir=$2; shift ;;
    --bindir) [ $# -ge 2 ] || usage; bindir=$2; shift ;;
    --opt-in) priority=-1 ;;
    -h | --help) usage 0 ;;
    *) usage ;;
    esac
    shift
done
case $where in
user) dir=$HOME/.openmpi/components bindir=${bindir:-$HOME/.local/bin} ;;
system)
    dir=$(ompi_info --path pkglibdir --parsable | sed -n 's/^path:pkglibdir://p')
    bindir=${bindir:-/usr/local/bin}
    ;;
dir) bindir=${bindir:-$dir} ;;
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
mkdir -p "$bindir"
make -C _build/perf install-binPROGRAMS bindir="$bindir" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
echo "install.sh: installed $bindir/hdring-tune (mpirun ... hdring-tune --install: README, Tuning)"
if [ -n "$priority" ]; then
    echo "install.sh: hdring is off (priority -1) until a job raises it: mpirun --mca coll_hdring_priority 40 ..."
else
    echo "install.sh: MPI jobs that find this directory now use hdring (priority 40, above tuned's 30);"
    echo "install.sh: one job without it: mpirun --mca coll ^hdring ..."
fi
echo "install.sh: to remove it: scripts/uninstall.sh --dir $dir --dir $bindir"
