#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Measures hdring against tuned and writes the results page, perf/README.md, with its data and plots in
# perf/report/. Nothing on the page is typed by hand: every number comes from this run.
#
#   perf/make-report.sh [--quick] [--reuse-topology | --topology-only | --page-only]
#
# Shared memory: hdring_ab for the five collectives at 2, 4 and 5 ranks, 4 B to 4 MiB. Emulated cluster (root
# only; perf/cluster): 4 and 5 nodes x 1 rank at 1 Gbit/s and 200 Mbit/s, allreduce, reduce_scatter_block,
# allgather and bcast at 1 KiB, 64 KiB, 1 MiB and 4 MiB, before and after tuning: hdring-tune writes its file on
# that cluster, then three jobs with hdring's defaults and three with the file run in turn; and the link check
# (an exchange against a one-way stream, tbf and htb shaping). Several ranks per node (root only): 4 nodes x 2 ranks at 200 Mbit/s and 1 Gbit/s, mapped by
# slot and by node, hdring against tuned and against han, three jobs each, with the network parameters
# hdring-tune measures on that cluster first (and one run with the defaults). It also writes the table of
# where hdring wins and loses into the README's "Should I use it?" section. Needs the build in _build/
# (scripts/build.sh); runs the component staged there. --quick: fewer rounds (a smoke run, noisier).
# --reuse-topology: keep the several-ranks-per-node measurements already in perf/report (the page says from
# which revision) and measure the rest. --topology-only: the reverse, measure only the several-ranks-per-node part
# and keep the rest. --page-only: measure nothing, write the page, its plots (report/plots/, one per setting, the
# only images in git) and the README table from the measurements in perf/report (which git ignores: a fresh
# clone measures before it can write the page). The page says at which revision each part was measured. Its last
# section, the simulated clusters, comes from perf/results/sim/ (perf/sim/make-study-page.sh, which also rewrites it
# alone: --in-place). On the 2-core development machine
# --reuse-topology took 20-28 minutes and --topology-only (26 cluster jobs, two calibrations) about 20.
set -eu
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
report=perf/report
rounds=11
cluster_rounds=7
cluster_jobs=3
topo_jobs=3
ompi5_jobs=3
reuse_topology=no
topology_only=no
page_only=no
usage() {
    echo "usage: perf/make-report.sh [--quick] [--reuse-topology | --topology-only | --page-only] (--help says more)" >&2
    exit 2
}
for arg in "$@"; do
    case $arg in
    --quick) rounds=3 cluster_rounds=2 cluster_jobs=1 topo_jobs=1 ompi5_jobs=1 ;;
    --reuse-topology) reuse_topology=yes ;;
    --topology-only) topology_only=yes ;;
    --page-only) page_only=yes ;;
    *) usage ;;
    esac
done
case "$reuse_topology $topology_only $page_only" in *yes*yes*) usage ;; esac
ab=_build/perf/hdring_ab
[ -x "$ab" ] || { echo "make-report.sh: build first (scripts/build.sh)" >&2; exit 2; }
make -C _build/test stage/components/mca_coll_hdring.so >/dev/null
export OMPI_MCA_mca_component_path="$PWD/_build/test/stage/components:SYS_DEFAULT"
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
points=1024,65536,1048576,4194304
cluster_colls=allreduce,reduce_scatter_block,allgather,bcast

# mca_env FILE: hdring's parameters in an MCA parameter file, as OMPI_MCA_ variables for env
mca_env() { sed -n 's/^\(coll_hdring_[a-z0-9_]*\) = \(.*\)$/OMPI_MCA_\1=\2/p' "$1"; }

# cluster_title NODES PPN MAPPING RATE BASELINE defaults|tuned [JOB]: a cluster plot's title, which says what a
# plot alone cannot show: whether hdring ran with its network defaults or hdring-tune's parameters, and which job
cluster_title() {
    local setting="hdring-tune's parameters"
    [ "$6" = tuned ] || setting="network defaults"
    echo "hdring / $5, $1 emulated nodes x $2 by $3, $4 links, $setting${7:+, job $7}"
}

# tune_cluster NODES RATE PPN [hdring-tune options]: hdring-tune on that cluster; its exit status. It refuses
# (exit 3) when the two halves of a measurement disagree, which the emulated links and 2 cores shared by up to 8
# ranks sometimes make them do: three tries.
tune_cluster() {
    local nodes=$1 rate=$2 ppn=$3 rc
    shift 3
    for _ in 1 2 3; do
        rc=0
        perf/cluster/cluster.sh run "$nodes" "$rate" "$ppn" -- _build/perf/hdring-tune "$@" || rc=$?
        [ "$rc" -eq 3 ] || break
    done
    return "$rc"
}

# tune_failed WHERE LOG: stops the run
tune_failed() {
    echo "make-report.sh: hdring-tune on $1 failed three times or with another status ($2)" >&2
    exit 1
}

# ---- measurements
measure_rest=yes
measure_topology=yes
[ "$page_only" = no ] && [ "$topology_only" = no ] || measure_rest=no
[ "$page_only" = no ] && [ "$reuse_topology" = no ] || measure_topology=no
if [ "$measure_rest" = no ]; then
    [ -d "$report/shm-np2" ] || { echo "make-report.sh: no measurements in $report" >&2; exit 2; }
    cluster_runs=$(cd "$report" && ls -d cluster-* 2>/dev/null | tr '\n' ' ')
fi
if [ "$page_only" = yes ]; then
    :
elif [ "$topology_only" = yes ]; then
    [ "$(id -u)" -eq 0 ] || { echo "make-report.sh: --topology-only runs the emulated cluster: root only" >&2; exit 2; }
    rm -rf "$report"/topo-* "$report/topology-revision.txt"
elif [ "$reuse_topology" = yes ]; then
    [ -f "$report/topology-revision.txt" ] ||
        { echo "make-report.sh: no topology measurements to reuse in $report" >&2; exit 2; }
    find "$report" -mindepth 1 -maxdepth 1 ! -name 'topo-*' ! -name topology-revision.txt -exec rm -rf {} +
else
    rm -rf "$report"
fi
mkdir -p "$report"
[ "$measure_rest" = no ] || echo "$rev $(date -u '+%Y-%m-%d')" >"$report/revision.txt"
for np in 2 4 5; do
    [ "$measure_rest" = yes ] || break
    perf/run-ab.sh -n "$np" -o "$report/shm-np$np" -- --rounds "$rounds" >/dev/null
done
# Open MPI 5.0.9 (when it and hdring's build against it, _build-5.0, are at hand): the same shared-memory settings
# against what 5.0.9 selects without hdring, ompi5_jobs jobs each
ompi5=${HDRING_OMPI5:-/opt/openmpi-5.0.9}
ompi5_run() { # RUN-AB ARGS...: perf/run-ab.sh under Open MPI 5.0.9 with hdring's 5.0 build
    env -u OMPI_MCA_mca_component_path PATH="$ompi5/bin:$PATH" HDRING_AB=_build-5.0/perf/hdring_ab \
        OMPI_MCA_mca_base_component_path="$PWD/_build-5.0/test/stage/components:$ompi5/lib/openmpi" perf/run-ab.sh "$@"
}
if [ "$measure_rest" = yes ] && [ -x "$ompi5/bin/mpirun" ] && [ -x _build-5.0/perf/hdring_ab ]; then
    PATH="$ompi5/bin:$PATH" make -C _build-5.0/test stage/components/mca_coll_hdring.so >/dev/null
    echo "$rev $(date -u '+%Y-%m-%d')" >"$report/ompi5-revision.txt"
    for job in $(seq "$ompi5_jobs"); do
        for np in 2 4 5; do
            ompi5_run -n "$np" -o "$report/ompi5-np$np/job$job" -- --rounds "$rounds" >/dev/null
        done
    done
fi
[ "$measure_rest" = no ] || cluster_runs=""
if [ "$(id -u)" -eq 0 ] && [ "$page_only" = no ]; then
    for nodes in 4 5; do
        for rate in 1gbit 200mbit; do
            [ "$measure_rest" = yes ] || break 2
            run=cluster-$nodes-$rate
            mkdir -p "$report/$run"
            tune_cluster "$nodes" "$rate" 1 -o "$report/$run/hdring-tune.conf" >"$report/$run/hdring-tune.conf.log" 2>&1 ||
                tune_failed "$nodes nodes at $rate" "$report/$run/hdring-tune.conf.log"
            tuned_params=$(mca_env "$report/$run/hdring-tune.conf")
            for job in $(seq "$cluster_jobs"); do
                for setting in defaults tuned; do
                    # shellcheck disable=SC2046
                    env $([ "$setting" = defaults ] || echo "$tuned_params") perf/run-ab.sh -c "$nodes:$rate:1" \
                        -t "$(cluster_title "$nodes" 1 slot "$rate" tuned "$setting" "$job")" \
                        -o "$report/$run/$setting/job$job" -- --rounds "$cluster_rounds" --coll "$cluster_colls" \
                        --sizes "$points" >/dev/null
                done
            done
            cluster_runs="$cluster_runs $run"
        done
    done
    # several ranks per node: calibrate the network parameters on the cluster, then three jobs per configuration
    for rate in 200mbit 1gbit; do
        [ "$measure_topology" = yes ] || break
        tune_cluster 4 "$rate" 2 --reps 11 --print >"$report/topo-$rate-calibration.txt" \
            2>"$report/topo-$rate-calibration.log" ||
            tune_failed "4 nodes x 2 at $rate" "$report/topo-$rate-calibration.log"
        params=$(sed -n 's/^\(coll_hdring_model_network_[a-z_]*\) = \([0-9.]*\)$/OMPI_MCA_\1=\2/p' \
            "$report/topo-$rate-calibration.txt")
        [ "$(wc -w <<<"$params")" -eq 3 ] || { echo "make-report.sh: hdring-tune gave no parameters" >&2; exit 1; }
        for job in $(seq "$topo_jobs"); do
            for mapping in slot node; do
                for baseline in tuned han; do
                    # shellcheck disable=SC2086
                    env $params perf/run-ab.sh -c "4:$rate:2" -m "$mapping" -b "$baseline" \
                        -t "$(cluster_title 4 2 "$mapping" "$rate" "$baseline" tuned "$job")" \
                        -o "$report/topo-$rate-$mapping-$baseline/job$job" -- --rounds "$cluster_rounds" \
                        --coll "$cluster_colls" --sizes "$points" >/dev/null
                done
            done
        done
    done
    if [ "$measure_topology" = yes ]; then
        perf/run-ab.sh -c 4:200mbit:2 -m node -b tuned -t "$(cluster_title 4 2 node 200mbit tuned defaults)" \
            -o "$report/topo-200mbit-node-tuned-defaults" -- \
            --rounds "$cluster_rounds" --coll "$cluster_colls" --sizes "$points" >/dev/null
        echo "$rev $(date -u '+%Y-%m-%d')" >"$report/topology-revision.txt"
    fi
    [ "$measure_rest" = no ] || : >"$report/linkcheck.txt"
    for rate in 1gbit 200mbit; do
        [ "$measure_rest" = yes ] || break
        for qdisc in tbf htb; do
            for run in 1 2 3; do
                perf/cluster/cluster.sh run 2 "$rate" 1 --qdisc "$qdisc" -- _build/perf/hdring-tune --quick --reps 11 --print |
                    awk -v run="$rate $qdisc $run" '/^coll_hdring_model_network_bandwidth_mbs/ { one = $3 }
                        /^coll_hdring_model_network_exchange_mbs/ { ex = $3 }
                        END { if (one > 0) printf "%s %d %d %.2f\n", run, one, ex, ex / one }' >>"$report/linkcheck.txt"
            done
        done
    done
fi

# ---- the page
ompi_version=$(ompi_info --parsable 2>/dev/null | sed -n 's/^ompi:version:full://p')
cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)
mem=$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)
# changes to the sources measured, not to the page and the README this run writes
dirty=$(git status --porcelain -- . ':!perf/report' ':!perf/README.md' ':!README.md' 2>/dev/null | grep -v '^??' |
    grep -q . && echo " (with uncommitted changes)" || true)
# revision.txt REPORT-FILE: "hdring REV on DATE" of a part's measurements
measured_at() { [ -f "$1" ] && echo "hdring $(cut -d' ' -f1 "$1") on $(cut -d' ' -f2 "$1")" || echo "an unrecorded revision"; }

# the awk functions the perf scripts share: median(), binary_size()
ablib=$(cat perf/ab-lib.awk)

# table CSV: the full hdring_ab table of one run, in markdown, and its summary lines
table() {
    awk -F, "$ablib"'
        BEGIN { print "| collective | size | hdring (us) | tuned (us) | ratio hdring/tuned | q1-q3 | min-max | control |";
                print "|---|---:|---:|---:|---:|---:|---:|---:|" }
        $4 !~ /^[0-9]+$/ { next }
        { note = ($10 < 0.95 || $10 > 1.05) ? " (noisy)" : ""
          q = NF >= 12 ? sprintf("%.3f-%.3f", $11, $12) : "-"
          printf "| %s | %s | %.1f | %.1f | **%.3f** | %s | %.3f-%.3f | %.3f%s |\n", $1, binary_size($4), $5, $6, $7, q, $8, $9, $10, note }' "$1"
    echo
    perf/summarize-ab.sh "$@" | sed 's/^/- /'
}

# summary_rows LABEL CSV...: the requested points, ratio [control], one row per collective; several CSVs (jobs of
# one setting) by the median of their medians and of their controls. SUMMARY_POINTS and SUMMARY_COLLS replace the
# cluster's points and collectives.
summary_rows() {
    local label=$1
    shift
    awk -F, -v label="$label" -v colls="${SUMMARY_COLLS:-$cluster_colls}" -v pts="${SUMMARY_POINTS:-$points}" "$ablib"'
        BEGIN { nc = split(colls, c, ","); np = split(pts, want, ",") }
        $4 !~ /^[0-9]+$/ { next }
        { for (i = 1; i <= np; ++i) if ($4 <= want[i] && $4 >= 0.98 * want[i]) { r[$1, i] = r[$1, i] " " $7; ctl[$1, i] = ctl[$1, i] " " $10 } }
        END { for (k = 1; k <= nc; ++k) { printf "| %s | %s", label, c[k];
                                         for (i = 1; i <= np; ++i)
                                             printf " | %s", ((c[k], i) in r ? sprintf("%.3f [%.3f]", median(r[c[k], i]), median(ctl[c[k], i])) : "-");
                                         printf " |\n" } }' "$@"
}

# before_after RUN: per collective and size, hdring/tuned [control] with hdring's defaults and with hdring-tune's
# file, each the median over the jobs of each job's median
before_after() {
    for setting in defaults tuned; do
        for f in "$report/$1/$setting"/job*/ab.csv; do
            sed "s/^/$setting,/" "$f"
        done
    done | awk -F, "$ablib"'
        $5 !~ /^[0-9]+$/ { next }
        { key = $2 SUBSEP $5
          if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
          ratio[key, $1] = ratio[key, $1] " " $8; ctl[key, $1] = ctl[key, $1] " " $11 }
        END {
            print "| collective | size | hdring/tuned [control], defaults | hdring/tuned [control], hdring-tune file |"
            print "|---|---:|---:|---:|"
            for (i = 1; i <= nk; ++i) {
                split(keys[i], k, SUBSEP)
                printf "| %s | %s | %.3f [%.3f] | **%.3f** [%.3f] |\n", k[1], binary_size(k[2]), median(ratio[keys[i], "defaults"]),
                       median(ctl[keys[i], "defaults"]), median(ratio[keys[i], "tuned"]), median(ctl[keys[i], "tuned"])
            }
        }'
}

# topology_table RATE: per mapping, collective and size: hdring's time, the link bound, and the ratios to tuned
# and han with their controls, medians over the jobs.
topology_table() {
    local rate=$1 bw
    bw=$(sed -n 's/^coll_hdring_model_network_bandwidth_mbs = //p' "$report/topo-$rate-calibration.txt")
    for mapping in slot node; do
        for baseline in tuned han; do
            for f in "$report/topo-$rate-$mapping-$baseline"/job*/ab.csv; do
                sed "s/^/$mapping,$baseline,/" "$f"
            done
        done
    done | awk -F, -v bw="$bw" -v nodes=4 "$ablib"'
        $6 !~ /^[0-9]+$/ { next }
        { key = $1 SUBSEP $3 SUBSEP $6
          if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
          hd[key] = hd[key] " " $7; ratio[key, $2] = ratio[key, $2] " " $9; ctl[key, $2] = ctl[key, $2] " " $12 }
        END {
            print "| mapping | collective | size | hdring (ms) | link bound (ms) | hdring/bound | hdring/tuned [control] | hdring/han [control] |"
            print "|---|---|---:|---:|---:|---:|---:|---:|"
            for (i = 1; i <= nk; ++i) {
                split(keys[i], k, SUBSEP)
                n = k[3]; f = k[2] == "allreduce" ? 2 * (nodes - 1) / nodes : (k[2] == "bcast" ? 1 : (nodes - 1) / nodes)
                bound = f * n / bw / 1000; t = median(hd[keys[i]]) / 1000
                printf "| by %s | %s | %s | %.2f | %.2f | %.2f | %.3f [%.3f] | %.3f [%.3f] |\n", k[1], k[2], binary_size(n), t, bound,
                       t / bound, median(ratio[keys[i], "tuned"]), median(ctl[keys[i], "tuned"]),
                       median(ratio[keys[i], "han"]), median(ctl[keys[i], "han"])
            }
        }'
}

# rate_text 200mbit: "200 Mbit/s"
rate_text() { sed 's/^\([0-9]*\)\([gm]\)bit$/\1 \2bit\/s/; s/ g/ G/; s/ m/ M/' <<<"$1"; }

# wins_table: where hdring wins and loses, one row per setting and collective (perf/summarize-ab.sh)
wins_table() {
    echo "| setting | collective | hdring faster at | hdring slower at | even at |"
    echo "|---|---|---|---|---|"
    for np in 2 4 5; do
        perf/summarize-ab.sh --markdown "shared memory, $np ranks, vs tuned" "$report/shm-np$np/ab.csv"
    done
    for np in 2 4 5; do
        [ -d "$report/ompi5-np$np" ] || continue
        perf/summarize-ab.sh --markdown "Open MPI 5.0.9, shared memory, $np ranks, vs its default (tuned)" \
            "$report/ompi5-np$np"/job*/ab.csv
    done
    for run in $cluster_runs; do
        set -- ${run//-/ }
        perf/summarize-ab.sh --markdown "$2 nodes x 1, $(rate_text "$3"), network defaults, vs tuned" \
            "$report/$run/defaults"/job*/ab.csv
        perf/summarize-ab.sh --markdown "$2 nodes x 1, $(rate_text "$3"), hdring-tune's file, vs tuned" \
            "$report/$run/tuned"/job*/ab.csv
    done
    for rate in 200mbit 1gbit; do
        for mapping in slot node; do
            for baseline in tuned han; do
                [ -d "$report/topo-$rate-$mapping-$baseline" ] || continue
                perf/summarize-ab.sh --markdown "4 nodes x 2 by $mapping, $(rate_text "$rate"), vs $baseline" \
                    "$report/topo-$rate-$mapping-$baseline"/job*/ab.csv
            done
        done
    done
}
wins=$(mktemp)
trap 'rm -f "$wins" "$wins.readme"' EXIT
wins_table >"$wins"

# The page's plots: one per setting, in report/plots/ (the only ones in git, regenerated with the page); a setting
# of several jobs is plotted from the median of each column over its jobs. Per-job plots and data stay in the
# setting's directory, which git ignores.
summary_plot() { # NAME TITLE CSV...
    local name=$1 title=$2 merged
    shift 2
    [ -f "$1" ] || return 0
    merged=$(mktemp)
    awk -F, "$(cat perf/ab-lib.awk)"'
        FNR == 1 { head = $0; next }
        { k = $1 FS $2 FS $3 FS $4; if (!(k in n)) order[++nk] = k
          ++n[k]; base[k] = $13; for (c = 5; c <= 12; ++c) v[k, c] = v[k, c] " " $c }
        END { print head
              for (i = 1; i <= nk; ++i) { k = order[i]; printf "%s", k
                  for (c = 5; c <= 12; ++c) printf ",%s", median(v[k, c]); printf ",%s\n", base[k] } }' "$@" >"$merged"
    mkdir -p "$report/plots"
    perf/plot-ab.sh "$merged" "$report/plots/$name.png" "$title" >/dev/null
    rm -f "$merged"
}
for np in 2 4 5; do
    summary_plot "shm-np$np" "hdring / tuned, shared memory, $np ranks" "$report/shm-np$np/ab.csv"
done
for run in $cluster_runs; do
    set -- ${run//-/ }
    summary_plot "$run" "hdring (hdring-tune's file) / tuned, $2 nodes x 1, $(rate_text "$3"), median of jobs" \
        "$report/$run/tuned"/job*/ab.csv
done
for rate in 200mbit 1gbit; do
    summary_plot "topo-$rate-node-tuned" "hdring / tuned, 4 nodes x 2 by node, $(rate_text "$rate"), median of jobs" \
        "$report/topo-$rate-node-tuned"/job*/ab.csv
done
summary_plot "topo-200mbit-node-han" "hdring / han, 4 nodes x 2 by node, 200 Mbit/s, median of jobs" \
    "$report/topo-200mbit-node-han"/job*/ab.csv

# ompi5_priorities: "han 35, tuned 30, ..." from Open MPI 5.0.9's ompi_info (the components it enables)
ompi5_priorities() {
    "$ompi5/bin/ompi_info" --param coll all --level 9 --parsable 2>/dev/null |
        sed -n 's/^mca:coll:\([a-z]*\):param:coll_[a-z]*_priority:value:\(-\{0,1\}[0-9]*\)$/\1 \2/p' | sort -k2,2nr |
        paste -sd, | sed 's/,/, /g'
}

{
    echo "# hdring performance results"
    echo
    echo "Generated by \`perf/make-report.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), hdring $rev$dirty. Do not edit by"
    echo "hand: run the command again. Shared memory and one rank per node measured at $(measured_at "$report/revision.txt");"
    echo "several ranks per node: its section says."
    echo
    echo "## Machine and method"
    echo
    echo "- $(hostname): $cpu, $(nproc) cores, $mem; Linux $(uname -r); Open MPI $ompi_version."
    echo "- Every figure is \`perf/hdring_ab\`: in one job, communicators bound to hdring (auto), to tuned (its default"
    echo "  decision) and to tuned again (the control), timed in interleaved order, $rounds rounds ($cluster_rounds on the"
    echo "  cluster); each sample is the slowest rank's time per call over a batch of at least 5 ms. **hdring/tuned** is"
    echo "  the median of the paired ratios (< 1: hdring faster), with their quartiles and extremes; **control** is tuned/tuned,"
    echo "  which should be 1: a row whose control is outside 1 +- 5% is marked noisy. Reductions are MPI_FLOAT sums,"
    echo "  data movement MPI_CHAR; bytes are the whole vector."
    echo "- glibc's MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ pinned (1 GiB). Shared memory: more ranks than"
    echo "  cores run oversubscribed (\`--oversubscribe --bind-to none --mca mpi_yield_when_idle 1\`)."
    echo "- Emulated cluster: \`perf/cluster/cluster.sh\`, one network namespace per node on a bridge, links shaped in"
    echo "  both directions with HTB (small packets first), MTU 9000, offloads off; TCP between nodes. This kernel has"
    echo "  no netem, so latency is what the stack gives."
    echo
    echo "## Where hdring wins and loses"
    echo
    echo "Per setting and collective (\`perf/summarize-ab.sh\`): a size counts as faster when the median ratio is at"
    echo "most 0.97 and its upper quartile below 1, slower when the median is at least 1.03 and its lower quartile"
    echo "above 1, even when the median is within 3% of 1 and both quartiles within 10%, and undecided otherwise"
    echo "(a spread too large to say) or when the control is off 1 by more than 5%. \"By 12-34%\" is the time saved"
    echo "(faster) or added (slower). The several-ranks-per-node rows combine their jobs by the median."
    echo
    cat "$wins"
    echo
    echo "## Summary: hdring/tuned [control] at the requested sizes"
    echo
    echo "| configuration | collective | 1 KiB | 64 KiB | 1 MiB | 4 MiB |"
    echo "|---|---|---:|---:|---:|---:|"
    for np in 2 4 5; do
        summary_rows "shared memory, $np ranks" "$report/shm-np$np/ab.csv"
    done
    for run in $cluster_runs; do
        set -- ${run//-/ }
        summary_rows "cluster, $2 nodes, $(rate_text "$3"), network defaults" "$report/$run/defaults"/job*/ab.csv
        summary_rows "cluster, $2 nodes, $(rate_text "$3"), hdring-tune's file" "$report/$run/tuned"/job*/ab.csv
    done
    [ -n "$cluster_runs" ] || echo "| emulated cluster | (not measured: needs root) | | | | |"
    echo
    echo "## Shared memory"
    for np in 2 4 5; do
        echo
        echo "### $np ranks"
        echo
        echo "![hdring/tuned, $np ranks](report/plots/shm-np$np.png)"
        echo
        table "$report/shm-np$np/ab.csv"
    done
    if [ -d "$report/ompi5-np2" ]; then
        echo
        echo "## Open MPI 5.0.9"
        echo
        echo "hdring built against Open MPI 5.0.9 (\`_build-5.0\`), against what 5.0.9 selects without it, measured at"
        echo "$(measured_at "$report/ompi5-revision.txt"). Its coll priorities: $(ompi5_priorities). On one node han declines"
        echo "(\"comm has only local processes\"), so tuned serves every collective here. Each figure is the median over"
        echo "$(ls -d "$report/ompi5-np2"/job* | wc -l) jobs of each job's median ratio, [the control] likewise."
        echo
        echo "| configuration | collective | 16 B | 256 B | 4 KiB | 64 KiB | 1 MiB | 4 MiB |"
        echo "|---|---|---:|---:|---:|---:|---:|---:|"
        for np in 2 4 5; do
            SUMMARY_POINTS=16,256,4096,65536,1048576,4194304 \
                SUMMARY_COLLS=allreduce,reduce_scatter,reduce_scatter_block,allgather,bcast \
                summary_rows "5.0.9, $np ranks" "$report/ompi5-np$np"/job*/ab.csv
        done
    fi
    if [ -n "$cluster_runs" ]; then
        echo
        echo "## Emulated cluster"
        echo
        echo "Before and after tuning. On each cluster \`hdring-tune -o FILE\` ran first (one rank per node: its"
        echo "measurements, fit and check), then $cluster_jobs jobs with hdring's network parameters at their defaults (a"
        echo "10 Gbit/s class guess) and $cluster_jobs with the file's values, in turn. Each figure is the median over the"
        echo "jobs of each job's median ratio, the control likewise. Small bcasts are timed back to back, so they"
        echo "measure how fast calls follow each other: on these links such a job lands in one of two states that"
        echo "favour one tree or the other, and single jobs there differ by up to 2x."
        for run in $cluster_runs; do
            set -- ${run//-/ }
            echo
            echo "### $2 nodes x 1 rank, $(rate_text "$3") links"
            echo
            echo "The file hdring-tune wrote (\`report/$run/hdring-tune.conf\`):"
            echo
            echo '```'
            cat "$report/$run/hdring-tune.conf"
            echo '```'
            echo
            before_after "$run"
            echo
            echo "![hdring/tuned with hdring-tune's file, $2 nodes, $3, median of the jobs](report/plots/$run.png)"
        done
        echo
        echo "## Several ranks per node: 4 nodes x 2 ranks"
        echo
        echo "Measured at $(measured_at "$report/topology-revision.txt")."
        echo
        echo "Before the jobs of each link rate, \`hdring-tune\` measures the network on that cluster (8 ranks, all"
        echo "pairs across nodes at once) and the jobs run with what it printed: $(paste -sd' ' <(grep -h '^coll_hdring_model_network' "$report/topo-200mbit-calibration.txt"))"
        echo "at 200 Mbit/s; $(paste -sd' ' <(grep -h '^coll_hdring_model_network' "$report/topo-1gbit-calibration.txt")) at 1 Gbit/s."
        echo "Mapped by slot, ranks 0-1 share node 0; by node (\`--rank-by node\`), ranks 0 and 4 do. hdring runs its"
        echo "reductions with a commutative operation, its allgathers and bcasts, in node order either way. Each figure is"
        echo "the median over $topo_jobs jobs of each job's median (the controls likewise); han is Open MPI's hierarchical"
        echo "component with its priority raised to 35 for the job. The bound is what one node's link must carry at the"
        echo "calibrated one-way rate: allreduce 2 (N-1)/N n, reduce_scatter_block and allgather (N-1)/N n, bcast n."
        for rate in 200mbit 1gbit; do
            echo
            echo "### $(rate_text "$rate") links"
            echo
            topology_table "$rate"
            echo
            echo "![hdring/tuned by node, $rate](report/plots/topo-$rate-node-tuned.png)"
            [ "$rate" != 200mbit ] || echo "![hdring/han by node, $rate](report/plots/topo-$rate-node-han.png)"
        done
        echo
        echo "### The same cluster with the network defaults"
        echo
        echo "200 Mbit/s, mapped by node, against tuned, one job, hdring's network parameters at their defaults (a"
        echo "10 Gbit/s class guess): the topology does not depend on them, the choices between algorithms do."
        echo
        table "$report/topo-200mbit-node-tuned-defaults/ab.csv"
        echo
        echo "### Link check: does a pairwise exchange get the full rate?"
        echo
        echo "\`hdring-tune\` across 2 nodes, three separate runs per shaping: a 4 MiB stream one way against both"
        echo "ranks exchanging 4 MiB at once. An exchange (recursive doubling, RHD) at 1 would get the full rate both"
        echo "ways, as a real full-duplex link gives. Below 1 is the emulation's artefact: the kernel's packet work"
        echo "competes with the ranks for the 2 cores, so it varies from run to run; this is why every comparison above"
        echo "is made within one job."
        echo
        echo "| link | shaping | run | one way (MB/s) | exchange (MB/s per direction) | exchange / one way |"
        echo "|---|---|---:|---:|---:|---:|"
        awk '{ printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }' "$report/linkcheck.txt"
    fi
    # the simulated clusters: from the study's committed tables, simulating nothing (perf/sim/study.sh measures)
    if [ -f perf/results/sim/study.csv ]; then
        echo
        perf/sim/make-study-page.sh
    fi
} >perf/README.md

# the README.s "Should I use it?" table, between its markers: the rows of two settings
readme_rows='^\| (shared memory, 4 ranks|4 nodes x 2 by node, 200 Mbit/s), vs tuned '
{ head -2 "$wins"; grep -E "$readme_rows" "$wins"; } >"$wins.readme"
begin='<!-- wins and losses: written by perf/make-report.sh -->'
end='<!-- end of wins and losses -->'
grep -qF "$begin" README.md && grep -qF "$end" README.md ||
    { echo "make-report.sh: README.md lacks the markers of its wins-and-losses table" >&2; exit 1; }
awk -v begin="$begin" -v end="$end" -v table="$wins.readme" -v rev="$rev" '
    $0 == begin { print; print ""; print "Two settings of the [results page](perf/README.md), which has them all (and says what was measured when):"; print "";
                  while ((getline line < table) > 0) print line; print ""; skip = 1; next }
    $0 == end { skip = 0 }
    !skip' README.md >README.md.new
mv README.md.new README.md
echo "wrote perf/README.md, $report/ and the table in README.md"
