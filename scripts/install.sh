#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Build hdring and install the component where Open MPI finds it, and hdring-tune where the shell finds it; record
# every file in a manifest (which scripts/uninstall.sh removes, and nothing else), and say where each went.
# Usage: below, or scripts/install.sh --help.
set -e
cd "$(dirname "$0")/.."
usage() {
    cat <<'USAGE'
usage: scripts/install.sh [--user | --system | --dir DIR] [--bindir BINDIR] [--opt-in]
Builds hdring (scripts/build.sh, in _build/) and installs the component and hdring-tune:
  --user      (default) the component into $HOME/.openmpi/components, which Open MPI searches for this
              user's jobs, and hdring-tune into $HOME/.local/bin; no root
  --system    the component into Open MPI's own component directory (ompi_info --path pkglibdir), for every
              user, and hdring-tune into /usr/local/bin; needs root
  --dir DIR   both into DIR (add DIR to the mca_base_component_path parameter yourself)
  --bindir BINDIR  hdring-tune there instead
  --opt-in    the component's default priority is -1: hdring serves no job until the job raises it
              (mpirun --mca coll_hdring_priority 40 ...). Without it the priority is 40, above tuned's 30, and
              every MPI job that finds the component uses it for the collectives it provides.
Every file installed is listed in DIR/hdring.manifest (DIR: where the component went); scripts/uninstall.sh
removes those files and no others.
Example: scripts/install.sh --opt-in; then mpirun --mca coll_hdring_priority 40 -np 4 ./app
USAGE
    exit "${1:-2}"
}
where=user dir="" bindir="" priority=40
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
# The priority is written into the build (coll_hdring_build.h): a build configured with another one is rebuilt.
scripts/build.sh --with-priority="$priority" >/dev/null
mkdir -p "$dir" "$bindir"
dir=$(cd "$dir" && pwd) bindir=$(cd "$bindir" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# (libtool's advice to run 'libtool --finish' concerns libraries, not a component: not shown)
make -C _build/ompi/mca/coll/hdring install componentdir="$dir" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
make -C _build/perf install-binPROGRAMS bindir="$bindir" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
manifest=$dir/hdring.manifest
{
    echo "# hdring: the files scripts/install.sh installed; scripts/uninstall.sh removes them and this list"
    echo "$dir/mca_coll_hdring.so"
    echo "$dir/help-coll-hdring.txt"
    echo "$bindir/hdring-tune"
} >"$manifest"
echo "install.sh: installed $dir/mca_coll_hdring.so and $dir/help-coll-hdring.txt"
echo "install.sh: installed $bindir/hdring-tune (mpirun ... hdring-tune --help)"
case ":$PATH:" in
*":$bindir:"*) ;;
*) echo "install.sh: $bindir is not on your PATH: export PATH=\"$bindir:\$PATH\" (in ~/.profile) to run hdring-tune" ;;
esac
echo "install.sh: the list of these files: $manifest"
if [ "$priority" -lt 0 ]; then
    echo "install.sh: hdring is off (priority -1) until a job raises it: mpirun --mca coll_hdring_priority 40 ..."
else
    echo "install.sh: MPI jobs that find this directory now use hdring (priority 40, above tuned's 30);"
    echo "install.sh: one job without it: mpirun --mca coll ^hdring ..."
fi
case $where in
user) echo "install.sh: to remove it: scripts/uninstall.sh" ;;
system) echo "install.sh: to remove it: scripts/uninstall.sh --system" ;;
dir) echo "install.sh: to remove it: scripts/uninstall.sh --dir $dir" ;;
esac
