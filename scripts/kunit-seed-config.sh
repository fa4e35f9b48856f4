#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: kunit-seed-config.sh KSRC BASE_FRAGMENT BUILD KUNIT.PY-CONFIG-ARGS...
#
# Give a kunit.py build directory a .config on BASE_FRAGMENT's
# allnoconfig base (the e2e kernel's configuration) plus what kunit.py
# asks for, instead of kunit.py's own base (olddefconfig from nothing,
# every default on).  The two kernels then differ in a handful of
# options, and the second one built is mostly ccache hits.
#
# KUNIT.PY-CONFIG-ARGS is a `kunit.py config` command line for BUILD.
# It runs first and writes BUILD/last_used_kunitconfig, the options
# kunit.py requires (the kunitconfig, the architecture's, --kconfig_add).
# kunit.py keeps an existing .config that holds all of them while that
# file is unchanged; this script checks that the seeded one does, so
# that kunit.py never replaces it silently.
set -eu
ksrc=$1
base=$2
build=$3
shift 3

mkdir -p "$build"
cd "$ksrc"
"$@" >"$build/.memtier-seed.log" 2>&1 ||
	{ cat "$build/.memtier-seed.log"; exit 1; }

stamp=$build/.memtier-seed
want=$(cat "$base" "$build/last_used_kunitconfig" | sha1sum | cut -d' ' -f1)
have=$(sha1sum <"$build/.config" | cut -d' ' -f1)
[ "$(cat "$stamp" 2>/dev/null)" != "$want $have" ] || exit 0

fragment=$build/.memtier-seed-fragment
cat "$base" "$build/last_used_kunitconfig" >"$fragment"
rm -f "$build/.config"
make -C "$ksrc" O="$build" ARCH=x86_64 CC="ccache gcc" \
	KCONFIG_ALLCONFIG="$fragment" allnoconfig >/dev/null

bad=0
while IFS= read -r line; do
	case $line in
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		! grep -q "^$opt=" "$build/.config" || {
			echo "kunit-seed: $opt is set, kunit.py wants it off" >&2
			bad=1; } ;;
	CONFIG_*)
		grep -qx "$line" "$build/.config" || {
			echo "kunit-seed: $line missing on the allnoconfig base" >&2
			bad=1; } ;;
	esac
done <"$build/last_used_kunitconfig"
[ "$bad" -eq 0 ] || { rm -f "$build/.config"; exit 1; }

echo "$want $(sha1sum <"$build/.config" | cut -d' ' -f1)" >"$stamp"
echo "kunit-seed: $build/.config on the allnoconfig base of $(basename "$base")"
