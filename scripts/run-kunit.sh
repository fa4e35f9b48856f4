#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: run-kunit.sh KSRC JSON KUNIT.PY-ARGS...
# Run kunit.py inside the kernel tree, then check its JSON report: every
# memtier_ suite defined in kunit/ ran, and no case failed or crashed.
set -u
ksrc=$1
json=$2
shift 2
repo=$(cd "$(dirname "$0")/.." && pwd)

mkdir -p "$(dirname "$json")"
rm -f "$json"
cd "$ksrc" || exit 1
"$@" --json="$json"
rc=$?
python3 "$repo/scripts/kunit-check.py" "$json" "$repo"/kunit/*.c || rc=1
exit $rc
