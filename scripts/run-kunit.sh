#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: run-kunit.sh KSRC JSON KUNIT.PY-ARGS...
# Run kunit.py inside the kernel tree, then check its JSON report: every
# memtier_ suite defined in kunit/ ran, and no case failed or crashed.
set -u
ksrc=$1
json=$2
shift 2
repo=$(cd "$(dirname "$0")/.." && pwd)

mkdir -p "$(dirname "$json")"
rm -f "$json"
cd "$ksrc" || exit 1
"$@" --json="$json"
rc=$?
# The differential suite's totals: how many machines were compared with
# 6.12's rules (one line per seed in the run's log).
log=$(dirname "$json")/test.log
[ -f "$log" ] && awk '/compared with 6.12: [0-9]+ machines/ {
		m += $(NF - 4); s += $(NF - 2) }
	END { if (m) printf "kunit: memtier_mainline compared %d machines, %d node states with 6.12\n", m, s }' "$log"
python3 "$repo/scripts/kunit-check.py" "$json" "$repo"/kunit/*.c || rc=1
exit $rc
