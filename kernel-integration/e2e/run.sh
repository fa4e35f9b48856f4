#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The main job's guest (make run): on the three-tier machine, show the
# tiers and demotion targets, then run a hot/cold workload and show the
# promotion and demotion counters and where the hot set lives.
SYS=/sys/devices/system

show_counters() {
	grep -E '^(pgpromote_|pgdemote_|numa_hint_faults )' /proc/vmstat |
		tr '\n' ' '
	echo
}

# The memory-only nodes, in order: the first goes up, the second down.
set -- $(for n in $(ls -d $SYS/node/node* | sed 's/.*node//'); do
	[ -n "$(cat $SYS/node/node$n/memtier)" ] || continue
	[ -z "$(ls $SYS/node/node$n | grep '^cpu[0-9]')" ] && echo "$n"; done)
fast=$1
slow=$2
echo 300 >"$SYS/node/node$fast/memtier"
echo 100 >"$SYS/node/node$slow/memtier"

echo "== tiers (/sys/devices/system/memtier)"
echo "default_tier $(cat $SYS/memtier/default_tier), max_tier $(cat $SYS/memtier/max_tier)"
for t in $SYS/memtier/memtier*; do
	echo "$(basename "$t"): nodes $(cat "$t/nodelist")"
done
echo "== demotion targets (/sys/kernel/debug/memtier/targets)"
cat /sys/kernel/debug/memtier/targets

echo "== counters before"
show_counters
echo "== hot 32 MB + cold 32 MB placed on node $slow, tiering mode on"
echo 0 >/sys/kernel/debug/sched/numa_balancing/scan_delay_ms
echo 100 >/sys/kernel/debug/sched/numa_balancing/scan_period_min_ms
echo 2 >/proc/sys/kernel/numa_balancing
# On node 0's CPU: a task on the CPU-only node has no memory to promote to.
taskset 1 /tierwork promote 32 32 "$slow" 0 30
echo "== counters after promotion"
show_counters
echo 0 >/proc/sys/kernel/numa_balancing

echo "== demotion: 300 MB on node 0, which holds 256 MB"
echo 1 >/sys/kernel/mm/numa/demotion_enabled
taskset 1 /tierwork demote 300 0
echo "== counters after demotion"
show_counters
