#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: [CHECKPATCH_IGNORE=TYPE,...] checkpatch-patches.sh KSRC PATCH...
# checkpatch.pl --strict on each patch, from the top of the kernel tree
# KSRC, ignoring the types in CHECKPATCH_IGNORE if set.  A finding is dropped only when kernel-integration/
# checkpatch-exceptions names both its type and a part of the patch's
# file name; the dropped ones are reported with their reason.  Prints
# every other finding and fails when there is one.
set -u
ksrc=$1
shift
exceptions=$(dirname "$0")/../kernel-integration/checkpatch-exceptions
found=$(mktemp)
[ -f "$ksrc/scripts/checkpatch.pl" ] || {
	echo "checkpatch: no $ksrc/scripts/checkpatch.pl" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$found" "$out"' EXIT
for p in "$@"; do
	p=$(realpath "$p")
	name=$(basename "$p")
	# checkpatch fails for any finding, kept ones too; failing with no
	# finding means it did not run.
	(cd "$ksrc" && perl scripts/checkpatch.pl --strict --terse \
		--show-types ${CHECKPATCH_IGNORE:+--ignore "$CHECKPATCH_IGNORE"} \
		"$p" >"$out" 2>&1) ||
	grep -qE 'ERROR|WARNING|CHECK' "$out" ||
		echo "checkpatch did not run on $name: $(head -1 "$out")" >>"$found"
	grep -E 'ERROR|WARNING|CHECK' "$out" |
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
