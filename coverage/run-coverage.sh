#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: run-coverage.sh REPO KSRC KUNIT_BUILD OUTDIR
# Boot the KUnit kernel that `make kunit` built (gcov on mm/memtier
# only), collect the library's .gcda files from the guest's debugfs, and
# report with lcov/genhtml.  Prints
#   coverage: lines=L% functions=F% branches=B%
# for src/ and fails below COV_MIN_LINES (95) or COV_MIN_BRANCHES (90).
set -eu
repo=$1
ksrc=$2
build=$3
out=$4
min_lines=${COV_MIN_LINES:-95}
min_branches=${COV_MIN_BRANCHES:-90}
# Branch coverage counts the library's own decisions.  The branches that
# gcc generates inside kernel helpers expanded in our lines (test_bit's
# constant and non-constant arms in node_isset() and the nodes_*() and
# for_each_node_mask() helpers, try_cmpxchg()'s retry arm, clamp() and
# div_u64() internals, KUnit's static-stub check) are not, and lines
# that use them are left out of branch counting, as is any line marked
# LCOV_EXCL_BR_LINE (each with its reason beside it).
lrc="--config-file $out/lcovrc"

rm -rf "$out"
mkdir -p "$out/obj" "$out/initramfs/bin"
cat >"$out/lcovrc" <<'RC'
lcov_branch_coverage = 1
genhtml_branch_coverage = 1
lcov_excl_br_line = LCOV_EXCL_BR_LINE|node_isset|nodes_[a-z]*\(|for_each_node_mask|try_cmpxchg|clamp\(|div_u64|KUNIT_STATIC_STUB_REDIRECT
RC
cp /bin/busybox "$out/initramfs/bin/"
for a in $(/bin/busybox --list); do
	[ -e "$out/initramfs/bin/$a" ] || ln -s busybox "$out/initramfs/bin/$a"
done
install -m 0755 "$repo/coverage/init" "$out/initramfs/init"
(cd "$out/initramfs" && find . | cpio -o -H newc --quiet) >"$out/initramfs.cpio"

# gcov matches each .gcda to its .gcno by a stamp that gcc writes into
# both at one compile.  ccache can hand back an object and a notes file
# from different compiles (make lint recompiles mm/memtier/ in this
# build directory too): every pair then mismatches.  So the library's
# instrumented objects are compiled here with ccache bypassed (the same
# command line, so nothing else rebuilds) and the kernel relinked.
rm -f "$build"/mm/memtier/*.o "$build"/mm/memtier/*.gcno
CCACHE_DISABLE=1 make -s -C "$ksrc" O="$build" ARCH=x86_64 \
	CC="ccache gcc" -j"${JOBS:-2}" bzImage >"$out/build.log" 2>&1 ||
	{ tail -20 "$out/build.log"; exit 1; }

timeout 600 qemu-system-x86_64 -nographic -no-reboot -m 1G -smp 1 \
	-kernel "$build/arch/x86/boot/bzImage" -initrd "$out/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 kunit.enable=1" </dev/null \
	>"$out/console.log" 2>&1 || true
python3 "$repo/coverage/extract-gcda.py" "$out/console.log" "$out/obj"

# gcov wants each .gcda beside its .gcno.
cp "$build"/mm/memtier/*.gcno "$out/obj/"
lcov $lrc --quiet --capture --directory "$out/obj" \
	--output-file "$out/raw.info" 2>"$out/lcov.err"
# Keep the library, and name its files as they are in the checkout.
lcov $lrc --quiet --extract "$out/raw.info" "*/mm/memtier/*.c" \
	--output-file "$out/lib.info"
lcov $lrc --quiet --remove "$out/lib.info" "*/mm/memtier/tests/*" \
	--output-file "$out/memtier.info"
sed -i "s|^SF:.*/mm/memtier/|SF:$repo/src/|" "$out/memtier.info"
genhtml $lrc --quiet --output-directory "$out/html" "$out/memtier.info"

lcov $lrc --summary "$out/memtier.info" 2>&1 | tee "$out/summary.txt" |
	sed -n 's/^ *\([a-z]*\)\.*: \([0-9.]*\)%.*/\1 \2/p' >"$out/rates.txt"
rate() { awk -v k="$1" '$1 == k { print $2 }' "$out/rates.txt"; }
lines=$(rate lines)
functions=$(rate functions)
branches=$(rate branches)
echo "coverage: lines=${lines}% functions=${functions}% branches=${branches}%"
echo "coverage: report $out/html/index.html, lcov $out/memtier.info"
awk -v l="$lines" -v b="$branches" -v ml="$min_lines" -v mb="$min_branches" \
	'BEGIN { exit !(l >= ml && b >= mb) }' || {
	echo "coverage: below the gate (lines >= $min_lines%, branches >= $min_branches%)"
	exit 1
}
