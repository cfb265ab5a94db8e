#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# Says per collective where hdring wins and loses in hdring_ab CSVs: one line each, e.g.
#   allreduce: hdring faster at 16 KiB-1 MiB by 12-34%; slower at 1 KiB by 3%; even at 3 of 11 sizes;
#   undecided at 4 KiB (spread or control too large)
# A size counts as faster when the median ratio is at most 0.97 and its upper quartile below 1, slower when the
# median is at least 1.03 and its lower quartile above 1, even when the median is within 3% of 1 and both
# quartiles within 10%, and undecided otherwise (quartiles on both sides of 1 around a median that is off, or
# spread beyond 10%) or when the control (the baseline against itself) is off 1 by more than 5%. Several CSVs (repeated jobs of one setting) are combined per size by
# the median of their medians, quartiles and controls. CSVs from before hdring_ab recorded quartiles are judged
# by their medians alone.
#
#   perf/summarize-ab.sh [--markdown LABEL] AB.csv...
#
# --markdown prints table rows instead: | LABEL | collective | faster | slower | even (and undecided) |
set -eu
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
label=""
if [ "${1:-}" = --markdown ]; then
    [ $# -ge 3 ] || { echo "usage: perf/summarize-ab.sh [--markdown LABEL] AB.csv..." >&2; exit 2; }
    label=$2
    shift 2
fi
[ $# -ge 1 ] || { echo "usage: perf/summarize-ab.sh [--markdown LABEL] AB.csv..." >&2; exit 2; }

awk -F, -v label="$label" "$(cat "$(dirname "$0")/ab-lib.awk")"'
    # the sizes of collective c with verdict v, consecutive ones as ranges, and the spread of the gains
    function sizes(c, v,    i, j, k, out, lo, hi, gain, n) {
        out = ""; n = 0
        for (i = 1; i <= nsize[c]; ++i) {
            if (verdict[c, i] != v) continue
            for (j = i; j < nsize[c] && verdict[c, j + 1] == v; ++j) {}
            out = out (out == "" ? "" : ", ") binary_size(bytes[c, i]) (j > i ? "-" binary_size(bytes[c, j]) : "")
            for (k = i; k <= j; ++k) {
                gain = v < 0 ? 1 - ratio[c, k] : ratio[c, k] - 1
                if (n == 0 || gain < lo) lo = gain
                if (n == 0 || gain > hi) hi = gain
                ++n
            }
            i = j
        }
        count[c, v] = n
        if (n == 0) return ""
        lo = int(100 * lo + 0.5); hi = int(100 * hi + 0.5)
        return out " by " (lo == hi ? lo : lo "-" hi) "%"
    }
    $4 !~ /^[0-9]+$/ { next } # the header
    {
        key = $1 SUBSEP $4
        if (!((key) in seen)) {
            seen[key] = 1
            if (!($1 in nsize)) colls[++ncolls] = $1
            bytes[$1, ++nsize[$1]] = $4
            at[key] = nsize[$1]
        }
        med[key] = med[key] " " $7; ctl[key] = ctl[key] " " $10
        q1[key] = q1[key] " " (NF >= 12 ? $11 : $7); q3[key] = q3[key] " " (NF >= 12 ? $12 : $7)
    }
    END {
        for (k = 1; k <= ncolls; ++k) {
            c = colls[k]
            for (i = 1; i <= nsize[c]; ++i) {
                key = c SUBSEP bytes[c, i]
                m = median(med[key]); r1 = median(q1[key]); r3 = median(q3[key]); x = median(ctl[key])
                ratio[c, i] = m
                even_here = m > 0.97 && m < 1.03 && r1 > 0.9 && r3 < 1.1
                verdict[c, i] = (x < 0.95 || x > 1.05) ? 2 : (m <= 0.97 && r3 < 1) ? -1 : (m >= 1.03 && r1 > 1) ? 1 : even_here ? 0 : 2
            }
            faster = sizes(c, -1); slower = sizes(c, 1); sizes(c, 0); even = count[c, 0]
            undecided = sizes(c, 2); sub(/ by [0-9-]+%$/, "", undecided)
            if (label != "") {
                printf "| %s | %s | %s | %s | %d of %d%s |\n", label, c, faster == "" ? "-" : faster,
                       slower == "" ? "-" : slower, even, nsize[c],
                       (count[c, 2] > 0 ? sprintf("; %d undecided", count[c, 2]) : "")
                continue
            }
            line = c ":"
            if (faster != "") line = line " hdring faster at " faster ";"
            if (slower != "") line = line " slower at " slower ";"
            if (even > 0) line = line sprintf(" even at %s%d of %d sizes;", even == nsize[c] ? "all " : "", even, nsize[c])
            if (undecided != "") line = line " undecided at " undecided " (spread or control too large);"
            sub(/;$/, "", line)
            print line
        }
    }' "$@"
