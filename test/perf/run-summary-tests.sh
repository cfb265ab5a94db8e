#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# perf/summarize-ab.sh's verdict per size on a made-up hdring_ab CSV, reported as TAP: a clear gain and loss, an
# even size, and sizes it must not call even: a median of 5.26 whose quartiles straddle 1, a median of 1 with a
# wide spread, a control off by 8%.
# Environment (set by test/Makefile.am): HDRING_SRCDIR.
set -u
: "${HDRING_SRCDIR:?}"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
n=0 nfailed=0
expect() { # NAME PATTERN TEXT
    n=$((n + 1))
    if grep -Eq -- "$2" <<<"$3"; then
        echo "ok $n - $1"
    else
        nfailed=$((nfailed + 1))
        echo "not ok $n - $1"
        echo "#   got: $3"
    fi
}
{
    echo "collective,p,algorithm,bytes,hdring_us,baseline_us,ratio_median,ratio_min,ratio_max,control,ratio_q1,ratio_q3,baseline"
    echo "allreduce,4,auto,16,1,1,0.80,0.7,0.9,1.00,0.78,0.82,tuned"   # faster
    echo "allreduce,4,auto,64,1,1,1.20,1.1,1.3,1.00,1.18,1.22,tuned"   # slower
    echo "allreduce,4,auto,256,1,1,1.01,0.9,1.1,1.00,0.99,1.02,tuned"  # even
    echo "allreduce,4,auto,1024,1,1,5.26,0.5,9.0,1.00,0.80,7.00,tuned" # undecided: quartiles straddle 1
    echo "allreduce,4,auto,4096,1,1,1.00,0.4,2.0,1.00,0.60,1.60,tuned" # undecided: spread
    echo "allreduce,4,auto,16384,1,1,0.70,0.6,0.8,1.08,0.68,0.72,tuned" # undecided: control
} >"$d/ab.csv"
line=$("$HDRING_SRCDIR/perf/summarize-ab.sh" "$d/ab.csv")
expect "a clear gain and a clear loss" '^allreduce: hdring faster at 16 B by 20%; slower at 64 B by 20%;' "$line"
expect "one size even; a straddling median, a wide spread and an off control undecided, never even" \
    '; even at 1 of 6 sizes; undecided at 1 KiB-16 KiB \(spread or control too large\)$' "$line"
row=$("$HDRING_SRCDIR/perf/summarize-ab.sh" --markdown "x" "$d/ab.csv")
expect "the markdown row counts the undecided apart" '^\| x \| allreduce \| 16 B by 20% \| 64 B by 20% \| 1 of 6; 3 undecided \|$' "$row"
echo "1..$n"
echo "# $((n - nfailed)) passed, $nfailed failed"
[ "$nfailed" -eq 0 ]
