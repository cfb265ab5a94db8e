#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# The scaling study (issue 52): hdring's automatic choice against SMPI's Open MPI and MPICH selectors and every
# single SMPI algorithm, in SimGrid's simulator, one row per platform, p, collective and size.
#
#   perf/sim/study.sh --point PLATFORM P COLL BYTES    recompute one row and print it (the CSV's format)
#   perf/sim/study.sh [--plan FILE] [--csv FILE] [--hdring-all] [--timeout S] [--single-timeout S]
#                                                      every point of the plan missing from the CSV, appended
#
# A row: platform,p,coll,bytes,hdring_us,hdring_alg,ompi_us,mpich_us,best_smpi_us,best_smpi_alg,model_us.
# hdring_us is hdring_smpi --alg auto (perf/sim/hdring_smpi.c: the component's decision and arguments, the
# model's parameters measured on the platform), model_us the cost model's prediction for the algorithm it chose;
# ompi_us and mpich_us SMPI's MPI_* under --cfg=smpi/coll-selector:ompi and :mpich; best_smpi_* the fastest of
# SMPI's single algorithms for the collective (--cfg=smpi/<coll>:<name>, every name SMPI lists but its selectors;
# reduce_scatter_block runs SMPI's reduce_scatter ones). Times are microseconds per call from a synchronized
# start (smpi_world.h), one call; reductions are charged at the platform's rate on both sides. A simulation that
# crashes (an SMPI algorithm that does not serve the case, or SimGrid's solver giving up), passes 12 GiB or its
# time limit gives no figure: NA in the row, the reason in the side files. The time limit (CPU seconds): --timeout S
# (default 3600) for hdring and the two selectors; for each single algorithm twice the slower selector's, at least
# --single-timeout S (default 300): a single algorithm that takes longer to simulate than that is not timed (an
# 8-byte allreduce of SMPI's rab1 at 1,024 ranks ran 15 minutes; the selectors' own picks are never cut off). Side files next to the CSV:
# smpi-algs.csv (every SMPI algorithm's time per point, or why none), hdring-algs.csv (--hdring-all: every hdring
# algorithm that serves the point, with the model's prediction) and platforms.csv (the model's parameters as
# measured, per platform and p; make-study-page.sh takes the alpha-beta bound from them). Default plan
# perf/sim/study.plan, CSV perf/results/sim/study.csv. Needs the build (HDRING_BUILD_DIR, default _build).
set -eu
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
driver=${HDRING_BUILD_DIR:-_build}/perf/sim/hdring_smpi
run=perf/sim/smpi-run.sh
plan=perf/sim/study.plan
csv=perf/results/sim/study.csv
timeout=3600
single_timeout=300
hdring_all=no
point=
while [ $# -gt 0 ]; do
    case $1 in
    --point) [ $# -ge 5 ] || { echo "study.sh: --point PLATFORM P COLL BYTES" >&2; exit 2; }
        point="$2 $3 $4 $5"; shift 5 ;;
    --plan) plan=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --single-timeout) single_timeout=$2; shift 2 ;;
    --hdring-all) hdring_all=yes; shift ;;
    *) echo "study.sh: unknown option $1 (--help)" >&2; exit 2 ;;
    esac
done
[ -x "$driver" ] || { echo "study.sh: no $driver: build with SimGrid installed (scripts/build.sh)" >&2; exit 2; }
header=platform,p,coll,bytes,hdring_us,hdring_alg,ompi_us,mpich_us,best_smpi_us,best_smpi_alg,model_us
dir=$(dirname "$csv")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# smpi_coll COLL: SMPI's name of the collective's algorithms
smpi_coll() { case $1 in reduce_scatter_block) echo reduce_scatter ;; *) echo "$1" ;; esac; }

# smpi_algorithms COLL: SMPI's single algorithms for COLL, from the list SMPI prints for a name it does not know
smpi_algorithms() {
    c=$(smpi_coll "$1")
    [ -f "$work/algs-$c" ] ||
        "$run" fat-tree-64x16 2 "--cfg=smpi/$c:none" -- "$driver" --coll "$1" --bytes 8 --alg mpi 2>&1 |
        sed -n 's/.*Valid algorithms: \(.*\)\.$/\1/p' | tr -d ' ' | tr ',' '\n' |
            grep -vxE 'default|ompi|mpich|mvapich2|impi|automatic' >"$work/algs-$c" || true
    cat "$work/algs-$c"
}

# simulate LIMIT PLATFORM P COLL BYTES ALG [SMPI OPTIONS]: the driver's result lines (and the model's, '#'); on a
# failure one line "failed,REASON". The host seconds it took in $work/seconds.
simulate() {
    limit=$1 sp=$2 sn=$3 sc=$4 sb=$5 sa=$6
    shift 6
    rc=0
    began=$(date +%s)
    "$run" --timeout "$limit" "$sp" "$sn" "$@" -- "$driver" --coll "$sc" --bytes "$sb" --alg "$sa" \
        >"$work/out" 2>"$work/err" || rc=$?
    echo $(($(date +%s) - began)) >"$work/seconds"
    case $rc in
    0) grep '^result,\|^# p=' "$work/out" ;;
    3) echo "failed,memory" ;;
    4) echo "failed,time" ;;
    *) echo "failed,$(grep -m1 -E 'CRITICAL|Aborted|rror' "$work/err" "$work/out" | sed 's/.*] //; s/,/;/g' | cut -c1-80)" ;;
    esac
}

# field N LINE: the Nth comma-separated field
field() { echo "$2" | cut -d, -f"$1"; }

# us_of LINES: the time of a result line, NA without one
us_of() { echo "$1" | awk -F, '/^result,/ { print $10; found = 1 } END { if (!found) print "NA" }'; }

# row PLATFORM P COLL BYTES: computes the row; side results into $work/side-*
row() {
    rp=$1 rn=$2 rc=$3 rb=$4
    out=$(simulate "$timeout" "$rp" "$rn" "$rc" "$rb" auto)
    res=$(echo "$out" | grep '^result,' || true)
    echo "$out" | sed -n "s/^# p=[0-9]* nodes=\([0-9]*\) ppn=\([0-9]*\) latency_us=\([0-9.]*\) bandwidth_mbs=\([0-9.]*\) reduce_mbs=\([0-9.]*\) network_latency_us=\([0-9.]*\) network_bandwidth_mbs=\([0-9.]*\) .*/$rp,$rn,\1,\2,\3,\4,\5,\6,\7/p" \
        >"$work/side-platform"
    hd_us=$(us_of "$res")
    hd_alg=NA model=NA
    [ -z "$res" ] || { hd_alg=$(field 7 "$res"); model=$(field 11 "$res"); }
    ompi=$(us_of "$(simulate "$timeout" "$rp" "$rn" "$rc" "$rb" mpi --cfg=smpi/coll-selector:ompi)")
    limit=$(($(cat "$work/seconds") * 2))
    mpich=$(us_of "$(simulate "$timeout" "$rp" "$rn" "$rc" "$rb" mpi --cfg=smpi/coll-selector:mpich)")
    limit=$((limit > $(cat "$work/seconds") * 2 ? limit : $(cat "$work/seconds") * 2))
    limit=$((limit > single_timeout ? limit : single_timeout))
    : >"$work/side-smpi"
    best=NA best_alg=NA
    for a in $(smpi_algorithms "$rc"); do
        out=$(simulate "$limit" "$rp" "$rn" "$rc" "$rb" mpi "--cfg=smpi/$(smpi_coll "$rc"):$a")
        us=$(us_of "$out")
        why=$(echo "$out" | sed -n 's/^failed,//p')
        echo "$rp,$rn,$rc,$rb,$a,$us,${why:-}" >>"$work/side-smpi"
        # a time of 0: the algorithm did nothing (mvapich2_inter_node bcast on one node), no collective
        if [ "$us" != NA ] && awk -v a="$us" 'BEGIN { exit !(a > 0) }' && { [ "$best" = NA ] || awk -v a="$us" -v b="$best" 'BEGIN { exit !(a < b) }'; }; then
            best=$us best_alg=$a
        fi
    done
    : >"$work/side-hdring"
    if [ "$hdring_all" = yes ]; then
        simulate "$timeout" "$rp" "$rn" "$rc" "$rb" all | awk -F, -v pre="$rp,$rn,$rc,$rb" \
            '/^result,/ && $6 != "auto" { print pre "," $7 "," $8 "," $10 "," $11 }' >"$work/side-hdring"
    fi
    echo "$rp,$rn,$rc,$rb,$hd_us,$hd_alg,$ompi,$mpich,$best,$best_alg,$model"
}

if [ -n "$point" ]; then
    # shellcheck disable=SC2086 # four words
    row $point
    exit 0
fi

# the whole plan: lines "PLATFORM P COLLS SIZES" (comma-separated lists), '#' comments
mkdir -p "$dir"
[ -f "$csv" ] || echo "$header" >"$csv"
[ -f "$dir/smpi-algs.csv" ] || echo "platform,p,coll,bytes,alg,us,failed" >"$dir/smpi-algs.csv"
[ -f "$dir/hdring-algs.csv" ] || echo "platform,p,coll,bytes,alg,phases,us,model_us" >"$dir/hdring-algs.csv"
[ -f "$dir/platforms.csv" ] ||
    echo "platform,p,nodes,ppn,latency_us,bandwidth_mbs,reduce_mbs,network_latency_us,network_bandwidth_mbs" \
        >"$dir/platforms.csv"
grep -v '^#' "$plan" | while read -r plat n colls sizes; do
    [ -n "$plat" ] || continue
    for c in $(echo "$colls" | tr ',' ' '); do
        for b in $(echo "$sizes" | tr ',' ' '); do
            if grep -q "^$plat,$n,$c,$b," "$csv"; then
                continue
            fi
            started=$(date +%s)
            line=$(row "$plat" "$n" "$c" "$b")
            echo "$line" >>"$csv"
            cat "$work/side-smpi" >>"$dir/smpi-algs.csv"
            cat "$work/side-hdring" >>"$dir/hdring-algs.csv"
            grep -q "^$plat,$n," "$dir/platforms.csv" || cat "$work/side-platform" >>"$dir/platforms.csv"
            echo "study.sh: $line ($(($(date +%s) - started)) s)"
        done
    done
done
