#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# MPI tests of coll/hdring under real mpirun, reported as TAP (one test point per check).
#
# Runs against the component staged by 'make check' (HDRING_STAGE), ahead of any installed copy. Every mpirun has
# a time limit, so a hang fails instead of blocking; limits scale with how fast this machine runs a reference job
# now (calibrate below), so a busy machine gets longer ones, and the test programs' runs are stopped only when
# their output stalls for that long (watched): load that starts mid-run slows them without failing them.
# Environment (set by test/Makefile.am):
#   HDRING_STAGE    directory holding mca_coll_hdring.so and its help file
#   HDRING_TESTBIN  directory of the MPI test programs
#   MPIRUN, OMPI_INFO
#   HDRING_SRCDIR   the source tree (for perf/cluster)
#   HDRING_MODEL    the hdring_model tool
#   HDRING_TUNE     the hdring-tune tool
#   HDRING_MPI_SUITES  suites to run (default: all): foundation matrix nonblocking trace decision select topology
#                      repro osu large cluster ulfm
#   HDRING_MPI_TIMEOUT a fixed time limit per run, in seconds, instead of the calibrated ones
#   HDRING_MPI_SUBSET  ompi5: the second series' pass of CI (scripts/run-tests.sh) runs the matrix at fewer sizes
set -u

: "${HDRING_STAGE:?}" "${HDRING_TESTBIN:?}" "${MPIRUN:=mpirun}" "${OMPI_INFO:=ompi_info}"
SUITES=${HDRING_MPI_SUITES:-foundation matrix nonblocking trace decision select topology repro osu large cluster ulfm}

# The series of the Open MPI under test: 4.1 or 5.0. 5.0 names the component path mca_base_component_path, and its
# launcher (PRRTE, PMIx) reads the OMPI_MCA_ variables too and warns of SYS_DEFAULT: the path is spelled out.
SERIES=$("$OMPI_INFO" --version 2>/dev/null | sed -n 's/^Open MPI v\([0-9]*\.[0-9]*\).*/\1/p')
# ob1's header: a BTL eager limit less this is the largest message it sends eagerly (hdring_defaults.h)
OB1_HEADER=56
[ "$SERIES" = 4.1 ] || OB1_HEADER=80
if [ "$SERIES" = 4.1 ]; then
    export OMPI_MCA_mca_component_path="$HDRING_STAGE:SYS_DEFAULT"
else
    unset OMPI_MCA_mca_component_path
    export OMPI_MCA_mca_base_component_path="$HDRING_STAGE:$("$OMPI_INFO" --path pkglibdir --parsable | sed -n 's/^path:pkglibdir://p')"
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# 2 cores, up to 16 ranks: oversubscribe, do not bind, yield when idle. op/avx of Open MPI 4.1.4 saturates
# 8-bit integer sums (README, known issues).
MPI_FLAGS=(--oversubscribe --bind-to none --mca mpi_yield_when_idle 1 --mca op ^avx)

LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
n=0
nfailed=0

pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
    n=$((n + 1)); nfailed=$((nfailed + 1))
    echo "not ok $n - $1"
    [ -n "${2:-}" ] && echo "# $2"
    tail -n 40 "$LOG" | sed 's/^/#   /'
}

# Time limits: a run may go without output for LIMIT_UNITS (LONG_UNITS for the calls of more than 2^31 bytes) times
# what the reference job takes on this machine now, at least MIN_LIMIT seconds. On the idle development machine the
# reference job takes about 1.3 s, the longest run of the matrix about 40 s and the 2^31-byte calls about 5 min.
LIMIT_UNITS=150 LONG_UNITS=900 MIN_LIMIT=120
calibrate() {
    if [ -n "${HDRING_MPI_TIMEOUT:-}" ]; then
        TIMEOUT=$HDRING_MPI_TIMEOUT LONG_TIMEOUT=$HDRING_MPI_TIMEOUT
        echo "# time limit per run: ${TIMEOUT}s (HDRING_MPI_TIMEOUT)"
        return
    fi
    local start end ref
    start=$(date +%s%N)
    "$MPIRUN" -np 2 "${MPI_FLAGS[@]}" "$HDRING_TESTBIN/hdring_check" --coll allreduce --alg ring --types int \
        --counts 262144,262144,262144,262144 >/dev/null 2>&1
    end=$(date +%s%N)
    ref=$(( (end - start + 500000) / 1000000 )) # ms
    TIMEOUT=$(( ref * LIMIT_UNITS / 1000 )) LONG_TIMEOUT=$(( ref * LONG_UNITS / 1000 ))
    [ "$TIMEOUT" -ge "$MIN_LIMIT" ] || TIMEOUT=$MIN_LIMIT
    [ "$LONG_TIMEOUT" -ge "$MIN_LIMIT" ] || LONG_TIMEOUT=$MIN_LIMIT
    echo "# the reference job took ${ref} ms: time limit per run ${TIMEOUT}s, ${LONG_TIMEOUT}s for the 2^31-byte calls"
}

# watched LIMIT COMMAND...: runs COMMAND with its output in $LOG and stops it (TERM, then KILL 10 s later) once
# that output has not grown for LIMIT seconds; the exit status is COMMAND's, 124 when stopped. A hang stops the
# output (hdring_check says each group of cases it starts); a machine that gets busy mid-run only slows it down.
# stop_job PID: asks mpirun to end its job (it tears its processes down), then kills it after 10 s.
stop_job() {
    local tick
    kill -TERM "$1" 2>/dev/null
    for ((tick = 0; tick < 50; ++tick)); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.2
    done
    kill -KILL "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}

watched() {
    local limit=$1 pid size last=-1 since
    shift
    "$@" >"$LOG" 2>&1 &
    pid=$!
    since=$(date +%s)
    while kill -0 "$pid" 2>/dev/null; do
        size=$(stat -c %s "$LOG" 2>/dev/null || echo 0)
        if [ "$size" != "$last" ]; then
            last=$size since=$(date +%s)
        elif [ $(($(date +%s) - since)) -ge "$limit" ]; then
            stop_job "$pid"
            return 124
        fi
        sleep 0.2
    done
    wait "$pid"
}

# mpi NP ARGS...: run under mpirun with the test flags, output in $LOG; the exit status is mpirun's
# (124 when its output stalled for the time limit). A launcher that failed before starting any process (Open MPI
# 5.0.9's PRRTE, now and then: "The PMIx server's listener thread failed to start") is started again, at most
# twice, and said.
mpi() {
    local np=$1 try rc
    shift
    for try in 1 2 3; do
        watched "${LIMIT:-$TIMEOUT}" "$MPIRUN" -np "$np" "${MPI_FLAGS[@]}" "$@"
        rc=$?
        [ $rc -ne 0 ] && grep -q "PMIx server's listener thread failed to start" "$LOG" || return $rc
        [ $try -eq 3 ] || echo "# mpirun's launcher failed to start (PMIx listener), try $try of 3; started again"
    done
    return $rc
}

# check NAME NP ARGS...: a test program must exit 0 and print its summary with 0 failures. A run that times out
# is reported with the last case it started (hdring_check says each).
check() {
    local name=$1 np=$2; shift 2
    mpi "$np" "$@"
    local rc=$?
    if [ $rc -eq 124 ]; then
        fail "$name" "no output for ${LIMIT:-$TIMEOUT}s; the last case it started: $(grep '^hdring_check: starting' "$LOG" | tail -1)"
    elif [ $rc -ne 0 ] || ! grep -Eq '^hdring_[a-z]+: [1-9][0-9]* (cases|checks), 0 failures$' "$LOG"; then
        fail "$name" "exit status $rc"
    else
        pass "$name"
    fi
}

has() { grep -Eq -- "$1" "$LOG"; }

# pml_sends_eagerly_up_to VADER_LIMIT BYTES [MPIRUN ARGS...]: ob1 sends BYTES eagerly and BYTES + 1 with a
# rendezvous (hdring_eager, 2 ranks; btl_vader_eager_limit VADER_LIMIT unless empty)
pml_sends_eagerly_up_to() {
    local vader=$1 bytes=$2
    shift 2
    mpi 2 ${vader:+--mca btl_vader_eager_limit "$vader"} "$@" "$HDRING_TESTBIN/hdring_eager" "$bytes" $((bytes + 1)) &&
        has "^hdring_eager: $bytes eager$" && has "^hdring_eager: $((bytes + 1)) rendezvous$"
}

# measured TRIES COMMAND...: a hdring-tune job, again while it exits 3 (it found the machine too busy to measure
# and wrote nothing, as it should), at most TRIES times. The last exit status; every attempt's output in $LOG.
measured() {
    local tries=$1 rc attempts
    shift
    attempts=$(mktemp)
    for ((attempt = 1; attempt <= tries; ++attempt)); do
        "$@"
        rc=$?
        cat "$LOG" >>"$attempts"
        [ $rc -eq 3 ] || break
    done
    mv "$attempts" "$LOG"
    return $rc
}

suite_foundation() {
    local bin=$HDRING_TESTBIN

    # ompi_info shows the component and every parameter with help text
    local params="priority verbose scratch_cache_bytes max_message_elements model_latency_us model_bandwidth_mbs"
    params="$params model_network_latency_us model_network_bandwidth_mbs model_network_exchange_mbs model_reduce_mbs"
    params="$params node_map check_parameters nonblocking"
    for c in allreduce reduce_scatter reduce_scatter_block allgather bcast; do
        params="$params ${c}_algorithm ${c}_small_bytes_pof2 ${c}_small_bytes_npof2 ${c}_large_bytes_pof2 ${c}_large_bytes_npof2"
    done
    "$OMPI_INFO" --param coll hdring --level 9 --parsable >"$LOG" 2>&1
    local missing=""
    for p in $params; do
        has "^mca:coll:hdring:param:coll_hdring_$p:help:[A-Z]" || missing="$missing $p"
    done
    local enum=mca:coll:hdring:param:coll_hdring_allreduce_algorithm:enumerator:value
    if [ -z "$missing" ] && has "^$enum:0:auto\$" && has "^$enum:1:ring\$" && has "^$enum:2:rhd\$" &&
        has "^$enum:4:recursive_doubling\$"; then
        pass "ompi_info lists every coll_hdring parameter"
    else
        fail "ompi_info lists every coll_hdring parameter" "missing:$missing"
    fi

    # the DSO exports the component structure and nothing else
    nm -D --defined-only "$HDRING_STAGE/mca_coll_hdring.so" | awk '{print $3}' | grep -v '^_' >"$LOG"
    if [ "$(cat "$LOG")" = "mca_coll_hdring_component" ]; then
        pass "mca_coll_hdring.so exports only mca_coll_hdring_component"
    else
        fail "mca_coll_hdring.so exports only mca_coll_hdring_component"
    fi

    # selected at the default priority; the trace names the algorithm that ran
    mpi 4 --mca coll_hdring_verbose 1 --mca coll_hdring_allreduce_algorithm ring "$bin/hdring_check" --coll allreduce --alg env --counts 1000
    if [ $? -eq 0 ] && has '^hdring: allreduce np=4 bytes=4000 alg=ring \(forced by coll_hdring_allreduce_algorithm\)$'; then
        pass "default priority: hdring serves allreduce, trace shows alg=ring"
    else
        fail "default priority: hdring serves allreduce, trace shows alg=ring"
    fi
    # (tuned's own ring allreduce overruns its scratch for datatypes with a true lower bound: not the gap type)
    mpi 4 --mca coll ^hdring --mca coll_hdring_verbose 1 "$bin/hdring_check" --coll allreduce --alg env --counts 1000 \
        --types int,double,mat2x2
    if [ $? -eq 0 ] && ! has '^hdring:' && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "--mca coll ^hdring: no hdring trace, correct results"
    else
        fail "--mca coll ^hdring: no hdring trace, correct results"
    fi
    mpi 3 --mca coll hdring,tuned,libnbc,basic,self --mca coll_hdring_verbose 1 "$bin/hdring_check" --coll allreduce --alg ring --quick
    if [ $? -eq 0 ] && has '^hdring: allreduce np=3 .* alg=ring' && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "--mca coll hdring,tuned,libnbc,basic,self works"
    else
        fail "--mca coll hdring,tuned,libnbc,basic,self works"
    fi
    mpi 2 --mca coll hdring "$bin/hdring_check" --coll allreduce --counts 1
    local rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] && has 'mpirun --mca coll hdring,tuned,libnbc,basic,self' &&
        ! has 'none of them said'; then
        pass "--mca coll hdring alone: one clear message naming a working command line"
    else
        fail "--mca coll hdring alone: one clear message naming a working command line" "exit status $rc"
    fi
    # opt-in (a priority not above tuned's): the command line it names raises the priority, and it does not say
    # that hdring serves by default
    mpi 2 --mca coll hdring --mca coll_hdring_priority -1 "$bin/hdring_check" --coll allreduce --counts 1
    rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] && has 'priority \(coll_hdring_priority\) is -1 here' &&
        has 'mpirun --mca coll hdring,tuned,libnbc,basic,self --mca coll_hdring_priority 40' && ! has 'by default'; then
        pass "--mca coll hdring alone, opt-in: the command line it names raises the priority"
    else
        fail "--mca coll hdring alone, opt-in: the command line it names raises the priority" "exit status $rc"
    fi

    # values hdring cannot read: reported once by the job, the default used, hdring still serving; never the
    # misleading "found no lower-priority component"
    bad_value() { # NAME MESSAGE-PATTERN MPIRUN-ARGS...
        local name=$1 pattern=$2; shift 2
        mpi 3 --mca coll_hdring_verbose 1 "$@" "$bin/hdring_check" --coll allreduce --alg env --counts 1000
        if [ $? -eq 0 ] && [ "$(grep -c "$pattern" "$LOG")" -eq 1 ] && has '^hdring: allreduce np=3 bytes=4000 alg=' &&
            ! has 'found no lower-priority' && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
            pass "$name"
        else
            fail "$name"
        fi
    }
    # an algorithm name hdring does not know stops the job at MPI_Init, saying so once with the valid names (a
    # benchmark must not time another algorithm than the one it asked for); with the check off, auto runs
    mpi 3 --mca coll_hdring_allreduce_algorithm rng "$bin/hdring_check" --coll allreduce --alg env --counts 1000
    local rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] &&
        [ "$(grep -c 'does not know the algorithm "rng" given for coll_hdring_allreduce_algorithm' "$LOG")" -eq 1 ] &&
        has '^Its algorithms are: auto ring rhd binary_blocks recursive_doubling hier_ring' &&
        ! has '(cases|checks), [0-9]+ failures$'; then
        pass "an unknown algorithm name stops the job at MPI_Init with one message listing the valid names"
    else
        fail "an unknown algorithm name stops the job at MPI_Init with one message listing the valid names" "exit status $rc"
    fi
    bad_value "an unknown algorithm name with coll_hdring_check_parameters 0 is reported once; hdring runs auto" \
        'cannot use the value "bogus" given for coll_hdring_allreduce_algorithm' \
        --mca coll_hdring_check_parameters 0 --mca coll_hdring_allreduce_algorithm bogus
    bad_value "an unparsable priority is reported once; hdring keeps its default" \
        'cannot use the value "abc" given for coll_hdring_priority' --mca coll_hdring_priority abc
    bad_value "an unparsable model parameter is reported once; hdring keeps its default" \
        'cannot use the value "fast" given for coll_hdring_model_latency_us' --mca coll_hdring_model_latency_us fast
    mpi 3 --mca coll_hdring_priority 5 --mca coll_hdring_verbose 1 "$bin/hdring_check" --coll allreduce --counts 10
    if [ $? -eq 0 ] && [ "$(grep -c 'priority (coll_hdring_priority) is 5, not above tuned' "$LOG")" -eq 1 ] &&
        ! has '^hdring: allreduce' && ! has 'found no lower-priority' && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "a priority below tuned's: one message saying so, tuned serves"
    else
        fail "a priority below tuned's: one message saying so, tuned serves"
    fi

    # ring allreduce: every count and case, np 1..8
    for np in 1 2 3 4 5 6 7 8; do
        check "ring allreduce correct, np=$np (counts 0, 1, p-1, p, p+1, 3p+2, 1000+p, 40003; in place; 4 communicators)" \
            "$np" "$bin/hdring_check" --coll allreduce --alg ring
    done

    # no heap allocation on the hot path: every collective x every algorithm and auto, after warm-up calls
    for np in 2 3 5 8; do
        check "no allocation per call in steady state, np=$np (every collective and algorithm, 8 B - 64 KiB)" \
            "$np" "$bin/hdring_allocs"
    done
    check "no allocation per call in steady state, np=17 (binary blocks hand 16 pieces to one rank)" \
        17 "$bin/hdring_allocs" --sizes 64,4096
    # a bcast root that cannot allocate its packing buffer: every rank returns an error, none waits for it
    for np in 2 5 8; do
        check "bcast root out of memory: all ranks fail, none waits, the next bcast is right, np=$np (every algorithm)" \
            "$np" "$bin/hdring_allocs" --starve-bcast-root
    done

    # any rank that cannot allocate, at any call of any collective, algorithm and kind: every rank returns, a rank
    # that returns success holds the right answer, the next call is right everywhere
    for np in 3 5; do
        check "a rank refused memory in any call (every collective, algorithm and kind): all return, none wrong, the next call right, np=$np" \
            "$np" "$bin/hdring_allocs" --starve-rank
    done

    # declined cases: the fallback answers, and the trace says so
    mpi 4 --mca coll_hdring_verbose 1 "$bin/hdring_check" --coll allreduce --alg ring --counts 5
    if [ $? -eq 0 ] && has 'alg=fallback \(forced by coll_hdring_allreduce_algorithm: ring reorders operands and the op is not commutative\)' &&
        has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "non-commutative op with ring forced: fallback, correct answer"
    else
        fail "non-commutative op with ring forced: fallback, correct answer"
    fi
    # hdring-tune --install: merged into $HOME/.openmpi/mca-params.conf, other lines kept, once however often
    local home
    home=$(mktemp -d)
    mkdir -p "$home/.openmpi"
    printf 'btl = self,vader\ncoll_hdring_model_reduce_mbs = 1\ncoll_hdring_priority = 50\n' >"$home/.openmpi/mca-params.conf"
    local conf=$home/.openmpi/mca-params.conf runs_ok=true runs_log
    runs_log=$(mktemp)
    for run in 1 2; do
        HOME=$home measured 3 mpi 2 -x HOME "${HDRING_TUNE:?}" --quick --install || runs_ok=false
        cat "$LOG" >>"$runs_log"
    done
    mv "$runs_log" "$LOG"
    if $runs_ok && [ "$(grep -c '^# >>> hdring-tune' "$conf")" -eq 1 ] && [ "$(sed -n 1p "$conf")" = 'btl = self,vader' ] &&
        [ "$(sed -n 2p "$conf")" = '# replaced by hdring-tune: coll_hdring_model_reduce_mbs = 1' ] &&
        [ "$(sed -n 3p "$conf")" = 'coll_hdring_priority = 50' ] && grep -Eq '^coll_hdring_model_reduce_mbs = [1-9][0-9]*$' "$conf" &&
        ! grep -Eq '^coll_hdring_model_(latency_us|bandwidth_mbs) ' "$conf" &&
        [ "$(grep -Ev '^#' "$conf" | grep -Evc '^coll_hdring_model_')" -eq 2 ] &&
        HOME=$home "$OMPI_INFO" --param coll hdring --level 9 --parsable |
        grep -q "^mca:coll:hdring:param:coll_hdring_model_reduce_mbs:source:file ($conf:"; then
        pass "hdring-tune --install (np=2, twice): one block in mca-params.conf, other lines kept, ompi_info reads it"
    else
        fail "hdring-tune --install (np=2, twice): one block in mca-params.conf, other lines kept, ompi_info reads it"
        sed 's/^/#   /' "$conf"
    fi
    rm -rf "$home"

    check "reduce_scatter, reduce_scatter_block, allgather, bcast correct (np=5)" 5 \
        "$bin/hdring_check" --coll reduce_scatter,reduce_scatter_block,allgather,bcast --quick

    # communicator lifecycle
    check "100 rounds of dup/split/free (np=4)" 4 "$bin/hdring_lifecycle" --churn
    # communicators of one setup (size, this rank's rank, placement, parameters) share its cached tasks: of 60
    # allreduces on 30 communicators one after another (dups of MPI_COMM_WORLD, traced by world rank 0, and
    # rank-reversed splits, traced by world rank 4), two build their schedule, one for each setup, and the others
    # take it from the cache; the answers are right
    mpi 5 --mca coll_hdring_verbose 2 "$bin/hdring_lifecycle" --adopt
    if [ $? -eq 0 ] && has '[1-9][0-9]* (cases|checks), 0 failures$' &&
        [ "$(grep -c '^hdring: allreduce schedule built for this call' "$LOG")" -eq 2 ] &&
        [ "$(grep -c '^hdring: allreduce schedule from the cache' "$LOG")" -eq 58 ]; then
        pass "communicators of one setup share its tasks: 2 of 60 allreduces on 30 communicators build theirs (np=5)"
    else
        fail "communicators of one setup share its tasks: 2 of 60 allreduces on 30 communicators build theirs (np=5)"
    fi
    check "3 threads per process create, use and free communicators at once (np=4, MPI_THREAD_MULTIPLE)" 4 \
        "$bin/hdring_lifecycle" --threads
    check "MPI_COMM_SELF and size-1 communicators (np=3)" 3 "$bin/hdring_lifecycle" --self
    check "MPI_COMM_SELF and size-1 communicators without coll/self (np=2)" 2 --mca coll ^self "$bin/hdring_lifecycle" --self
    # coll_base_verbose shows each rank's selection: hdring declines exactly one communicator per rank (the
    # intercommunicator), which coll/inter serves
    mpi 4 --mca coll_base_verbose 10 "$bin/hdring_lifecycle" --intercomm
    if [ $? -eq 0 ] && [ "$(grep -c 'component not available: hdring$' "$LOG")" -eq 4 ] &&
        [ "$(grep -c 'selecting *inter, priority *40, Enabled' "$LOG")" -eq 4 ] && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "intercommunicators are declined and still answered correctly (np=4)"
    else
        fail "intercommunicators are declined and still answered correctly (np=4)"
    fi
    mpi 3 "$bin/hdring_lifecycle" --binding
    if [ $? -eq 0 ] && has '^hdring: allreduce np=3 bytes=28 ' && ! has 'bytes=44' && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "MPI_T priority write binds one communicator to hdring and one to tuned"
    else
        fail "MPI_T priority write binds one communicator to hdring and one to tuned"
    fi
}

COLLS="allreduce reduce_scatter reduce_scatter_block allgather bcast"
# the algorithms of a collective, as hdring's MCA enum lists them (the registry, hdring_registry.h)
algs_of() {
    "$OMPI_INFO" --param coll hdring --level 9 --parsable 2>/dev/null |
        sed -n "s/^mca:coll:hdring:param:coll_hdring_$1_algorithm:enumerator:value:[1-9][0-9]*://p"
}

# Every collective with every algorithm forced and with auto, on a dup of MPI_COMM_WORLD, both halves of an
# uneven split and a rank-reversed communicator; counts 0, 1, p-1, p, p+1, 3p+2, 1000+p, 40003; every
# datatype and operation of hdring_check; in place and not. Each case calls its collective once: blocking, or at
# some sizes each kind in turn (blocking; nonblocking, the I-call completed by MPI_Wait, MPI_Test, MPI_Waitall,
# MPI_Waitany or MPI_Testall in turn; persistent: init, start, completion, free).
suite_matrix() {
    local kinds
    local kind
    local sizes="1 2 3 4 5 6 7 8 9 12 16"
    [ "${HDRING_MPI_SUBSET:-}" = ompi5 ] && sizes="1 2 3 5 8"
    for np in $sizes; do
        case $np in 2 | 5 | 7 | 9) kind=mixed ;; *) kind=blocking ;; esac
        for c in $COLLS; do
            check "$c, every algorithm and auto, $kind, np=$np" "$np" "$HDRING_TESTBIN/hdring_check" --coll "$c" \
                --kind "$kind"
        done
    done
    # Calls that repeat the previous call's arguments take its task (coll_hdring_call.c): every case three times in
    # a row, each time with new buffers and data; datatypes freed and created again between repeated bcasts; other
    # calls (whose scratch replaces the module's) and freed user operations between repeated allreduces; the kinds
    # of call in turn.
    for np in 2 3 4 5; do
        check "every collective and algorithm, each case 3 times in a row, every kind in turn, np=$np" "$np" \
            "$HDRING_TESTBIN/hdring_check" --repeat 3 --quick --kind mixed
    done
    # coll/self (priority 75) serves size-1 communicators unless excluded; then hdring does.
    for np in 1 3; do
        check "every collective on size-1 communicators served by hdring (coll ^self), np=$np" "$np" \
            --mca coll ^self "$HDRING_TESTBIN/hdring_check" --quick
    done
    # Messages longer than coll_hdring_max_message_elements go as one message of a derived datatype: with 7,
    # every algorithm takes that path at ordinary counts.
    for np in 3 4; do
        check "every collective with messages carried by derived datatypes (max_message_elements 7), np=$np" \
            "$np" --mca coll_hdring_max_message_elements 7 "$HDRING_TESTBIN/hdring_check" --quick
    done
    # Messages of 257 B to coll_hdring_inline_pieces_bytes between ranks of a node with more ranks than cores go to
    # the PML in pieces of at most 256 B: every collective and algorithm with pieces up to the largest setting
    for np in 3 5; do
        check "every collective with messages in pieces up to 2048 B (inline_pieces_bytes 2048), np=$np" "$np" \
            --mca coll_hdring_model_cores 1 --mca coll_hdring_inline_pieces_bytes 2048 "$HDRING_TESTBIN/hdring_check" --quick
    done
    # and how many: hdring_pieces counts the messages one binomial bcast sends to rank 1 (2 ranks counted on one
    # core), at the limits; whole with pieces off, with a core per rank, with the ranks on two nodes by the node map
    # (a piece would pay the network's latency); a value out of range is reported and the default used
    local pieces_ok=true bcast=(--mca coll_hdring_bcast_algorithm binomial) one_core=(--mca coll_hdring_model_cores 1)
    mpi 2 "${bcast[@]}" "${one_core[@]}" "$HDRING_TESTBIN/hdring_pieces" 256 257 1024 1025 &&
        has '^hdring_pieces: 256 B 1 messages$' && has '^hdring_pieces: 257 B 2 messages$' &&
        has '^hdring_pieces: 1024 B 4 messages$' && has '^hdring_pieces: 1025 B 1 messages$' || pieces_ok=false
    mpi 2 "${bcast[@]}" "${one_core[@]}" --mca coll_hdring_inline_pieces_bytes 2048 "$HDRING_TESTBIN/hdring_pieces" 2048 &&
        has '^hdring_pieces: 2048 B 8 messages$' || pieces_ok=false
    mpi 2 "${bcast[@]}" "${one_core[@]}" --mca coll_hdring_inline_pieces_bytes 0 "$HDRING_TESTBIN/hdring_pieces" 1024 &&
        has '^hdring_pieces: 1024 B 1 messages$' || pieces_ok=false
    mpi 2 "${bcast[@]}" --mca coll_hdring_model_cores -1 "$HDRING_TESTBIN/hdring_pieces" 1024 &&
        has '^hdring_pieces: 1024 B 1 messages$' || pieces_ok=false
    mpi 2 "${bcast[@]}" "${one_core[@]}" --mca coll_hdring_node_map 0,1 --mca coll_hdring_calibrate 0 "$HDRING_TESTBIN/hdring_pieces" 1024 &&
        has '^hdring_pieces: 1024 B 1 messages$' || pieces_ok=false
    mpi 2 "${bcast[@]}" "${one_core[@]}" --mca coll_hdring_inline_pieces_bytes 5000 "$HDRING_TESTBIN/hdring_pieces" 1024 &&
        has '^hdring_pieces: 1024 B 4 messages$' &&
        has 'coll_hdring_inline_pieces_bytes is 5000; it must be from 0' || pieces_ok=false
    # allreduce, where a rank may have a core of its own (3 ranks on 2 cores), cuts at most two pieces (512 B): the
    # trace's line for each communicator gives what the transport takes (mca_coll_hdring_pieces_bytes)
    local cut='messages within a node of 257-1024 B in pieces of 256 B'
    mpi 3 --mca coll_hdring_model_cores 2 --mca coll_hdring_verbose 1 "$HDRING_TESTBIN/hdring_check" --alg env \
        --coll allreduce --counts 100,200 &&
        has "^hdring: communicator of 3 ranks on 1 node, 2 cores each \(.*\); $cut \(allreduce's to 512 B: a rank may have a core of its own\)\$" &&
        has '[1-9][0-9]* (cases|checks), 0 failures$' || pieces_ok=false
    mpi 4 --mca coll_hdring_model_cores 2 --mca coll_hdring_verbose 1 "$HDRING_TESTBIN/hdring_check" --alg env \
        --coll allreduce --counts 100,200 &&
        has "^hdring: communicator of 4 ranks on 1 node, 2 cores each \(.*\); $cut\$" &&
        has '[1-9][0-9]* (cases|checks), 0 failures$' || pieces_ok=false
    local what="messages of 257 B to inline_pieces_bytes go in pieces of 256 B on a node of more ranks than cores (allreduce's to 512 B where a rank may have a core of its own); whole when off, with a core per rank, across nodes (np=2-4)"
    if $pieces_ok; then
        pass "$what"
    else
        fail "$what"
    fi
    # Pipelined algorithms in segments the model would not choose: one byte, 7 (cutting elements of every
    # datatype), and 4 KiB, with every algorithm and auto. Bcast in one-byte segments leaves out the largest
    # count (40003 elements: hundreds of thousands of messages a call, 19 s on the idle machine, past the time limit
    # on a busy one) and keeps every other count class.
    for seg in 1 7 4096; do
        counts=()
        [ "$seg" != 1 ] || counts=(--counts 0,1,4,5,6,17,1005)
        check "bcast in segments of $seg B (coll_hdring_bcast_segment_bytes), np=5" 5 \
            --mca coll_hdring_bcast_segment_bytes "$seg" \
            "$HDRING_TESTBIN/hdring_check" --coll bcast "${counts[@]}"
        check "ring reduce-scatter in segments of $seg B (coll_hdring_<coll>_segment_bytes), np=5" 5 \
            --mca coll_hdring_allreduce_segment_bytes "$seg" --mca coll_hdring_reduce_scatter_segment_bytes "$seg" \
            --mca coll_hdring_reduce_scatter_block_segment_bytes "$seg" "$HDRING_TESTBIN/hdring_check" \
            --coll allreduce,reduce_scatter,reduce_scatter_block --alg ring
    done
    mpi 2 --mca coll_hdring_max_message_elements 0 "$HDRING_TESTBIN/hdring_check" --coll bcast --alg auto --quick
    if [ $? -eq 0 ] && has 'coll_hdring_max_message_elements is 0; it must be from 1' &&
        has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "an invalid max_message_elements is reported and replaced by the default (np=2)"
    else
        fail "an invalid max_message_elements is reported and replaced by the default (np=2)"
    fi
}

# Nonblocking and persistent calls in flight together (hdring_nbc): several collectives at once on one
# communicator and on two, beside a libnbc collective and a blocking call, completed in every order; persistent
# requests started again and again with new data; threads; a communicator freed with its calls in flight.
suite_nonblocking() {
    local bin=$HDRING_TESTBIN
    for np in 3 4; do
        check "every algorithm: the five collectives in flight at once, on one communicator and two, completed in every order (np=$np)" \
            "$np" "$bin/hdring_nbc" --outstanding
    done
    check "every algorithm across 4 nodes x 2 round-robin (node map): the five in flight at once (np=8)" 8 \
        --mca coll_hdring_node_map 0,1,2,3,0,1,2,3 "$bin/hdring_nbc" --outstanding
    for np in 3 5; do
        check "every algorithm: persistent requests started 12 times with new data, together and one by one (np=$np)" \
            "$np" "$bin/hdring_nbc" --persistent
    done
    check "3 threads per process, each nonblocking, persistent and blocking calls on a communicator of its own (np=4, MPI_THREAD_MULTIPLE)" \
        4 "$bin/hdring_nbc" --threads
    check "a communicator freed with its calls in flight: they complete right (np=3)" 3 "$bin/hdring_nbc" --free
}

# The trace shows each forced algorithm running (not the fallback) for commutative operations.
suite_trace() {
    for np in 4 5 6; do
        mpi "$np" --mca coll_hdring_verbose 1 "$HDRING_TESTBIN/hdring_check" --alg all --types int --counts 7,1000
        local rc=$? missing=""
        for c in $COLLS; do
            for a in $(algs_of "$c"); do
                has "^hdring: $c np=$np bytes=[0-9]+ alg=$a \(forced by coll_hdring_${c}_algorithm(; [^)]*)?\)$" ||
                    missing="$missing $c/$a"
            done
        done
        if [ $rc -eq 0 ] && [ -z "$missing" ] && ! has 'alg=fallback \(forced' && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
            pass "trace shows every forced algorithm running, none falling back (np=$np)"
        else
            fail "trace shows every forced algorithm running, none falling back (np=$np)" "missing:$missing"
        fi
    done
    # Schedules: every call's is built once per setup and key, and taken from the cache after; the trace names the
    # kind of each call (hdring_check repeats the allreduce of --counts 7,7,7, every kind in turn)
    mpi 5 --mca coll_hdring_verbose 2 "$HDRING_TESTBIN/hdring_check" --alg auto --types int --counts 7,7,7 --kind mixed
    local rc=$? missing="" c
    for c in $COLLS; do
        has "^hdring: (i$c|$c|${c}_init) schedule built for this call \([1-9][0-9]* steps\)$" || missing="$missing $c(built)"
        has "^hdring: (i$c|$c|${c}_init) schedule from the cache \([1-9][0-9]* steps\)$" || missing="$missing $c(cached)"
        for kind in "$c" "i$c" "${c}_init"; do
            has "^hdring: $kind np=5 bytes=[0-9]+ alg=[a-z_]+ \(" || missing="$missing $kind"
        done
    done
    if [ $rc -eq 0 ] && [ -z "$missing" ] && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "trace: each call's kind and decision; schedules built once, then taken from the cache (np=5)"
    else
        fail "trace: each call's kind and decision; schedules built once, then taken from the cache (np=5)" "missing:$missing"
    fi
    # coll_hdring_trace_changes 1 with coll_hdring_verbose 1: verbose's other lines stay, and a call's line comes
    # only when its arguments change (the OSU stand-in repeats each size's allreduce 50 times)
    local osu
    osu=$(mktemp -d)
    ln -s "$HDRING_TESTBIN/osu_stand_in" "$osu/osu_allreduce"
    mpi 2 --mca coll_hdring_verbose 1 --mca coll_hdring_trace_changes 1 --mca coll_hdring_select model \
        "$osu/osu_allreduce" -m 8:16 -i 50
    rc=$?
    if [ $rc -eq 0 ] && [ "$(grep -c '^hdring: allreduce np=2 bytes=8 ' "$LOG")" -eq 1 ] &&
        [ "$(grep -c '^hdring: allreduce np=2 bytes=16 ' "$LOG")" -eq 1 ] && has '^hdring: communicator of 2 ranks'; then
        pass "trace_changes 1 with verbose 1: one line per size of 50 calls each, verbose's communicator lines kept (np=2)"
    else
        fail "trace_changes 1 with verbose 1: one line per size of 50 calls each, verbose's communicator lines kept (np=2)" "exit status $rc"
    fi
    rm -rf "$osu"
}

# The automatic choice: the cost model by default, thresholds when set, never ring for a non-commutative op. The
# choices checked are those of a core per rank (coll_hdring_model_cores -1), whatever cores this machine has, but
# where said otherwise.
suite_decision() {
    local bin=$HDRING_TESTBIN core_each=(--mca coll_hdring_model_cores -1)
    mpi 5 "${core_each[@]}" --mca coll_hdring_verbose 1 "$bin/hdring_check" --coll bcast --alg env --types int \
        --counts 1000,3000000
    if [ $? -eq 0 ] &&
        has '^hdring: bcast np=5 bytes=12000000 alg=flat \(auto: cost model.s fastest for p=5 from 4041 B up\)$' &&
        has '^hdring: bcast np=5 bytes=4000 alg=binomial ' && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "auto broadcasts 4 KB (eager: the root would copy every message) by the binomial tree, 12 MB by the flat tree (np=5)"
    else
        fail "auto broadcasts 4 KB (eager: the root would copy every message) by the binomial tree, 12 MB by the flat tree (np=5)"
    fi
    mpi 5 "${core_each[@]}" --mca coll_hdring_node_map 0,1,2,3,4 --mca coll_hdring_calibrate 0 --mca coll_hdring_verbose 1 "$bin/hdring_check" \
        --coll bcast --alg env --types int --counts 3000000
    if [ $? -eq 0 ] &&
        has '^hdring: bcast np=5 bytes=12000000 alg=chain \(auto: cost model.s fastest for p=5 across 5 nodes x 1 from [0-9]+ B (to [0-9]+ B|up); segments of [0-9]+ B by the cost model\)$' &&
        has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "auto broadcasts 12 MB across 5 nodes down the pipelined chain in the model's segments (np=5)"
    else
        fail "auto broadcasts 12 MB across 5 nodes down the pipelined chain in the model's segments (np=5)"
    fi
    mpi 5 --mca coll_hdring_verbose 1 --mca coll_hdring_bcast_algorithm chain --mca coll_hdring_bcast_segment_bytes 4096 \
        "$bin/hdring_check" --coll bcast --alg env --types int --counts 1000,3000000
    if [ $? -eq 0 ] &&
        has '^hdring: bcast np=5 bytes=4000 alg=chain \(forced by coll_hdring_bcast_algorithm; segments of 4096 B by coll_hdring_bcast_segment_bytes\)$' &&
        has '^hdring: bcast np=5 bytes=12000000 alg=chain \(forced by coll_hdring_bcast_algorithm; segments of 4096 B by coll_hdring_bcast_segment_bytes\)$' &&
        has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "coll_hdring_bcast_segment_bytes sets the chain's segments, and the trace says so (np=5)"
    else
        fail "coll_hdring_bcast_segment_bytes sets the chain's segments, and the trace says so (np=5)"
    fi
    mpi 5 --mca coll_hdring_verbose 1 "$bin/hdring_check" --coll allreduce,reduce_scatter,reduce_scatter_block \
        --alg auto --types mat2x2 --counts 1,7,1000,40003
    if [ $? -eq 0 ] && has '^hdring: allreduce np=5 .*alg=[a-z_]+ \(auto: .*op not commutative: rank order, no ring\)$' &&
        ! has '^hdring: (allreduce|reduce_scatter|reduce_scatter_block) .*alg=(ring|bruck|fallback)' && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "auto never picks ring or bruck for a non-commutative op, and needs no fallback (np=5)"
    else
        fail "auto never picks ring or bruck for a non-commutative op, and needs no fallback (np=5)"
    fi
    # Bruck's ceil(log2 p) steps against the fold's l + 2 and the ring's p - 1, for small vectors at p = 5
    mpi 5 "${core_each[@]}" --mca coll_hdring_verbose 1 "$bin/hdring_check" --coll allgather,reduce_scatter_block \
        --alg env --types int --counts 1,256
    if [ $? -eq 0 ] && has '^hdring: allgather np=5 bytes=20 alg=bruck \(auto: cost model.s fastest for p=5 from 0 B ' &&
        has '^hdring: reduce_scatter_block np=5 bytes=20 alg=bruck \(auto: cost model.s fastest for p=5 from 0 B ' &&
        has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "auto picks the Bruck allgather and reduce_scatter_block for small vectors at p=5 (np=5)"
    else
        fail "auto picks the Bruck allgather and reduce_scatter_block for small vectors at p=5 (np=5)"
    fi
    mpi 5 "${core_each[@]}" --mca coll_hdring_verbose 1 "$bin/hdring_check" --coll allreduce --alg env --types int \
        --counts 1000,40003
    if [ $? -eq 0 ] && has '^hdring: allreduce np=5 bytes=4000 alg=[a-z_]+ \(auto: cost model.s fastest for p=5 from [0-9]+ B to ' &&
        has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "auto follows the cost model by default (np=5)"
    else
        fail "auto follows the cost model by default (np=5)"
    fi
    mpi 5 --mca coll_hdring_verbose 1 --mca coll_hdring_allreduce_small_bytes_npof2 100000 \
        --mca coll_hdring_allreduce_large_bytes_npof2 150000 "$bin/hdring_check" --coll allreduce --alg env \
        --types int --counts 1000,30000,40003
    if [ $? -eq 0 ] &&
        has '^hdring: allreduce np=5 bytes=4000 alg=recursive_doubling \(auto: <= coll_hdring_allreduce_small_bytes_npof2 = 100000\)$' &&
        has '^hdring: allreduce np=5 bytes=120000 alg=(rhd|binary_blocks) \(auto: cost model' &&
        has '^hdring: allreduce np=5 bytes=160012 alg=ring \(auto: >= coll_hdring_allreduce_large_bytes_npof2 = 150000\)$' &&
        has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "set thresholds override the model: small -> recursive_doubling, between -> model, large -> ring (np=5)"
    else
        fail "set thresholds override the model: small -> recursive_doubling, between -> model, large -> ring (np=5)"
    fi
    # hdring_model --crossovers prints the plan the component follows: every traced range is one of its lines, with
    # the cores the component found on this machine (the trace names them when 6 ranks have fewer)
    mpi 6 --mca coll_hdring_verbose 1 "$bin/hdring_check" --alg env --types int,double --counts 1,300,3000,30000,300000
    local rc=$? ranges model missing="" cores
    cores=$(sed -n "s/^hdring: [a-z_]* np=6 .*(auto: cost model's fastest for p=6 on 1 node, \([0-9]*\) cores each .*/\1/p" "$LOG" | head -1)
    ranges=$(sed -n "s/^hdring: \([a-z_]*\) np=6 bytes=[0-9]* alg=\([a-z_]*\) (auto: cost model's fastest for p=6\( on 1 node, [0-9]* cores each\)\{0,1\} from \([0-9]*\) B \(to [0-9]* B\|up\)\(; segments of [0-9]* B by the cost model\)\{0,1\})\$/\1 \2 \4 \5/p" "$LOG" |
        sed 's/^i\(allreduce\|reduce_scatter\|allgather\|bcast\)/\1/; s/^reduce_scatter_block /reduce_scatter /' | sort -u)
    model=$("${HDRING_MODEL:?}" --crossovers --coll all --p 6 --cores "${cores:-0}" | sed -n 's/^\([a-z_]*\) p=6: \([a-z_]*\) from \([0-9]*\) B \(to [0-9]* B\|up\) (cost model.s fastest)$/\1 \2 \3 \4/p')
    while read -r line; do
        grep -qxF "$line" <<<"$model" || missing="$missing; $line"
    done <<<"$ranges"
    if [ $rc -eq 0 ] && [ "$(wc -l <<<"$ranges")" -ge 6 ] && [ -z "$missing" ] && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "hdring_model --crossovers prints the ranges the trace shows ($(wc -l <<<"$ranges") ranges, np=6, ${cores:-6} cores)"
    else
        fail "hdring_model --crossovers prints the ranges the trace shows (np=6)" "not in hdring_model's output:$missing"
    fi
    # hdring_model --regret: what following the model loses on measurements, and the points where it loses; a
    # reduce_scatter and a reduce_scatter_block of one size are two points, a row measured twice is an error
    local csv pick other regret dup
    csv=$(mktemp)
    pick=$("$HDRING_MODEL" --coll allreduce --p 2 --bytes 8 | awk '$1 == 8 {print $NF}')
    other=ring
    [ "$pick" != ring ] || other=rhd
    printf '%s\n' collective,p,algorithm,bytes,us "allreduce,2,$pick,8,2.0" "allreduce,2,$other,8,1.0" \
        reduce_scatter,2,ring,16,1.0 reduce_scatter,2,rhd,16,1.0 \
        reduce_scatter_block,2,ring,16,1.0 reduce_scatter_block,2,rhd,16,1.0 >"$csv"
    regret=$("$HDRING_MODEL" --regret "$csv")
    echo "allreduce,2,$pick,8,3.0" >>"$csv"
    dup=$("$HDRING_MODEL" --regret "$csv" 2>&1)
    local dup_rc=$?
    rm -f "$csv"
    if grep -q '^# evaluated on 3 measured points .*costs 26\.0% over the measured fastest on average (geometric), 100% at worst$' <<<"$regret" &&
        [ "$(grep -c '^# loses' <<<"$regret")" -eq 1 ] &&
        grep -qxF "# loses 100%: allreduce p=2 8 B: the model's $pick 2.00 us, $other 1.00 us" <<<"$regret" &&
        [ $dup_rc -eq 2 ] && grep -q "measures allreduce of 8 B at p=2 by $pick twice" <<<"$dup"; then
        pass "hdring_model --regret: the loss on 3 points, the one point where the model's $pick loses, a row twice refused"
    else
        fail "hdring_model --regret: the loss on 3 points, the one point where the model's $pick loses, a row twice refused" \
            "$regret / $dup (exit $dup_rc)"
    fi
    # the model's eager limit follows vader's: 6000 B at 2 ranks is one message over 4 KiB for recursive doubling,
    # two under it for rhd, and one under an 8 KiB limit; a limit set for hdring itself wins. Recursive doubling's
    # range ends at the model's eager limit, which must be the PML's own: hdring_eager sends the largest message
    # the model takes for eager and one byte more, over vader at both limits
    local eager_ok=true limit
    mpi 2 --mca coll_hdring_verbose 1 "$bin/hdring_check" --coll allreduce --alg env --types int --counts 1500 &&
        has '[1-9][0-9]* (cases|checks), 0 failures$' || eager_ok=false
    limit=$(sed -En 's/^hdring: allreduce np=2 bytes=6000 alg=rhd \(auto: cost model.s fastest for p=2 from ([0-9]+) B .*/\1/p' "$LOG" | head -1)
    [ -n "$limit" ] && pml_sends_eagerly_up_to 4096 $((limit - 1)) || eager_ok=false
    mpi 2 --mca btl_vader_eager_limit 8192 --mca coll_hdring_verbose 1 "$bin/hdring_check" --coll allreduce \
        --alg env --types int --counts 1500 && has '[1-9][0-9]* (cases|checks), 0 failures$' || eager_ok=false
    limit=$(sed -En 's/^hdring: allreduce np=2 bytes=6000 alg=recursive_doubling \(auto: cost model.s fastest for p=2 from 0 B to ([0-9]+) B\)$/\1/p' "$LOG" | head -1)
    [ -n "$limit" ] && pml_sends_eagerly_up_to 8192 "$limit" || eager_ok=false
    mpi 2 --mca btl_vader_eager_limit 8192 --mca coll_hdring_model_eager_bytes 4080 --mca coll_hdring_verbose 1 \
        "$bin/hdring_check" --coll allreduce --alg env --types int --counts 1500
    { [ $? -eq 0 ] && has '^hdring: allreduce np=2 bytes=6000 alg=rhd ' && has '[1-9][0-9]* (cases|checks), 0 failures$'; } ||
        eager_ok=false
    if $eager_ok; then
        pass "the model's eager limit is the PML's under btl_vader_eager_limit 4096 and 8192, unless coll_hdring_model_eager_bytes is set (np=2)"
    else
        fail "the model's eager limit is the PML's under btl_vader_eager_limit 4096 and 8192, unless coll_hdring_model_eager_bytes is set (np=2)"
    fi
    # between nodes the model's default (which hdring_model assumes) is TCP's eager limit less the same header
    limit=$("$OMPI_INFO" --parsable --param coll hdring --level 9 2>/dev/null |
        sed -En 's/^mca:coll:hdring:param:coll_hdring_model_network_eager_bytes:value:([0-9]+)(\.0+)?$/\1/p')
    if [ -n "$limit" ] && pml_sends_eagerly_up_to "" "$limit" --mca btl tcp,self; then
        pass "coll_hdring_model_network_eager_bytes' default ($limit) is the largest message ob1 sends eagerly over TCP"
    else
        fail "coll_hdring_model_network_eager_bytes' default (${limit:-not found}) is the largest message ob1 sends eagerly over TCP"
    fi
    # hdring-tune's model takes the eager limits the component's takes: the BTL's less ob1's header, unless set
    local tune_ok=true said="^# the model's eager limits \(the largest message the PML sends without a rendezvous\):"
    measured 3 mpi 2 --mca btl_vader_eager_limit 8192 "${HDRING_TUNE:?}" --quick --print &&
        has "$said $((8192 - OB1_HEADER)) B within a node, ${limit:-$((65536 - OB1_HEADER))} B between nodes$" || tune_ok=false
    measured 3 mpi 2 --mca btl_vader_eager_limit 8192 --mca coll_hdring_model_eager_bytes 3000 "$HDRING_TUNE" \
        --quick --print && has "$said 3000 B within a node, " || tune_ok=false
    if $tune_ok; then
        pass "hdring-tune's model follows btl_vader_eager_limit 8192 ($((8192 - OB1_HEADER)) B) as the component's does, unless coll_hdring_model_eager_bytes is set (np=2)"
    else
        fail "hdring-tune's model follows btl_vader_eager_limit 8192 ($((8192 - OB1_HEADER)) B) as the component's does, unless coll_hdring_model_eager_bytes is set (np=2)"
    fi
    # a node with fewer cores than ranks: the model charges steps that keep more ranks busy than cores (2 here)
    # longer, so recursive halving-doubling (pairs, a fold) reduces 1 MB where a core per rank takes the ring (every
    # rank reducing at every step)
    mpi 5 --mca coll_hdring_model_cores 2 --mca coll_hdring_verbose 1 "$bin/hdring_check" --coll allreduce --alg env \
        --types int --counts 250000
    if [ $? -eq 0 ] &&
        has '^hdring: allreduce np=5 bytes=1000000 alg=rhd \(auto: cost model.s fastest for p=5 on 1 node, 2 cores each from [0-9]+ B to [0-9]+ B\)' &&
        ! has '^hdring: allreduce np=5 bytes=1000000 alg=ring ' && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "coll_hdring_model_cores 2: rhd reduces 1 MB on 5 ranks, and the trace names the cores"
    else
        fail "coll_hdring_model_cores 2: rhd reduces 1 MB on 5 ranks, and the trace names the cores"
    fi
    mpi 5 "${core_each[@]}" --mca coll_hdring_verbose 1 "$bin/hdring_check" --coll allreduce --alg env --types int \
        --counts 250000
    if [ $? -eq 0 ] && has '^hdring: allreduce np=5 bytes=1000000 alg=ring ' && ! has 'cores each' &&
        has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "coll_hdring_model_cores -1: a core per rank, and the ring reduces 1 MB on 5 ranks"
    else
        fail "coll_hdring_model_cores -1: a core per rank, and the ring reduces 1 MB on 5 ranks"
    fi
    check "no scratch cache (every call allocates its own): still correct (np=5)" 5 \
        --mca coll_hdring_scratch_cache_bytes 0 "$bin/hdring_check" --coll allreduce,reduce_scatter --quick
    mpi 4 --mca coll_hdring_model_bandwidth_mbs 0 "$bin/hdring_check" --coll allreduce --alg auto --quick
    if [ $? -eq 0 ] && has 'parameter coll_hdring_model_bandwidth_mbs is 0; it must be' && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "an invalid cost model parameter is reported once and replaced by its default (np=4)"
    else
        fail "an invalid cost model parameter is reported once and replaced by its default (np=4)"
    fi

    # ranks given different decisive parameters (one application context each): MPI_COMM_WORLD and the
    # communicators spanning both are left to the fallback, with one message naming the parameters and ranks;
    # the communicators within one context, whose ranks agree, stay hdring's
    local chain=(-np 2 -x OMPI_MCA_coll_hdring_bcast_algorithm=chain -x OMPI_MCA_coll_hdring_allreduce_algorithm=ring
        "$bin/hdring_check" --coll bcast,allreduce --alg env --counts 1000,100000)
    local binomial=(-np 2 -x OMPI_MCA_coll_hdring_bcast_algorithm=binomial -x OMPI_MCA_coll_hdring_allreduce_algorithm=rhd
        "$bin/hdring_check" --coll bcast,allreduce --alg env --counts 1000,100000)
    local differ='coll/hdring: the ranks of a new communicator of 4 ranks run with different'
    timeout -k 10 "$TIMEOUT" "$MPIRUN" "${MPI_FLAGS[@]}" --mca coll_hdring_verbose 1 "${chain[@]}" : "${binomial[@]}" \
        >"$LOG" 2>&1
    local rc=$?
    if [ $rc -eq 0 ] && [ "$(grep -c "$differ" "$LOG")" -eq 1 ] &&
        has '^  coll_hdring_bcast_algorithm: 7 on ranks 0-1; 1 on ranks 2-3$' &&
        has '^  coll_hdring_allreduce_algorithm: 1 on ranks 0-1; 2 on ranks 2-3$' &&
        has '^hdring: communicator of 4 ranks left to the next component' &&
        has '^hdring: bcast np=2 bytes=400000 alg=chain' && has '^hdring: bcast np=2 bytes=400000 alg=binomial' &&
        ! has '^hdring: [a-z_]+ np=4' && has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "ranks with different algorithms forced: one message naming them, the fallback serves, no hang (MPMD np=2+2)"
    else
        fail "ranks with different algorithms forced: one message naming them, the fallback serves, no hang (MPMD np=2+2)" \
            "exit status $rc"
    fi
    # the same job without the check fails (it hangs, or the bcast is truncated): what the check prevents. A
    # short limit: a slow machine can only make it fail sooner, not pass
    timeout -k 10 30 "$MPIRUN" "${MPI_FLAGS[@]}" --mca coll_hdring_check_parameters 0 "${chain[@]}" : "${binomial[@]}" \
        >"$LOG" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && ! has "$differ"; then
        pass "without coll_hdring_check_parameters the same job fails (exit status $rc): the check is what saves it"
    else
        fail "without coll_hdring_check_parameters the same job fails (exit status $rc): the check is what saves it"
    fi
}

# Several nodes on one machine, imposed with coll_hdring_node_map: the locality order, the hierarchical algorithms
# and the two-level model, on shapes the runtime would never report here.
suite_topology() {
    local bin=$HDRING_TESTBIN
    # every collective, every algorithm (hierarchical ones included) and auto, on grids and uneven maps; the calls
    # nonblocking on the round-robin grids, blocking on the others
    local shapes="8:0,0,1,1,2,2,3,3:4x2-by-slot 8:0,1,2,3,0,1,2,3:4x2-round-robin 8:2,0,1,3,1,0,3,2:4x2-random"
    shapes="$shapes 6:0,1,2,0,1,2:3x2-round-robin 9:0,0,0,1,1,1,2,2,2:3x3-by-slot 12:0,1,2,0,1,2,0,1,2,0,1,2:3x4-round-robin"
    shapes="$shapes 16:0,1,2,3,4,5,6,7,7,6,5,4,3,2,1,0:8x2-mirrored 7:0,0,0,1,2,2,1:uneven-3-1-3 10:0,1,0,1,0,2,2,2,0,1:uneven"
    local kind
    for shape in $shapes; do
        IFS=: read -r np map name <<<"$shape"
        case $name in *round-robin) kind=nonblocking ;; *) kind=blocking ;; esac
        check "every collective and algorithm with ranks on $name nodes (coll_hdring_node_map $map), $kind" \
            "$np" --mca coll_hdring_node_map "$map" "$bin/hdring_check" --quick --kind "$kind"
    done

    # the hierarchy with its levels overlapped, in segments of 64 B: many waves, each with every level's rounds;
    # blocking, nonblocking and persistent calls in turn
    for shape in 8:0,0,1,1,2,2,3,3:4x2-by-slot 9:0,1,2,0,1,2,0,1,2:3x3-round-robin 8:0,0,0,0,1,1,1,1:2x4-by-slot \
        6:0,1,2,3,4,5:6x1; do
        IFS=: read -r np map name <<<"$shape"
        check "allreduce hier_pipelined in segments of 64 B on $name nodes, every kind" "$np" \
            --mca coll_hdring_node_map "$map" --mca coll_hdring_allreduce_algorithm hier_pipelined \
            --mca coll_hdring_allreduce_segment_bytes 64 "$bin/hdring_check" --alg env --coll allreduce --kind mixed
    done

    # the locality map and the hierarchical choice in the trace, with a slow network
    local slow=(--mca coll_hdring_model_network_latency_us 30 --mca coll_hdring_model_network_bandwidth_mbs 25
        --mca coll_hdring_calibrate 0)
    mpi 8 --mca coll_hdring_node_map 0,1,2,3,0,1,2,3 "${slow[@]}" --mca coll_hdring_verbose 1 "$bin/hdring_check" \
        --alg env --coll allreduce,allgather,reduce_scatter_block,bcast --types int --counts 1,300000
    if [ $? -eq 0 ] &&
        has '^hdring: communicator of 8 ranks on 4 nodes x 2 \(from coll_hdring_node_map\); ranks renumbered node by node$' &&
        has "^hdring: allgather np=8 bytes=[0-9]+ alg=hier_[a-z_]+ \(auto: cost model's fastest for p=8 across 4 nodes x 2 from [0-9]+ B (to [0-9]+ B|up); across [a-z_]+; then within nodes [a-z_]+\)$" &&
        has "^hdring: reduce_scatter_block np=8 bytes=[0-9]+ alg=hier_[a-z_]+ \(auto: .* across 4 nodes x 2 " &&
        has "^hdring: allreduce np=8 bytes=[0-9]+ alg=[a-z_]+ \(auto: cost model's fastest for p=8 across 4 nodes x 2 " &&
        has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "trace: the node map, and hierarchical algorithms chosen across 4 nodes x 2 (np=8)"
    else
        fail "trace: the node map, and hierarchical algorithms chosen across 4 nodes x 2 (np=8)"
    fi

    # hdring_model prints the plan the component follows on a shape of nodes too, phases included (a pipelined
    # range's segment size varies with the size, so the ranges are compared without it)
    local ranges model missing=""
    ranges=$(sed -n "s/^hdring: \([a-z_]*\) np=8 bytes=[0-9]* alg=\([a-z_]*\) (auto: cost model's fastest for p=8 across 4 nodes x 2 from \([0-9]*\) B \(to [0-9]* B\|up\)\(.*\))\$/\1 \2 \3 \4\5/p" "$LOG" |
        sed 's/; segments of [0-9]* B by the cost model$//; s/^i\(allreduce\|reduce_scatter\|allgather\|bcast\)/\1/' |
        sed 's/^reduce_scatter_block /reduce_scatter /' | sort -u)
    model=$("${HDRING_MODEL:?}" --crossovers --coll all --nodes 4 --ppn 2 --mapping node --network-latency-us 30 \
        --network-bandwidth-mbs 25 | sed -n "s/^\([a-z_]*\) p=8: \([a-z_]*\) from \([0-9]*\) B \(to [0-9]* B\|up\) (cost model's fastest\(.*\))\$/\1 \2 \3 \4\5/p")
    while read -r line; do
        grep -qxF "$line" <<<"$model" || missing="$missing; $line"
    done <<<"$ranges"
    if [ "$(wc -l <<<"$ranges")" -ge 5 ] && [ -z "$missing" ]; then
        pass "hdring_model --crossovers --nodes 4 --ppn 2 prints the ranges and phases the trace shows"
    else
        fail "hdring_model --crossovers --nodes 4 --ppn 2 prints the ranges and phases the trace shows" "not in hdring_model's output:$missing"
    fi

    # a hierarchical algorithm forced on nodes of unequal size runs its flat algorithm, and says so
    mpi 7 --mca coll_hdring_node_map 0,0,0,1,2,2,1 --mca coll_hdring_allreduce_algorithm hier_ring \
        --mca coll_hdring_verbose 1 "$bin/hdring_check" --alg env --coll allreduce --types int --counts 1000
    if [ $? -eq 0 ] &&
        has '^hdring: allreduce np=7 bytes=4000 alg=ring \(forced hier_ring by coll_hdring_allreduce_algorithm, but the nodes hold different numbers of ranks across 3 nodes x 1-3: its flat algorithm in node order\)$' &&
        has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "hier_ring forced on uneven nodes: ring in node order, said in the trace (np=7)"
    else
        fail "hier_ring forced on uneven nodes: ring in node order, said in the trace (np=7)"
    fi

    # a malformed map is reported once and ignored
    mpi 4 --mca coll_hdring_node_map 0,x,1 --mca coll_hdring_verbose 1 "$bin/hdring_check" --alg env --coll allreduce --quick
    if [ $? -eq 0 ] && [ "$(grep -c 'coll_hdring_node_map is "0,x,1"' "$LOG")" -eq 1 ] &&
        has '^hdring: communicator of 4 ranks on 1 node(, [0-9]+ cores each)? \(from the runtime' &&
        has '[1-9][0-9]* (cases|checks), 0 failures$'; then
        pass "a malformed node map is reported once and ignored (np=4)"
    else
        fail "a malformed node map is reported once and ignored (np=4)"
    fi
    calibration_checks
}

# The network measured at MPI_COMM_WORLD's creation (coll_hdring_calibrate): nodes imposed with a node map (the
# "network" is then this machine's shared memory, or UCX's transports), measured once, agreed, overridden by a
# value set, off with calibrate 0, absent on one node; an error or pairs that disagree leave the defaults, said once.
calibration_checks() {
    local bin=$HDRING_TESTBIN run=("$HDRING_TESTBIN/hdring_check" --alg env --coll allreduce,bcast --quick)
    local measured='^hdring: network measured by 1 pair of node leaders: latency [0-9.]+ us, [0-9.]+ MB/s one way, [0-9.]+ MB/s each way exchanging; the model uses '
    local ok='[1-9][0-9]* (cases|checks), 0 failures$'
    # measure_tries NP ARGS...: a run that measures, of up to 3 (a busy moment can leave one run's timings
    # meaningless, and then it keeps the defaults and says so); its status, its log in $LOG
    measure_tries() {
        local try rc
        for try in 1 2 3; do
            mpi "$@"
            rc=$?
            [ $rc -ne 0 ] || ! grep -q "the timings meant nothing" "$LOG" || continue
            return $rc
        done
        return $rc
    }
    local name="network measured once at MPI_COMM_WORLD's creation across 2 nodes, the parameter check passes (ob1, np=2)"
    measure_tries 2 --mca coll_hdring_node_map 0,1 --mca coll_hdring_verbose 1 "${run[@]}"
    if [ $? -eq 0 ] && [ "$(grep -Ec "$measured" "$LOG")" -eq 1 ] && has "$ok"; then
        pass "$name"
    else
        fail "$name"
    fi
    # more ranks than cores: the leaders' timings may be the scheduler's (then the defaults stay, said once); either
    # way one line says which, every rank agrees and the results are right
    name="network measured or left at the defaults, said once, on 2 nodes x 2 with ranks waiting (np=4)"
    mpi 4 --mca coll_hdring_node_map 0,0,1,1 --mca coll_hdring_verbose 1 "${run[@]}"
    if [ $? -eq 0 ] && has "$ok" &&
        [ $(($(grep -Ec "$measured" "$LOG") + $(grep -c "coll/hdring could not measure the network" "$LOG"))) -eq 1 ]; then
        pass "$name"
    else
        fail "$name"
    fi
    name="a network parameter set wins over the measured value; the others are measured (np=2)"
    measure_tries 2 --mca coll_hdring_node_map 0,1 --mca coll_hdring_verbose 1 \
        --mca coll_hdring_model_network_bandwidth_mbs 777 "${run[@]}"
    if [ $? -eq 0 ] && has "${measured}latency [0-9.]+ us, bandwidth 777 MB/s, exchange [0-9.]+ MB/s " && has "$ok"; then
        pass "$name"
    else
        fail "$name"
    fi
    name="nothing measured on one node, nor with coll_hdring_calibrate 0 (np=2)"
    mpi 2 --mca coll_hdring_verbose 1 "${run[@]}" && ! has 'network measured' && has "$ok" &&
        mpi 2 --mca coll_hdring_node_map 0,1 --mca coll_hdring_calibrate 0 --mca coll_hdring_verbose 1 "${run[@]}" &&
        ! has 'network measured' && has "$ok" && pass "$name" || fail "$name"
    # HDRING_NETWORK_FAULT (coll_hdring_network.c): a leader's failure, or a pair that measures 8 times the others
    local fault map expect
    for fault in error:0,0,1,1:"a message between node leaders failed" skew:0,1,2,3:"the pairs of leaders disagree"; do
        IFS=: read -r fault map expect <<<"$fault"
        name="network measurement with a fault ($fault): the defaults kept, said once, results right (np=4)"
        HDRING_NETWORK_FAULT=$fault mpi 4 -x HDRING_NETWORK_FAULT --mca coll_hdring_node_map "$map" \
            --mca coll_hdring_verbose 1 "${run[@]}"
        if [ $? -eq 0 ] && [ "$(grep -c "coll/hdring could not measure the network" "$LOG")" -eq 1 ] &&
            has "^$expect" && ! has 'network measured' && has "$ok"; then
            pass "$name"
        else
            fail "$name"
        fi
    done
    # UCX, where this Open MPI has it (Debian's 4.1 does; on one machine it runs over UCX's shared memory): 2 ranks,
    # one per core, since UCX polls and oversubscribed ranks leave its timings meaningless
    if "$OMPI_INFO" --parsable 2>/dev/null | grep -q '^mca:pml:ucx:'; then
        name="network measured under the UCX PML, results right (np=2)"
        measure_tries 2 --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any --mca coll_hdring_node_map 0,1 \
            --mca coll_hdring_verbose 1 "${run[@]}"
        if [ $? -eq 0 ] && [ "$(grep -Ec "$measured" "$LOG")" -eq 1 ] && has "$ok"; then
            pass "$name"
        else
            fail "$name"
        fi
    else
        echo "# this Open MPI has no UCX PML: the calibration under UCX is not tested"
    fi
}

# Floating-point sums of wildly different magnitudes: the same bits on every rank and on every call.
suite_repro() {
    for np in 2 3 4 5 6 8; do
        check "floating point: identical bits on all ranks and run after run, every algorithm (np=$np)" "$np" \
            "$HDRING_TESTBIN/hdring_check" --repro
    done
}

# More than 2^31 bytes in one call (1 KiB elements, counts below 2^31).
suite_large() {
    echo "# the calls of more than 2^31 bytes take about 5 minutes on an idle 2-core machine"
    LIMIT=$LONG_TIMEOUT check "allreduce, allgather, bcast, reduce_scatter_block of more than 2^31 bytes, auto, every flat algorithm and one hierarchical (np=2)" 2 \
        "$HDRING_TESTBIN/hdring_check" --large
}

# Across an emulated cluster (perf/cluster): 3 network-namespace nodes x 2 ranks, TCP between nodes on shaped
# 1 Gbit/s links, shared memory within a node. Needs root; skipped otherwise.
# perf/osu-driver.sh as a user runs it, on an OSU stand-in (osu_stand_in, under OSU's names): its tables, and that
# it never prints numbers as hdring's that its trace does not prove hdring's
suite_osu() {
    local dir out=$(mktemp -d) driver=$HDRING_SRCDIR/perf/osu-driver.sh
    dir=$out/osu
    mkdir -p "$dir"
    for b in allreduce reduce_scatter reduce_scatter_block allgather bcast; do
        ln -s "$HDRING_TESTBIN/osu_stand_in" "$dir/osu_$b"
    done
    local common=(--osu "$dir" --stage "$HDRING_STAGE" -n 3 -m 8:4096 -i 5 -r 2)
    LIMIT=$((TIMEOUT * 3)) watched $((TIMEOUT * 3)) "$driver" "${common[@]}" -c -a -b allreduce,bcast,allgather -o "$out/a"
    local rc=$? wide
    wide=$(awk 'length > 100' "$out/a/osu.txt" 2>/dev/null | wc -l)
    if [ $rc -eq 0 ] && [ "$wide" -eq 0 ] && [ "$(grep -c '^osu_[a-z_]*, 3 ranks: average latency' "$out/a/osu.txt")" -eq 3 ] &&
        [ "$(grep -c "^osu_[a-z_]*, 3 ranks: hdring algorithms forced, the fastest" "$out/a/osu.txt")" -eq 3 ] &&
        grep -Eq '^ +4096 +[0-9.]+ +[0-9.]+ +[0-9.]+ ' "$out/a/osu.txt" &&
        [ "$(grep -c '^allreduce,hdring:ring,' "$out/a/osu.csv")" -gt 0 ]; then
        pass "osu-driver.sh: tuned and hdring (auto and every algorithm), each run proved by its trace; tables of at most 100 columns"
    else
        fail "osu-driver.sh: tuned and hdring (auto and every algorithm), each run proved by its trace; tables of at most 100 columns" \
            "exit status $rc, $wide lines over 100 columns"
    fi
    # hdring found but serving no communicator (coll ^hdring in the environment): every hdring run is refused
    OMPI_MCA_coll=^hdring watched "$TIMEOUT" "$driver" "${common[@]}" -b allreduce -o "$out/b"
    rc=$?
    if [ $rc -eq 1 ] && has 'osu_allreduce with hdring:auto: its trace does not show hdring serving allreduce' &&
        ! grep -q '^allreduce,hdring' "$out/b/osu.csv" && grep -Eq '^ +8 +\(missing' "$out/b/osu.txt"; then
        pass "osu-driver.sh: hdring runs that hdring did not serve fail the driver and print no hdring number"
    else
        fail "osu-driver.sh: hdring runs that hdring did not serve fail the driver and print no hdring number" "exit status $rc"
    fi
    # no hdring at all (neither built here nor installed)
    (cd "$out" && env -u OMPI_MCA_mca_component_path -u OMPI_MCA_mca_base_component_path HOME="$out" \
        "$driver" --osu "$dir" -n 2 -b bcast -o "$out/c") >"$LOG" 2>&1
    rc=$?
    if [ $rc -eq 1 ] && has 'finds no hdring' && [ ! -s "$out/c/osu.txt" ]; then
        pass "osu-driver.sh without hdring: says so and measures nothing"
    else
        fail "osu-driver.sh without hdring: says so and measures nothing" "exit status $rc"
    fi
    rm -rf "$out"
}

# Measured selection (coll_hdring_select, README "How it chooses"): many calls of one size, as a loop makes them,
# with every call's result checked and every rank's bits compared (hdring_select), while hdring tries its candidates
# and the fallback and keeps one; the decision as the trace says it; decisions written by one job and read by the
# next; a hand-written decisions file obeyed, a bad line reported; the same bits run after run.
# select_digest NP ARGS...: the digest hdring_select printed, if it passed
select_digest() {
    mpi "$@" >/dev/null && grep -q 'checks, 0 failures$' "$LOG" && sed -n 's/^hdring_select: digest //p' "$LOG"
}

suite_select() {
    local sel=$HDRING_TESTBIN/hdring_select measured=(--mca coll_hdring_select measured) np c dir digest1 digest2
    for np in 1 2 3 4 8; do
        for c in allreduce reduce_scatter_block allgather bcast; do
            check "measured selection: $c of 64 B-64 KiB, blocking and nonblocking mixed, every result right (np=$np)" \
                "$np" "${measured[@]}" "$sel" --coll "$c" --kind mixed --calls 60
            [ "$np" -gt 1 ] || break
        done
    done
    check "measured selection: float sums, every rank the same bits (np=5)" 5 "${measured[@]}" "$sel" --type float
    check "measured selection across 2 nodes of the node map (np=4)" 4 "${measured[@]}" \
        --mca coll_hdring_node_map 0,0,1,1 "$sel" --coll allreduce --sizes 64,65536,1048576
    check "measured selection: every case of hdring_check right (np=5)" 5 "${measured[@]}" \
        "$HDRING_TESTBIN/hdring_check" --quick

    # the trace says what was measured and which candidate won; a call after the trial runs the winner
    mpi 4 "${measured[@]}" --mca coll_hdring_verbose 1 "$sel" --sizes 4096 --calls 60
    local rc=$?
    if [ $rc -eq 0 ] && has 'allreduce np=4 bytes [0-9]+-[0-9]+ measured \(the slowest rank.s median of [0-9] rounds\): .*fallback [0-9.]+ us -> [a-z_]+ \(' &&
        has 'alg=[a-z_]+ \(measured in this job for' && has 'checks, 0 failures$'; then
        pass "the trace says each candidate's time, the winner and why, then the calls run it (np=4)"
    else
        fail "the trace says each candidate's time, the winner and why, then the calls run it (np=4)" "exit status $rc"
    fi

    # one rank made slow on purpose in the model's choice: its times count for all, so every rank drops it alike
    mpi 4 "${measured[@]}" --mca coll_hdring_select_slow_rank 2 --mca coll_hdring_select_slow_us 3000 \
        --mca coll_hdring_trace_changes 1 "$sel" --sizes 4096 --calls 60
    rc=$?
    if [ $rc -eq 0 ] && has 'measured .*-> [a-z_]+ \([a-z_]+: (the model.s choice was over|[0-9]+% faster than the model)' &&
        has 'checks, 0 failures$'; then
        pass "a rank slow in the model's choice makes every rank drop it: the slowest rank's times decide (np=4)"
    else
        fail "a rank slow in the model's choice makes every rank drop it: the slowest rank's times decide (np=4)" \
            "exit status $rc"
    fi

    # a decisions file: written by a job that measured, read by the next, which measures nothing
    dir=$(mktemp -d)
    mpi 4 "${measured[@]}" --mca coll_hdring_decisions_file "$dir/decisions" "$sel" --sizes 64,65536
    rc=$?
    local lines
    lines=$(grep -Evc '^#|^$' "$dir/decisions" 2>/dev/null)
    mpi 4 "${measured[@]}" --mca coll_hdring_decisions_file "$dir/decisions" --mca coll_hdring_trace_changes 1 \
        "$sel" --sizes 64,65536
    if [ $rc -eq 0 ] && [ "${lines:-0}" -ge 2 ] && has "alg=[a-z_]+ \\(coll_hdring_decisions_file $dir/decisions" &&
        ! has 'measuring|measured \(the slowest' && has 'checks, 0 failures$'; then
        pass "a job writes what it measured to the decisions file; the next one runs it without measuring ($lines lines)"
    else
        fail "a job writes what it measured to the decisions file; the next one runs it without measuring" \
            "exit status $rc, $lines lines"
        sed 's/^/#   /' "$dir/decisions" 2>/dev/null
    fi

    # a file a person wrote: obeyed in every mode, a line it cannot read named on stderr and left out
    printf '# ours\n* * allgather 0 * ring\n4 * allreduce 0 100 no_such_algorithm\n' >"$dir/ours"
    mpi 4 --mca coll_hdring_decisions_file "$dir/ours" --mca coll_hdring_trace_changes 1 "$sel" --coll allgather \
        --sizes 64,65536 --calls 10
    rc=$?
    if [ $rc -eq 0 ] && has 'alg=ring \(coll_hdring_decisions_file' && ! has 'alg=(recursive_doubling|bruck)' &&
        has 'line\(s\) it cannot' && has 'no_such_algorithm' && has 'checks, 0 failures$'; then
        pass "a hand-written decisions file is obeyed, and its bad line named"
    else
        fail "a hand-written decisions file is obeyed, and its bad line named" "exit status $rc"
    fi

    # the same bits run after run: the default (which measures only calls whose result cannot depend on the
    # algorithm), and measured selection with a decisions file
    digest1=$(select_digest 4 "$sel" --type float --sizes 64,4096,65536,1048576)
    digest2=$(select_digest 4 "$sel" --type float --sizes 64,4096,65536,1048576)
    if [ -n "$digest1" ] && [ "$digest1" = "$digest2" ]; then
        pass "float sums: the same bits run after run with the default selection (np=4)"
    else
        fail "float sums: the same bits run after run with the default selection (np=4)" "'$digest1' '$digest2'"
    fi
    digest1=$(select_digest 4 "${measured[@]}" --mca coll_hdring_decisions_file "$dir/decisions" "$sel" --type float \
        --sizes 64,65536)
    digest2=$(select_digest 4 "${measured[@]}" --mca coll_hdring_decisions_file "$dir/decisions" "$sel" --type float \
        --sizes 64,65536)
    if [ -n "$digest1" ] && [ "$digest1" = "$digest2" ]; then
        pass "float sums: the same bits run after run under measured selection with a decisions file (np=4)"
    else
        fail "float sums: the same bits run after run under measured selection with a decisions file (np=4)" \
            "'$digest1' '$digest2'"
    fi
    rm -rf "$dir"
}

# A rank killed (SIGKILL) during collectives under ULFM (Open MPI 5 with it, mpirun --with-ft ulfm), in every kind of
# call: every survivor's call returns (MPI_ERR_PROC_FAILED or MPI_ERR_REVOKED), none crashes (MPI_ERRORS_RETURN), a
# persistent request started after the loss or the revoke ends in an error, and after revoke and shrink hdring serves
# the survivors right; the tolerant allreduce (coll_hdring_tolerant 1) completes on every survivor with the
# survivors' reduction (or every rank's, when the lost rank gave its own first), the same class and bits on each,
# wherever the rank dies (hdring_ulfm says how each rank is killed). A call that has not returned within the time
# limit is a hang: hdring_ulfm says so and the job ends (--bound).
# Open MPI 5.0.9's own MPI_Finalize sometimes waits forever for the killed rank after everything else is done (a
# PMIx fence; one run in 6 to 40 here, the same with hdring excluded, open-mpi/ompi#11404): once the survivors have
# printed their summary, a stalled finalize is ended after a grace period and said in the log, and the verdict rests
# on what the survivors printed.
ulfm_check() {
    local name=$1 np=$2 pid waited=0 rc
    shift 2
    "$MPIRUN" -np "$np" "${MPI_FLAGS[@]}" --with-ft ulfm "$@" >"$LOG" 2>&1 &
    pid=$!
    local size last=-1 since
    since=$(date +%s)
    while kill -0 "$pid" 2>/dev/null; do
        size=$(stat -c %s "$LOG" 2>/dev/null || echo 0)
        [ "$size" != "$last" ] && last=$size since=$(date +%s)
        if has '^hdring_ulfm: [0-9]* checks, [0-9]* failures$'; then
            # the survivors are done; only MPI_Finalize and mpirun's teardown remain
            if [ $((waited += 1)) -ge 100 ]; then
                echo "# $name: Open MPI's MPI_Finalize stalled after the survivors' summary (open-mpi/ompi#11404); ended" \
                    | tee -a "$LOG"
                stop_job "$pid"
                break
            fi
        elif [ $(($(date +%s) - since)) -ge "$TIMEOUT" ]; then
            stop_job "$pid"
            fail "$name" "no output for ${TIMEOUT}s before the survivors' summary"
            return
        fi
        sleep 0.2
    done
    wait "$pid" 2>/dev/null
    rc=$?
    # mpirun reports the killed rank (its exit status is not the test's): the survivors' summary and lines decide
    if [ $rc -ne 124 ] && has '^hdring_ulfm: [1-9][0-9]* checks, 0 failures$' &&
        [ "$(grep -c '^hdring_ulfm: rank [0-9]*: ' "$LOG")" -eq $((np - 1)) ] && ! has '^FAIL'; then
        pass "$name"
    else
        fail "$name" "exit status $rc"
    fi
}

suite_ulfm() {
    local bin=$HDRING_TESTBIN/hdring_ulfm on=(--mca coll_hdring_priority 40) tol=(--mca coll_hdring_tolerant 1)
    if [ ! -x "$bin" ]; then
        echo "# suite ulfm: this Open MPI has no ULFM (hdring_ulfm not built); skipped"
        return
    fi
    local c k run=("$bin" --bound "$TIMEOUT")
    for c in "allreduce --kill op --count 100000" "bcast --kill thread --count 1000000" \
        "allgather --kill before --count 1000" "reduce_scatter_block --kill op --count 30000 --in-place" \
        "reduce_scatter --kill thread --count 100000"; do
        ulfm_check "ULFM, rank 2 of 4 killed in $c: survivors return, shrink, allreduce right" 4 "${on[@]}" \
            "${run[@]}" --coll $c
    done
    ulfm_check "ULFM, rank 6 of 8 killed in allreduce --kill thread --count 1000000: survivors return, shrink, allreduce right" \
        8 "${on[@]}" "${run[@]}" --coll allreduce --kill thread --count 1000000
    for k in nonblocking persistent; do
        for c in allreduce reduce_scatter reduce_scatter_block allgather bcast; do
            ulfm_check "ULFM $k $c, rank 2 of 4 killed before its call: survivors return, later starts fail, shrink works" \
                4 "${on[@]}" "${run[@]}" --kind $k --coll $c --kill before --count 1000
        done
    done
    for c in "3 allreduce --kill thread --count 200000" "5 allgather --kill thread --count 100000" \
        "8 reduce_scatter_block --kill op --count 10000" "5 bcast --kill between --count 1000"; do
        ulfm_check "ULFM nonblocking, rank p-2 of ${c%% *} killed (${c#* }): survivors return, shrink works" \
            "${c%% *}" "${on[@]}" "${run[@]}" --kind nonblocking --coll ${c#* }
    done
    ulfm_check "ULFM persistent allreduce, rank 6 of 8 killed 2 ms into its call: survivors return, later starts fail" \
        8 "${on[@]}" "${run[@]}" --kind persistent --coll allreduce --kill thread --delay 2000 --count 300000
    for c in "4 --kill thread --delay 200 --count 100000" "4 --kill thread --delay 3000 --count 300000 --in-place" \
        "3 --kill op --count 100000" "5 --kill op --count 1000 --in-place" "5 --kill before --count 8 --in-place" \
        "8 --kill before --count 10" "8 --kill thread --delay 1000 --count 1000000" "4 --kill between --count 1000"; do
        ulfm_check "tolerant allreduce, rank p-2 of ${c%% *} killed (${c#* }): every survivor returns alike, same bits" \
            "${c%% *}" "${on[@]}" "${tol[@]}" "${run[@]}" --coll allreduce --tolerant ${c#* }
    done
}

suite_cluster() {
    local mapping name
    for mapping in ${HDRING_CLUSTER_MAPPINGS:-slot node han}; do
        name="every collective and algorithm across 4 emulated nodes x 2 ranks mapped by $mapping (TCP between nodes); the runtime's node map, the nodes found on one machine"
        [ "$mapping" = han ] && name="the same mapped by node, coll/han below hdring (its priority raised to 35)"
        if [ "$(id -u)" -ne 0 ]; then
            n=$((n + 1))
            echo "ok $n - $name # SKIP needs root (network namespaces)"
            continue
        fi
        local rank_by=()
        [ "$mapping" = slot ] || rank_by=(--rank-by node)
        # han as the fallback: measured selection is off (known issue: a rank crashed when trials timed han there)
        [ "$mapping" = han ] && rank_by+=(--mca coll_han_priority 35 --mca coll_hdring_select model)
        OMPI_MCA_op=^avx OMPI_MCA_coll_hdring_verbose=1 timeout -k 10 "$((TIMEOUT * 3))" \
            "${HDRING_SRCDIR:?}/perf/cluster/cluster.sh" run 4 1gbit 2 --wait "$TIMEOUT" -- "${rank_by[@]}" "$HDRING_TESTBIN/hdring_check" \
            --quick >"$LOG" 2>&1
        local rc=$? renumbered='$'
        [ "$mapping" = slot ] || renumbered='; ranks renumbered node by node$'
        # the emulated nodes are network namespaces of this machine: hdring finds them sharing its cores
        if [ $rc -eq 0 ] && grep -Eq '^hdring_check: [1-9][0-9]* cases, 0 failures$' "$LOG" &&
            has "^hdring: communicator of 8 ranks on 4 nodes x 2, on one machine of [1-9][0-9]* cores \\(from the runtime's host names, domains exchanged\\)$renumbered" &&
            has "^hdring: allreduce np=8 bytes=[0-9]+ alg=[a-z_]+ \\(auto: cost model's fastest for p=8 across 4 nodes x 2, on one machine of [1-9][0-9]* cores from"; then
            pass "$name"
        else
            fail "$name" "exit status $rc"
        fi
    done

    # hdring-tune on the emulated 1 Gbit/s network (125 MB/s): the network's parameters measured and written,
    # the model's choices checked against every algorithm timed on 8 ranks and on 7 (thresholds for both kinds of
    # size), the file usable with mpirun --tune
    name="hdring-tune on 4 emulated nodes x 2 at 1 Gbit/s: network parameters near the link's 125 MB/s, choices checked on 8 and 7 ranks, read by --tune"
    if [ "$(id -u)" -ne 0 ]; then
        n=$((n + 1))
        echo "ok $n - $name # SKIP needs root (network namespaces)"
        return
    fi
    local conf rc bw
    conf=$(mktemp)
    tune_on_cluster() {
        timeout -k 10 "$((TIMEOUT * 3))" "$HDRING_SRCDIR/perf/cluster/cluster.sh" run 4 1gbit 2 --wait "$TIMEOUT" -- \
            "${HDRING_TUNE:?}" -o "$conf" >"$LOG" 2>&1
    }
    measured 5 tune_on_cluster
    rc=$?
    bw=$(sed -n 's/^coll_hdring_model_network_bandwidth_mbs = \([0-9]*\)$/\1/p' "$conf")
    if [ $rc -eq 0 ] && [ -n "$bw" ] && [ "$bw" -ge 90 ] && [ "$bw" -le 130 ] &&
        grep -Eq '^coll_hdring_model_network_latency_us = [0-9.]+$' "$conf" &&
        grep -Eq '^coll_hdring_model_network_exchange_mbs = [1-9][0-9]*$' "$conf" &&
        grep -q '^# checked: allreduce, reduce_scatter_block, allgather, bcast every 16x from 64 B to 4194304 B, around the model.s crossovers and between each threshold and the next size (.*) on 8 ranks, .* that is a power of two)$' "$conf" &&
        grep -q '^# checked: allreduce, reduce_scatter_block, allgather, bcast every 16x from 64 B to 4194304 B, around the model.s crossovers and between each threshold and the next size (.*) on 7 ranks, .* that is not a power of two)$' "$conf" &&
        grep -q '^# control: the model.s choice timed twice differed by' "$conf" &&
        [ "$(grep -Evc '^#|^coll_hdring_model_|^coll_hdring_[a-z_]+_(small|large)_bytes_n?pof2 = [1-9][0-9]*$' "$conf")" -eq 0 ] &&
        "$MPIRUN" --tune "$conf" -np 1 "$OMPI_INFO" --param coll hdring --level 9 --parsable 2>/dev/null |
        grep -q "^mca:coll:hdring:param:coll_hdring_model_network_bandwidth_mbs:value:$bw"; then
        pass "$name ($bw MB/s)"
    else
        fail "$name" "exit status $rc, bandwidth '$bw'"
        sed 's/^/#   /' "$conf"
    fi
    rm -f "$conf"
}

calibrate
for suite in $SUITES; do
    echo "# suite $suite, started at $(date +%T)"
    "suite_$suite"
done
echo "1..$n"
echo "# $((n - nfailed)) passed, $nfailed failed"
[ "$nfailed" -eq 0 ]
