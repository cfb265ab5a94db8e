#!/bin/sh
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# check.sh [--update] [DRIVER]: hdring's deterministic performance check. Each point of perf/sim/check-baseline.csv
# (platform, p, collective, size) is simulated again with hdring's automatic choice (perf/sim/hdring_smpi, in
# SimGrid's SMPI: the same simulated time on any machine, under any load) and compared with the time the file
# records: a point more than 1% slower fails, as does one that no longer runs. Faster, or another algorithm
# chosen, passes with a note: update the baseline to keep the gain. Reported as TAP.
#
# --update simulates the same points and rewrites the baseline with what they give now: commit it as a change of
# its own, saying why the figures moved (to add a point, add its row with any time, then --update). DRIVER:
# default $HDRING_BUILD_DIR/perf/sim/hdring_smpi (_build).
set -eu
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
update=no
if [ "${1:-}" = --update ]; then
    update=yes
    shift
fi
driver=${1:-$here/../../${HDRING_BUILD_DIR:-_build}/perf/sim/hdring_smpi}
baseline=$here/check-baseline.csv
[ -x "$driver" ] || { echo "check.sh: no $driver (build with SimGrid's smpicc installed)" >&2; exit 2; }
new=$(mktemp)
rows=$(mktemp)
trap 'rm -f "$new" "$rows"' EXIT
echo "platform,p,coll,bytes,alg,us" >"$new"
tail -n +2 "$baseline" >"$rows"
total=$(wc -l <"$rows")
n=0 failed=0
echo "1..$total"
# shellcheck disable=SC2034 # old_alg: read to skip the column
while IFS=, read -r platform p coll bytes old_alg old_us; do
    n=$((n + 1))
    what="$platform p=$p $coll $bytes B"
    line=$("$here/smpi-run.sh" "$platform" "$p" -- "$driver" --coll "$coll" --bytes "$bytes" --alg auto 2>&1 |
        grep '^result,' || true)
    if [ -z "$line" ]; then
        echo "not ok $n - $what: the simulation gave no time"
        echo "$platform,$p,$coll,$bytes,none,NA" >>"$new"
        failed=$((failed + 1))
        continue
    fi
    alg=$(echo "$line" | cut -d, -f7)
    us=$(echo "$line" | cut -d, -f10)
    echo "$platform,$p,$coll,$bytes,$alg,$us" >>"$new"
    if verdict=$(awk -v new="$us" -v old="$old_us" -v alg="$alg" -v old_alg="$old_alg" 'BEGIN {
        change = old > 0 ? 100 * (new - old) / old : 100
        note = alg == old_alg ? "" : sprintf("; the baseline ran %s", old_alg)
        printf "%s %.3f us, baseline %.3f us (%+.2f%%)%s%s\n", alg, new, old, change,
               change < -1 ? ", faster: update the baseline to keep it" : "", note
        exit change > 1 }'); then
        echo "ok $n - $what: $verdict"
    else
        echo "not ok $n - $what: more than 1% slower: $verdict"
        failed=$((failed + 1))
    fi
done <"$rows"
if [ "$update" = yes ]; then
    cp "$new" "$baseline"
    echo "# check.sh: $baseline rewritten; commit it on its own, saying why the figures moved"
fi
echo "# $((total - failed)) passed, $failed failed"
[ "$update" = yes ] || [ "$failed" -eq 0 ]
