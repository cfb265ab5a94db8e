#!/bin/sh
# Debian packages hdring needs to build, test and benchmark (Debian 12): the toolchain, Open MPI with its
# component headers, Check for the unit tests, gnuplot for the plots, iproute2/ethtool/util-linux/kmod for the
# emulated cluster. Needs root, or sudo.
set -e
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
    build-essential autoconf automake libtool pkg-config \
    openmpi-bin libopenmpi-dev libhwloc-dev \
    check \
    gnuplot-nox \
    iproute2 ethtool util-linux kmod \
    binutils coreutils procps
