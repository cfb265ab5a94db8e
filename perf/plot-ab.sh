#!/bin/bash
# Plots hdring_ab's CSV (collective, p, algorithm, bytes, hdring us, tuned us, ratio, min, max, control) as
# the median ratio hdring/tuned against the vector size, with the min-max range of the rounds, one line per
# collective, and the control (tuned/tuned) as dashed lines.
#
#   perf/plot-ab.sh AB.csv OUT.png [TITLE]
set -eu
csv=$1 png=$2 title=${3:-hdring / tuned}
command -v gnuplot >/dev/null || { echo "plot-ab.sh: gnuplot not installed (apt-get install gnuplot-nox)" >&2; exit 2; }
colls=$(cut -d, -f1 "$csv" | awk '!seen[$0]++')
plot=""
i=1
for c in $colls; do
    grep "^$c," "$csv" >"$csv.$c"
    plot="$plot${plot:+, }'$csv.$c' using 4:7:8:9 with yerrorlines lw 2 lc $i title '$c'"
    plot="$plot, '$csv.$c' using 4:10 with lines dt 2 lc $i notitle"
    i=$((i + 1))
done
gnuplot <<GNUPLOT
set terminal pngcairo size 1000,600 font ',11' noenhanced
set output '$png'
set datafile separator ','
set logscale x 2
set format x '%.0s%cB'
set xlabel 'vector size (bytes, as coll_hdring_verbose reports it)'
set ylabel 'time hdring / time tuned  (< 1: hdring faster)'
set title "$title\n(median of interleaved rounds, bars: min-max; dashed: tuned/tuned control)"
set grid
set key outside right
set yrange [0:*]
plot 1 with lines lc 'black' lw 1 notitle, $plot
GNUPLOT
for c in $colls; do rm -f "$csv.$c"; done
