#!/bin/sh
# Debian packages hdring needs to build, test and benchmark (Debian 12). Needs root, or sudo.
set -e
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
    build-essential autoconf automake libtool pkg-config \
    openmpi-bin libopenmpi-dev \
    check \
    binutils coreutils procps
