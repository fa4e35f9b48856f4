#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: patches-check.sh REPO WORKTREE
# Bisectability of the series that make-patches.sh left in WORKTREE:
# build the kernel (e2e config) at every step, and run the KUnit suites
# on the library patches alone.  The build directories sit beside
# WORKTREE as the other trees' do beside theirs, so that with the
# Makefile's CCACHE_BASEDIR the series' tip and its library step hit
# what make kernel and make kunit compiled.
# Prints "patches-check: N passed, N failed".
set -u
repo=$1
wt=$2
build=$(dirname "$wt")/build-e2e
kbuild=$(dirname "$wt")/build-kunit
pass=0
fail=0

step() {
	if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

build_at() {
	git -C "$wt" checkout -q "$1" || return 1
	echo "patches-check: building $(git -C "$wt" log --format='%h %s' -1)"
	if "$repo/scripts/build-kernel.sh" "$wt" "$build" \
		"$repo/kernel-integration/e2e.config" >"$build.log" 2>&1; then
		echo "patches-check: ok"
	else
		echo "patches-check: FAILED, the log's tail:"
		tail -20 "$build.log"
		return 1
	fi
}

kunit_at() {
	git -C "$wt" checkout -q "$1" || return 1
	echo "patches-check: KUnit on $(git -C "$wt" log --format='%h %s' -1)"
	(cd "$wt" && ./tools/testing/kunit/kunit.py run --arch=x86_64 \
		--kunitconfig="$repo/.kunitconfig" --build_dir="$kbuild" \
		--jobs="${JOBS:-$(nproc)}" --make_options CC="ccache gcc" \
		--kconfig_add CONFIG_MEMTIER_GCOV=n \
		--filter 'speed>slow' --filter_action=skip \
		--json="$kbuild.json" >"$kbuild.log" 2>&1)
	python3 "$repo/scripts/kunit-check.py" "$kbuild.json" \
		"$wt"/mm/memtier/tests/*.c | tail -1
	python3 "$repo/scripts/kunit-check.py" "$kbuild.json" \
		"$wt"/mm/memtier/tests/*.c >/dev/null
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
