#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# The OSU micro-benchmarks' collectives with hdring and with tuned, as a user runs them: separate jobs,
# interleaved and repeated, one table per collective. Every hdring number is proved to be hdring's: each hdring
# run traces its decisions (coll_hdring_trace_changes), and a run whose trace does not show hdring serving the
# benchmark's collective (with the forced algorithm, when one is forced) fails the driver and is left out of the
# tables, never printed as hdring; Open MPI's own collective counts as hdring's only where hdring measured it
# faster and chose it (or a decisions file did).
#
#   perf/osu-driver.sh (--osu DIR | --osu-tarball FILE | --osu-source DIR) [options]
#
# Where OSU comes from (it is not a Debian package, and this project neither downloads nor ships it; the README
# says which version and where to get it):
#   --osu DIR          an OSU build or install tree: osu_allreduce, ... somewhere below DIR
#   --osu-tarball FILE an OSU release tarball (osu-micro-benchmarks-7.4.tar.gz), built into OUTDIR/osu-build
#   --osu-source DIR   an OSU source tree (with its configure script), built the same way
#                      (the build: ./configure CC=mpicc CXX=mpicxx && make, with the mpicc of the Open MPI
#                      on PATH)
# Which hdring: the one built in this checkout (_build/test/stage/components, after 'make check' or
# scripts/run-main.sh) when there is one, else the one Open MPI finds installed; --stage DIR names another.
# hdring runs get --mca coll_hdring_priority 40 (so an opt-in install serves), tuned runs --mca coll ^hdring.
# Options:
#   -n NP      ranks (default 4; more than the cores oversubscribes)
#   -m MIN:MAX message sizes, as OSU takes and reports them (default 8:1048576)
#   -i ITERS   iterations per size (default 200)
#   -x WARMUP  OSU's untimed iterations per size (default 60: past hdring's measuring of its candidates)
#   -r REPS    repetitions of every configuration, interleaved; the tables give medians and the spread
#              ((max - min) / median), and warn where a spread passes 10% (default 3)
#   -b LIST    benchmarks, comma separated (default allreduce,reduce_scatter,reduce_scatter_block,allgather,bcast)
#   -a         also every hdring algorithm forced (a second table per collective: the fastest at each size)
#   -c         OSU's validation of the results; a "Fail" fails the driver
#   -o OUTDIR  the raw outputs, osu.csv and osu.txt (default perf/results/osu)
# Example: perf/osu-driver.sh --osu-tarball ~/osu-micro-benchmarks-7.4.tar.gz -n 4 -b allreduce,bcast
# Exit status: 0 when every run ran and every hdring run was proved; 1 otherwise; 2 for a usage error.
set -u
usage() { sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit "${1:-2}"; }
np=4 sizes=8:1048576 iters=200 warmup=60 reps=3 validate=0 outdir=perf/results/osu all_algs=0
osu_dir="" osu_tarball="" osu_source="" stage=""
benches="allreduce,reduce_scatter,reduce_scatter_block,allgather,bcast"
while [ $# -gt 0 ]; do
    case $1 in
    --osu) osu_dir=${2:?}; shift ;;
    --osu-tarball) osu_tarball=${2:?}; shift ;;
    --osu-source) osu_source=${2:?}; shift ;;
    --stage) stage=${2:?}; shift ;;
    -n) np=${2:?}; shift ;;
    -m) sizes=${2:?}; shift ;;
    -i) iters=${2:?}; shift ;;
    -x) warmup=${2:?}; shift ;;
    -r) reps=${2:?}; shift ;;
    -b) benches=${2:?}; shift ;;
    -a) all_algs=1 ;;
    -c) validate=1 ;;
    -o) outdir=${2:?}; shift ;;
    -h | --help) usage 0 ;;
    *) echo "osu-driver.sh: unknown option $1" >&2; usage ;;
    esac
    shift
done
die() { echo "osu-driver.sh: $*" >&2; exit 1; }
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

# ---- OSU: given, or built from a tarball or source tree ----
if [ -n "$osu_tarball" ] || [ -n "$osu_source" ]; then
    build=$outdir/osu-build
    if [ -n "$osu_tarball" ]; then
        [ -f "$osu_tarball" ] || die "no tarball $osu_tarball"
        rm -rf "$build" && mkdir -p "$build"
        tar -C "$build" -xf "$osu_tarball" || die "cannot unpack $osu_tarball"
        osu_source=$(dirname "$(find "$build" -maxdepth 2 -name configure | head -1)")
    fi
    [ -x "$osu_source/configure" ] || die "no OSU source tree (configure) at $osu_source"
    echo "osu-driver.sh: building OSU in $osu_source with $(command -v mpicc) (log: $outdir/osu-build.log)"
    (cd "$osu_source" && ./configure CC=mpicc CXX=mpicxx && make -j"$(nproc)") >"$outdir/osu-build.log" 2>&1 ||
        die "the OSU build failed: see $outdir/osu-build.log"
    osu_dir=$osu_source
fi
[ -n "$osu_dir" ] && [ -d "$osu_dir" ] || { echo "osu-driver.sh: say where OSU is (--osu, --osu-tarball or --osu-source)" >&2; usage; }
find_bench() { find -L "$osu_dir" -type f -perm -u+x -name "osu_$1" 2>/dev/null | grep -v '/\.libs/' | head -1; }
for b in ${benches//,/ }; do
    [ -n "$(find_bench "$b")" ] || die "no osu_$b under $osu_dir"
done

# ---- hdring: this checkout's build, or the installed one ----
series=$(ompi_info --version 2>/dev/null | sed -n 's/^Open MPI v\([0-9]*\.[0-9]*\).*/\1/p')
[ -n "$series" ] || die "no Open MPI on PATH (ompi_info)"
[ -n "$stage" ] || [ ! -f _build/test/stage/components/mca_coll_hdring.so ] || stage=$PWD/_build/test/stage/components
if [ -n "$stage" ]; then
    [ -f "$stage/mca_coll_hdring.so" ] || die "no mca_coll_hdring.so in $stage"
    if [ "$series" = 4.1 ]; then
        export OMPI_MCA_mca_component_path="$stage:SYS_DEFAULT"
    else
        export OMPI_MCA_mca_base_component_path="$stage:$(ompi_info --path pkglibdir --parsable | sed -n 's/^path:pkglibdir://p')"
    fi
    echo "osu-driver.sh: hdring from $stage (Open MPI $series)"
fi
ompi_info 2>/dev/null | grep -q 'MCA coll: hdring' ||
    die "Open MPI $series finds no hdring: build it (scripts/build.sh; make -C _build check) or install it (scripts/install.sh)"

flags=(-np "$np")
[ "$np" -le "$(nproc)" ] || flags+=(--oversubscribe --bind-to none --mca mpi_yield_when_idle 1)
[ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
# Open MPI 4.1.4's op/avx saturates 8-bit sums and OSU's default datatype is MPI_CHAR: both sides run without it
[ "$series" != 4.1 ] || flags+=(--mca op ^avx)
hdring=(--mca coll_hdring_priority 40 --mca coll_hdring_trace_changes 1)
tuned=(--mca coll ^hdring)

# hdring's algorithms for a collective (ompi_info, from its registry)
hdring_algs() {
    ompi_info --param coll hdring --level 9 --parsable 2>/dev/null |
        sed -n "s/^mca:coll:hdring:param:coll_hdring_$1_algorithm:enumerator:value:[1-9][0-9]*://p"
}

csv=$outdir/osu.csv
echo "benchmark,config,rep,size,latency_us" >"$csv"
status=0
# proved OUT BENCH ALG: the trace shows hdring serving the benchmark's collective, by ALG when not auto
proved() {
    local out=$1 bench=$2 alg=$3 lines
    lines=$(grep "^hdring: $bench np=$np " "$out")
    [ -n "$lines" ] || return 1
    ! grep -v ' alg=fallback (\(measured in this job\|coll_hdring_decisions_file\)' <<<"$lines" |
        grep -q ' alg=fallback ' || return 1
    [ "$alg" = auto ] || ! grep -vq " alg=$alg " <<<"$lines"
}
# run BENCH CONFIG [MPIRUN ARGS...]: one OSU job; its rows into the CSV once it is proved
run() {
    local bench=$1 config=$2 out rc
    shift 2
    out=$outdir/$bench.${config/:/-}.$rep.txt
    local args=(-m "$sizes" -i "$iters" -x "$warmup")
    [ "$validate" -eq 0 ] || args+=(-c)
    timeout -k 10 900 mpirun "${flags[@]}" "$@" "$(find_bench "$bench")" "${args[@]}" >"$out" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "osu-driver.sh: osu_$bench with $config failed (exit status $rc): see $out" >&2
        status=1
        return
    fi
    if grep -q "Fail" "$out"; then
        echo "osu-driver.sh: osu_$bench with $config FAILED OSU's validation: see $out" >&2
        status=1
        return
    fi
    case $config in
    hdring:*)
        if ! proved "$out" "$bench" "${config#hdring:}"; then
            echo "osu-driver.sh: osu_$bench with $config: its trace does not show hdring serving $bench" \
                "${config#hdring:}; its numbers are discarded (see $out)" >&2
            status=1
            return
        fi
        ;;
    esac
    awk -v b="$bench" -v c="$config" -v r="$rep" '/^[0-9]+[ \t]+[0-9.]+/ { printf "%s,%s,%s,%s,%s\n", b, c, r, $1, $2 }' \
        "$out" >>"$csv"
}

for rep in $(seq "$reps"); do
    for bench in ${benches//,/ }; do
        run "$bench" tuned:default "${tuned[@]}"
        run "$bench" hdring:auto "${hdring[@]}"
        if [ "$all_algs" -eq 1 ]; then
            for alg in $(hdring_algs "$bench"); do
                run "$bench" "hdring:$alg" "${hdring[@]}" --mca "coll_hdring_${bench}_algorithm" "$alg"
            done
        fi
    done
done

# One table per collective (at most 100 columns): size, tuned's and hdring's median latency, their ratio, and
# each one's spread over the repetitions; with -a, a second one: at each size the fastest forced algorithm
# against auto (osu.csv has every run's numbers).
awk -F, -v reps="$reps" "$(cat "$(dirname "$0")/ab-lib.awk")"'
    NR > 1 {
        vals[$1, $2, $4] = vals[$1, $2, $4] " " $5
        if (!(($1, $2) in seenc)) { seenc[$1, $2] = 1; cfg[$1, ++nc[$1]] = $2 }
        if (!(($1, $4) in seens)) { seens[$1, $4] = 1; size[$1, ++ns[$1]] = $4 }
        if (!($1 in seenb)) { seenb[$1] = 1; bench[++nb] = $1 } }
    function spread(list,   n, a, i, lo, hi, m) {
        n = split(list, a, " "); lo = hi = a[1] + 0
        for (i = 2; i <= n; ++i) { lo = (a[i] + 0 < lo) ? a[i] + 0 : lo; hi = (a[i] + 0 > hi) ? a[i] + 0 : hi }
        m = median(list); return m > 0 ? (hi - lo) / m : 0 }
    END {
        for (i = 1; i <= nb; ++i) {
            b = bench[i]
            printf "\nosu_%s, %d ranks: average latency (us), median of %d jobs each\n", b, np, reps
            printf "%10s %12s %12s %8s %10s %10s\n", "size", "tuned", "hdring", "ratio", "spread t", "spread h"
            for (s = 1; s <= ns[b]; ++s) {
                sz = size[b, s]; t = vals[b, "tuned:default", sz]; h = vals[b, "hdring:auto", sz]
                if (t == "" || h == "") { printf "%10s %12s\n", sz, "(missing: a run failed)"; continue }
                st = spread(t); sh = spread(h)
                printf "%10s %12.2f %12.2f %8.3f %9.0f%% %9.0f%%%s\n", sz, median(t), median(h), median(h) / median(t),
                    100 * st, 100 * sh, (st > 0.10 || sh > 0.10) ? "  !" : ""
                ++points; if (st > 0.10 || sh > 0.10) ++noisy
            }
            if (nc[b] > 2) { # with -a: the fastest forced algorithm at each size against auto
                printf "\nosu_%s, %d ranks: hdring algorithms forced, the fastest at each size (median, us)\n", b, np
                printf "%10s %12s %24s %12s %8s\n", "size", "auto", "fastest forced", "its latency", "auto/it"
                for (s = 1; s <= ns[b]; ++s) {
                    sz = size[b, s]; best = ""; bl = 0
                    for (j = 1; j <= nc[b]; ++j) {
                        c = cfg[b, j]
                        if (c ~ /^hdring:/ && c != "hdring:auto" && (b, c, sz) in vals) {
                            v = median(vals[b, c, sz]); if (best == "" || v < bl) { best = substr(c, 8); bl = v } }
                    }
                    h = vals[b, "hdring:auto", sz]
                    if (best == "" || h == "") { printf "%10s %12s\n", sz, "-"; continue }
                    printf "%10s %12.2f %24s %12.2f %8.3f\n", sz, median(h), best, bl, median(h) / bl
                }
            }
        }
        if (noisy > 0) printf "\nwarning: at %d of %d points (marked !) repeated jobs disagree by more than 10%%:\n" \
            "take more repetitions (-r), or a quieter machine\n", noisy, points
    }' np="$np" "$csv" | tee "$outdir/osu.txt"
[ $status -eq 0 ] || echo "osu-driver.sh: some runs failed or could not be proved hdring's (above); the tables leave them out" >&2
exit $status
