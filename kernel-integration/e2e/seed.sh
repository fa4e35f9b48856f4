#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest of make seed-experiment, run by /init with mode=seed on
# machine a: seed 001's pmbench experiment, scaled to the guest.  A
# Gaussian load over a working set larger than the fast node's free
# memory (tierwork gauss), once without NUMA balancing, then in tiering
# mode with each hot page policy the kernel offers (stock 6.12: its one)
# at a rate limit that does not bind and at one that does, demotion on
# throughout.  Prints "seed-guest metric=CONFIG.M value=V" lines.

DBG=/sys/kernel/debug/sched/numa_balancing
SYSCTL=/proc/sys/kernel
# Seconds per configuration, the working set (MB) and the binding rate
# limit (MB/s): SEED_S=, SEED_MB= and SEED_RL= on the command line.
SEED_S=${SEED_S:-40}
SEED_MB=${SEED_MB:-320}
SEED_RL=${SEED_RL:-4}

vmstat() {
	echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}
demoted() {
	echo $(( $(vmstat pgdemote_kswapd) + $(vmstat pgdemote_direct) ))
}
key() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

# run NAME POLICY RATE_LIMIT: POLICY "off" runs without NUMA balancing.
run() {
	p0=$(vmstat pgpromote_success)
	d0=$(demoted)
	echo 1 >/sys/kernel/mm/numa/demotion_enabled
	if [ "$2" != off ]; then
		echo 0 >"$DBG/scan_delay_ms"
		echo 1000 >"$DBG/hot_threshold_ms"
		echo "$3" >"$SYSCTL/numa_balancing_promote_rate_limit_MBps"
		[ ! -f "$DBG/hot_page_policy" ] || echo "$2" >"$DBG/hot_page_policy"
		echo 2 >"$SYSCTL/numa_balancing"
	fi
	taskset 1 /tierwork gauss "$SEED_MB" 1 0 "$SEED_S" 30 200 >/tmp/gauss.out
	echo 0 >"$SYSCTL/numa_balancing"
	echo 0 >/sys/kernel/mm/numa/demotion_enabled
	echo 65536 >"$SYSCTL/numa_balancing_promote_rate_limit_MBps"
	[ ! -f "$DBG/hot_page_policy" ] || echo latency >"$DBG/hot_page_policy"
	grep -v '^gauss_t ' /tmp/gauss.out
	for m in score slow_share hot_on_fast bad_words; do
		echo "seed-guest metric=$1.$m value=$(key /tmp/gauss.out "gauss_$m")"
	done
	# Promotion and demotion traffic over the run, MB/s.
	for m in promote demote; do
		if [ $m = promote ]; then
			pages=$(( $(vmstat pgpromote_success) - p0 ))
		else
			pages=$(( $(demoted) - d0 ))
		fi
		echo "seed-guest metric=$1.${m}_mbps value=$(awk \
			-v p="$pages" -v s="$SEED_S" \
			'BEGIN { printf "%.2f", p * 4096 / 1048576 / s }')"
	done
}

run off off 0
policies=latency
[ ! -f "$DBG/hot_page_policy" ] ||
	policies=$(tr -d '[]' <"$DBG/hot_page_policy")
for policy in $policies; do
	run "$policy-unlimited" "$policy" 65536
	run "$policy-${SEED_RL}MBps" "$policy" "$SEED_RL"
done
