#!/bin/sh
# Regenerate the build system (configure, Makefile.in, libtool) from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
autoreconf --force --install --verbose
