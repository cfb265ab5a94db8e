#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Configure and build hdring in _build/ (out of tree; HDRING_BUILD_DIR names another). Arguments go to
# configure: --with-ompi=PREFIX builds against the Open MPI installed there (4.1 or 5.0, e.g. /opt/openmpi-5.0.9).
# A tree configured in place (./configure in the source directory) is cleaned first: automake cannot build out of
# tree from it.
set -e
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
if [ -f config.status ]; then
    echo "build.sh: the source directory was configured in place; 'make distclean' there first, then _build/"
    make distclean >/dev/null
fi
dir=${HDRING_BUILD_DIR:-_build}
echo "build.sh: autogen, configure ($dir/), make"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
./autogen.sh >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
top=$(pwd)
mkdir -p "$dir"
cd "$dir"
"$top"/configure --enable-werror "$@" >/dev/null
make -j"$(nproc)"
