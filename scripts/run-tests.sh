#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# usage: run-tests.sh REPO OUT STAGE...
# What `make test` runs: each STAGE as `make STAGE`, in order, timed;
# then a check that no stage left new untracked files in the checkout.
# A stage's count is the last "STAGE: N passed, N failed" line it
# printed, or 1 passed / 1 failed from its exit status when it prints
# none; a stage
# that exits non-zero counts at least one failure.  Every stage runs
# even after a failure, and the last line sums them all:
# "test: N passed, N failed".
set -u
repo=$1
out=$2
shift 2
mkdir -p "$out"
untracked() {
	git -C "$repo" ls-files --others --exclude-standard | sort
}
untracked >"$out/untracked-before"
total_pass=0
total_fail=0
failed=""

for stage in "$@"; do
	log=$out/stage-$stage.log
	start=$(date +%s)
	make --no-print-directory -C "$repo" "$stage" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	# Its own summary, not that of a stage it depends on (coverage
	# re-runs make kunit, whose "kunit: N passed" is counted once).
	line=$(grep -E "^$stage: [0-9]+ passed, [0-9]+ failed" "$log" | tail -1)
	if [ -n "$line" ]; then
		p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
		f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	elif [ "$rc" -eq 0 ]; then
		p=1 f=0
	else
		p=0 f=1
	fi
	[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	[ "$f" -eq 0 ] || failed="$failed $stage"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	echo "stage: $stage: $p passed, $f failed ($(($(date +%s) - start)) s)"
done

untracked | comm -13 "$out/untracked-before" - >"$out/untracked-new"
if [ -s "$out/untracked-new" ]; then
	echo "untracked: make test left files in the checkout:"
	sed 's/^/  /' "$out/untracked-new"
	total_fail=$((total_fail + 1))
	failed="$failed untracked"
else
	echo "untracked: nothing new in the checkout"
	total_pass=$((total_pass + 1))
fi

[ -z "$failed" ] || echo "test: failed stages:$failed"
echo "test: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
