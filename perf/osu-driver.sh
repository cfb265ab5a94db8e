#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Runs the OSU micro-benchmarks' collectives with hdring (auto and every algorithm forced) and with tuned (its
# default and every algorithm forced), and tabulates the average latencies side by side.
#
#   OSU_DIR=/path/to/osu perf/osu-driver.sh [-n NP] [-m MIN:MAX] [-i ITERS] [-r REPS] [-c] [-b LIST] [-o OUTDIR]
#
# OSU_DIR: an OSU micro-benchmarks 7.x build or install tree (bring your own: OSU is not a Debian package, and
# this project neither downloads nor ships it); the driver finds osu_allreduce, osu_reduce_scatter,
# osu_reduce_scatter_block, osu_allgather and osu_bcast below it.
#   -n NP      ranks (default 4; more than the cores oversubscribes)
#   -m MIN:MAX message sizes, as OSU takes and reports them (default 4:1048576)
#   -i ITERS   iterations per size (default 200)
#   -r REPS    run every configuration REPS times, interleaved (all configurations, then again), and report the
#              median: OSU runs are separate jobs, and on a shared machine two jobs of the same command differ
#              by far more than the algorithms do (default 3)
#   -c         OSU's data validation; a run that fails it (a "Fail" row, or hdring or tuned's default exiting
#              with an error) fails the driver; a forced tuned algorithm that cannot serve the case (two_proc
#              on more than 2 ranks) is shown as missing
#   -b LIST    benchmarks, comma separated (default: the five)
#   -o OUTDIR  where the raw outputs, osu.csv and the tables go (default perf/results/osu)
# Sizes are OSU's: the message of allreduce and bcast, the per-rank block of allgather, the whole vector of
# reduce_scatter. hdring's parameters are set with --mca per run; tuned's forced algorithms need
# coll_tuned_use_dynamic_rules 1, which the driver sets. Tuned's algorithm list comes from ompi_info. Every run
# excludes op/avx (README, known issues).
set -u
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
np=4 sizes=4:1048576 iters=200 reps=3 validate=0 outdir=perf/results/osu
benches="allreduce,reduce_scatter,reduce_scatter_block,allgather,bcast"
while getopts "n:m:i:r:cb:o:" opt; do
    case $opt in
    n) np=$OPTARG ;;
    m) sizes=$OPTARG ;;
    i) iters=$OPTARG ;;
    r) reps=$OPTARG ;;
    c) validate=1 ;;
    b) benches=$OPTARG ;;
    o) outdir=$OPTARG ;;
    *) sed -n '2,20p' "$0" >&2; exit 2 ;;
    esac
done
[ -n "${OSU_DIR:-}" ] && [ -d "$OSU_DIR" ] || { echo "osu-driver.sh: set OSU_DIR to an OSU micro-benchmarks build or install tree" >&2; exit 2; }
mkdir -p "$outdir"
csv=$outdir/osu.csv
echo "benchmark,config,rep,size,latency_us,validation" >"$csv"

# Open MPI 4.1.4's op/avx saturates 8-bit sums, and OSU 7's default datatype is MPI_CHAR: with op/avx every
# component fails OSU's validation. Both sides run without it.
flags=(-np "$np" --mca op ^avx)
[ "$np" -le "$(nproc)" ] || flags+=(--oversubscribe --bind-to none --mca mpi_yield_when_idle 1)
[ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)

# hdring's algorithms for a collective, from ompi_info (the registry, hdring_registry.h)
hdring_algs() {
    ompi_info --param coll hdring --level 9 --parsable 2>/dev/null |
        sed -n "s/^mca:coll:hdring:param:coll_hdring_$1_algorithm:enumerator:value:[1-9][0-9]*://p"
}

# tuned's algorithms for a collective: "N:name" from ompi_info (0, "ignore", is its default decision)
tuned_algs() {
    ompi_info --param coll tuned --level 9 --parsable 2>/dev/null |
        sed -n "s/^mca:coll:tuned:param:coll_tuned_$1_algorithm:enumerator:value:\([1-9][0-9]*\):\(.*\)$/\1:\2/p"
}

find_bench() {
    find "$OSU_DIR" -type f -perm -u+x -name "osu_$1" 2>/dev/null | grep -v '/\.libs/' | head -1
}

status=0
# run BENCH CONFIG [MCA ARGS...]: one OSU run, its rows into the CSV
run() {
    local bench=$1 config=$2 bin
    shift 2
    bin=$(find_bench "$bench")
    local out=$outdir/$bench.$config.$rep.txt
    local args=(-m "$sizes" -i "$iters")
    [ "$validate" -eq 0 ] || args+=(-c)
    timeout -k 10 600 mpirun "${flags[@]}" "$@" "$bin" "${args[@]}" >"$out" 2>&1
    local rc=$?
    awk -v b="$bench" -v c="$config" -v r="$rep" -v rc="$rc" '
        /^[0-9]+[ \t]+[0-9.]+/ { v = (NF >= 3 && ($NF == "Pass" || $NF == "Fail")) ? $NF : (rc == 0 ? "-" : "error");
                                 printf "%s,%s,%s,%s,%s,%s\n", b, c, r, $1, $2, v; rows++ }
        END { if (rows == 0) printf "%s,%s,%s,-,-,%s\n", b, c, r, (rc == 124 ? "timeout" : "error") }' "$out" >>"$csv"
    if grep -q "Fail" "$out"; then
        echo "osu-driver.sh: $bench with $config FAILED VALIDATION, see $out" >&2
        status=1
    elif [ $rc -ne 0 ]; then
        case $config in
        tuned:default | hdring:*)
            echo "osu-driver.sh: $bench with $config failed (exit status $rc), see $out" >&2
            status=1
            ;;
        *) # a forced tuned algorithm that does not serve this case (two_proc with p != 2, ...): a reference point
            echo "osu-driver.sh: $bench with $config did not run here (exit status $rc), see $out" >&2
            ;;
        esac
    fi
}

for bench in ${benches//,/ }; do
    if [ -z "$(find_bench "$bench")" ]; then
        echo "osu-driver.sh: no osu_$bench under $OSU_DIR" >&2
        status=1
    fi
done
[ $status -eq 0 ] || exit $status
for rep in $(seq "$reps"); do
    for bench in ${benches//,/ }; do
        run "$bench" hdring:auto
        for alg in $(hdring_algs "$bench"); do
            run "$bench" "hdring:$alg" --mca "coll_hdring_${bench}_algorithm" "$alg"
        done
        run "$bench" tuned:default --mca coll ^hdring
        for na in $(tuned_algs "$bench"); do
            run "$bench" "tuned:${na#*:}" --mca coll ^hdring --mca coll_tuned_use_dynamic_rules 1 \
                --mca "coll_tuned_${bench}_algorithm" "${na%%:*}"
        done
    done
done

# one table per benchmark: sizes down, configurations across (median over the repetitions), the fastest, and
# hdring:auto / tuned:default
awk -F, "$(cat "$(dirname "$0")/ab-lib.awk")"'
    NR > 1 && $4 != "-" {
        vals[$1, $2, $4] = vals[$1, $2, $4] " " $5
        if (!(($1, $2) in seenc)) { seenc[$1, $2] = 1; cfg[$1, ++nc[$1]] = $2 }
        if (!(($1, $4) in seens)) { seens[$1, $4] = 1; size[$1, ++ns[$1]] = $4 }
        if (!($1 in seenb)) { seenb[$1] = 1; bench[++nb] = $1 } }
    END {
        for (i = 1; i <= nb; ++i) {
            b = bench[i]
            printf "\n# osu_%s: average latency (us), median of the repetitions, per size (OSU sizes)\n%-10s", b, "# Size"
            for (j = 1; j <= nc[b]; ++j) printf " %14s", cfg[b, j]
            printf " %16s %10s\n", "fastest", "auto/tuned"
            for (s = 1; s <= ns[b]; ++s) {
                sz = size[b, s]; best = ""; bl = 1e300; printf "%-10s", sz
                for (j = 1; j <= nc[b]; ++j) {
                    c = cfg[b, j]; v = ((b, c, sz) in vals) ? median(vals[b, c, sz]) : ""
                    med[c] = v
                    printf " %14s", (v == "" ? "-" : sprintf("%.2f", v))
                    if (v != "" && v + 0 < bl) { bl = v + 0; best = c }
                }
                a = med["hdring:auto"]; t = med["tuned:default"]
                printf " %16s %10s\n", best, (a != "" && t != "" && t > 0 ? sprintf("%.3f", a / t) : "-")
            }
        }
    }' "$csv" | tee "$outdir/osu.txt"
if [ "$validate" -eq 1 ]; then
    [ $status -eq 0 ] && echo "# validation (-c): every run passed" || echo "# validation (-c): FAILURES (see above)"
fi
exit $status
