#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: prepare-tree.sh REPO KSRC series|stock
#
# Unpack Debian's linux-source-6.12 once into KSRC (in the cache, never
# in the checkout) and place the library (src/) and its KUnit suites
# (kunit/) into it as mm/memtier/ and mm/memtier/tests/.
#
#  series  the tree of make kernel, and of make kunit, lint, coverage,
#          sanitizers and mutants: a git repository (tag "pristine")
#          with the whole of kernel-integration/patches applied by
#          git am, again whenever the series changes.
#  stock   the tree of make compare's stock kernel: unpacked, untouched.
set -eu

repo=$1
ksrc=$2
mode=${3:-}
case $mode in
series | stock) ;;
*)
	echo "usage: prepare-tree.sh REPO KSRC series|stock" >&2
	exit 2
	;;
esac
tarball=/usr/src/linux-source-6.12.tar.xz
series=$repo/kernel-integration/patches
git="git -c user.name=memtier -c user.email=memtier@localhost"

if [ ! -f "$ksrc/.memtier-unpacked" ]; then
	# Never remove a tree this script did not unpack: it may hold work.
	if [ -e "$ksrc" ]; then
		echo "prepare-tree: $ksrc was not unpacked by memtier;" \
			"remove it or point the Makefile elsewhere" >&2
		exit 1
	fi
	echo "prepare-tree: unpacking $tarball into $ksrc"
	rm -rf "$ksrc.unpacking"
	mkdir -p "$ksrc.unpacking"
	tar -xJf "$tarball" -C "$ksrc.unpacking" --strip-components=1
	if [ "$mode" = series ]; then
		(cd "$ksrc.unpacking" && $git init -q && $git add -f -A . &&
		 $git commit -qm "linux-source-6.12 (Debian)" &&
		 $git tag pristine)
	fi
	touch "$ksrc.unpacking/.memtier-unpacked"
	mv "$ksrc.unpacking" "$ksrc"
fi

[ "$mode" != stock ] || exit 0
cd "$ksrc"
if [ "$mode" = series ]; then
	want=$(cat "$series"/*.patch | sha1sum | cut -d' ' -f1)
	if [ "$(cat .memtier-series 2>/dev/null)" != "$want" ]; then
		echo "prepare-tree: applying $(ls "$series"/*.patch | wc -l) patches"
		$git am --abort >/dev/null 2>&1 || true
		$git reset -q --hard pristine
		"$repo/scripts/am-as.sh" . "memtier <memtier@localhost>" -q -- \
			"$series"/*.patch
		echo "$want" >.memtier-series
	fi
fi

# mm/memtier/ is a real directory of links, so that a file added to or
# removed from src/ is picked up on the next run.
dir=mm/memtier
mkdir -p "$dir"
find "$dir" -maxdepth 1 -type l -delete
for f in "$repo"/src/* "$repo"/src/.kunitconfig; do
	[ "$f" = "$repo/src/include" ] || ln -s "$f" "$dir/"
done
ln -s "$repo/kunit" "$dir/tests"
# The public headers, include/linux/memtier*.h and the trace events'
# include/trace/events/memtier.h: copied, and only when their text
# changed.  Nearly every object includes memtier_promote_types.h
# (through mmzone.h): a link would give it the checkout's time, and a
# new checkout would make Kbuild compile every object again.
for f in "$repo"/src/include/linux/*.h "$repo"/src/include/trace/events/*.h; do
	dst=${f#"$repo"/src/}
	[ ! -L "$dst" ] || rm -f "$dst"
	cmp -s "$f" "$dst" || cp "$f" "$dst"
done
