#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# The instructions a collective call spends in the component that serves it, counted by callgrind: exact, and the
# same on a busy machine as on an idle one (time cannot see a few dozen instructions a call; this can).
#
#   perf/count-instructions.sh [-b BUILD] [--with hdring|tuned|both] [--kind K] [--colls LIST] [--bytes B]
#                              [--calls N] [-- MPIRUN ARGS]
#
# For each collective (default allreduce,bcast,allgather, 8 bytes, blocking) it runs BUILD/perf/hdring_calls at 2
# ranks bound to cores under valgrind --tool=callgrind, collecting only inside the call's MPI functions (MPI_<coll>,
# or MPI_I<coll>/MPI_Start and MPI_Wait), twice: N calls (default 20000) and 2N. Per call and rank it prints the
# instructions executed in the serving component's own functions (hdring: mca_coll_hdring.so; tuned:
# mca_coll_tuned.so and the ompi_coll_base_ algorithms it runs; libnbc: mca_coll_libnbc.so), the count at 2N less
# the count at N, divided by N: the first calls' set-up cancels out, and what the PML and the transports do is left
# out (both components call them alike, and their waiting is timing, not work). hdring's polling is left out too:
# Open MPI's progress engine calls its progress function on every poll of a wait, which asks each request in flight
# whether it can move (mca_coll_hdring_exec_ready), and only then advances it (counted). Nonblocking and persistent
# calls sleep 50 us between posting and waiting, so that the wait seldom polls in vain.
# --with: hdring (coll_hdring_priority 40), tuned (hdring excluded: what serves the calls without it; libnbc for
# the nonblocking kinds), or both. BUILD defaults to _build; the component is loaded from BUILD/test/stage (make
# check builds it, or make -C BUILD/test stage/components/mca_coll_hdring.so). Needs valgrind.
set -eu
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
BUILD=_build WITH=both KIND=blocking COLLS=allreduce,bcast,allgather BYTES=8 CALLS=20000
while [ $# -gt 0 ]; do
    case $1 in
    -b) BUILD=$2; shift 2 ;;
    --with) WITH=$2; shift 2 ;;
    --kind) KIND=$2; shift 2 ;;
    --colls) COLLS=$2; shift 2 ;;
    --bytes) BYTES=$2; shift 2 ;;
    --calls) CALLS=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "count-instructions: unknown argument $1 (--help)" >&2; exit 2 ;;
    esac
done
PROG=$BUILD/perf/hdring_calls STAGE=$PWD/$BUILD/test/stage/components
[ -x "$PROG" ] || { echo "count-instructions: no $PROG (make -C $BUILD/perf hdring_calls)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "count-instructions: valgrind is needed" >&2; exit 2; }
SERIES=$(ompi_info --version 2>/dev/null | sed -n 's/^Open MPI v\([0-9]*\.[0-9]*\).*/\1/p')
if [ "$SERIES" = 4.1 ]; then
    export OMPI_MCA_mca_component_path="$STAGE:SYS_DEFAULT"
else
    OMPI_MCA_mca_base_component_path="$STAGE:$(ompi_info --path pkglibdir --parsable | sed -n 's/^path:pkglibdir://p')"
    export OMPI_MCA_mca_base_component_path
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# the MPI functions a call of collective $1 spends its time in, as callgrind patterns
entries() {
    local name
    name=$(echo "$1" | sed 's/^\(.\)/\U\1/') # allreduce -> Allreduce
    case $KIND in
    blocking) echo "--toggle-collect=*MPI_$name" ;;
    nonblocking) echo "--toggle-collect=*MPI_I$1 --toggle-collect=*MPI_Wait" ;;
    persistent) echo "--toggle-collect=*MPI_Start --toggle-collect=*MPI_Wait" ;;
    esac
}

# own WHO FILE: the instructions in WHO's own functions (self costs), read from callgrind's file itself (its
# annotate tool leaves some functions' object unsaid)
own() {
    local objects names skip
    case $1 in
    hdring) objects='mca_coll_hdring[.]so' names='^$' ;;
    *) objects='mca_coll_(tuned|libnbc)[.]so' names='^ompi_coll_base_' ;;
    esac
    skip='^(progress|mca_coll_hdring_progress|mca_coll_hdring_exec_ready)$'
    awk -v objects="$objects" -v names="$names" -v skip="$skip" '
        # "ob=(3) /lib/x.so" names id 3; "ob=(3)" refers to it
        function name(kind, line,    id, rest) {
            sub(/^[a-z]+=/, "", line)
            if (line !~ /^\(/) return line
            id = line; sub(/\).*/, "", id); rest = line; sub(/^\([0-9]+\) ?/, "", rest)
            if (rest != "") names_of[kind, id] = rest
            return names_of[kind, id]
        }
        /^ob=/ { ob = name("ob", $0); next }
        /^fn=/ { fn = name("fn", $0); counted = (ob ~ objects || fn ~ names) && fn !~ skip; next }
        /^cob=/ { name("ob", $0); next }
        /^cfn=/ { name("fn", $0); next }
        /^calls=/ { call = 1; next }
        /^[0-9+*-]/ { if (call) { call = 0; next } if (counted) sum += $2 }
        END { printf "%d\n", sum }' "$2"
}

# count WHO COLL CALLS: runs the calls under callgrind; prints rank 0's and rank 1's counts
count() {
    local who=$1 coll=$2 calls=$3 on delay=""
    shift 3
    [ "$who" = hdring ] && on="--mca coll_hdring_priority 40" || on="--mca coll ^hdring"
    [ "$KIND" = blocking ] || delay="--post-delay-us 50"
    # shellcheck disable=SC2046,SC2086 # word lists
    mpirun -np 2 --bind-to core --mca op ^avx $on "$@" valgrind --tool=callgrind --collect-atstart=no \
        $(entries "$coll") --callgrind-out-file="$OUT/cg.$who.$coll.$calls.%q{OMPI_COMM_WORLD_RANK}" \
        "$PROG" --coll "$coll" --bytes "$BYTES" --calls "$calls" --kind "$KIND" $delay >"$OUT/log" 2>&1 ||
        { cat "$OUT/log" >&2; exit 1; }
    echo "$(own "$who" "$OUT/cg.$who.$coll.$calls.0") $(own "$who" "$OUT/cg.$who.$coll.$calls.1")"
}

case $WITH in both) WHO="hdring tuned" ;; hdring | tuned) WHO=$WITH ;; *) echo "--with hdring|tuned|both" >&2; exit 2 ;; esac
echo "# instructions per call in the serving component: $KIND, $BYTES B, 2 ranks, $CALLS and $((2 * CALLS)) calls (perf/count-instructions.sh)"
echo "collective,served_by,rank0,rank1"
for coll in ${COLLS//,/ }; do
    for who in $WHO; do
        a=$(count "$who" "$coll" "$CALLS" "$@") || exit 1
        b=$(count "$who" "$coll" $((2 * CALLS)) "$@") || exit 1
        read -r a0 a1 <<<"$a"
        read -r b0 b1 <<<"$b"
        echo "$coll,$who,$(((b0 - a0) / CALLS)),$(((b1 - a1) / CALLS))"
    done
done
