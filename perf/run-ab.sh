#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# hdring against Open MPI's own collectives in one job: runs hdring_ab under mpirun, prints its table and a
# summary line per collective (where hdring wins and loses), and writes the table, a CSV and a PNG plot (one
# panel per collective: ratio against size) into OUTDIR; with --compare or --contenders, the table and CSV of
# every algorithm's time. The table's first line, the summary and the plot's title say the setting, and when its
# ranks outnumber this machine's cores.
#
#   perf/run-ab.sh [-n NP | -c NODES:RATE[:PPN]] [-m slot|node] [-b tuned|han] [-o OUTDIR] [-t TITLE]
#                  [-- hdring_ab options...]
#
# -c runs on the emulated cluster (perf/cluster/cluster.sh, root): NODES network-namespace nodes, links shaped to
# RATE (1gbit, 200mbit), PPN ranks per node (default 1); -m node numbers the ranks round-robin over the nodes
# (mpirun --rank-by node) instead of node by node. -b han compares with coll/han instead of tuned (the job raises
# han's priority to 35, between tuned's 30 and hdring's).
#
# Environment: HDRING_AB (the hdring_ab binary, default _build/perf/hdring_ab), MPIRUN_ARGS (extra mpirun
# arguments, e.g. a hostfile), OMPI_MCA_* as usual. glibc's MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_
# are pinned for the run: mmap/munmap of large buffers (and the page faults after them) otherwise swing
# results by up to 2x.
set -eu
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
np=4
cluster=""
mapping=slot
baseline=tuned
outdir=perf/results/ab
title=""
usage() {
    echo "usage: $0 [-n NP | -c NODES:RATE[:PPN]] [-m slot|node] [-b tuned|han] [-o OUTDIR] [-t TITLE] [-- hdring_ab options]" >&2
    exit 2
}
while getopts "n:c:m:b:o:t:" opt; do
    case $opt in
    n) np=$OPTARG ;;
    c) cluster=$OPTARG ;;
    m) mapping=$OPTARG ;;
    b) baseline=$OPTARG ;;
    o) outdir=$OPTARG ;;
    t) title=$OPTARG ;;
    *) usage ;;
    esac
done
[ "$mapping" = slot ] || [ "$mapping" = node ] || usage
[ "$baseline" = tuned ] || [ "$baseline" = han ] || usage
[ "$baseline" = tuned ] || export OMPI_MCA_coll_han_priority=35
rank_by=()
[ "$mapping" = slot ] || rank_by=(--rank-by node)
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift

ab=${HDRING_AB:-$here/../_build/perf/hdring_ab}
[ -x "$ab" ] || { echo "run-ab.sh: $ab not built (scripts/build.sh)" >&2; exit 2; }
mkdir -p "$outdir"
rm -f "$outdir/ab.csv"

# the setting, said in the table's first line, the summary and the plot's title: with more ranks than this
# machine's cores (the emulated cluster's nodes are this machine too) ranks take turns on a core, which times
# small messages as much as the algorithms
cores=$(nproc)
if [ -n "$cluster" ]; then
    IFS=: read -r nodes rate ppn <<<"$cluster"
    ppn=${ppn:-1}
    ranks=$((nodes * ppn))
    label="$nodes emulated nodes x $ppn by $mapping, $rate links, on one machine of $cores cores"
else
    ranks=$np
    label="$np ranks, shared memory, $(hostname), $cores cores"
fi
oversubscribed=""
[ "$ranks" -le "$cores" ] || oversubscribed="$ranks ranks on $cores cores: ranks outnumber cores and take turns on them"
echo "# setting: $label${oversubscribed:+ ($oversubscribed)}" | tee "$outdir/ab.txt"
if [ -n "$cluster" ]; then
    # cluster.sh pins the allocator thresholds itself
    "$here/cluster/cluster.sh" run "$nodes" "$rate" "$ppn" -- "${rank_by[@]}" "$ab" --csv "$outdir/ab.csv" "$@" |
        tee -a "$outdir/ab.txt"
else
    flags=(-np "$np")
    if [ -n "$oversubscribed" ]; then
        flags+=(--oversubscribe --bind-to none --mca mpi_yield_when_idle 1)
    fi
    [ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
    flags+=(-x MALLOC_MMAP_THRESHOLD_=1073741824 -x MALLOC_TRIM_THRESHOLD_=1073741824)
    # shellcheck disable=SC2086
    mpirun "${flags[@]}" "${rank_by[@]}" ${MPIRUN_ARGS:-} "$ab" --csv "$outdir/ab.csv" "$@" | tee -a "$outdir/ab.txt"
fi
[ -s "$outdir/ab.csv" ] || { echo "run-ab.sh: the benchmark produced no results" >&2; exit 1; }
if [ "$(head -1 "$outdir/ab.csv")" = "collective,p,algorithm,bytes,us" ]; then
    # --compare or --contenders: each algorithm's time (the table above), no ratios to summarize or plot
    echo "table: $outdir/ab.txt  csv: $outdir/ab.csv"
    exit 0
fi

{
    echo
    [ -z "$oversubscribed" ] || echo "# summary of a job of $oversubscribed"
    "$here/summarize-ab.sh" "$outdir/ab.csv" | sed 's/^/# summary /'
} | tee -a "$outdir/ab.txt"
"$here/plot-ab.sh" "$outdir/ab.csv" "$outdir/ab.png" \
    "${title:-hdring / $baseline, $label}${oversubscribed:+ - $oversubscribed}"
echo "table: $outdir/ab.txt  csv: $outdir/ab.csv  plot: $outdir/ab.png"
