#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: checkpatch-patches.sh KSRC PATCH...
# checkpatch.pl --strict on each patch, from the top of the kernel tree
# KSRC.  A finding is dropped only when kernel-integration/
# checkpatch-exceptions names both its type and a part of the patch's
# file name; the dropped ones are reported with their reason.  Prints
# every other finding and fails when there is one.
set -u
ksrc=$1
shift
exceptions=$(dirname "$0")/../kernel-integration/checkpatch-exceptions
found=$(mktemp)
trap 'rm -f "$found"' EXIT
for p in "$@"; do
	p=$(realpath "$p")
	name=$(basename "$p")
	(cd "$ksrc" && perl scripts/checkpatch.pl --strict --terse \
		--show-types "$p" 2>&1) | grep -E 'ERROR|WARNING|CHECK' |
	while IFS= read -r finding; do
		type=$(echo "$finding" | sed -n 's/.*: [A-Z]*:\([A-Z_]*\):.*/\1/p')
		reason=$(grep -v '^#' "$exceptions" | awk -v n="$name" -v t="$type" \
			'$1 != "" && index(n, $1) && $2 == t {
				$1 = $2 = ""; sub(/^ +/, ""); print; exit }')
		if [ -n "$reason" ]; then
			echo "checkpatch: $name: $type kept: $reason"
		else
			echo "$finding" >>"$found"
		fi
	done
done
[ ! -s "$found" ] || { cat "$found"; exit 1; }
