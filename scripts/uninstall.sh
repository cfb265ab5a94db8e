#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Remove every file scripts/install.sh (or 'make install') installed. Usage: below, or --help.
set -e
usage() {
    cat <<'USAGE'
usage: scripts/uninstall.sh [--dir DIR]...
Removes mca_coll_hdring.so, mca_coll_hdring.la, help-coll-hdring.txt and hdring-tune from each DIR; without
--dir, from $HOME/.openmpi/components, Open MPI's component directory (ompi_info --path pkglibdir),
$HOME/.local/bin and /usr/local/bin. Says what it removed, or that hdring was not installed there.
USAGE
    exit "${1:-2}"
}
FILES="mca_coll_hdring.so mca_coll_hdring.la help-coll-hdring.txt hdring-tune"
dirs=""
while [ $# -gt 0 ]; do
    case $1 in
    --dir) [ $# -ge 2 ] || usage; dirs="$dirs $2"; shift ;;
    -h | --help) usage 0 ;;
    *) usage ;;
    esac
    shift
done
if [ -z "$dirs" ]; then
    dirs="$HOME/.openmpi/components $(ompi_info --path pkglibdir --parsable 2>/dev/null | sed -n 's/^path:pkglibdir://p')"
    dirs="$dirs $HOME/.local/bin /usr/local/bin"
fi
removed=0
for d in $dirs; do
    for f in $FILES; do
        [ -e "$d/$f" ] || continue
        rm -f "$d/$f" || { echo "uninstall.sh: cannot remove $d/$f (run as its owner or root)" >&2; exit 1; }
        echo "uninstall.sh: removed $d/$f"
        removed=$((removed + 1))
    done
done
[ "$removed" -gt 0 ] || echo "uninstall.sh: hdring is not installed in$(printf ' %s' $dirs)"
