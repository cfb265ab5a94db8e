#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Debian packages hdring needs to build, test and benchmark (Debian 12): the toolchain, Open MPI with its
# component headers, Check for the unit tests, gnuplot for the plots, iproute2/ethtool/util-linux/kmod for the
# emulated cluster, and what the Open MPI 5.0.9 build for this machine needs to run and to build against
# (libevent-dev, libnl-3-200, zlib1g; hwloc comes with the above), and SimGrid (libsimgrid-dev: the simulated
# clusters of perf/sim and their performance check) where the distribution has it, unless HDRING_SKIP_SIMGRID is
# set (without it the simulated check is skipped, saying so). When all are installed it does nothing, and needs no root; otherwise it installs the
# missing ones with apt-get, as root or through sudo.
set -e
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
PACKAGES="build-essential autoconf automake libtool pkg-config
    openmpi-bin libopenmpi-dev libhwloc-dev
    libevent-dev libnl-3-200 zlib1g
    check
    gnuplot-nox
    iproute2 ethtool util-linux kmod
    binutils coreutils procps"
if [ -z "${HDRING_SKIP_SIMGRID:-}" ] && apt-cache show libsimgrid-dev >/dev/null 2>&1; then
    PACKAGES="$PACKAGES libsimgrid-dev"
fi

missing=
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "install-deps: every package hdring needs is installed"
    exit 0
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "install-deps: these Debian packages are missing:$missing" >&2
        echo "install-deps: install them as root (apt-get install$missing), then run this again" >&2
        exit 1
    fi
    SUDO=sudo
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
# shellcheck disable=SC2086 # a list of package names
$SUDO apt-get install -y --no-install-recommends $missing
