#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest checks of the memtier end-to-end boots, run by /init under
# busybox.  $machine (from the kernel command line) selects the machine:
#   a  CPU+DRAM node, memory-only node made slower by HMAT
#   b  seed 010's four nodes: 0-1 CPU+DRAM, 2-3 memory-only, its distances
#   c  CPU+DRAM, CPU-only, a memory-only node moved up to 300 and one
#      down to 100; booted with default_memory_tier=250
#   d  a CPU+DRAM node with over 1 GiB free, a slow node: the bypass
# Ends with "machine X: N passed, N failed".

pass=0
fail=0
SYS=/sys/devices/system
DBG=/sys/kernel/debug

ok() { pass=$((pass + 1)); echo "ok - $*"; }
notok() { fail=$((fail + 1)); echo "FAIL - $*"; }

# check DESC COMMAND...: the command's status is the verdict.
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else notok "$desc"; fi
}

# eq GOT WANT
eq() {
	[ "$1" = "$2" ] && return 0
	echo "  got '$1', want '$2'"
	return 1
}

# Expand a node list ("0-2,5") into words.
expand() {
	echo "$1" | tr ',' '\n' | while IFS=- read -r a b; do
		[ -n "$a" ] || continue
		[ -n "$b" ] || b=$a
		i=$a
		while [ "$i" -le "$b" ]; do echo "$i"; i=$((i + 1)); done
	done
}

tier_of() { cat "$SYS/node/node$1/memtier"; }
nodelist() { cat "$SYS/memtier/memtier$1/nodelist" 2>/dev/null; }
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# targets NODE: "preferred P allowed A" from the debugfs view.
targets() {
	grep "^node $1 " "$DBG/memtier/targets" | sed 's/^node [0-9]* //'
}

# rejects FILE VALUE: writing VALUE fails and FILE reads the same after.
# VALUE "EMPTY" writes a lone newline, as `echo > FILE` does.
rejects() {
	before=$(cat "$1")
	if [ "$2" = EMPTY ]; then
		set -- "$1" "" "
"
	else
		set -- "$1" "$2" "$2"
	fi
	if printf '%s' "$3" >"$1" 2>/dev/null; then
		echo "  write of '$2' to $1 succeeded"
		return 1
	fi
	eq "$(cat "$1")" "$before"
}

# rejects_all FILE: the bad inputs every writable file must refuse.
rejects_all() {
	long=$(printf '%0300d' 7 | tr 0 9)
	for v in -1 401 abc EMPTY "$long" '1 2' '0x12z'; do
		rejects "$1" "$v" || return 1
	done
}

# demote MB SLOW: with demotion on, bind MB to node 0 (more than it
# holds) and check that reclaim demoted, to SLOW, and lost nothing.
demote() {
	echo 1 >/sys/kernel/mm/numa/demotion_enabled
	d0=$(( $(vmstat pgdemote_kswapd) + $(vmstat pgdemote_direct) ))
	/tierwork demote "$1" 0 >/tmp/demote.out
	cat /tmp/demote.out
	d1=$(( $(vmstat pgdemote_kswapd) + $(vmstat pgdemote_direct) ))
	check "demotion: pgdemote rose" test "$d1" -gt "$d0"
	check "demotion: pages on the slow node" \
		grep -q "demote_pages.* node$2=" /tmp/demote.out
	check "demotion: no data lost" \
		grep -qx 'demote_bad_words 0' /tmp/demote.out
	echo 0 >/sys/kernel/mm/numa/demotion_enabled
}

# Tiering mode on, scanning soon and often: TCG is slow.
tiering_on() {
	echo 0 >"$DBG/sched/numa_balancing/scan_delay_ms"
	echo 100 >"$DBG/sched/numa_balancing/scan_period_min_ms"
	echo 2 >/proc/sys/kernel/numa_balancing
}

mem_nodes=$(expand "$(cat $SYS/node/has_memory)" | tr '\n' ' ')
cpu_nodes=$(expand "$(cat $SYS/node/has_cpu)" | tr '\n' ' ')
echo "machine $machine: memory nodes:" $mem_nodes "cpu nodes:" $cpu_nodes
cat "$DBG/memtier/targets"

check "max_tier is 400" eq "$(cat $SYS/memtier/max_tier)" 400
check "every memory node has a tier" sh -c "
	for n in $mem_nodes; do [ -n \"\$(cat $SYS/node/node\$n/memtier)\" ] ||
		exit 1; done"
check "demotion_enabled rejects 'maybe'" rejects \
	/sys/kernel/mm/numa/demotion_enabled maybe
check "promote rate limit rejects bad values" sh -c '
	f=/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps
	for v in -1 abc 4294967296 ""; do
		! echo "$v" >$f 2>/dev/null || exit 1
	done
	[ "$(cat $f)" = 65536 ]'
check "promote rate limit takes 4294967295 and 0" sh -c '
	f=/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps
	echo 4294967295 >$f && [ "$(cat $f)" = 4294967295 ] &&
	echo 0 >$f && [ "$(cat $f)" = 0 ] && echo 65536 >$f'
check "hot_threshold_ms rejects abc" rejects \
	"$DBG/sched/numa_balancing/hot_threshold_ms" abc

machine_a() {
	slow=$(echo $mem_nodes | cut -d' ' -f2)
	t=$(tier_of "$slow")
	check "bad default_memory_tier=401 ignored" \
		eq "$(cat $SYS/memtier/default_tier)" memtier200
	check "CPU node in the default tier" eq "$(tier_of 0)" 200
	check "HMAT puts the slow node lower" test "$t" -lt 200
	check "memtier200 nodelist" eq "$(nodelist 200)" 0
	check "memtier$t nodelist" eq "$(nodelist "$t")" "$slow"
	check "node 0 demotes to the slow node" eq "$(targets 0)" \
		"tier 200 toptier 1 preferred $slow allowed $slow"
	check "the slow node is not top tier" eq "$(targets "$slow")" \
		"tier $t toptier 0 preferred  allowed "
	check "node memtier rejects bad input" \
		rejects_all "$SYS/node/node$slow/memtier"
	check "no tier was created by bad input" test ! -e $SYS/memtier/memtier401

	echo 300 >"$SYS/node/node$slow/memtier"
	check "moved up: memtier300 holds it" eq "$(nodelist 300)" "$slow"
	check "moved up: its old tier is gone" test ! -e "$SYS/memtier/memtier$t"
	check "moved up: it demotes to node 0" eq "$(targets "$slow")" \
		"tier 300 toptier 1 preferred 0 allowed 0"
	check "moved up: node 0 demotes nowhere" eq "$(targets 0)" \
		"tier 200 toptier 1 preferred  allowed "
	echo "$t" >"$SYS/node/node$slow/memtier"
	check "moved back: targets as at boot" eq "$(targets 0)" \
		"tier 200 toptier 1 preferred $slow allowed $slow"

	# Demotion: fill more than node 0 holds; cold pages go to the slow node.
	demote 320 "$slow"

	# Promotion: a hot set on the slow node moves to node 0.
	tiering_on
	p0=$(vmstat pgpromote_success)
	/tierwork promote 32 32 "$slow" 0 30 >/tmp/promote.out
	cat /tmp/promote.out
	p1=$(vmstat pgpromote_success)
	hot=$(awk '$1 == "promote_hot_on_fast" { print $2 }' /tmp/promote.out)
	cold=$(awk '$1 == "promote_cold_on_fast" { print $2 }' /tmp/promote.out)
	check "promotion: >= 90% of the hot set on node 0" \
		awk -v h="$hot" 'BEGIN { exit !(h >= 0.9) }'
	check "promotion: the cold set mostly stays" \
		awk -v c="$cold" 'BEGIN { exit !(c < 0.5) }'
	check "promotion: pgpromote_success rose" test "$p1" -gt "$p0"
	check "promotion: no data lost" \
		grep -qx 'promote_bad_words 0' /tmp/promote.out
	echo "candidates $(vmstat pgpromote_candidate) bypass $(vmstat pgpromote_candidate_nrl) promoted $p1"
	check "promotion: promoted <= counted" test "$p1" -le \
		$(( $(vmstat pgpromote_candidate) + $(vmstat pgpromote_candidate_nrl) ))

	# Rate limit: 1 MB/s is 256 pages/s; 6 s let at most ~7 windows through.
	echo 1 >/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps
	p0=$(vmstat pgpromote_success)
	/tierwork promote 16 1 "$slow" 0 6 >/tmp/ratelimit.out
	p1=$(vmstat pgpromote_success)
	echo "rate-limited: promoted $((p1 - p0)) pages"
	check "rate limit caps promotion (<= 7 x 256 pages)" \
		test $((p1 - p0)) -le 1792
	echo 65536 >/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps
	echo 0 >/proc/sys/kernel/numa_balancing
}

machine_b() {
	check "default_tier" eq "$(cat $SYS/memtier/default_tier)" memtier200
	check "all four nodes in memtier200" eq "$(nodelist 200)" 0-3
	echo 100 >"$SYS/node/node2/memtier"
	echo 100 >"$SYS/node/node3/memtier"
	# Seed 010: memory_tiers[1] = 0-1, memory_tiers[2] = 2-3.
	check "memtier200 is 0-1" eq "$(nodelist 200)" 0-1
	check "memtier100 is 2-3" eq "$(nodelist 100)" 2-3
	check "node0 memtier reads 200" eq "$(tier_of 0)" 200
	check "node2 memtier reads 100" eq "$(tier_of 2)" 100
	check "no memtier0 (seed: No such file)" test ! -e $SYS/memtier/memtier0
	# Seed 010: node_demotion[0..3].
	check "node 0: preferred 2, allowed 2-3" eq "$(targets 0)" \
		"tier 200 toptier 1 preferred 2 allowed 2-3"
	check "node 1: preferred 3, allowed 2-3" eq "$(targets 1)" \
		"tier 200 toptier 1 preferred 3 allowed 2-3"
	check "node 2: no targets" eq "$(targets 2)" \
		"tier 100 toptier 0 preferred  allowed "
	check "node 3: no targets" eq "$(targets 3)" \
		"tier 100 toptier 0 preferred  allowed "
	check "node memtier rejects bad input" \
		rejects_all "$SYS/node/node0/memtier"
	check "nodes 0-1 still in memtier200" eq "$(nodelist 200)" 0-1
}

machine_c() {
	cpu_only=""
	for n in $cpu_nodes; do
		echo " $mem_nodes " | grep -q " $n " || cpu_only=$n
	done
	set -- $(for n in $mem_nodes; do
		echo " $cpu_nodes " | grep -q " $n " || echo "$n"; done)
	fast=$1
	slow=$2
	echo "cpu-only node $cpu_only, fast $fast, slow $slow"
	check "default_memory_tier=250 taken" \
		eq "$(cat $SYS/memtier/default_tier)" memtier250
	check "everything starts in memtier250" eq "$(tier_of 0)" 250
	check "the CPU-only node's memtier is empty" \
		eq "$(tier_of "$cpu_only")" ""
	check "the CPU-only node rejects a tier" \
		rejects "$SYS/node/node$cpu_only/memtier" 200
	check "the CPU-only node rejects bad input" \
		rejects_all "$SYS/node/node$cpu_only/memtier"
	echo 300 >"$SYS/node/node$fast/memtier"
	echo 100 >"$SYS/node/node$slow/memtier"
	check "three tiers" eq "$(ls -d $SYS/memtier/memtier* | wc -l)" 3
	check "memtier300" eq "$(nodelist 300)" "$fast"
	check "memtier250" eq "$(nodelist 250)" 0
	check "memtier100" eq "$(nodelist 100)" "$slow"
	check "the fast node demotes to node 0, then the slow one" \
		eq "$(targets "$fast")" \
		"tier 300 toptier 1 preferred 0 allowed 0,$slow"
	check "node 0 demotes to the slow node" eq "$(targets 0)" \
		"tier 250 toptier 1 preferred $slow allowed $slow"
	check "only the slow node is below the top tier" \
		eq "$(awk '/^top_tier/ { print $2 }' $DBG/memtier/targets)" 250

	demote 300 "$slow"
	check "demotion: nothing on the higher fast node" sh -c \
		"! grep -q 'demote_pages.* node$fast=' /tmp/demote.out"
}

machine_d() {
	echo 100 >"$SYS/node/node1/memtier"
	check "the slow node is below the top tier" eq "$(targets 1)" \
		"tier 100 toptier 0 preferred  allowed "
	tiering_on
	n0=$(vmstat pgpromote_candidate_nrl)
	c0=$(vmstat pgpromote_candidate)
	taskset 1 /tierwork promote 16 16 1 0 30 >/tmp/promote.out
	cat /tmp/promote.out
	n1=$(vmstat pgpromote_candidate_nrl)
	c1=$(vmstat pgpromote_candidate)
	p1=$(vmstat pgpromote_success)
	echo "candidates $c1 bypass $n1 promoted $p1"
	hot=$(awk '$1 == "promote_hot_on_fast" { print $2 }' /tmp/promote.out)
	check "bypass: the hot set is promoted" \
		awk -v h="$hot" 'BEGIN { exit !(h >= 0.9) }'
	check "bypass: counted in pgpromote_candidate_nrl" test "$n1" -gt "$n0"
	check "bypass: not counted against the rate limit" test "$c1" -eq "$c0"
	check "bypass: promoted <= counted" test "$p1" -le $((c1 + n1))
	echo 0 >/proc/sys/kernel/numa_balancing
}

case $machine in
a) machine_a ;;
b) machine_b ;;
c) machine_c ;;
d) machine_d ;;
*) notok "unknown machine '$machine'" ;;
esac

echo "machine $machine: $pass passed, $fail failed"
