#!/bin/bash
# hdring against tuned in one job: runs hdring_ab under mpirun, prints its table, and writes the table, a CSV
# and a PNG plot (ratio against size) into OUTDIR.
#
#   perf/run-ab.sh [-n NP | -c NODES:RATE[:PPN]] [-o OUTDIR] [-t TITLE] [-- hdring_ab options...]
#
# -c runs on the emulated cluster (perf/cluster/cluster.sh, root): NODES network-namespace nodes, links shaped to
# RATE (1gbit, 200mbit), PPN ranks per node (default 1).
#
# Environment: HDRING_AB (the hdring_ab binary, default _build/perf/hdring_ab), MPIRUN_ARGS (extra mpirun
# arguments, e.g. a hostfile), OMPI_MCA_* as usual. glibc's MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_
# are pinned for the run: mmap/munmap of large buffers (and the page faults after them) otherwise swing
# results by up to 2x.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
np=4
cluster=""
outdir=perf/results/ab
title=""
while getopts "n:c:o:t:" opt; do
    case $opt in
    n) np=$OPTARG ;;
    c) cluster=$OPTARG ;;
    o) outdir=$OPTARG ;;
    t) title=$OPTARG ;;
    *) echo "usage: $0 [-n NP | -c NODES:RATE[:PPN]] [-o OUTDIR] [-t TITLE] [-- hdring_ab options]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift

ab=${HDRING_AB:-$here/../_build/perf/hdring_ab}
[ -x "$ab" ] || { echo "run-ab.sh: $ab not built (scripts/build.sh)" >&2; exit 2; }
mkdir -p "$outdir"
rm -f "$outdir/ab.csv"

if [ -n "$cluster" ]; then
    IFS=: read -r nodes rate ppn <<<"$cluster"
    ppn=${ppn:-1}
    # cluster.sh pins the allocator thresholds itself
    "$here/cluster/cluster.sh" run "$nodes" "$rate" "$ppn" -- "$ab" --csv "$outdir/ab.csv" "$@" | tee "$outdir/ab.txt"
    label="$nodes emulated nodes x $ppn, $rate links"
else
    flags=(-np "$np")
    if [ "$np" -gt "$(nproc)" ]; then
        flags+=(--oversubscribe --bind-to none --mca mpi_yield_when_idle 1)
    fi
    [ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
    flags+=(-x MALLOC_MMAP_THRESHOLD_=1073741824 -x MALLOC_TRIM_THRESHOLD_=1073741824)
    # shellcheck disable=SC2086
    mpirun "${flags[@]}" ${MPIRUN_ARGS:-} "$ab" --csv "$outdir/ab.csv" "$@" | tee "$outdir/ab.txt"
    label="$np ranks, shared memory, $(hostname)"
fi
[ -s "$outdir/ab.csv" ] || { echo "run-ab.sh: the benchmark produced no results" >&2; exit 1; }

"$here/plot-ab.sh" "$outdir/ab.csv" "$outdir/ab.png" "${title:-hdring / tuned, $label}"
echo "table: $outdir/ab.txt  csv: $outdir/ab.csv  plot: $outdir/ab.png"
