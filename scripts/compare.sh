#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: compare.sh REPO STOCK_BZIMAGE MEMTIER_BZIMAGE INITRAMFS OUTDIR REPS
# Boot stock 6.12 and the patched kernel, built from the same
# configuration, REPS times each, alternately, on machine a in compare
# mode (kernel-integration/e2e/compare.sh), and collect the guest's
# metric lines into OUTDIR/results.txt as "KERNEL REP METRIC VALUE".
# Every boot counts instructions (-icount shift=0,sleep=off: a guest ns
# is one instruction, and an idle guest's clock jumps ahead), so that
# the host's load does not move the guest's times.
# COMPARE_MODE=seed boots the seed experiment instead
# (kernel-integration/e2e/seed.sh); COMPARE_APPEND adds to the kernel
# command line (SWEEP_S=, SEED_S=, ...).
set -u
repo=$1
stock=$2
memtier=$3
initrd=$4
out=$5
reps=$6
. "$repo/kernel-integration/e2e/machines.sh"
mode=${COMPARE_MODE:-compare}

mkdir -p "$out"
: >"$out/results.txt"
rc=0
rep=1
while [ "$rep" -le "$reps" ]; do
	for kernel in stock memtier; do
		eval image=\$$kernel
		log=$out/$kernel-$rep.log
		start=$(date +%s)
		# shellcheck disable=SC2046
		timeout "${COMPARE_TIMEOUT:-1200}" qemu-system-x86_64 -nographic -no-reboot \
			-kernel "$image" -initrd "$initrd" \
			-append "console=ttyS0 panic=-1 loglevel=4 machine=a mode=$mode ${COMPARE_APPEND-}" \
			$(machine_args a) -icount shift=0,sleep=off \
			</dev/null 2>&1 | tr -d '\r' >"$log"
		n=$(grep -c "^$mode-guest " "$log")
		echo "compare: $kernel boot $rep: $n metrics, $(($(date +%s) - start)) s"
		if ! grep -q '^memtier-e2e: done' "$log" || [ "$n" -eq 0 ]; then
			echo "compare: $kernel boot $rep did not finish; its log's tail:"
			tail -20 "$log"
			rc=1
		fi
		sed -n "s/^$mode-guest metric=\([A-Za-z0-9_.-]*\) value=\(.*\)$/$kernel $rep \1 \2/p" \
			"$log" >>"$out/results.txt"
	done
	rep=$((rep + 1))
done
exit $rc
