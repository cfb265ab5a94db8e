#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Whether perf/tune.sh recommends its fit: prints "yes: why" or "no: why".
#
#   perf/tune-verdict.sh FIT.txt DEFAULTS.txt DEFAULTS-1.txt DEFAULTS-2.txt
#
# FIT.txt is hdring_model --fit's output, DEFAULTS*.txt hdring_model --regret's on all the data and on each of the
# two passes. Yes only when the fit printed no WARNING, pins down at least one parameter (not every one "loosely
# determined"), and loses less than the defaults by more than the noise: how far the defaults' loss moves between
# the two passes of the same measurement, at least 1 point.
set -eu
[ $# -eq 4 ] || { sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0" >&2; exit 2; }
loss() { sed -n '1s/.*costs \([0-9.]*\)% over.*/\1/p' "$1"; }
awk -v f="$(loss "$1")" -v d="$(loss "$2")" -v a="$(loss "$3")" -v b="$(loss "$4")" \
    -v warned="$(grep -c WARNING "$1" || :)" -v loose="$(grep -c 'loosely determined' "$1" || :)" \
    -v params="$(grep -c '^coll_hdring_model_' "$1" || :)" '
    BEGIN {
        noise = a - b; if (noise < 0) noise = -noise; if (noise < 1) noise = 1
        if (f == "" || d == "" || a == "" || b == "") print "no: the fit or the defaults could not be evaluated"
        else if (warned > 0) print "no: the fit printed warnings"
        else if (params == 0 || loose >= params) print "no: the data pin down none of the parameters (each loosely determined)"
        else if (d - f <= noise) printf "no: the fit loses %.1f%%, the defaults %.1f%%: a difference within the noise (%.1f points between the two passes)\n", f, d, noise
        else printf "yes: the fit loses %.1f%%, the defaults %.1f%%: beyond the noise (%.1f points between the two passes)\n", f, d, noise
    }'
