#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Build hdring and install the component where Open MPI finds it, and hdring-tune where the shell finds it; record
# every file in a manifest (which scripts/uninstall.sh removes, and nothing else), and say where each went.
# Usage: below, or scripts/install.sh --help.
set -e
cd "$(dirname "$0")/.."
usage() {
    cat <<'USAGE'
usage: scripts/install.sh [--user | --system | --dir DIR] [--bindir BINDIR] [--opt-in] [--with-ompi PREFIX]
Builds hdring (scripts/build.sh) for the Open MPI on PATH in _build/, or for the one installed at PREFIX
(--with-ompi; 4.1 or 5.0) in _build-SERIES/, and installs the component and hdring-tune:
  --user      (default; no root) the build into $HOME/.openmpi/hdring/SERIES/ (SERIES: 4.1 or 5.0), and
              into $HOME/.openmpi/components, which every Open MPI series searches for this user's jobs, a
              loader that gives each job the build of its own series (none: the job runs without hdring,
              quietly). Builds for 4.1 and 5.0 can both be installed; $HOME/.local/bin/hdring-tune runs the
              one of the Open MPI on PATH.
  --system    the component into that Open MPI's own component directory (ompi_info --path pkglibdir), for
              every user, and hdring-tune into /usr/local/bin; needs root
  --dir DIR   both into DIR (add DIR to the mca_base_component_path parameter yourself)
  --bindir BINDIR  hdring-tune there instead
  --opt-in    the component's default priority is -1: hdring serves no job until the job raises it
              (mpirun --mca coll_hdring_priority 40 ...). Without it the priority is 40, above tuned's 30, and
              every MPI job that finds the component uses it for the collectives it provides.
Every file installed, and every directory made, is listed in a manifest, hdring.manifest, next to the component
(and, for --user, one in $HOME/.openmpi/components for the loader); scripts/uninstall.sh removes those files and
no others, and those directories when they are empty.
Example: scripts/install.sh --opt-in; then mpirun --mca coll_hdring_priority 40 -np 4 ./app
USAGE
    exit "${1:-2}"
}
where=user dir="" bindir="" priority=40 ompi=""
while [ $# -gt 0 ]; do
    case $1 in
    --user) where=user ;;
    --system) where=system ;;
    --dir) [ $# -ge 2 ] || usage; where=dir dir=$2; shift ;;
    --bindir) [ $# -ge 2 ] || usage; bindir=$2; shift ;;
    --opt-in) priority=-1 ;;
    --with-ompi) [ $# -ge 2 ] || usage; ompi=$2; shift ;;
    --with-ompi=*) ompi=${1#--with-ompi=} ;;
    -h | --help) usage 0 ;;
    *) usage ;;
    esac
    shift
done
ompi_info=${ompi:+$ompi/bin/}ompi_info
series=$("$ompi_info" --version 2>/dev/null | sed -n 's/^Open MPI v\([0-9]*\.[0-9]*\).*/\1/p')
[ -n "$series" ] || { echo "install.sh: no Open MPI found (${ompi:-ompi_info on PATH}); see --with-ompi" >&2; exit 1; }
case $where in
user)
    home=$HOME/.openmpi
    dir=$home/hdring/$series shared=$home/components bindir=${bindir:-$HOME/.local/bin}
    ;;
system)
    dir=$("$ompi_info" --path pkglibdir --parsable | sed -n 's/^path:pkglibdir://p')
    bindir=${bindir:-/usr/local/bin}
    ;;
dir) bindir=${bindir:-$dir} ;;
esac
[ -n "$dir" ] || { echo "install.sh: no directory to install into" >&2; exit 1; }

scripts/install-deps.sh
# The priority is written into the build (coll_hdring_build.h): a build configured with another one is rebuilt.
build=_build
[ -z "$ompi" ] || build=_build-$series
HDRING_BUILD_DIR=$build PATH=${ompi:+$ompi/bin:}$PATH \
    scripts/build.sh --with-priority="$priority" ${ompi:+--with-ompi="$ompi"} >/dev/null
# the directories this makes, deepest first, for uninstall.sh to remove when they are empty again (those that
# were there stay, empty or not)
made=$(for d in "$dir" "$bindir" ${shared:+"$shared"}; do
    case $d in /*) ;; *) d=$(pwd)/$d ;; esac
    d=${d%/}
    while [ ! -e "$d" ]; do echo "$d/"; d=$(dirname "$d"); done
done | LC_ALL=C sort -ru)
mkdir -p "$dir" "$bindir"
dir=$(cd "$dir" && pwd) bindir=$(cd "$bindir" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
run() { "$@" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }; }
# (libtool's advice to run 'libtool --finish' concerns libraries, not a component: not shown)
run make -C "$build"/ompi/mca/coll/hdring install componentdir="$dir"
tooldir=$bindir
[ "$where" = user ] && tooldir=$dir # the series' own hdring-tune; $bindir/hdring-tune picks one
run make -C "$build"/perf install-binPROGRAMS bindir="$tooldir"
{
    echo "# hdring: the files scripts/install.sh installed; scripts/uninstall.sh removes them and this list"
    echo "$dir/mca_coll_hdring.so"
    echo "$dir/help-coll-hdring.txt"
    echo "$tooldir/hdring-tune"
    [ "$where" = user ] || [ -z "$made" ] || echo "$made"
} >"$dir/hdring.manifest"
echo "install.sh: installed $dir/mca_coll_hdring.so and $dir/help-coll-hdring.txt (Open MPI $series)"

if [ "$where" = user ]; then
    # the loader every series finds, and the hdring-tune that runs the build of the Open MPI on PATH
    mkdir -p "$shared"
    install -m 755 "$build"/loader/.libs/hdring_loader.so "$shared/mca_coll_hdring.so"
    cat >"$bindir/hdring-tune" <<WRAPPER
#!/bin/sh
# hdring-tune of the Open MPI series on PATH (scripts/install.sh --user put each series' in $home/hdring/SERIES/)
series=\$(ompi_info --version 2>/dev/null | sed -n 's/^Open MPI v\([0-9]*\.[0-9]*\).*/\1/p')
[ -n "\$series" ] && [ -x "$home/hdring/\$series/hdring-tune" ] && exec "$home/hdring/\$series/hdring-tune" "\$@"
echo "hdring-tune: hdring is not installed for \${series:+Open MPI \$series}\${series:-the Open MPI on PATH (none found)}; installed for: \$(ls "$home/hdring" 2>/dev/null | tr '\n' ' ')" >&2
exit 1
WRAPPER
    chmod 755 "$bindir/hdring-tune"
    manifest=$shared/hdring.manifest
    {
        echo "# hdring: the files scripts/install.sh installed; scripts/uninstall.sh removes them and this list"
        { grep -v '^#' "$manifest" 2>/dev/null || :; printf '%s\n' "$shared/mca_coll_hdring.so" "$bindir/hdring-tune"; } |
            grep -v '/$' | awk '!seen[$0]++'
        # the directories made, by this install and earlier ones, deepest first (after the files)
        { grep '/$' "$manifest" 2>/dev/null || :; [ -z "$made" ] || echo "$made"; } | LC_ALL=C sort -ru
    } >"$manifest.new"
    mv "$manifest.new" "$manifest"
    echo "install.sh: installed $shared/mca_coll_hdring.so, which loads in each job the build of its Open MPI series"
    echo "install.sh: builds installed for this user: $(ls "$home/hdring" | tr '\n' ' ')"
    echo "install.sh: installed $dir/hdring-tune, and $bindir/hdring-tune, which runs the one of the Open MPI on PATH"
else
    echo "install.sh: installed $bindir/hdring-tune (mpirun ... hdring-tune --help)"
fi
case ":$PATH:" in
*":$bindir:"*) ;;
*) echo "install.sh: $bindir is not on your PATH: export PATH=\"$bindir:\$PATH\" (in ~/.profile) to run hdring-tune" ;;
esac
echo "install.sh: the list of these files: $dir/hdring.manifest"
if [ "$priority" -lt 0 ]; then
    echo "install.sh: hdring is off for Open MPI $series (priority -1) until a job raises it: mpirun --mca coll_hdring_priority 40 ..."
else
    echo "install.sh: Open MPI $series jobs that find this directory now use hdring (priority 40, above tuned's 30);"
    echo "install.sh: one job without it: mpirun --mca coll ^hdring ..."
fi
if [ "$where" = user ]; then
    for other in $(ls "$home/hdring"); do
        [ "$other" = "$series" ] ||
            echo "install.sh: Open MPI $other keeps the build installed for it, on or opt-in as it was (this changed only $series)"
    done
fi
case $where in
user) echo "install.sh: to remove it: scripts/uninstall.sh --series $series (every series: scripts/uninstall.sh)" ;;
system) echo "install.sh: to remove it: scripts/uninstall.sh --system${ompi:+ --with-ompi $ompi}" ;;
dir) echo "install.sh: to remove it: scripts/uninstall.sh --dir $dir" ;;
esac
