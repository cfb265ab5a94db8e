#!/bin/sh
# Configure and build hdring in _build/ (out of tree). Arguments go to configure. A tree configured in place
# (./configure in the source directory) is cleaned first: automake cannot build out of tree from it.
set -e
cd "$(dirname "$0")/.."
if [ -f config.status ]; then
    echo "build.sh: the source directory was configured in place; 'make distclean' there first, then _build/"
    make distclean >/dev/null
fi
./autogen.sh >/dev/null
mkdir -p _build
cd _build
../configure --enable-werror "$@" >/dev/null
make -j"$(nproc)"
