#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest of make compare, run by /init with mode=compare on machine a
# (a CPU+DRAM node and a memory-only node HMAT reports slower), under
# stock 6.12 and under the patched kernel alike: only interfaces 6.12
# has are used.  Prints "compare-guest metric=NAME value=V" lines.

DBG=/sys/kernel/debug/sched/numa_balancing
SYSCTL=/proc/sys/kernel

vmstat() {
	echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}
demoted() {
	echo $(( $(vmstat pgdemote_kswapd) + $(vmstat pgdemote_direct) ))
}
metric() { echo "compare-guest metric=$1 value=$2"; }
# key FILE KEY: the value after KEY in FILE.
key() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

tiering() {
	echo 0 >"$DBG/scan_delay_ms"
	echo 100 >"$DBG/scan_period_min_ms"
	echo "$1" >"$DBG/hot_threshold_ms"
	echo "$2" >"$SYSCTL/numa_balancing_promote_rate_limit_MBps"
	echo 2 >"$SYSCTL/numa_balancing"
}
tiering_off() {
	echo 0 >"$SYSCTL/numa_balancing"
	echo 1000 >"$DBG/hot_threshold_ms"
	echo 65536 >"$SYSCTL/numa_balancing_promote_rate_limit_MBps"
}

# 1. Promotion at the default knobs: a 32 MB hot set and a 32 MB cold
# set on the slow node, the hot set touched for up to 30 s.
# The workload pauses before verifying its data, so that the counters
# are those of the hot phase and the verification runs with tiering off
# (reading the cold set with it on would promote it).
p0=$(vmstat pgpromote_success)
tiering 1000 65536
rm -f /tmp/verify
taskset 1 /tierwork promote 32 32 1 0 30 /tmp/verify >/tmp/promote.out &
work=$!
while ! grep -q '^promote_paused' /tmp/promote.out; do
	kill -0 "$work" 2>/dev/null || break
	sleep 1
done
p1=$(vmstat pgpromote_success)
tiering_off
touch /tmp/verify
wait "$work"
cat /tmp/promote.out
metric t90_s "$(key /tmp/promote.out promote_t90)"
metric promoted_pages $((p1 - p0))
metric hot_on_fast "$(key /tmp/promote.out promote_hot_on_fast)"
metric cold_on_fast "$(key /tmp/promote.out promote_cold_on_fast)"
metric promote_bad_words "$(key /tmp/promote.out promote_bad_words)"

# 2. Demotion under pressure: 320 MB bound to node 0, which has 256 MB.
d0=$(demoted)
echo 1 >/sys/kernel/mm/numa/demotion_enabled
taskset 1 /tierwork demote 320 0 >/tmp/demote.out
echo 0 >/sys/kernel/mm/numa/demotion_enabled
cat /tmp/demote.out
metric demoted_pages $(( $(demoted) - d0 ))
metric demote_bad_words "$(key /tmp/demote.out demote_bad_words)"

# 3. The cost of a hint fault that does not promote: 64 MB on the slow
# node read in a loop for 15 s, tiering on, rate limit 0 (6.12 and the
# patched kernel alike promote nothing then): the task's system time
# (page-table scans and hint faults) per hint fault.
f0=$(vmstat numa_hint_faults)
p0=$(vmstat pgpromote_success)
tiering 1000 0
taskset 1 /tierwork sweep 64 1 15 0 >/tmp/sweep.out
tiering_off
f1=$(vmstat numa_hint_faults)
cat /tmp/sweep.out
metric hint_faults $((f1 - f0))
metric sweep_promoted_pages $(( $(vmstat pgpromote_success) - p0 ))
metric us_per_hint_fault "$(awk -v s="$(key /tmp/sweep.out sweep_stime_us)" \
	-v f=$((f1 - f0)) 'BEGIN { if (f > 0) printf "%.3f", s / f; else print "nan" }')"

# 4. A 1 ms hot threshold at 1 MB/s: 64 MB hot on the slow node, 15 s.
p0=$(vmstat pgpromote_success)
tiering 1 1
taskset 1 /tierwork promote 64 1 1 0 15 >/tmp/th1.out
tiering_off
metric promoted_pages_th1ms $(( $(vmstat pgpromote_success) - p0 ))
