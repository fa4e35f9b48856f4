#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: make-patches.sh REPO E2E_KSRC OUTDIR WORKTREE
# The upstream series, as git format-patch with a cover letter, on top of
# the pristine tree (tag "pristine" of the e2e tree's repository):
#   1. mm/memtier: the tier registry, demotion targets and top tier, with
#      their KUnit suites, and the build glue and MAINTAINERS entry of
#      kernel-integration/patches/0001;
#   2. mm/memtier: hot page selection, with its KUnit suites;
#   3... kernel-integration/patches, but for its build glue (0001),
#      which patch 1 carries: integration first, documentation last.
# The work tree is a git worktree of E2E_KSRC's repository at WORKTREE,
# left for patches-check.
set -eu
repo=$1
ksrc=$2
out=$3
wt=$4
git="git -C $wt -c user.name=memtier -c user.email=memtier@localhost"

rm -rf "$out"
mkdir -p "$out"
git -C "$ksrc" worktree remove --force "$wt" >/dev/null 2>&1 || rm -rf "$wt"
git -C "$ksrc" worktree prune
mkdir -p "$(dirname "$wt")"
git -C "$ksrc" worktree add -q --detach "$wt" pristine

hot="access_time free_space ratelimit threshold promote"
hot_tests="latency_kunit ratelimit_kunit threshold_kunit promote_kunit bench_kunit"

# Patch 1: everything but hot page selection.
mkdir -p "$wt/mm/memtier/tests"
for f in "$repo"/src/*.c "$repo"/src/*.h "$repo"/src/Kconfig; do
	b=$(basename "$f" .c)
	case " $hot " in *" $b "*) continue ;; esac
	cp "$f" "$wt/mm/memtier/"
done
for f in "$repo"/kunit/*.c "$repo"/kunit/*.h; do
	b=$(basename "$f" .c)
	case " $hot_tests " in *" $b "*) continue ;; esac
	cp "$f" "$wt/mm/memtier/tests/"
done
cp "$repo/src/include/linux/memtier.h" "$wt/include/linux/"
# The Makefiles without the hot page objects: the block under the
# "# Hot page selection" comment in each.
for mk in src/Makefile:mm/memtier/Makefile kunit/Makefile:mm/memtier/tests/Makefile; do
	# Drop the comment and the statement under it, continuations too.
	awk '/^# Hot page selection/ { skip = 1; next }
	     skip { if ($0 !~ /\\$/) skip = 0; next }
	     { print }' \
		"$repo/${mk%%:*}" >"$wt/${mk#*:}"
done
# The build glue and the MAINTAINERS entry.
(cd "$wt" && git apply "$repo"/kernel-integration/patches/0001-*.patch)
$git add -f -A mm/memtier include/linux/memtier.h mm/Kconfig mm/Makefile MAINTAINERS
$git commit -q -s -F "$repo/kernel-integration/series/library.msg"

# Patch 2: hot page selection.
for b in $hot; do cp "$repo/src/$b.c" "$wt/mm/memtier/"; done
for b in $hot_tests; do
	[ ! -f "$repo/kunit/$b.c" ] || cp "$repo/kunit/$b.c" "$wt/mm/memtier/tests/"
done
cp "$repo/src/Makefile" "$wt/mm/memtier/Makefile"
cp "$repo/kunit/Makefile" "$wt/mm/memtier/tests/Makefile"
cp "$repo/src/include/linux/memtier_promote.h" "$wt/include/linux/"
$git add -f -A mm/memtier include/linux/memtier_promote.h
$git commit -q -s -F "$repo/kernel-integration/series/hotpage.msg"

# The integration and documentation patches, less the glue.
for p in "$repo"/kernel-integration/patches/*.patch; do
	case $p in */0001-*) continue ;; esac
	$git am -q "$p"
done

$git format-patch -q --cover-letter -o "$out" pristine..HEAD
cover=$(ls "$out"/0000-cover-letter.patch)
python3 - "$cover" "$repo/kernel-integration/series/cover.txt" <<'PY'
import sys
path, blurb_path = sys.argv[1], sys.argv[2]
text = open(path).read()
blurb = open(blurb_path).read().rstrip("\n")
subject, _, body = blurb.partition("\n\n")
text = text.replace("*** SUBJECT HERE ***", subject)
text = text.replace("*** BLURB HERE ***", body)
open(path, "w").write(text)
PY
echo "patches: $(ls "$out" | wc -l) files in $out"
ls "$out"
