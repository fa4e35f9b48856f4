#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: lint.sh REPO KSRC KUNIT_BUILD
# The kernel's own static gates, on the library, its tests and the
# integration series:
#  - checkpatch.pl --strict: no ERROR, WARNING or CHECK;
#  - scripts/kernel-doc -none -Wall on the library: silent;
#  - include/linux/memtier.h holds only what other subsystems use, and
#    no file outside mm/ includes the library's private header;
#  - the library pieces held back for their first users still come off
#    the library (kernel-integration/series/*.diff);
#  - the library and its suites built with W=1 and sparse (C=2): no
#    warning.
# Prints one line per gate and "lint: N passed, N failed".
set -u
repo=$1
ksrc=$2
build=$3
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gate() {
	name=$1
	file=$2
	if [ -s "$file" ]; then
		echo "lint: $name: FAILED"
		sed 's/^/  /' "$file"
		fail=$((fail + 1))
	else
		echo "lint: $name: clean"
		pass=$((pass + 1))
	fi
}

cd "$repo" || exit 1
sources="src/*.c src/*.h src/include/linux/*.h src/include/trace/events/*.h"
perl "$ksrc/scripts/checkpatch.pl" --no-tree --strict --terse --show-types \
	-f $sources kunit/*.c kunit/*.h 2>&1 |
	grep -E 'ERROR|WARNING|CHECK' >"$tmp/checkpatch"
gate "checkpatch --strict on src/ and kunit/" "$tmp/checkpatch"

# The stored patches carry no sign-off: make patches adds the
# submitter's, and make patches-check runs checkpatch on the signed
# series with nothing ignored.
CHECKPATCH_IGNORE=MISSING_SIGN_OFF "$repo/scripts/checkpatch-patches.sh" \
	"$ksrc" "$repo"/kernel-integration/patches/*.patch >"$tmp/series.log"
grep -v '^checkpatch: .* kept: ' "$tmp/series.log" >"$tmp/series"
grep '^checkpatch: .* kept: ' "$tmp/series.log"
gate "checkpatch --strict on kernel-integration/patches" "$tmp/series"

perl "$ksrc/scripts/kernel-doc" -none -Wall $sources >"$tmp/kdoc" 2>&1
gate "kernel-doc -none -Wall on src/" "$tmp/kdoc"

# The library's internals are mm's: include/linux/memtier.h holds tier
# IDs and static inlines for other subsystems, no structure and no
# function of the library, and only mm/ includes mm/memtier/memtier.h.
awk '/^[a-z]/ && !/^static inline / { print FILENAME ":" FNR ": " $0 }' \
	src/include/linux/memtier.h >"$tmp/public"
git -C "$ksrc" grep -n 'memtier/memtier\.h' -- . ':!mm/' >>"$tmp/public"
gate "mm's tier internals stay out of include/linux/" "$tmp/public"

# The library pieces make-patches.sh holds back for their first users
# (kernel-integration/series/*.diff) must still come off the library as
# it is: a change to their lines in src/ or kunit/ needs a new delta.
mkdir -p "$tmp/lib/include/linux" "$tmp/lib/include/trace/events" \
	"$tmp/lib/mm/memtier/tests"
cp src/include/linux/*.h "$tmp/lib/include/linux/"
cp src/include/trace/events/*.h "$tmp/lib/include/trace/events/"
cp src/*.c src/*.h "$tmp/lib/mm/memtier/"
cp kunit/*.c kunit/*.h "$tmp/lib/mm/memtier/tests/"
sed -e 's/ bench_kunit\.o//' kunit/Makefile >"$tmp/lib/mm/memtier/tests/Makefile"
for d in kernel-integration/series/*.diff; do
	(cd "$tmp/lib" && git apply -R --check "$repo/$d") \
		>>"$tmp/pieces" 2>&1 || echo "$d does not come off src/" >>"$tmp/pieces"
done
gate "held-back library pieces come off the library" "$tmp/pieces"

make -C "$ksrc" O="$build" ARCH=x86_64 CC="ccache gcc" W=1 C=2 \
	-j"$(nproc)" mm/memtier/ >"$tmp/build.log" 2>&1 ||
	echo "build of mm/memtier/ failed" >>"$tmp/build.log"
grep -E 'warning|error|failed' "$tmp/build.log" >"$tmp/w1"
gate "W=1 and sparse on mm/memtier/" "$tmp/w1"

echo "lint: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
