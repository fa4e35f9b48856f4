#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest of make compare, run by /init with mode=compare on machine a
# (a CPU+DRAM node and a memory-only node HMAT reports slower), under
# stock 6.12 and under the patched kernel alike: only interfaces 6.12
# has are used.  Prints "compare-guest metric=NAME value=V" lines.

DBG=/sys/kernel/debug/sched/numa_balancing
# The non-promoting sweeps' length and the 1 ms run's, s: SWEEP_S= and
# TH1_S= on the kernel command line (the kernel passes them to /init's
# environment).
SWEEP_S=${SWEEP_S:-15}
TH1_S=${TH1_S:-15}
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

# The decision's trace event, on kernels that have it (not stock 6.12):
# a histogram trigger counts each phase's decisions by reason in the
# kernel, where a trace buffer would overflow.  Triggers are added and
# removed with >>: opening the trigger file with O_TRUNC removes them
# all.
TRACE=/sys/kernel/tracing
EVENT=$TRACE/events/memtier/memtier_promote_decision
HIST='hist:keys=reason:vals=hitcount,nr_pages'
BY_LATENCY='hist:keys=latency_ms,threshold_ms:vals=hitcount'
[ -d "$TRACE/events" ] || mount -t tracefs tracefs "$TRACE" 2>/dev/null
reasons_start() {
	c0=$(vmstat pgpromote_candidate)
	[ -d "$EVENT" ] && echo "$HIST" >>"$EVENT/trigger"
}
# reasons_end PHASE: "reason_PHASE_NAME" metrics, each the decisions
# with that reason (names from the event's format), and the candidates
# vmstat counted, which both kernels have.  The trigger's work on each
# decision slows the patched kernel's faults a little (not stock's):
# the promotion and 1 ms phases count pages, not time.
reasons_end() {
	metric "candidates_$1" $(( $(vmstat pgpromote_candidate) - c0 ))
	[ -d "$EVENT" ] || return 0
	names=$(grep -o '{ [0-9]*, "[a-z_]*" }' "$EVENT/format" |
		tr -d '{},"' | awk '{ print $1 "=" $2 }')
	for pair in $names; do
		n=$(awk -v r="${pair%%=*}" '$1 == "{" && $2 == "reason:" &&
			$3 == r "" { print $6 }' "$EVENT/hist")
		metric "reason_$1_${pair#*=}" "${n:-0}"
	done
	echo "compare-guest: $1: decisions by reason:"
	grep '^{ reason:' "$EVENT/hist"
	echo "!$HIST" >>"$EVENT/trigger"
}

tiering() {
	echo 0 >"$DBG/scan_delay_ms"
	echo 100 >"$DBG/scan_period_min_ms"
	echo "$1" >"$DBG/hot_threshold_ms"
	echo "$2" >"$SYSCTL/numa_balancing_promote_rate_limit_MBps"
	echo 2 >"$SYSCTL/numa_balancing"
}
tiering_off() {
	echo 0 >"$SYSCTL/numa_balancing"
	echo 60000 >"$DBG/scan_period_max_ms"
	echo 1000 >"$DBG/hot_threshold_ms"
	echo 65536 >"$SYSCTL/numa_balancing_promote_rate_limit_MBps"
}

# 1. Promotion at the default knobs: a 32 MB hot set and a 32 MB cold
# set on the slow node, the hot set touched for up to 30 s.
# The workload pauses before verifying its data, so that the counters
# are those of the hot phase and the verification runs with tiering off
# (reading the cold set with it on would promote it).
p0=$(vmstat pgpromote_success)
reasons_start
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
reasons_end promote
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
# node read in a loop for SWEEP_S seconds, tiering on, rate limit 0
# (6.12 and the patched kernel alike promote nothing then).  Two
# measures of it:
# - us_per_hint_fault, the task's system time (page-table scans and
#   hint faults) per hint fault: tick-sampled, a few percent apart from
#   boot to boot;
# - ns_per_hint_fault, the time the same sweep took beyond what its
#   reads take with NUMA balancing off (the first sweep, without scans
#   or hint faults), per hint fault.  Under make compare's instruction
#   counting (-icount shift=0), a guest ns is one instruction, so this
#   counts the instructions of the scans and faults exactly.
taskset 1 /tierwork sweep 64 1 "$SWEEP_S" 0 >/tmp/sweep-off.out
# No histogram here: its trigger's work on every decision would be
# counted as the patched kernel's, which stock 6.12 (without the event)
# does not do; the sweep's decisions are all rate limited, as
# candidates_sweep shows.
f0=$(vmstat numa_hint_faults)
p0=$(vmstat pgpromote_success)
c0=$(vmstat pgpromote_candidate)
tiering 1000 0
taskset 1 /tierwork sweep 64 1 "$SWEEP_S" 0 >/tmp/sweep.out
tiering_off
metric candidates_sweep $(( $(vmstat pgpromote_candidate) - c0 ))
f1=$(vmstat numa_hint_faults)
cat /tmp/sweep-off.out /tmp/sweep.out
metric hint_faults $((f1 - f0))
metric sweep_promoted_pages $(( $(vmstat pgpromote_success) - p0 ))
metric us_per_hint_fault "$(awk -v s="$(key /tmp/sweep.out sweep_stime_us)" \
	-v f=$((f1 - f0)) 'BEGIN { if (f > 0) printf "%.3f", s / f; else print "nan" }')"
metric ns_per_hint_fault "$(awk \
	-v t0="$(key /tmp/sweep-off.out sweep_elapsed_ns)" \
	-v n0="$(key /tmp/sweep-off.out sweep_pages_read)" \
	-v t1="$(key /tmp/sweep.out sweep_elapsed_ns)" \
	-v n1="$(key /tmp/sweep.out sweep_pages_read)" -v f=$((f1 - f0)) \
	'BEGIN { if (f > 0 && n0 > 0) printf "%.1f", (t1 - n1 * t0 / n0) / f
		 else print "nan" }')"

# 4. A 1 ms hot threshold at 1 MB/s: 64 MB hot on the slow node, TH1_S s.
# scan_period_max_ms 100, the adjustment's period, so that the
# threshold adjusts about 150 times (at 6.12's 60 s, never).  Run twice:
# untraced for the count, then again with the trigger, which slows
# each decision and so moves which faults land in the scan's tick,
# for the reasons and the latencies the decisions saw.
th1() {
	tiering 1 1
	echo 100 >"$DBG/scan_period_max_ms"
	echo "$1" >"$DBG/scan_size_mb"
	taskset 1 /tierwork promote 64 1 1 0 "$TH1_S" >/tmp/th1.out
	tiering_off
	echo 256 >"$DBG/scan_size_mb"
}
p0=$(vmstat pgpromote_success)
th1 256
metric promoted_pages_th1ms $(( $(vmstat pgpromote_success) - p0 ))
p0=$(vmstat pgpromote_success)
reasons_start
[ ! -d "$EVENT" ] || echo "$BY_LATENCY" >>"$EVENT/trigger"
th1 256
reasons_end th1ms
metric promoted_pages_th1ms_traced $(( $(vmstat pgpromote_success) - p0 ))
if [ -d "$EVENT" ]; then
	echo "compare-guest: th1ms: the most frequent latencies and thresholds:"
	grep '^{ latency_ms:' "$EVENT/hist" | sort -t: -k4 -n -r | head -8
	echo "!$BY_LATENCY" >>"$EVENT/trigger"
fi

# 5. The 1 ms run again, untraced, in 16 MB scan chunks.  The scanner
# runs right after the tick that queued it (task_tick_numa()), and with
# 6.12's 256 MB chunk it protects the whole 64 MB set in one pass: the
# faults left in that tick are the only ones with latency 0, the only
# latency a 1 ms threshold admits at HZ=250, so the count above
# measures how long the pass takes, not the decision.  A 16 MB pass
# ends early in its tick in both kernels.
p0=$(vmstat pgpromote_success)
th1 16
metric promoted_pages_th1ms_short $(( $(vmstat pgpromote_success) - p0 ))
# What 1 MB/s allows in that time, in 4 KiB pages: where both kernels
# reach it, the count is the knob's, not the decision's.
metric th1ms_limit_pages $((256 * TH1_S))
