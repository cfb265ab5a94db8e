#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# perf/tune.sh's verdict (perf/tune-verdict.sh) on fits it must refuse and one it may recommend, reported as TAP.
# Environment (set by test/Makefile.am): HDRING_SRCDIR.
set -u
: "${HDRING_SRCDIR:?}"
verdict=$HDRING_SRCDIR/perf/tune-verdict.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
n=0 nfailed=0
expect() { # NAME PATTERN FIT DEFAULTS PASS1 PASS2
    local name=$1 pattern=$2 got
    got=$("$verdict" "$3" "$4" "$5" "$6" 2>&1)
    n=$((n + 1))
    if grep -Eq -- "$pattern" <<<"$got"; then
        echo "ok $n - $name"
    else
        nfailed=$((nfailed + 1))
        echo "not ok $n - $name"
        echo "#   got: $got"
    fi
}
regret() { echo "# evaluated on 300 measured points of x.csv: following the model costs $1% over the measured fastest on average (geometric), 80% at worst" >"$d/$2"; }
fit() { # LOSS LOOSE-COUNT [WARNING]
    {
        echo "# fitted on 300 measured points of x.csv: following the model costs $1% over the measured fastest on average (geometric), 70% at worst"
        echo "coll_hdring_model_latency_us = 2.2"
        echo "coll_hdring_model_bandwidth_mbs = 5100"
        echo "coll_hdring_model_reduce_mbs = 83000"
        for ((i = 0; i < $2; ++i)); do echo "# NOTE: x is loosely determined: any value ..."; done
        [ -z "${3:-}" ] || echo "# WARNING: latency_us sits at the edge of its search range"
    } >"$d/fit.txt"
}
regret 9.0 defaults.txt; regret 8.5 d1.txt; regret 9.3 d2.txt
fit 5.0 1
expect "a fit 4 points better than the defaults, noise 0.8: recommended" '^yes: ' "$d/fit.txt" "$d/defaults.txt" "$d/d1.txt" "$d/d2.txt"
fit 8.4 1
expect "a fit 0.6 points better, within the 1-point floor of the noise: refused" '^no: .*within the noise' "$d/fit.txt" "$d/defaults.txt" "$d/d1.txt" "$d/d2.txt"
regret 6.0 d1.txt; regret 12.0 d2.txt
fit 5.0 1
expect "a fit 4 points better while the passes disagree by 6: refused" '^no: .*within the noise \(6.0 points' "$d/fit.txt" "$d/defaults.txt" "$d/d1.txt" "$d/d2.txt"
regret 8.5 d1.txt; regret 9.3 d2.txt
fit 5.0 3
expect "a fit whose every parameter is loosely determined: refused" '^no: .*pin down none' "$d/fit.txt" "$d/defaults.txt" "$d/d1.txt" "$d/d2.txt"
fit 5.0 0 warn
expect "a fit that printed a WARNING: refused" '^no: .*warnings' "$d/fit.txt" "$d/defaults.txt" "$d/d1.txt" "$d/d2.txt"
expect "the committed perf/fit data (every parameter loose): refused" '^no: ' "$HDRING_SRCDIR/perf/fit/fit.txt" \
    "$HDRING_SRCDIR/perf/fit/defaults.txt" "$HDRING_SRCDIR/perf/fit/defaults.txt" "$HDRING_SRCDIR/perf/fit/defaults.txt"
echo "1..$n"
echo "# $((n - nfailed)) passed, $nfailed failed"
[ "$nfailed" -eq 0 ]
