#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# smpi-run.sh [--mem-gb G] [--timeout S] PLATFORM P [SMPI OPTIONS] -- PROGRAM [ARGS]: runs PROGRAM on P ranks of
# a simulated platform under smpirun, as the study and the CI check do. PLATFORM: a file, or a name in
# perf/sim/platforms/ (fat-tree-64x16). Ranks fill the platform's hosts in order, as many per host as it has cores
# (mapped by slot). SMPI OPTIONS (--cfg=...) go to smpirun after the study's own:
#   smpi/simulate-computation:no         the host's own time never enters the simulated time;
#   smpi/privatization:no                the driver keeps no mutable globals, so ranks need no copies of them;
#   smpi/shared-malloc-blocksize:2^30    SMPI_SHARED_MALLOC maps each buffer at once (the default 1 MiB blocks
#                                        exhaust vm.max_map_count at 1,024 ranks of 64 MiB);
# and SimGrid's informational messages off. The simulation runs under nice 19; it is stopped when its memory
# (anonymous, which SMPI_SHARED_MALLOC does not count twice) passes G GiB (default 12) or it has used more than S
# seconds of CPU (default no limit; CPU time, so a busy machine or a paused simulation does not count): exit status
# 3 and 4, with a line on stderr. Otherwise PROGRAM's status.
set -eu
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
mem_gb=12
timeout=0
while :; do
    case ${1:-} in
    --mem-gb) mem_gb=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -ge 4 ] || { echo "usage: perf/sim/smpi-run.sh [--mem-gb G] [--timeout S] PLATFORM P [SMPI OPTIONS] -- PROGRAM [ARGS]" >&2; exit 2; }
platform=$1 p=$2
shift 2
case $platform in */* | *.xml) ;; *) platform=$here/platforms/$platform.xml ;; esac
[ -f "$platform" ] || { echo "smpi-run.sh: no platform $platform" >&2; exit 2; }
platform=$(cd "$(dirname "$platform")" && pwd)/$(basename "$platform")
smpi_opts=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    smpi_opts="$smpi_opts $1"
    shift
done
[ "${1:-}" = -- ] || { echo "smpi-run.sh: '--' and a program expected" >&2; exit 2; }
shift
program=$1
shift
case $program in /*) ;; *) program=$(pwd)/$program ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the hostfile: every host of the platform's cluster with its cores, in order (smpirun's "host:ranks" lines)
tr '\n' ' ' <"$platform" | sed 's/.*<cluster \([^>]*\)>.*/\1/' | awk '
    { for (i = 1; i <= NF; ++i) if (split($i, kv, "=") == 2) { gsub(/"/, "", kv[2]); a[kv[1]] = kv[2] } }
    END { split(a["radical"], r, "-"); for (n = r[1]; n <= r[2]; ++n) print a["prefix"] n a["suffix"] ":" a["core"] }' \
    >"$work/hosts"
slots=$(awk -F: '{ s += $2 } END { print s }' "$work/hosts")
[ "$p" -le "$slots" ] || { echo "smpi-run.sh: $(basename "$platform" .xml) has $slots slots, not $p" >&2; exit 2; }

cd "$work"
# shellcheck disable=SC2086 # SMPI options, one word each
nice -n 19 smpirun -np "$p" -platform "$platform" -hostfile "$work/hosts" "$program" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:no --cfg=smpi/shared-malloc-blocksize:1073741824 \
    --log=root.thres:warning $smpi_opts "$@" &
runner=$!
# stopped itself, it stops its simulation (smpirun, in the background, would not hear of it)
trap 'kill "$(pgrep -P "$runner" smpimain)" 2>/dev/null; exit 143' TERM INT HUP
ticks=$(getconf CLK_TCK)
limit_kb=$((mem_gb * 1024 * 1024))
why=
while kill -0 "$runner" 2>/dev/null; do
    sim=$(pgrep -P "$runner" smpimain || true)
    if [ -n "$sim" ]; then
        anon=$(awk '/^Anonymous:/ { print $2 }' "/proc/$sim/smaps_rollup" 2>/dev/null || echo 0)
        if [ "${anon:-0}" -gt "$limit_kb" ]; then
            why="memory above $mem_gb GiB"
        elif [ "$timeout" -gt 0 ] &&
            [ "$(awk -v t="$ticks" '{ sub(/.*\) /, ""); print int(($12 + $13) / t) }' "/proc/$sim/stat" 2>/dev/null || echo 0)" -gt "$timeout" ]; then
            why="longer than $timeout s of CPU"
        fi
        if [ -n "$why" ]; then
            kill "$sim" 2>/dev/null || true
            break
        fi
    fi
    sleep 1
done
rc=0
wait "$runner" || rc=$?
case $why in
memory*) echo "smpi-run.sh: stopped, $why" >&2; exit 3 ;;
longer*) echo "smpi-run.sh: stopped, $why" >&2; exit 4 ;;
esac
exit "$rc"
