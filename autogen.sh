#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Regenerate the build system (configure, Makefile.in, libtool) from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
autoreconf --force --install --verbose
