#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: patches-check.sh REPO WORKTREE PATCHDIR [STOCK]
# The two series that make-patches.sh left in WORKTREE (tag
# series-tiers, HEAD the hot page series on top of it) and PATCHDIR:
#  - each fix (a patch with a Fixes: tag, or a backport of an upstream
#    commit) applies to pristine 6.12 on its own, and the hot page
#    series' Fixes: patches, applied in order to pristine, build at every
#    step;
#  - every step of both series builds (the e2e configuration, with the
#    KUnit suites as a module once there is a library), and at each
#    step that changes the library its KUnit suites run, as a module of
#    that step's kernel;
#  - after the last step, the suites as a kernel developer runs them:
#    kunit.py run --arch=x86_64 --kunitconfig=mm/memtier, nothing else;
#  - the glue lines make-patches.sh counted (PATCHDIR/glue): at most 210
#    per patch and 920 in all;
#  - checkpatch --strict on every patch of both series.
# Pristine 6.12 is built first, with the e2e configuration: the fixes
# then build incrementally, and STOCK, when given, gets a copy of that
# kernel, stock 6.12 for make compare-fast.
# The build directory sits beside WORKTREE as the e2e tree's does beside
# it, so that with the Makefile's CCACHE_BASEDIR the series' last step,
# make kernel's tree and configuration less the patches not posted,
# hits nearly all its objects.
# Prints "patches-check: N passed, N failed".
set -u
repo=$1
wt=$2
patchdir=$3
stock=${4:-}
build=$(dirname "$wt")/build-e2e
kboot=$(dirname "$wt")/kunit-boot
kinitrd=$kboot-initramfs.cpio
pass=0
fail=0

step() {
	if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

build_here() {
	echo "patches-check: building $(git -C "$wt" log --format='%h %s' -1)"
	t0=$(date +%s)
	# The suites' module once a step has the library.
	config=$repo/kernel-integration/e2e.config
	[ ! -f "$wt/mm/memtier/Kconfig" ] ||
		config=$config:$repo/kernel-integration/kunit-module.config
	if "$repo/scripts/build-kernel.sh" "$wt" "$build" "$config" \
		>"$build.log" 2>&1; then
		echo "patches-check: ok ($(($(date +%s) - t0)) s)"
	else
		echo "patches-check: FAILED, the log's tail:"
		tail -20 "$build.log"
		return 1
	fi
}

build_at() {
	git -C "$wt" checkout -q "$1" || return 1
	build_here
}

# The KUnit suites at a library step: the step was just built with
# them as a module (kunit-module.config), so its kernel boots them as
# machine l of the e2e checks; no second kernel is built.  The suites
# expected are the ones this step has.
kunit_here() {
	echo "patches-check: KUnit on $(git -C "$wt" log --format='%h %s' -1)"
	KUNIT_SRC=$wt/mm/memtier/tests \
		"$repo/kernel-integration/e2e/mkinitramfs.sh" "$kinitrd" \
		"$build/mm/memtier/tests/memtier_kunit.ko" || return 1
	E2E_LABEL=kunit "$repo/kernel-integration/e2e/run-e2e.sh" \
		"$build/arch/x86/boot/bzImage" "$kinitrd" "$kboot" check l \
		>"$kboot.log" 2>&1
	rc=$?
	grep -E '^\[l\] FAIL|^\[l\]   |^machine l:|^\[l\] no result' "$kboot.log"
	return $rc
}

applies_to_pristine() {
	if git -C "$wt" apply --check "$1" 2>&1; then
		echo "patches-check: applies to pristine: $(basename "$1")"
	else
		echo "patches-check: does NOT apply to pristine: $(basename "$1")"
		return 1
	fi
}

am_here() {
	git -C "$wt" -c user.name=patches-check -c user.email=check@localhost \
		am -q "$1" || { git -C "$wt" am --abort; return 1; }
}

head=$(git -C "$wt" rev-parse HEAD)
# Fixes and backports of upstream commits ("commit <id> upstream.").
fix_re='^Fixes: |^commit [0-9a-f]{40} upstream\.$'
fixes=$(grep -lE "$fix_re" "$patchdir"/tiers/*.patch "$patchdir"/hotpage/*.patch)
# The hot page series' own fixes are built on pristine 6.12 in order.  A
# backport is not: upstream built it, and it changes mmzone.h, which would
# make that chain rebuild every object once more; it is built as the hot
# page series' first step.
hot_fixes=$(grep -l '^Fixes: ' "$patchdir"/hotpage/*.patch)

git -C "$wt" checkout -q --detach pristine || exit 1
for p in $fixes; do
	step applies_to_pristine "$p"
done
# Pristine 6.12 itself, kept as stock 6.12 when it builds.
[ -z "$stock" ] || rm -f "$stock"
if build_here; then
	pass=$((pass + 1))
	[ -z "$stock" ] || cp "$build/arch/x86/boot/bzImage" "$stock"
else
	fail=$((fail + 1))
fi
# The hot page series' fixes on pristine 6.12, in order.  The tiers
# series' fixes are its first patches, so they are built on pristine
# below.
for p in $hot_fixes; do
	if am_here "$p"; then
		step build_here
	else
		echo "patches-check: FAILED to apply $(basename "$p") to pristine"
		fail=$((fail + 1))
		break
	fi
done

for c in $(git -C "$wt" rev-list --reverse pristine.."$head"); do
	step build_at "$c"
	if git -C "$wt" log -1 --format=%s "$c" | grep -q '^mm/memtier:'; then
		step kunit_here
	fi
done
git -C "$wt" checkout -q "$head"

# The suites as a kernel developer runs them once the series is applied:
# kunit.py with mm/memtier/.kunitconfig and nothing else, from an empty
# build directory (.kunit, inside the worktree that make-patches.sh has
# just created).  The compiler goes through ccache by PATH only, so
# that the command line stays the plain one.
kunit_plain() {
	cmd="./tools/testing/kunit/kunit.py run --arch=x86_64 --kunitconfig=mm/memtier"
	echo "patches-check: on the whole series, in an empty build directory: $cmd"
	t0=$(date +%s)
	rm -rf "$wt/.kunit"
	(cd "$wt" && PATH=/usr/lib/ccache:$PATH $cmd) >"$kboot-plain.log" 2>&1
	rc=$?
	# kunit.py prints only the counts that are not zero.
	summary=$(grep 'Testing complete\. ' "$kboot-plain.log")
	grep -E '(FAILED|CRASHED) ' "$kboot-plain.log"
	echo "patches-check: kunit.py: ${summary#*] }"
	if [ "$rc" -ne 0 ] || ! echo "$summary" | grep -q 'passed: ' ||
	   echo "$summary" | grep -qE 'failed|crashed|errors'; then
		echo "patches-check: kunit.py FAILED ($(($(date +%s) - t0)) s), the log's tail:"
		tail -20 "$kboot-plain.log"
		return 1
	fi
	echo "patches-check: ok ($(($(date +%s) - t0)) s)"
}
step kunit_plain

# The glue lines make-patches.sh counted: the series stay thin.
glue_caps() {
	awk -v per=210 -v all=920 '
		$1 > per { print "patches-check: " $2 " has " $1 " glue lines," \
			" more than " per; bad = 1 }
		{ t += $1 }
		END { print "patches-check: glue " t " lines in all in " NR \
			" patches, at most " per " each and " all " in all"
		      if (t > all) { print "patches-check: more than " all; bad = 1 }
		      if (NR == 0) { print "patches-check: no glue counted"; bad = 1 }
		      exit bad }' "$patchdir/glue"
}
step glue_caps

echo "patches-check: checkpatch --strict on both series"
step "$repo/scripts/checkpatch-patches.sh" "$wt" \
	$(ls "$patchdir"/tiers/*.patch "$patchdir"/hotpage/*.patch |
	  grep -v cover-letter)

echo "patches-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
