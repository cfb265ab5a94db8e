#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Fits hdring's cost model to this machine: measures, fits, and prints the parameter lines to keep.
#
#   perf/tune.sh [-n "2 3 4 5 6 8"] [-o OUTDIR] [-r ROUNDS]
#
# 1. hdring-tune at 2 ranks: latency, bandwidth and reduction speed from ping-pong and reduce_local (shown, for
#    reference: point-to-point figures are not what the fit below finds).
# 2. hdring_ab --compare at each rank count of -n, twice (two passes over the rank counts, ROUNDS/2 rounds each):
#    every hdring algorithm of the five collectives side by side in one job, into OUTDIR/compare-1.csv and
#    compare-2.csv, and their mean into compare.csv (more ranks than cores run oversubscribed, as they must).
# 3. hdring_model --fit on compare.csv: the parameters whose automatic choices lose least against the measured
#    fastest algorithm, with warnings when a parameter sits at the edge of its search range or the data cannot
#    pin it down; and hdring_model --regret: what the component's defaults lose on the same data, and on each pass
#    alone. Both count this machine's cores, as the component does.
# It recommends the fitted values only when they are worth it: the fit printed no WARNING, pins down at least one
# parameter, and loses less than the defaults by more than the noise (how far the defaults' loss moves between
# the two passes, at least 1 point). Otherwise it says why, and that the defaults stay; more rounds (-r), more
# rank counts (-n) or a quieter machine may change that.
# Everything goes into OUTDIR (default perf/results/tune): calibrate.txt, compare*.csv, compare.txt, fit.txt,
# defaults.txt. Runs the component built in _build/. For the network parameters run hdring-tune across nodes
# (README: Tuning). About 5 minutes with the defaults on a 2-core machine.
# Example: perf/tune.sh -n "2 4" -r 8
set -eu
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
nps="2 3 4 5 6 8" outdir=perf/results/tune rounds=7
while getopts "n:o:r:" opt; do
    case $opt in
    n) nps=$OPTARG ;;
    o) outdir=$OPTARG ;;
    r) rounds=$OPTARG ;;
    *) echo "usage: perf/tune.sh [-n \"NP...\"] [-o OUTDIR] [-r ROUNDS] (--help says more)" >&2; exit 2 ;;
    esac
done
for t in hdring_ab hdring-tune hdring_model; do
    [ -x "_build/perf/$t" ] || { echo "tune.sh: _build/perf/$t is not built (scripts/build.sh)" >&2; exit 2; }
done
make -C _build/test stage/components/mca_coll_hdring.so >/dev/null
export OMPI_MCA_mca_component_path="$PWD/_build/test/stage/components:SYS_DEFAULT"
mkdir -p "$outdir"
rm -f "$outdir"/compare*.csv "$outdir/compare.txt"

# mpirun flags for NP ranks on this machine
flags() {
    local np=$1
    local f=(-np "$np" -x MALLOC_MMAP_THRESHOLD_=1073741824 -x MALLOC_TRIM_THRESHOLD_=1073741824)
    [ "$np" -le "$(nproc)" ] || f+=(--oversubscribe --bind-to none --mca mpi_yield_when_idle 1)
    [ "$(id -u)" -ne 0 ] || f+=(--allow-run-as-root)
    echo "${f[@]}"
}

echo "tune.sh: 1/3 hdring-tune (2 ranks)"
# shellcheck disable=SC2046
mpirun $(flags 2) _build/perf/hdring-tune --print | tee "$outdir/calibrate.txt"
for pass in 1 2; do
    for np in $nps; do
        echo "tune.sh: 2/3 every algorithm side by side, $np ranks (pass $pass of 2)"
        # shellcheck disable=SC2046
        mpirun $(flags "$np") _build/perf/hdring_ab --compare --rounds $(((rounds + 1) / 2)) \
            --csv "$outdir/compare-$pass.csv" >>"$outdir/compare.txt"
    done
done
# the mean of the two passes, point by point
awk -F, 'FNR == 1 { head = $0; next }
    { k = $1 FS $2 FS $3 FS $4; if (!(k in sum)) order[++n] = k; sum[k] += $5; cnt[k]++ }
    END { print head; for (i = 1; i <= n; ++i) printf "%s,%.4f\n", order[i], sum[order[i]] / cnt[order[i]] }' \
    "$outdir/compare-1.csv" "$outdir/compare-2.csv" >"$outdir/compare.csv"
# the component counts this node's cores (hwloc); the fit and the defaults' regret count the same
cores=$(lscpu -p=core,socket 2>/dev/null | grep -v '^#' | sort -u | wc -l)
[ "$cores" -gt 0 ] || cores=$(nproc)
echo "tune.sh: 3/3 fit ($cores cores)"
_build/perf/hdring_model --cores "$cores" --fit "$outdir/compare.csv" | tee "$outdir/fit.txt"
_build/perf/hdring_model --cores "$cores" --regret "$outdir/compare.csv" >"$outdir/defaults.txt"
for pass in 1 2; do
    _build/perf/hdring_model --cores "$cores" --regret "$outdir/compare-$pass.csv" >"$outdir/defaults-$pass.txt"
done
echo "tune.sh: the component's defaults on the same data: $(head -1 "$outdir/defaults.txt" | sed 's/^# evaluated //')"
echo "tune.sh: where they lose most:"
grep '^# loses' "$outdir/defaults.txt" | head -3
verdict=$(perf/tune-verdict.sh "$outdir/fit.txt" "$outdir/defaults.txt" "$outdir/defaults-1.txt" "$outdir/defaults-2.txt")
case $verdict in
yes:*)
    echo "tune.sh: recommended (${verdict#yes: }): keep the coll_hdring_model_* lines above in"
    echo "tune.sh: \$HOME/.openmpi/mca-params.conf"
    ;;
*)
    echo "tune.sh: NOT recommended: ${verdict#no: }."
    echo "tune.sh: keep the defaults. More rounds (-r), more rank counts (-n) or a quieter machine may change that."
    ;;
esac
echo "tune.sh: data in $outdir/"
