#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Unpack Debian's linux-source-6.12 once into the cache and place the
# library (src/) and its KUnit suites (kunit/) into it as mm/memtier/.
#
# usage: prepare-tree.sh REPO KSRC
set -eu

repo=$1
ksrc=$2
tarball=/usr/src/linux-source-6.12.tar.xz

if [ ! -f "$ksrc/.memtier-unpacked" ]; then
	# Never remove a tree this script did not unpack: it may hold work.
	if [ -e "$ksrc" ]; then
		echo "prepare-tree: $ksrc was not unpacked by memtier;" \
			"remove it or set KSRC" >&2
		exit 1
	fi
	echo "prepare-tree: unpacking $tarball into $ksrc"
	rm -rf "$ksrc.unpacking"
	mkdir -p "$ksrc.unpacking"
	tar -xJf "$tarball" -C "$ksrc.unpacking" --strip-components=1
	touch "$ksrc.unpacking/.memtier-unpacked"
	mv "$ksrc.unpacking" "$ksrc"
fi

# mm/memtier/ is a real directory of links, so that a file added to or
# removed from src/ is picked up on the next run.
dir=$ksrc/mm/memtier
mkdir -p "$dir"
find "$dir" -maxdepth 1 -type l -delete
for f in "$repo"/src/*; do
	[ "$f" = "$repo/src/include" ] || ln -s "$f" "$dir/"
done
ln -s "$repo/kunit" "$dir/tests"
# The public headers: include/linux/memtier*.h.
for f in "$repo"/src/include/linux/*.h; do
	ln -sfn "$f" "$ksrc/include/linux/$(basename "$f")"
done

# Kconfig and Makefile glue, added once.
grep -q 'mm/memtier/Kconfig' "$ksrc/mm/Kconfig" ||
	printf '\nsource "mm/memtier/Kconfig"\n' >>"$ksrc/mm/Kconfig"
grep -q 'memtier/' "$ksrc/mm/Makefile" ||
	printf '\nobj-y += memtier/\n' >>"$ksrc/mm/Makefile"
