#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: run-e2e.sh BZIMAGE INITRAMFS LOGDIR MODE MACHINE...
# Boot each machine under QEMU (TCG), MODE "check" or "run", and add up
# the guest's "N passed, N failed" lines.  Exits non-zero on any failure,
# on a guest that printed no result, and on a timeout.  The summary line
# is "LABEL: N passed, N failed", LABEL being $E2E_LABEL or "e2e".
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/machines.sh"
kernel=$1
initrd=$2
logdir=$3
mode=$4
shift 4
timeout=${E2E_TIMEOUT:-600}
label=${E2E_LABEL:-e2e}

mkdir -p "$logdir"
total_pass=0
total_fail=0
for m in "$@"; do
	log=$logdir/machine-$m.log
	start=$(date +%s)
	qmp=""
	helper=""
	rm -f "$log"
	if machine_qmp "$m"; then
		# In /tmp: a socket's path must fit in 108 bytes.
		sockdir=$(mktemp -d /tmp/memtier-qmp.XXXXXX)
		sock=$sockdir/qmp
		qmp="-qmp unix:$sock,server=on,wait=off"
		python3 "$here/qmp-hotplug.py" "$sock" "$log" \
			2>"$logdir/qmp-$m.log" &
		helper=$!
	fi
	# shellcheck disable=SC2046,SC2086
	timeout "$timeout" qemu-system-x86_64 -nographic -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 $([ "$mode" = run ] && echo loglevel=4) machine=$m mode=$mode $(machine_cmdline "$m")" \
		$(machine_args "$m") $qmp </dev/null >"$log" 2>&1
	rc=$?
	if [ -n "$helper" ]; then
		kill "$helper" 2>/dev/null
		wait "$helper" 2>/dev/null
		rm -rf "$sockdir"
		sed "s/^/[$m] /" "$logdir/qmp-$m.log"
	fi
	tr -d '\r' <"$log" >"$log.txt" && mv "$log.txt" "$log"
	if [ "$mode" = run ]; then
		sed -n '/^memtier-e2e: machine/,/^memtier-e2e: done/p' "$log"
	else
		grep -E '^(ok|FAIL) - |^  (got|write of) ' "$log" | sed "s/^/[$m] /"
	fi
	line=$(grep -E "^machine $m: [0-9]+ passed, [0-9]+ failed" "$log" | tail -1)
	if [ "$mode" = run ]; then
		grep -q '^memtier-e2e: done' "$log" || total_fail=$((total_fail + 1))
	elif [ -z "$line" ]; then
		echo "[$m] no result (qemu exit $rc); the log's tail:"
		tail -20 "$log"
		total_fail=$((total_fail + 1))
	else
		p=$(echo "$line" | sed 's/.*: \([0-9]*\) passed.*/\1/')
		f=$(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')
		total_pass=$((total_pass + p))
		total_fail=$((total_fail + f))
		echo "$line"
	fi
	echo "time: machine $m took $(($(date +%s) - start)) s"
done
[ "$mode" = run ] && exit $((total_fail > 0))
echo "$label: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
