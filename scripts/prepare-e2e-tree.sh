#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: prepare-e2e-tree.sh REPO KSRC
# The patched tree for `make kernel`: a pristine linux-source-6.12 as a
# git repository (tag "pristine"), the series in
# kernel-integration/patches applied with git am, and the library linked
# in as for the KUnit tree.  Re-applied whenever the series changes.
set -eu
repo=$1
ksrc=$2
tarball=/usr/src/linux-source-6.12.tar.xz
series=$repo/kernel-integration/patches
git="git -c user.name=memtier -c user.email=memtier@localhost"

if [ ! -f "$ksrc/.memtier-unpacked" ]; then
	if [ -e "$ksrc" ]; then
		echo "prepare-e2e-tree: $ksrc was not unpacked by memtier;" \
			"remove it or set E2E_KSRC" >&2
		exit 1
	fi
	echo "prepare-e2e-tree: unpacking $tarball into $ksrc"
	rm -rf "$ksrc.unpacking"
	mkdir -p "$ksrc.unpacking"
	tar -xJf "$tarball" -C "$ksrc.unpacking" --strip-components=1
	(cd "$ksrc.unpacking" && $git init -q && $git add -f -A . &&
	 $git commit -qm "linux-source-6.12 (Debian)" && $git tag pristine)
	touch "$ksrc.unpacking/.memtier-unpacked"
	mv "$ksrc.unpacking" "$ksrc"
fi

cd "$ksrc"
want=$(cat "$series"/*.patch | sha1sum | cut -d' ' -f1)
if [ "$(cat .memtier-series 2>/dev/null)" != "$want" ]; then
	echo "prepare-e2e-tree: applying $(ls "$series"/*.patch | wc -l) patches"
	$git am --abort >/dev/null 2>&1 || true
	$git reset -q --hard pristine
	$git am -q "$series"/*.patch
	echo "$want" >.memtier-series
fi

# The library itself is not in the series: it is linked from src/.
dir=mm/memtier
mkdir -p "$dir"
find "$dir" -maxdepth 1 -type l -delete
for f in "$repo"/src/*; do
	[ "$f" = "$repo/src/include" ] || ln -s "$f" "$dir/"
done
ln -s "$repo/kunit" "$dir/tests"
for f in "$repo"/src/include/linux/*.h; do
	ln -sfn "$f" "include/linux/$(basename "$f")"
done
