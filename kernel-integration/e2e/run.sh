#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The main job's guest (make run): on the three-tier machine, show the
# tiers and demotion targets, then run a hot/cold workload and show the
# promotion and demotion counters and where the hot set lives.
SYS=/sys/devices/system

vmstat() {
	echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}

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
p0=$(vmstat pgpromote_success)
c0=$(vmstat pgpromote_candidate)
echo "== hot 32 MB + cold 32 MB placed on node $slow, tiering mode on"
echo 0 >/sys/kernel/debug/sched/numa_balancing/scan_delay_ms
echo 100 >/sys/kernel/debug/sched/numa_balancing/scan_period_min_ms
echo 2 >/proc/sys/kernel/numa_balancing
# On node 0's CPU: a task on the CPU-only node has no memory to promote to.
# The workload pauses after the hot phase, so that the counters show
# what the hot phase did; it verifies its data with tiering off, since
# reading the cold set with tiering on would promote it.
rm -f /tmp/verify
taskset 1 /tierwork promote 32 32 "$slow" 0 30 /tmp/verify >/tmp/promote.out &
work=$!
while ! grep -q '^promote_paused' /tmp/promote.out; do
	kill -0 "$work" 2>/dev/null || break
	sleep 1
done
grep -v '^promote_paused' /tmp/promote.out
echo "== counters after the hot phase"
show_counters
echo "hot phase: $(( $(vmstat pgpromote_success) - p0 )) pages promoted," \
	"$(( $(vmstat pgpromote_candidate) - c0 )) candidates;" \
	"the hot set is $((32 << 20 >> 12)) pages"
echo 0 >/proc/sys/kernel/numa_balancing
p1=$(vmstat pgpromote_success)
touch /tmp/verify
wait "$work"
echo "== data verified with tiering off: $(grep '^promote_bad_words' /tmp/promote.out)," \
	"$(( $(vmstat pgpromote_success) - p1 )) pages promoted meanwhile"

echo "== demotion: 300 MB on node 0, which holds 256 MB"
echo 1 >/sys/kernel/mm/numa/demotion_enabled
taskset 1 /tierwork demote 300 0
echo "== counters after demotion"
show_counters
