#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: build-kernel.sh KSRC BUILD_DIR CONFIG_FRAGMENT[:FRAGMENT...] [MAKE_ARGS...]
# Configure BUILD_DIR from the defaults plus CONFIG_FRAGMENT (several
# fragments, separated by colons, are concatenated)
# (olddefconfig, never defconfig; allnoconfig for a fragment with the
# line "# base: allnoconfig"), check that every option of the
# fragment survived, and build bzImage with ccache, and the modules when
# the configuration has them.
set -eu
ksrc=$1
build=$2
fragments=$3
shift 3

mkdir -p "$build"
fragment=$build/.memtier-fragment.new
(IFS=:; for f in $fragments; do cat "$f" || exit 1; done) >"$fragment" || exit 1
stamp=$build/.memtier-fragment
if ! cmp -s "$fragment" "$stamp" || [ ! -f "$build/.config" ]; then
	if grep -qx '# base: allnoconfig' "$fragment"; then
		# The smallest kernel that still compiles what the fragment asks.
		rm -f "$build/.config"
		make -C "$ksrc" O="$build" ARCH=x86_64 CC="ccache gcc" \
			KCONFIG_ALLCONFIG="$fragment" allnoconfig >/dev/null
	else
		grep -v '^#' "$fragment" | grep -v '^$' >"$build/.config"
		make -C "$ksrc" O="$build" ARCH=x86_64 CC="ccache gcc" \
			olddefconfig >/dev/null
	fi
	cp "$fragment" "$stamp"
fi

missing=0
grep -v '^#' "$fragment" | grep -v '^$' | while IFS= read -r line; do
	case $line in
	*=n) opt=${line%=n}
	     ! grep -q "^$opt=" "$build/.config" || {
		echo "build-kernel: $opt is set, wanted off" >&2; exit 1; } ;;
	*)   grep -qx "$line" "$build/.config" || {
		echo "build-kernel: $line did not survive olddefconfig" >&2
		exit 1; } ;;
	esac
done || missing=1
[ "$missing" -eq 0 ] || exit 1

targets=bzImage
! grep -qx 'CONFIG_MODULES=y' "$build/.config" || targets="$targets modules"
# shellcheck disable=SC2086
make -C "$ksrc" O="$build" ARCH=x86_64 CC="ccache gcc" \
	-j"${JOBS:-$(nproc)}" "$@" $targets
