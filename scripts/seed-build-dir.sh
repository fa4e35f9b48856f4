#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: seed-build-dir.sh SEED BUILD_DIR
# A BUILD_DIR that has never been configured starts as a copy of SEED,
# a built directory of the same tree: Kbuild then rebuilds only what the
# two configurations' differences and command lines reach, instead of
# every object (even from ccache, a whole kernel's worth of lookups,
# objtool and fixdep).  Nothing is done when BUILD_DIR has a .config or
# SEED has no vmlinux.
set -eu
seed=$1
build=$2
[ ! -f "$build/.config" ] && [ -f "$seed/vmlinux" ] || exit 0
echo "seed-build-dir: $build starts as a copy of $seed"
mkdir -p "$build"
cp -a "$seed/." "$build/"
rm -f "$build/.memtier-fragment"
# objtool's command files name the directory it was built in: left as
# they are, objtool is rebuilt, and every object after it.
grep -rlZF --include='.*.cmd' -- "$seed/" "$build/tools" |
	xargs -0 -r sed -i "s|$seed/|$build/|g"
