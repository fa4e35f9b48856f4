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
# 6.12's view: memory_tierN, N the abstract distance chunk of the tier.
# The expected N are 6.12's own: DRAM's 576 >> 7 = 4, and for machine
# a's slow node 6.12's mt_perf_to_adistance() of its HMAT numbers,
# 576 * (20 / 10) * (10G / 5G) = 2304, >> 7 = 18.
LEGACY=/sys/devices/virtual/memory_tiering
legacy() { cat "$LEGACY/memory_tier$1/nodelist" 2>/dev/null; }
legacy_dirs() { ls -d "$LEGACY"/memory_tier* 2>/dev/null | wc -l; }
# Fold the per-CPU counter deltas first: two counters read apart can
# otherwise disagree by a few pages.
vmstat() {
	echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}

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

# As 6.12: at boot, one "Demotion targets" line per memory node.
check "boot log: one demotion-targets line per memory node" \
	eq "$(dmesg | grep -c 'Demotion targets for Node')" \
	"$(echo $mem_nodes | wc -w)"
check "boot log: each memory node once" sh -c "
	for n in $mem_nodes; do
		[ \$(dmesg | grep -c \"Demotion targets for Node \$n:\") = 1 ] ||
			exit 1
	done"
check "6.12's memory_tiering bus is there" test -d /sys/bus/memory_tiering
check "6.12's memory_tierN/nodelist is read-only" sh -c "
	for f in $LEGACY/memory_tier*/nodelist; do
		! echo 0 >\$f 2>/dev/null || exit 1
	done"
# Every tiering counter 6.12 has, under its 6.12 name.
check "6.12's vmstat names are all there" sh -c '
	for k in pgpromote_success pgpromote_candidate pgdemote_kswapd \
		pgdemote_direct pgdemote_khugepaged numa_pte_updates \
		numa_hint_faults numa_hint_faults_local numa_pages_migrated \
		pgmigrate_success; do
		grep -q "^$k " /proc/vmstat || { echo "  no $k"; exit 1; }
	done'
check "demotion_enabled takes 6.12's values and reads true/false" sh -c '
	f=/sys/kernel/mm/numa/demotion_enabled
	echo 1 >$f && [ "$(cat $f)" = true ] &&
	echo false >$f && [ "$(cat $f)" = false ] &&
	echo y >$f && [ "$(cat $f)" = true ] &&
	echo 0 >$f && [ "$(cat $f)" = false ]'

check "max_tier is 400" eq "$(cat $SYS/memtier/max_tier)" 400
check "every memory node has a tier" sh -c "
	for n in $mem_nodes; do [ -n \"\$(cat $SYS/node/node\$n/memtier)\" ] ||
		exit 1; done"
check "demotion_enabled rejects 'maybe'" rejects \
	/sys/kernel/mm/numa/demotion_enabled maybe
# 6.12: an int from 0 to INT_MAX, anything else refused.
check "promote rate limit rejects what 6.12 rejects" sh -c '
	f=/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps
	for v in -1 -2147483648 abc 2147483648 4294967295 4294967296 ""; do
		! echo "$v" >$f 2>/dev/null || exit 1
	done
	[ "$(cat $f)" = 65536 ]'
check "promote rate limit takes what 6.12 takes: 0 and 2147483647" sh -c '
	f=/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps
	echo 2147483647 >$f && [ "$(cat $f)" = 2147483647 ] &&
	echo 0 >$f && [ "$(cat $f)" = 0 ] && echo 65536 >$f'
check "hot_threshold_ms rejects abc" rejects \
	"$DBG/sched/numa_balancing/hot_threshold_ms" abc
check "hot_threshold_ms takes 0 and 4294967295, as 6.12" sh -c "
	f=$DBG/sched/numa_balancing/hot_threshold_ms
	echo 0 >\$f && [ \$(cat \$f) = 0 ] &&
	echo 4294967295 >\$f && [ \$(cat \$f) = 4294967295 ] &&
	echo 1000 >\$f"

# dax/kmem as distributions ship it: a module, loaded here.
kmem_module() {
	check "kmem.ko loads" insmod /lib/modules/kmem.ko
	check "kmem bound to the dax bus" test -d /sys/bus/dax/drivers/kmem
	p=/sys/module/kmem/parameters/dax_kmem_memtier
	check "dax_kmem_memtier defaults to 100" eq "$(cat $p)" 100
	check "dax_kmem_memtier rejects bad input" rejects_all "$p"
	echo 150 >"$p"
	check "dax_kmem_memtier takes 150" eq "$(cat $p)" 150
}

# promoted_during KNOB VALUE SLOW FAST: pages promoted by a 5 s hot run
# with KNOB set to VALUE.
promoted_during() {
	old=$(cat "$1")
	echo "$2" >"$1"
	p0=$(vmstat pgpromote_success)
	/tierwork promote 8 1 "$3" "$4" 5 >/tmp/knob.out
	p1=$(vmstat pgpromote_success)
	echo "$old" >"$1"
	echo $((p1 - p0))
}

machine_a() {
	slow=$(echo $mem_nodes | cut -d' ' -f2)
	t=$(tier_of "$slow")
	check "bad default_memory_tier=401 ignored" \
		eq "$(cat $SYS/memtier/default_tier)" memtier200
	check "CPU node in the default tier" eq "$(tier_of 0)" 200
	check "HMAT puts the slow node lower" test "$t" -lt 200
	check "memtier200 nodelist" eq "$(nodelist 200)" 0
	check "memtier$t nodelist" eq "$(nodelist "$t")" "$slow"
	check "6.12 view: memory_tier4 is DRAM, node 0" eq "$(legacy 4)" 0
	check "6.12 view: memory_tier18 is the slow node, as in 6.12" \
		eq "$(legacy 18)" "$slow"
	check "6.12 view: two memory_tierN" eq "$(legacy_dirs)" 2
	check "node 0 demotes to the slow node" eq "$(targets 0)" \
		"tier 200 toptier 1 preferred $slow allowed $slow"
	check "the slow node is not top tier" eq "$(targets "$slow")" \
		"tier $t toptier 0 preferred  allowed "
	check "node memtier rejects bad input" \
		rejects_all "$SYS/node/node$slow/memtier"
	check "no tier was created by bad input" test ! -e $SYS/memtier/memtier401

	echo 300 >"$SYS/node/node$slow/memtier"
	check "moved up: memtier300 holds it" eq "$(nodelist 300)" "$slow"
	check "moved up: 6.12 view memory_tier3 holds it" eq "$(legacy 3)" "$slow"
	check "moved up: its old memory_tier18 is gone" \
		test ! -e "$LEGACY/memory_tier18"
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

	# Rate limit: 1 MB/s is 256 pages/s; 6 s let at most ~7 windows
	# through, each at most the limit or, as in 6.12, its first folio
	# (a 512-page THP here).
	echo 1 >/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps
	p0=$(vmstat pgpromote_success)
	/tierwork promote 16 1 "$slow" 0 6 >/tmp/ratelimit.out
	p1=$(vmstat pgpromote_success)
	echo "rate-limited: promoted $((p1 - p0)) pages"
	check "rate limit caps promotion (<= 7 x 512 pages)" \
		test $((p1 - p0)) -le 3584
	echo 65536 >/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps

	# 6.12 meanings: 0 MB/s and 0 ms promote nothing (no bypass here).
	n=$(promoted_during /proc/sys/kernel/numa_balancing_promote_rate_limit_MBps 0 "$slow" 0)
	check "rate limit 0 MB/s promotes nothing (promoted $n)" test "$n" -eq 0
	n=$(promoted_during "$DBG/sched/numa_balancing/hot_threshold_ms" 0 "$slow" 0)
	check "hot_threshold_ms 0 promotes nothing (promoted $n)" test "$n" -eq 0
	n=$(promoted_during "$DBG/sched/numa_balancing/hot_threshold_ms" 1000 "$slow" 0)
	check "and 1000 ms promotes again (promoted $n)" test "$n" -gt 0
	echo 0 >/proc/sys/kernel/numa_balancing

	kmem_module
}

machine_b() {
	check "default_tier" eq "$(cat $SYS/memtier/default_tier)" memtier200
	check "all four nodes in memtier200" eq "$(nodelist 200)" 0-3
	check "6.12 view: all four in memory_tier4, as 6.12" eq "$(legacy 4)" 0-3
	check "6.12 view: one memory_tierN" eq "$(legacy_dirs)" 1
	echo 100 >"$SYS/node/node2/memtier"
	echo 100 >"$SYS/node/node3/memtier"
	# Seed 010: memory_tiers[1] = 0-1, memory_tiers[2] = 2-3.
	check "memtier200 is 0-1" eq "$(nodelist 200)" 0-1
	check "memtier100 is 2-3" eq "$(nodelist 100)" 2-3
	check "6.12 view: memory_tier4 is 0-1" eq "$(legacy 4)" 0-1
	check "6.12 view: memory_tier9 is 2-3" eq "$(legacy 9)" 2-3
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

	# A CPU node in a lower tier: the lowest CPU tier is the boundary.
	echo 150 >"$SYS/node/node1/memtier"
	check "CPU node 1 in tier 150: top tier starts at 150" \
		eq "$(awk '/^top_tier/ { print $2 }' $DBG/memtier/targets)" 150
	check "node 1 is top tier, demotes to 3" eq "$(targets 1)" \
		"tier 150 toptier 1 preferred 3 allowed 2-3"
	check "node 0 demotes to 1 first" eq "$(targets 0)" \
		"tier 200 toptier 1 preferred 1 allowed 1-3"
	check "nodes 2-3 are still below the top tier" eq "$(targets 2)" \
		"tier 100 toptier 0 preferred  allowed "
	tiering_on
	# Its pages are neither scanned nor promoted, even by node 0's CPU.
	u0=$(vmstat numa_pte_updates)
	c0=$(vmstat pgpromote_candidate)
	taskset 1 /tierwork promote 8 1 1 0 6 >/tmp/cpu-low.out
	cat /tmp/cpu-low.out
	u1=$(vmstat numa_pte_updates)
	c1=$(vmstat pgpromote_candidate)
	hot=$(awk '$1 == "promote_hot_on_fast" { print $2 }' /tmp/cpu-low.out)
	check "CPU node in a lower tier: its hot set stays" \
		awk -v h="$hot" 'BEGIN { exit !(h < 0.1) }'
	check "CPU node in a lower tier: no candidate counted" \
		test "$c1" -eq "$c0"
	check "top-tier pages not scanned in tiering mode ($((u1 - u0)) PTEs)" \
		test "$((u1 - u0))" -eq 0
	check "CPU node in a lower tier: no data lost" \
		grep -qx 'promote_bad_words 0' /tmp/cpu-low.out
	# Below it, node 2 still promotes, into the faulting CPU's node 1.
	taskset 2 /tierwork promote 8 1 2 1 30 >/tmp/cpu-low2.out
	cat /tmp/cpu-low2.out
	hot=$(awk '$1 == "promote_hot_on_fast" { print $2 }' /tmp/cpu-low2.out)
	check "a tier below it promotes into the CPU node in tier 150" \
		awk -v h="$hot" 'BEGIN { exit !(h >= 0.9) }'
	echo 0 >/proc/sys/kernel/numa_balancing
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
	check "6.12 view: DRAM at 250 is memory_tier4" eq "$(legacy 4)" 0
	check "6.12 view: 300 with default 250 is memory_tier3" \
		eq "$(legacy 3)" "$fast"
	check "6.12 view: 100 with default 250 is memory_tier11" \
		eq "$(legacy 11)" "$slow"
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

# The KUnit suites, as a module of this kernel (NODES_SHIFT=10): every
# suite reports ok, no case fails, and only the slow benchmark's five
# cases are skipped (kunit.filter on the command line).
machine_k() {
	check "the KUnit suites' module loads" \
		insmod /lib/modules/memtier_kunit.ko
	dmesg >/tmp/ktap
	check "KUnit: no case or suite failed" sh -c '! grep -q "not ok" /tmp/ktap'
	n=0
	while read -r suite; do
		n=$((n + 1))
		check "KUnit suite $suite: ok" \
			grep -Eq "^(\[[ 0-9.]*\] )?ok [0-9]+ $suite( # SKIP.*)?$" /tmp/ktap
	done </kunit-suites
	check "KUnit: $n suites" test "$n" -ge 11
	check "KUnit: only the benchmark's 5 cases skipped" \
		eq "$(grep -Ec '^(\[[ 0-9.]*\] )? +ok [0-9]+ .*# SKIP' /tmp/ktap)" 5
	check "KUnit: over 250 cases passed" test \
		"$(grep -Ec '^(\[[ 0-9.]*\] )? +ok [0-9]+ ' /tmp/ktap)" -gt 250
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
k) machine_k ;;
*) notok "unknown machine '$machine'" ;;
esac

echo "machine $machine: $pass passed, $fail failed"
