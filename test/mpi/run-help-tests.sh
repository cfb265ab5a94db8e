#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# The help of every coll_hdring parameter, as ompi_info prints it from the component staged by 'make check',
# whole, reported as TAP: each help closes every parenthesis, bracket and quote it opens and does not end on a
# separator (text cut short by a buffer ends inside a list), and an algorithm parameter's help describes every
# algorithm its enumerator accepts, as the registry gives them to both.
# Environment (set by test/Makefile.am): HDRING_STAGE (directory holding mca_coll_hdring.so), OMPI_INFO.
set -u
: "${HDRING_STAGE:?}" "${OMPI_INFO:=ompi_info}"
# ahead of any installed copy, as run-mpi-tests.sh loads it (5.0 names the path mca_base_component_path)
if [ "$("$OMPI_INFO" --version 2>/dev/null | sed -n 's/^Open MPI v\([0-9]*\.[0-9]*\).*/\1/p')" = 4.1 ]; then
    export OMPI_MCA_mca_component_path="$HDRING_STAGE:SYS_DEFAULT"
else
    unset OMPI_MCA_mca_component_path
    export OMPI_MCA_mca_base_component_path="$HDRING_STAGE:$("$OMPI_INFO" --path pkglibdir --parsable | sed -n 's/^path:pkglibdir://p')"
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

info=$(mktemp)
trap 'rm -f "$info"' EXIT
"$OMPI_INFO" --param coll hdring --level 9 --parsable >"$info" 2>&1
prefix=mca:coll:hdring:param:coll_hdring_
n=0 nfailed=0
check() { # NAME PROBLEMS (one a line; none: passed)
    n=$((n + 1))
    if [ -z "$2" ]; then
        echo "ok $n - $1"
    else
        nfailed=$((nfailed + 1))
        echo "not ok $n - $1"
        sed 's/^/#   /' <<<"$2"
    fi
}

nhelps=$(grep -c "^$prefix[a-z0-9_]*:help:" "$info")
check "ompi_info prints the help of coll_hdring's parameters ($nhelps)" \
    "$([ "$nhelps" -ge 40 ] || { echo "only $nhelps helps in:"; head -n 20 "$info"; })"

# whole: what a help opens, it closes; it ends on a word, a number or closing punctuation
cut=$(sed -n "s/^$prefix\([a-z0-9_]*\):help:/\1 /p" "$info" | awk '{
    name = $1; help = substr($0, length(name) + 2); why = ""
    if (gsub(/\(/, "(", help) != gsub(/\)/, ")", help)) why = why " unbalanced parentheses;"
    if (gsub(/\[/, "[", help) != gsub(/\]/, "]", help)) why = why " unbalanced brackets;"
    if (gsub(/"/, "\"", help) % 2) why = why " an unclosed quote;"
    if (help ~ /[,;:(\[ -]$/) why = why " ends on a separator;"
    if (why != "") print "coll_hdring_" name ":" why " ends \"..." substr(help, length(help) - 39) "\""
}')
check "every help is whole: parentheses, brackets and quotes closed, no trailing separator" "$cut"

# an algorithm parameter's help names every value of its enumerator, with its description: "name ("
missing=""
for param in $(sed -n "s/^$prefix\([a-z_]*_algorithm\):help:.*/\1/p" "$info"); do
    help=$(sed -n "s/^$prefix$param:help://p" "$info")
    for value in $(sed -n "s/^$prefix$param:enumerator:value:[0-9]*://p" "$info"); do
        [ "$value" = auto ] || grep -qF -- " $value (" <<<"$help" || missing="$missing
coll_hdring_$param: $value is not described"
    done
done
check "every algorithm parameter's help describes each algorithm it accepts" "${missing#?}"

echo "1..$n"
echo "# $((n - nfailed)) passed, $nfailed failed"
[ "$nfailed" -eq 0 ]
