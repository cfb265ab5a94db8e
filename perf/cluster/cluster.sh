#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# An emulated multi-node cluster on one machine: N network namespaces ("nodes") on a bridge, each link shaped
# to a rate, Open MPI running across them (TCP between nodes, shared memory within one). Needs root.
#
#   cluster.sh run NODES RATE PPN [--qdisc tbf|htb] [--delay MS] [--wait S] -- COMMAND...
#       set up, run COMMAND (an MPI program and its arguments) under mpirun with PPN ranks per node, tear down
#       (always, also on failure or interrupt). RATE is a tc rate (1gbit, 200mbit). --wait: wait up to S
#       seconds for another cluster.sh to finish instead of refusing at once.
#   cluster.sh up NODES RATE [--qdisc tbf|htb] [--delay MS]      set up only
#   cluster.sh mpirun PPN -- COMMAND...                          run on a cluster that is up
#   cluster.sh down                                              tear down whatever this script set up
#   cluster.sh probe                                             can this kernel shape (tbf, htb) and delay (netem)?
#
# Links: each node's veth is shaped in both directions (the node's eth0 for what it sends, the bridge port for
# what it receives), offloads off so the shaper sees real packets. --qdisc tbf is a plain token bucket; its
# queue holds the TCP ACKs of the opposite flow behind data. --qdisc htb (the default) shapes with HTB and gives
# small packets (ACKs) a class of their own with priority. Neither makes a pairwise exchange reliably full duplex
# here: on 2 cores the ratio of exchange to one-way bandwidth that hdring_calibrate prints ranged from 0.5 to
# 0.99 with either qdisc between runs, as the kernel's softirq work competes with the ranks for CPU. Compare
# algorithms within one run, never across runs. --delay adds a one-way netem delay where the kernel has netem.
#
# mpirun runs inside node 0; a small launcher (netns-rsh) stands in for ssh and starts each node's daemon
# inside that node's namespace with the node's own hostname. Everything is named hdrc*: interfaces, bridge,
# namespaces. One cluster at a time: run, up and down take a lock (/run/hdring-cluster.lock) and refuse to
# start while another holds it (run --wait waits), and up refuses while a cluster is up.
set -eu
case ${1:-} in -h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac

PREFIX=hdrc
BRIDGE=${PREFIX}br
SUBNET=10.77.0
HERE=$(cd "$(dirname "$0")" && pwd)
STATE=/run/hdring-cluster
LOCK=/run/hdring-cluster.lock

die() { echo "cluster.sh: $*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces and tc)"

not_up() { [ ! -e "$STATE/config" ] || die "a cluster is already up ($STATE): 'cluster.sh down' removes it"; }

# lock [WAIT_S]: held until this script exits; waits up to WAIT_S seconds for another cluster.sh to finish
lock() {
    exec 9>"$LOCK"
    flock -n 9 && return
    [ "${1:-0}" -gt 0 ] || die "another cluster.sh is running (it holds $LOCK): wait for it, or stop it"
    echo "cluster.sh: waiting up to $1 s for another cluster.sh to finish" >&2
    flock -w "$1" 9 || die "another cluster.sh still holds $LOCK after $1 s"
}

ns() { echo "${PREFIX}$1"; }
ip_of() { echo "${SUBNET}.$(($1 + 1))"; }

# shape DEV RATE QDISC DELAY_MS [NETNS]: limit what DEV sends to RATE
shape() {
    local dev=$1 rate=$2 qdisc=$3 delay=$4 nsx=${5:-}
    local tcx=(tc)
    [ -n "$nsx" ] && tcx=(ip netns exec "$nsx" tc)
    if [ "$qdisc" = tbf ]; then
        "${tcx[@]}" qdisc add dev "$dev" root handle 1: tbf rate "$rate" burst 32kb latency 5ms
        [ "$delay" = 0 ] || "${tcx[@]}" qdisc add dev "$dev" parent 1:1 handle 10: netem delay "${delay}ms"
        return
    fi
    # HTB: one class at RATE, split into small packets first (prio 0) and the rest (prio 1)
    "${tcx[@]}" qdisc add dev "$dev" root handle 1: htb default 20
    "${tcx[@]}" class add dev "$dev" parent 1: classid 1:1 htb rate "$rate" ceil "$rate" burst 32kb cburst 32kb quantum 60000
    "${tcx[@]}" class add dev "$dev" parent 1:1 classid 1:10 htb rate "$(rate_share "$rate" 10)" ceil "$rate" prio 0 burst 32kb cburst 32kb quantum 60000
    "${tcx[@]}" class add dev "$dev" parent 1:1 classid 1:20 htb rate "$(rate_share "$rate" 90)" ceil "$rate" prio 1 burst 32kb cburst 32kb quantum 60000
    "${tcx[@]}" filter add dev "$dev" parent 1: protocol ip prio 1 u32 match u16 0x0000 0xff80 at 2 flowid 1:10
    if [ "$delay" = 0 ]; then
        "${tcx[@]}" qdisc add dev "$dev" parent 1:10 handle 10: pfifo limit 1000
        "${tcx[@]}" qdisc add dev "$dev" parent 1:20 handle 20: pfifo limit 100
    else
        "${tcx[@]}" qdisc add dev "$dev" parent 1:10 handle 10: netem delay "${delay}ms"
        "${tcx[@]}" qdisc add dev "$dev" parent 1:20 handle 20: netem delay "${delay}ms"
    fi
}

# rate_share RATE PERCENT: a tc rate, PERCENT of RATE (kbit)
rate_share() {
    local rate=$1 pct=$2 num unit kbit
    num=${rate%%[a-zA-Z]*}
    unit=${rate#"$num"}
    case $unit in
    gbit) kbit=$((num * 1000000)) ;;
    mbit) kbit=$((num * 1000)) ;;
    kbit) kbit=$num ;;
    *) die "rate must be like 1gbit, 200mbit or 500kbit, not $rate" ;;
    esac
    echo "$((kbit * pct / 100))kbit"
}

has_netem() {
    local probe=${PREFIX}probe ok=1
    ip netns add "$probe" 2>/dev/null || return 1
    ip -n "$probe" link add ${PREFIX}pa type veth peer name ${PREFIX}pb 2>/dev/null &&
        ip -n "$probe" link set ${PREFIX}pa up &&
        ip netns exec "$probe" tc qdisc add dev ${PREFIX}pa root netem delay 1ms 2>/dev/null && ok=0
    ip netns del "$probe"
    return $ok
}

up() {
    local nodes=$1 rate=$2 qdisc=$3 delay=$4
    [ "$nodes" -ge 2 ] && [ "$nodes" -le 64 ] || die "NODES must be 2 to 64"
    [ "$qdisc" = tbf ] || [ "$qdisc" = htb ] || die "--qdisc takes tbf or htb"
    rate_share "$rate" 1 >/dev/null
    if [ "$delay" != 0 ] && ! has_netem; then
        die "this kernel has no netem (CONFIG_NET_SCH_NETEM): --delay is not available"
    fi
    down # leftovers of a run that was killed
    mkdir -p "$STATE"
    echo "$nodes $rate $qdisc $delay" >"$STATE/config"
    ip link add "$BRIDGE" type bridge
    ip link set "$BRIDGE" up
    for i in $(seq 0 $((nodes - 1))); do
        local n host
        n=$(ns "$i")
        host=${PREFIX}${i}h
        ip netns add "$n"
        ip link add "$host" type veth peer name "${PREFIX}${i}n"
        ip link set "${PREFIX}${i}n" netns "$n"
        ip -n "$n" link set "${PREFIX}${i}n" name eth0
        ip link set "$host" master "$BRIDGE" mtu 9000 up
        ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
        ip -n "$n" link set lo up
        ip -n "$n" link set eth0 mtu 9000 up
        ip -n "$n" addr add "$(ip_of "$i")/24" dev eth0
        ethtool -K "$host" tso off gso off gro off >/dev/null 2>&1 || true
        ip netns exec "$n" ethtool -K eth0 tso off gso off gro off >/dev/null 2>&1 || true
        shape eth0 "$rate" "$qdisc" "$delay" "$n"
        shape "$host" "$rate" "$qdisc" "$delay"
        echo "$(ip_of "$i") $n" >>"$STATE/hosts"
    done
}

down() {
    for n in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^${PREFIX}[0-9]*$" || true); do
        ip netns del "$n"
    done
    # a deleted namespace takes its veth end with it, the bridge side goes a moment later
    for link in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1 | grep "^${PREFIX}" || true); do
        ip link del "$link" 2>/dev/null || true
    done
    for _ in $(seq 50); do
        ip -o link show 2>/dev/null | grep -q ": ${PREFIX}" || break
        sleep 0.1
    done
    rm -rf "$STATE"
}

cluster_mpirun() {
    local ppn=$1
    shift
    [ -f "$STATE/config" ] || die "no cluster is up (cluster.sh up ...)"
    local nodes
    nodes=$(cut -d' ' -f1 "$STATE/config")
    local hostfile=$STATE/hostfile
    awk -v ppn="$ppn" '{print $1 " slots=" ppn}' "$STATE/hosts" >"$hostfile"
    # the launcher's options by Open MPI series: 4.1's ORTE, or 5.0's PRRTE (its daemons found through --prefix,
    # its shared-memory BTL named sm)
    local launch
    if mpirun --version 2>/dev/null | grep -q '(Open MPI) [5-9]'; then
        launch=(--prefix "$(dirname "$(dirname "$(command -v mpirun)")")" --prtemca plm_ssh_agent "$HERE/netns-rsh"
            --prtemca plm_ssh_no_tree_spawn 1
            --prtemca oob_tcp_if_include "$SUBNET.0/24" --mca btl tcp,self,sm)
    else
        launch=(--mca plm_rsh_agent "$HERE/netns-rsh" --mca oob_tcp_if_include "$SUBNET.0/24" --mca btl tcp,self,vader)
    fi
    # mpirun inside node 0, with node 0's hostname; remote daemons through netns-rsh
    ip netns exec "$(ns 0)" unshare --uts sh -c 'hostname "$0"; exec "$@"' "$(ns 0)" \
        mpirun --allow-run-as-root --hostfile "$hostfile" -np $((nodes * ppn)) --map-by "ppr:$ppn:node" \
        "${launch[@]}" --mca btl_tcp_if_include "$SUBNET.0/24" \
        --bind-to none --mca mpi_yield_when_idle 1 --oversubscribe \
        -x MALLOC_MMAP_THRESHOLD_=1073741824 -x MALLOC_TRIM_THRESHOLD_=1073741824 "$@"
}

parse_opts() { # sets qdisc, delay, wait; leaves the rest in REST
    qdisc=htb
    delay=0
    wait=0
    REST=()
    while [ $# -gt 0 ]; do
        case $1 in
        --qdisc) qdisc=$2; shift 2 ;;
        --delay) delay=$2; shift 2 ;;
        --wait) wait=$2; shift 2 ;;
        --) shift; REST=("$@"); return ;;
        *) die "unknown option $1" ;;
        esac
    done
}

cmd=${1:-}
shift || true
case $cmd in
up)
    [ $# -ge 2 ] || die "usage: cluster.sh up NODES RATE [--qdisc tbf|htb] [--delay MS]"
    nodes=$1 rate=$2
    shift 2
    parse_opts "$@"
    lock
    not_up
    up "$nodes" "$rate" "$qdisc" "$delay"
    ;;
down)
    lock
    down
    ;;
mpirun)
    [ $# -ge 3 ] && [ "$2" = -- ] || die "usage: cluster.sh mpirun PPN -- COMMAND..."
    ppn=$1
    shift 2
    cluster_mpirun "$ppn" "$@"
    ;;
run)
    [ $# -ge 4 ] || die "usage: cluster.sh run NODES RATE PPN [--qdisc tbf|htb] [--delay MS] [--wait S] -- COMMAND..."
    nodes=$1 rate=$2 ppn=$3
    shift 3
    parse_opts "$@"
    [ ${#REST[@]} -gt 0 ] || die "no command to run"
    lock "$wait"
    not_up
    trap down EXIT INT TERM
    up "$nodes" "$rate" "$qdisc" "$delay"
    cluster_mpirun "$ppn" "${REST[@]}"
    ;;
probe)
    echo "tbf: $(modprobe -n sch_tbf >/dev/null 2>&1 || tc qdisc help 2>&1 | grep -q tbf && echo yes || echo no)"
    if has_netem; then echo "netem: yes"; else echo "netem: no (latency cannot be added; alpha is what the stack gives)"; fi
    ;;
*)
    die "usage: cluster.sh run|up|mpirun|down|probe ... (see the comment at the top)"
    ;;
esac
