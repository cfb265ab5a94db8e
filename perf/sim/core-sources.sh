#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# core-sources.sh CORE_DIR: the C sources of hdring's MPI-free core, as CORE_DIR/Makefile.am lists them in
# libhdring_core_la_SOURCES, one path per line (CORE_DIR/file.c). The simulator driver is built from this list
# at build time, so the core's files can be renamed, split or merged without touching the driver's build.
set -e
case ${1:-} in -h | --help | '') sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; [ -n "${1:-}" ]; exit ;; esac
awk -v dir="$1" '
    /^libhdring_core_la_SOURCES[ \t]*=/ { on = 1; sub(/^[^=]*=/, "") }
    on { more = sub(/\\[ \t]*$/, ""); n = split($0, w); for (i = 1; i <= n; ++i) if (w[i] ~ /\.c$/) print dir "/" w[i]
         if (!more) on = 0 }' "$1/Makefile.am"
