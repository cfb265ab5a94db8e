#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Remove what scripts/install.sh installed: the files its manifests list, and no other. Usage: below, or --help.
set -e
usage() {
    cat <<'USAGE'
usage: scripts/uninstall.sh [--user [--series SERIES] | --system [--with-ompi PREFIX] | --dir DIR]
Removes the files scripts/install.sh recorded in its manifests (hdring.manifest), then the manifests and the
directories install.sh made ($HOME/.openmpi, $HOME/.local/bin, ...) that are empty then:
  --user      (default) every series' build in $HOME/.openmpi/hdring/ and the loader and hdring-tune that
              go with them; with --series 4.1 or 5.0, that series' build only (the loader and hdring-tune
              stay while another series' build is installed)
  --system    the component in the Open MPI's component directory (the one on PATH, or at PREFIX)
  --dir DIR   the files recorded in DIR
Files install.sh did not record are left alone, whoever put them there. Says what it removed, or that
install.sh installed nothing there.
USAGE
    exit "${1:-2}"
}
where=user dir="" series="" ompi=""
while [ $# -gt 0 ]; do
    case $1 in
    --user) where=user ;;
    --series) [ $# -ge 2 ] || usage; series=$2; shift ;;
    --system) where=system ;;
    --with-ompi) [ $# -ge 2 ] || usage; ompi=$2; shift ;;
    --with-ompi=*) ompi=${1#--with-ompi=} ;;
    --dir) [ $# -ge 2 ] || usage; where=dir dir=$2; shift ;;
    -h | --help) usage 0 ;;
    *) usage ;;
    esac
    shift
done

# remove_listed DIR: the files DIR/hdring.manifest lists, then it, then the directories it lists (DIR/ lines: those
# install.sh made) that are empty now; says so when there is none
remove_listed() {
    manifest=$1/hdring.manifest
    if [ ! -f "$manifest" ]; then
        echo "uninstall.sh: scripts/install.sh installed nothing in $1 (no $manifest); nothing removed"
        return 0
    fi
    made=$(grep '/$' "$manifest" || :)
    grep -v '^#' "$manifest" | grep -v '/$' | while IFS= read -r f; do
        [ -n "$f" ] || continue
        if [ ! -e "$f" ]; then
            echo "uninstall.sh: $f is already gone"
            continue
        fi
        rm -f "$f" || { echo "uninstall.sh: cannot remove $f (run as its owner or root)" >&2; exit 1; }
        echo "uninstall.sh: removed $f"
    done
    rm -f "$manifest"
    echo "uninstall.sh: removed $manifest"
    rmdir "$1" 2>/dev/null || :
    printf '%s\n' "$made" | while IFS= read -r d; do
        d=${d%/}
        [ -n "$d" ] && [ -d "$d" ] || continue
        if rmdir "$d" 2>/dev/null; then
            echo "uninstall.sh: removed the empty directory $d, which install.sh made"
        else
            echo "uninstall.sh: kept $d, which install.sh made: other files are in it"
        fi
    done
}

case $where in
user)
    builds=$HOME/.openmpi/hdring
    if [ -n "$series" ]; then
        remove_listed "$builds/$series"
    else
        for d in "$builds"/*/; do
            if [ -f "$d/hdring.manifest" ]; then remove_listed "${d%/}"; fi
        done
    fi
    left=$({ cd "$builds" 2>/dev/null && ls -d -- */ 2>/dev/null; } | tr -d / | tr '\n' ' ')
    if [ -n "$left" ]; then
        echo "uninstall.sh: builds still installed for: $left(the loader and hdring-tune stay for them)"
    else
        rmdir "$builds" 2>/dev/null || :
        remove_listed "$HOME/.openmpi/components"
    fi
    ;;
system)
    dir=$("${ompi:+$ompi/bin/}ompi_info" --path pkglibdir --parsable 2>/dev/null | sed -n 's/^path:pkglibdir://p')
    remove_listed "$dir"
    ;;
dir) remove_listed "$dir" ;;
esac
echo "uninstall.sh: nothing else was touched"
