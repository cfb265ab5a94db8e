#!/bin/sh
# Configure and build hdring in _build/ (out of tree). Arguments go to configure.
set -e
cd "$(dirname "$0")/.."
./autogen.sh >/dev/null
mkdir -p _build
cd _build
../configure --enable-werror "$@" >/dev/null
make -j"$(nproc)"
