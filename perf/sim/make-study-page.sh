#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# make-study-page.sh [--in-place] [--no-plots]: the results page's section on the simulated clusters, from the
# study's committed tables (perf/results/sim/: study.csv, platforms.csv, smpi-algs.csv, hdring-algs.csv) without
# simulating anything. It prints the section (perf/make-report.sh includes it in perf/README.md); --in-place
# rewrites it in perf/README.md between its markers instead (at the page's end when it has none). Its three plots go to perf/report/plots/sim-*.png
# (--no-plots: keep those there). The prose that explains where the model is off is perf/sim/model-notes.md.
set -eu
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
in_place=no
plots=yes
for arg in "$@"; do
    case $arg in
    --in-place) in_place=yes ;;
    --no-plots) plots=no ;;
    *) echo "usage: perf/sim/make-study-page.sh [--in-place] [--no-plots]" >&2; exit 2 ;;
    esac
done
dir=perf/results/sim
study=$dir/study.csv
[ -f "$study" ] || { echo "make-study-page.sh: no $study (perf/sim/study.sh writes it)" >&2; exit 2; }
ablib=$(cat perf/ab-lib.awk)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One table of every row with what the page derives from it, joined with its platform's parameters:
# platform,p,coll,bytes,actual,hdring,alg,ompi,mpich,best,best_alg,model,bound,nodes
awk -F, -v OFS=, '
    FNR == 1 { next }
    FILENAME ~ /platforms/ { lat[$1, $2] = $8 > 0 && $3 > 1 ? $8 : $5; bw[$1, $2] = $3 > 1 ? $9 : $6
                              local[$1, $2] = $5; red[$1, $2] = $7; nodes[$1, $2] = $3; next }
    {
        p = $2; n = $4; N = nodes[$1, p]
        # the vector that ran: at least one element per rank, whole elements per rank (smpi_case.h)
        if ($3 == "reduce_scatter_block") { c = int(n / (4 * p)); n = 4 * p * (c > 0 ? c : 1) }
        else if ($3 == "allgather") { c = int(n / p); n = p * (c > 0 ? c : 1) }
        else if ($3 != "bcast") { c = int(n / 4); n = 4 * (c > 0 ? c : 1) }
        # the alpha-beta bound for ranks that take one message at a time: ceil(log2 N) network latencies and
        # ceil(log2 (p / N)) local ones, what one node s link must carry (one rank s port on one node), the
        # reductions shared by all ranks
        q = N > 1 ? N : p
        L = 0; for (k = 1; k < q; k *= 2) ++L
        l = 0; for (k = 1; k < p / q; k *= 2) ++l
        f = $3 == "allreduce" ? 2 * (q - 1) / q : ($3 == "bcast" ? 1 : (q - 1) / q)
        g = $3 == "allreduce" || $3 ~ /^reduce_scatter/ ? (p - 1) / p : 0
        bound = L * lat[$1, p] + l * local[$1, p] + f * n / bw[$1, p] + g * n / red[$1, p]
        print $1, p, $3, $4, n, $5, $6, $7, $8, $9, $10, $11, bound, N
    }' "$dir/platforms.csv" "$study" | sort -s -t, -k1,1 -k2,2n >"$tmp/rows.csv"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "NA" || b == "NA" || b == 0) print "-"; else printf "%.2f", a / b }'; }

# rows_table FILTER: markdown rows of the points the awk condition FILTER selects
rows_table() {
    echo "| platform | p | collective | size | hdring (us) | hdring's choice | Open MPI sel. (us) | MPICH sel. (us) | best single SMPI (us) | hdring / Open MPI | hdring / best single | model / simulated | hdring / bound |"
    echo "|---|---:|---|---:|---:|---|---:|---:|---|---:|---:|---:|---:|"
    awk -F, "$ablib"'
        function r(a, b) { return a == "NA" || b == "NA" || b == 0 ? "-" : sprintf("%.2f", a / b) }
        function t(a) { return a == "NA" ? "NA" : sprintf("%.1f", a) }
        '"$1"' { printf "| %s | %d | %s | %s | %s | %s | %s | %s | %s (%s) | %s | %s | %s | %s |\n", $1, $2, $3,
                 binary_size($4), t($6), $7, t($8), t($9), t($10), $11, r($6, $8), r($6, $10), r($12, $6), r($6, $13) }' \
        "$tmp/rows.csv"
}

# ---- plots
plot_dir=perf/report/plots
if [ "$plots" = yes ] && command -v gnuplot >/dev/null; then
    mkdir -p "$plot_dir"
    # 1. the issue's platform at 1,024 ranks: time against size per collective
    panels="" npanels=0
    for c in allreduce reduce_scatter_block allgather bcast; do
        awk -F, -v c="$c" '$1 == "fat-tree-64x16" && $2 == 1024 && $3 == c' "$tmp/rows.csv" | sort -t, -k4,4n >"$tmp/p-$c.csv"
        [ -s "$tmp/p-$c.csv" ] || continue
        npanels=$((npanels + 1))
        panels="$panels
set title '$c'
plot '$tmp/p-$c.csv' using 5:6 with points lw 2 pt 7 lc rgb '#08306b' title 'hdring auto', \\
     '' using 5:8 with points lw 1.5 pt 5 lc rgb '#e6550d' title 'SMPI Open MPI selector', \\
     '' using 5:9 with points lw 1.5 pt 9 lc rgb '#31a354' title 'SMPI MPICH selector', \\
     '' using 5:10 with points lw 1.5 dt 2 pt 4 lc rgb '#756bb1' title 'best single SMPI algorithm', \\
     '' using 5:13 with points pt 1 lc rgb 'black' title 'alpha-beta bound'"
    done
    [ -z "$panels" ] || gnuplot <<GNUPLOT
set terminal pngcairo size 1240,$((npanels > 2 ? 780 : 420)) font ',10' noenhanced
set output '$plot_dir/sim-fat-tree-64x16-p1024.png'
set datafile separator ','
set datafile missing 'NA'
set logscale xy
set format x '%.0s%cB'
set xlabel 'bytes (whole vector)'
set ylabel 'microseconds per call'
set key top left font ',8'
set multiplot layout $((npanels > 2 ? 2 : 1)),2 title 'Simulated 64 nodes x 16 ranks, 100 Gbit/s fat tree, p = 1,024 (SimGrid SMPI): the sizes simulated'
$panels
unset multiplot
GNUPLOT
    # 2. scaling: hdring / Open MPI selector against p, per collective, one line per size, on the 64 x 16 tree
    panels=""
    for c in allreduce reduce_scatter_block allgather bcast; do
        plot="plot"
        awk -F, -v c="$c" '$1 == "fat-tree-64x16" && $3 == c { print $4 }' "$tmp/rows.csv" | sort -nu >"$tmp/sizes"
        while read -r b; do
            awk -F, -v c="$c" -v b="$b" '$1 == "fat-tree-64x16" && $3 == c && $4 == b && $6 != "NA" && $8 != "NA" { print $2 "," $6 / $8 }' \
                "$tmp/rows.csv" | sort -t, -k1,1n >"$tmp/s-$c-$b.csv"
            [ "$(wc -l <"$tmp/s-$c-$b.csv")" -ge 2 ] || continue
            label=$(awk "$ablib"' BEGIN { print binary_size('"$b"') }')
            plot="$plot '$tmp/s-$c-$b.csv' using 1:2 with linespoints lw 1.5 title '$label',"
        done <"$tmp/sizes"
        [ "$plot" != plot ] || continue
        panels="$panels
set title '$c'
${plot} 1 with lines lc rgb 'black' notitle"
    done
    [ -z "$panels" ] || gnuplot <<GNUPLOT
set terminal pngcairo size 1240,780 font ',10' noenhanced
set output '$plot_dir/sim-scaling.png'
set datafile separator ','
set logscale xy 2
set xlabel 'ranks (16 per node)'
set ylabel 'hdring / Open MPI selector'
set key outside right font ',8'
set multiplot layout 2,2 title 'hdring auto against SMPI Open MPI selector, 64 x 16 fat tree (below 1: hdring faster)'
$panels
unset multiplot
GNUPLOT
    # 3. the model against the simulation, every point of every platform
    awk -F, '$6 != "NA" && $12 != "NA" { print $6 "," $12 > "'"$tmp"'/m-" $1 ".csv" }' "$tmp/rows.csv"
    plot="plot"
    for f in "$tmp"/m-*.csv; do
        [ -f "$f" ] || continue
        name=$(basename "$f" .csv)
        plot="$plot '$f' using 1:2 with points pt 7 ps 0.7 title '${name#m-}',"
    done
    [ "$plot" = plot ] || gnuplot <<GNUPLOT
set terminal pngcairo size 820,700 font ',10' noenhanced
set output '$plot_dir/sim-model.png'
set datafile separator ','
set logscale xy
set xlabel 'simulated time of hdring auto (us)'
set ylabel 'cost model prediction for the algorithm it chose (us)'
set key top left
set title 'Model against simulation, every point of the study (lines: equal, +-25%)'
$plot x with lines lc rgb 'black' notitle, 1.25 * x with lines dt 2 lc rgb 'gray' notitle, 0.75 * x with lines dt 2 lc rgb 'gray' notitle
GNUPLOT
fi

# ---- the section
section() {
    local npoints
    npoints=$(tail -n +2 "$study" | wc -l)
    echo "## Simulated clusters: 16 to 1,024 ranks"
    echo
    echo "hdring's MPI-free core, the same source as the component, with the same decisions, run in SimGrid's SMPI"
    echo "simulator ($(smpirun -version 2>/dev/null | head -1 || echo SimGrid)) on simulated clusters, next to SMPI's own collectives:"
    echo "\`perf/sim/hdring_smpi\` (perf/sim/hdring_smpi.c says how). The simulation is deterministic: the same run"
    echo "gives the same time on any machine, under any load, so every figure here can be checked again with"
    echo "\`perf/sim/study.sh --point PLATFORM P COLL BYTES\`, which prints its row. $npoints points, table"
    echo "\`perf/results/sim/study.csv\`; this section is written from it by \`perf/sim/make-study-page.sh\`."
    echo
    echo "- Platforms (\`perf/sim/platforms/\`):"
    for f in perf/sim/platforms/*.xml; do
        echo "  - \`$(basename "$f" .xml)\`: $(sed -n '4s/^<!-- \(.*\) -->$/\1/p' "$f")"
    done
    echo "- Method: every rank starts at one simulated instant (a barrier, the ranks agree on the latest clock and"
    echo "  sleep until a margin after it); one call; the slowest rank's time. SMPI's collective is called once"
    echo "  first, untimed (its SMP-aware algorithms build node communicators in a first call). Reductions sum"
    echo "  floats and cost simulated time at the platform's rate on both sides (hdring's through its transport,"
    echo "  SMPI's through a user-defined commutative op that SMPI's algorithms call as they reduce); copies cost"
    echo "  nothing on either side. SMPI's network model is its default (latency and bandwidth factors by message"
    echo "  size; sends from 64 KiB wait for their receiver). Sizes are the whole vector; reduce_scatter_block and"
    echo "  allgather move at least one element per rank (at 1,024 ranks an \"8 B\" reduce_scatter_block is 4 KiB)."
    echo "- hdring's model parameters, measured on the simulated platform as the component measures a network"
    echo "  (perf/sim/smpi_world.h), and the alpha-beta bound built from them, for ranks that take one message at a"
    echo "  time: ceil(log2 N) network latencies and ceil(log2 (p/N)) local ones,"
    echo "  what one node's link must carry (allreduce 2(N-1)/N n, reduce_scatter and allgather (N-1)/N n, bcast n"
    echo "  for N nodes) at the measured network bandwidth, and the reductions shared by all ranks at the"
    echo "  platform's rate; on one node the same with ranks for nodes and the shared-memory parameters. The network"
    echo "  latency is the mean over node 0's routes (within its leaf switch and through a spine); a small call whose"
    echo "  steps across nodes stay within leaf switches can go below the bound."
    echo
    echo "| platform | p | nodes x ranks | latency (us) | bandwidth (MB/s) | network latency (us) | network bandwidth (MB/s) | reductions (MB/s) |"
    echo "|---|---:|---|---:|---:|---:|---:|---:|"
    tail -n +2 "$dir/platforms.csv" | sort -t, -k1,1 -k2,2n |
        awk -F, '{ printf "| %s | %d | %d x %d | %.3f | %.0f | %.3f | %.0f | %.0f |\n", $1, $2, $3, $4, $5, $6, $8, $9, $7 }'
    echo
    echo "### The issue's points: 1,024 ranks on the 64 x 16 fat tree"
    echo
    echo "Asked: hdring at most 1.00x SMPI's Open MPI selector and at most 1.10x the best single SMPI algorithm."
    echo
    # shellcheck disable=SC2016 # an awk condition
    rows_table '$1 == "fat-tree-64x16" && $2 == 1024 && ($4 == 8 || $4 == 65536 || $4 == 4194304 || $4 == 67108864)'
    echo
    awk -F, '$1 == "fat-tree-64x16" && $2 == 1024 && ($4 == 8 || $4 == 65536 || $4 == 4194304 || $4 == 67108864) {
            ++n; if ($6 != "NA" && $8 != "NA" && $6 <= $8 * 1.00005) ++o; if ($6 != "NA" && $10 != "NA" && $6 <= $10 * 1.10) ++b }
        END { printf "Met: %d of %d at most 1.00x the Open MPI selector, %d of %d at most 1.10x the best single algorithm.\n", o, n, b, n }' \
        "$tmp/rows.csv"
    echo
    echo "![hdring, SMPI's selectors, the best single SMPI algorithm and the bound, 1,024 ranks](report/plots/sim-fat-tree-64x16-p1024.png)"
    echo
    echo "### Scaling"
    echo
    echo "![hdring / Open MPI selector against p on the 64 x 16 fat tree](report/plots/sim-scaling.png)"
    echo
    cut -d, -f1 "$tmp/rows.csv" | sort -u >"$tmp/platforms"
    while read -r plat; do
        echo "#### $plat"
        echo
        rows_table "\$1 == \"$plat\""
        echo
    done <"$tmp/platforms"
    # the plan's points the study did not reach (it runs them in order, within a host-time budget)
    grep -v '^#' perf/sim/study.plan | while read -r plat n colls sizes; do
        [ -n "$plat" ] || continue
        for c in $(echo "$colls" | tr ',' ' '); do
            for b in $(echo "$sizes" | tr ',' ' '); do
                grep -q "^$plat,$n,$c,$b," "$study" || echo "$plat,$n,$c,$b"
            done
        done
    done >"$tmp/missing"
    if [ -s "$tmp/missing" ]; then
        echo "Not simulated: the plan's (\`perf/sim/study.plan\`) points after the study's host-time budget ran out:"
        awk -F, "$ablib"'{ k = $1 " p=" $2 " " $3; if (!(k in s)) { o[++n] = k; s[k] = binary_size($4) } else s[k] = s[k] ", " binary_size($4) }
            END { for (i = 1; i <= n; ++i) printf "%s%s: %s", (i > 1 ? "; " : ""), o[i], s[o[i]]; print "." }' "$tmp/missing"
        echo
    fi
    echo "### Where hdring's choice is wrong"
    echo
    echo "Points where the best single SMPI algorithm is more than 10% faster than hdring, or where another of hdring's own"
    echo "algorithms (simulated at that point: \`perf/results/sim/hdring-algs.csv\`) is more than 10% faster than the one it"
    echo "chose. An SMPI time below the alpha-beta bound is marked: that algorithm keeps many messages in flight from or"
    echo "to one rank, which costs nothing extra on these platforms (no per-message overhead in SMPI's defaults, and a"
    echo "node's shared memory is a fat pipe: every pair of its ranks at full speed at once). A real node's cores copy"
    echo "one message at a time each, as hdring's model assumes, so such a lead is the platform's, not the algorithm's:"
    echo
    echo "| platform | p | collective | size | hdring's choice (us) | faster | by |"
    echo "|---|---:|---|---:|---|---|---:|"
    awk -F, -v OFS=, 'FILENAME ~ /hdring-algs/ && FNR == 1 { next }
        FILENAME ~ /hdring-algs/ { k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
                                   if ($7 != "NA" && (!(k in best) || $7 < best[k])) { best[k] = $7; name[k] = $5 }; next }
        { k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
          if ($6 != "NA" && $10 != "NA" && $10 * 1.10 < $6) print $1, $2, $3, $4, $7 " (" $6 ")", "SMPI " $11 " (" $10 ")" ($10 < $13 ? "; below the bound " sprintf("%.1f", $13) : ""), $6 / $10
          if ($6 != "NA" && (k in best) && best[k] * 1.10 < $6) print $1, $2, $3, $4, $7 " (" $6 ")", "hdring " name[k] " (" best[k] ")", $6 / best[k] }' \
        "$dir/hdring-algs.csv" "$tmp/rows.csv" | sort -t, -k1,1 -k2,2n -k3,3 -k4,4n |
        awk -F, "$ablib"'{ printf "| %s | %d | %s | %s | %s | %s | %.2fx |\n", $1, $2, $3, binary_size($4), $5, $6, $7 }'
    echo
    echo "### The model against the simulation"
    echo
    echo "![model against simulation](report/plots/sim-model.png)"
    echo
    awk -F, '$6 != "NA" && $12 != "NA" { ++n; d = $12 / $6; if (d > 1.25 || d < 0.8) ++off }
        END { printf "The model predicts the simulated time of the algorithm it chose within 25%% at %d of %d points. Those where it does not:\n", n - off, n }' \
        "$tmp/rows.csv"
    echo
    echo "| platform | p | collective | size | hdring's choice | simulated (us) | model (us) | model / simulated |"
    echo "|---|---:|---|---:|---|---:|---:|---:|"
    awk -F, "$ablib"'$6 != "NA" && $12 != "NA" && ($12 / $6 > 1.25 || $12 / $6 < 0.8) {
            printf "| %s | %d | %s | %s | %s | %.1f | %.1f | %.2f |\n", $1, $2, $3, binary_size($4), $7, $6, $12, $12 / $6 }' \
        "$tmp/rows.csv"
    echo
    [ ! -f perf/sim/model-notes.md ] || cat perf/sim/model-notes.md
}

begin='<!-- simulated clusters: written by perf/sim/make-study-page.sh -->'
end='<!-- end of simulated clusters -->'
if [ "$in_place" = no ]; then
    echo "$begin"
    section
    echo "$end"
    exit 0
fi
section >"$tmp/section.md"
if ! grep -qF "$begin" perf/README.md || ! grep -qF "$end" perf/README.md; then
    # a page written before the study: the section goes at its end (perf/make-report.sh places it there too)
    { echo; echo "$begin"; echo "$end"; } >>perf/README.md
fi
awk -v begin="$begin" -v end="$end" -v section="$tmp/section.md" '
    $0 == begin { print; while ((getline line < section) > 0) print line; skip = 1; next }
    $0 == end { skip = 0 }
    !skip' perf/README.md >"$tmp/README.md"
mv "$tmp/README.md" perf/README.md
echo "make-study-page.sh: rewrote the simulated clusters' section of perf/README.md" >&2
