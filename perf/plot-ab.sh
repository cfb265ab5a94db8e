#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Plots hdring_ab's CSV (its header names the columns) as one panel per collective: the median over rounds of
# the paired ratio hdring/baseline against the vector size (line), its interquartile range (band) and the
# baseline against itself (dashed control), on a log ratio axis from 1/4 to 4, widened by powers of 2 (to 1/16
# and 16 at most) until every median fits; bands beyond it are clipped (the table lists the extremes). Below 1,
# hdring is faster.
#
#   perf/plot-ab.sh AB.csv OUT.png [TITLE]
set -eu
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
[ $# -ge 2 ] || { echo "usage: perf/plot-ab.sh AB.csv OUT.png [TITLE]" >&2; exit 2; }
csv=$1 png=$2 title=${3:-hdring / tuned}
command -v gnuplot >/dev/null || { echo "plot-ab.sh: gnuplot not installed (apt-get install gnuplot-nox)" >&2; exit 2; }
head -1 "$csv" | grep -q '^collective,p,algorithm,bytes,.*ratio_q1,ratio_q3' ||
    { echo "plot-ab.sh: $csv is not a CSV of hdring_ab (its header is missing)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
colls=$(tail -n +2 "$csv" | cut -d, -f1 | awk '!seen[$0]++')
baseline=$(tail -n +2 "$csv" | head -1 | cut -d, -f13)
n=$(wc -w <<<"$colls")
cols=$((n == 1 ? 1 : 2))
rows=$(((n + cols - 1) / cols))

# x ticks at the powers of 4 the data spans, named in binary units
xtics=$(tail -n +2 "$csv" | awk -F, '
    NR == 1 || $4 < lo { lo = $4 } NR == 1 || $4 > hi { hi = $4 }
    END {
        split("B KiB MiB GiB", unit, " "); sep = ""
        for (s = 1; s <= hi * 1.01; s *= 4) {
            if (s < lo / 1.01) continue
            u = 1; v = s; while (v >= 1024) { v /= 1024; ++u }
            printf "%s\"%d %s\" %d", sep, v, unit[u], s; sep = ", "
        }
    }')

# the ratio axis: 1/4..4, widened by powers of 2 to hold every median, 1/16..16 at most
read -r ylo yhi < <(tail -n +2 "$csv" | awk -F, '
    NR == 1 || $7 < lo { lo = $7 } NR == 1 || $7 > hi { hi = $7 }
    END { a = 0.25; while (a > 1 / 16 && lo < a) a /= 2; b = 4; while (b < 16 && hi > b) b *= 2; print a, b }')

panels=""
for c in $colls; do
    grep "^$c," "$csv" >"$tmp/$c.csv"
    panels="$panels
set title '$c'
plot '$tmp/$c.csv' using 4:11:12 with filledcurves fc rgb '#9ecae1' fs solid 0.6 noborder notitle, \\
     '' using 4:7 with linespoints lw 2 pt 7 ps 0.6 lc rgb '#08306b' notitle, \\
     '' using 4:10 with lines dt 2 lw 1.5 lc rgb '#636363' notitle, \\
     1 with lines lc rgb 'black' lw 1 notitle
unset label"
done

gnuplot <<GNUPLOT
set terminal pngcairo size $((cols * 620)),$((rows * 340 + 110)) font ',10' noenhanced
set output '$png'
set datafile separator ','
set logscale x 2
set logscale y
set xtics ($xtics)
set ytics ('1/16' 0.0625, '1/8' 0.125, '1/4' 0.25, '1/2' 0.5, '0.8' 0.8, '1' 1, '1.25' 1.25, '2' 2, '4' 4, '8' 8, '16' 16)
set yrange [$ylo:$yhi]
set xlabel 'vector size'
set ylabel 'time ratio (log)'
set grid
set multiplot layout $rows,$cols title "$title" margins 0.08,0.98,$(awk -v r="$rows" 'BEGIN { printf "%.3f", 0.45 / (r * 3.4 + 1.1) + 0.07 }'),0.92 spacing 0.08,$(awk -v r="$rows" 'BEGIN { printf "%.3f", 100 / (r * 340 + 110) }')
set label 1 "Dark blue: median over interleaved rounds of the per-round time ratio hdring/$baseline; light blue band: its interquartile range;\ngrey dashed: $baseline/$baseline, a control that should be 1.\nBelow 1 hdring is faster. Log scale; a band beyond it is clipped: the table gives every value with min and max. Size: the whole vector, as coll_hdring_verbose reports it." at screen 0.5, screen 0.045 center font ',9'
$panels
unset multiplot
GNUPLOT
