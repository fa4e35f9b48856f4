#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: mkinitramfs.sh OUT.cpio [MODULE.ko...]
# The guest of the end-to-end boots: static busybox, /init, the checks
# and the tierwork workload (static C), and the given kernel modules in
# /lib/modules for the checks to insmod.  No network.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$1
shift
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root/bin"
cp /bin/busybox "$root/bin/busybox"
for applet in $("$root/bin/busybox" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
gcc -static -O2 -Wall -Wextra -Werror -o "$root/tierwork" "$here/tierwork.c"
install -m 0755 "$here/init" "$root/init"
mkdir -p "$root/lib/modules"
for ko in "$@"; do
	install -m 0644 "$ko" "$root/lib/modules/"
done
# The KUnit suites the module must run (KUNIT_SRC: their sources, the
# checkout's kunit/ unless a step of the series has others): every
# "memtier_*" suite name, and the number of cases and of slow cases.
kunit_src=${KUNIT_SRC:-$here/../../kunit}
sed -n 's/^[[:space:]]*\.name = "\(memtier_[a-z0-9_]*\)",$/\1/p' \
	"$kunit_src"/*.c | sort >"$root/kunit-suites"
echo "$(cat "$kunit_src"/*.c | grep -o 'KUNIT_CASE[A-Z_]*(' | wc -l)" \
	"$(cat "$kunit_src"/*.c | grep -o 'KUNIT_CASE_SLOW(' | wc -l)" \
	>"$root/kunit-cases"
install -m 0644 "$here/check.sh" "$here/run.sh" "$here/compare.sh" \
	"$here/seed.sh" "$root/"
(cd "$root" && find . | cpio -o -H newc --quiet) >"$out"
