#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: patches-check.sh REPO WORKTREE
# Bisectability of the series that make-patches.sh left in WORKTREE:
# build the kernel (e2e config) at every step, and run the KUnit suites
# on the library patches alone, as a module of that step's kernel.  The
# build directory sits beside WORKTREE as the other trees' do beside
# theirs, so that with the Makefile's CCACHE_BASEDIR the series' tip
# and its library steps hit what make kernel and make kunit compiled.
# Prints "patches-check: N passed, N failed".
set -u
repo=$1
wt=$2
build=$(dirname "$wt")/build-e2e
kboot=$(dirname "$wt")/kunit-boot
kinitrd=$kboot-initramfs.cpio
pass=0
fail=0

step() {
	if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

build_at() {
	git -C "$wt" checkout -q "$1" || return 1
	echo "patches-check: building $(git -C "$wt" log --format='%h %s' -1)"
	if "$repo/scripts/build-kernel.sh" "$wt" "$build" \
		"$repo/kernel-integration/e2e.config:$repo/kernel-integration/kunit-module.config" \
		>"$build.log" 2>&1; then
		echo "patches-check: ok"
	else
		echo "patches-check: FAILED, the log's tail:"
		tail -20 "$build.log"
		return 1
	fi
}

# The KUnit suites at a library step: the step was just built with
# them as a module (kunit-module.config), so its kernel boots them as
# machine l of the e2e checks; no second kernel is built.
kunit_at() {
	git -C "$wt" checkout -q "$1" || return 1
	echo "patches-check: KUnit on $(git -C "$wt" log --format='%h %s' -1)"
	"$repo/kernel-integration/e2e/mkinitramfs.sh" "$kinitrd" \
		"$build/mm/memtier/tests/memtier_kunit.ko" || return 1
	E2E_LABEL=kunit "$repo/kernel-integration/e2e/run-e2e.sh" \
		"$build/arch/x86/boot/bzImage" "$kinitrd" "$kboot" check l \
		>"$kboot.log" 2>&1
	rc=$?
	grep -E '^\[l\] FAIL|^\[l\]   |^machine l:|^\[l\] no result' "$kboot.log"
	return $rc
}

head=$(git -C "$wt" rev-parse HEAD)
commits=$(git -C "$wt" rev-list --reverse pristine..HEAD)
library=$(git -C "$wt" rev-list --reverse pristine..HEAD | sed -n 2p)
for c in $commits; do
	step build_at "$c"
	[ "$c" = "$library" ] && step kunit_at "$c"
done
git -C "$wt" checkout -q "$head"
echo "patches-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
