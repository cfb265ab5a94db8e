#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Remove what scripts/install.sh installed: the files its manifest lists, and no other. Usage: below, or --help.
set -e
usage() {
    cat <<'USAGE'
usage: scripts/uninstall.sh [--user | --system | --dir DIR]
Removes the files scripts/install.sh recorded in DIR/hdring.manifest, then the manifest: DIR is
$HOME/.openmpi/components with --user (the default), Open MPI's component directory with --system, or the
DIR given. Files install.sh did not record are left alone, whoever put them there. Says what it removed, or
that install.sh installed nothing there.
USAGE
    exit "${1:-2}"
}
where=user dir=""
while [ $# -gt 0 ]; do
    case $1 in
    --user) where=user ;;
    --system) where=system ;;
    --dir) [ $# -ge 2 ] || usage; where=dir dir=$2; shift ;;
    -h | --help) usage 0 ;;
    *) usage ;;
    esac
    shift
done
case $where in
user) dir=$HOME/.openmpi/components ;;
system) dir=$(ompi_info --path pkglibdir --parsable 2>/dev/null | sed -n 's/^path:pkglibdir://p') ;;
esac
manifest=$dir/hdring.manifest
if [ ! -f "$manifest" ]; then
    echo "uninstall.sh: scripts/install.sh installed nothing in $dir (no $manifest); nothing removed"
    exit 0
fi
grep -v '^#' "$manifest" | while IFS= read -r f; do
    [ -n "$f" ] || continue
    if [ ! -e "$f" ]; then
        echo "uninstall.sh: $f is already gone"
        continue
    fi
    rm -f "$f" || { echo "uninstall.sh: cannot remove $f (run as its owner or root)" >&2; exit 1; }
    echo "uninstall.sh: removed $f"
done
rm -f "$manifest"
echo "uninstall.sh: removed $manifest; nothing else was touched"
