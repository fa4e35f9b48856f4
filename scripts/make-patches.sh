#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: make-patches.sh REPO E2E_KSRC OUTDIR WORKTREE
#
# The two upstream series, as git format-patch with a cover letter each,
# built in a git worktree (WORKTREE, left for patches-check) of the e2e
# tree's repository:
#
#   OUTDIR/tiers/    on the tag "pristine" (Debian's 6.12):
#                    the fixes of kernel-integration/patches that are not
#                    sched/numa patches (but for the one in $tiers_needs),
#                    then the tier library
#                    (src/ and kunit/ less hot page selection) with the
#                    build glue and MAINTAINERS entry, then the rest of
#                    those patches;
#   OUTDIR/hotpage/  on top of the tiers series: the backports whose
#                    subjects start "mm: memory-tiering:" and the
#                    sched/numa fixes,
#                    then the hot page selection library, then the rest
#                    of the sched/numa patches.
#
# A fix is a patch with a "Fixes:" tag, or a backport of an upstream
# commit ("commit <id> upstream."): it comes first and applies to
# pristine 6.12 on its own.  Each library piece comes directly before
# its first user: two parts of the library whose first users come later
# are held back by the deltas in kernel-integration/series (kmem.diff,
# repeat.diff: the library with them against the library without them),
# and each is added, with its message (kmem.msg, repeat.msg), right
# before the patch that first calls it.  The benchmark
# (kunit/bench_kunit.c) and the cost microbenchmark (kunit/cost_kunit.c)
# stay out.
#
# The patches that kernel-integration/series/not-posted names are left
# out of both series: the project's kernel carries them, a series sent
# upstream does not.  A library piece whose first user is one of them
# stays out with it.
#
# Authorship: the patches of kernel-integration/patches carry no
# identity.  Every patch is authored, committed and signed off by the
# submitter, MEMTIER_SUBMITTER ("Name <email>") or else the checkout's
# git user.name and user.email, who also becomes the MAINTAINERS
# entry's M:.  A missing identity, or a placeholder (localhost, the
# reserved example and test domains, noreply addresses), is refused.
# With MEMTIER_SERIES_CHECK=1 (make patches-check, which checks the
# series' content, not its sender) such an identity is replaced by
# "memtier series check <series-check@localhost>", and OUTDIR says the
# series is not for sending.
#
# Prints each patch's subject and its glue lines: lines changed outside
# Documentation/, MAINTAINERS and the library's own files (mm/memtier/,
# include/linux/memtier*.h, include/trace/events/memtier.h), and writes
# them to OUTDIR/glue ("N series/nnnn" a line) for patches-check.  A backport's lines are
# printed apart: they are upstream's, not this series' own.
set -eu
repo=$1
ksrc=$2
out=$3
wt=$4
series=$repo/kernel-integration/patches
msgs=$repo/kernel-integration/series

submitter=${MEMTIER_SUBMITTER:-}
if [ -z "$submitter" ]; then
	name=$(git -C "$repo" config user.name || true)
	email=$(git -C "$repo" config user.email || true)
	[ -n "$name" ] && [ -n "$email" ] && submitter="$name <$email>"
fi
# A placeholder certifies nothing: the Developer's Certificate of Origin
# needs a person who can be reached.
placeholder() {
	case $1 in
	*?" <"?*@?*">") ;;
	*) return 0 ;;
	esac
	domain=$(printf '%s' "${1##*@}" | tr -d '>' | tr 'A-Z' 'a-z')
	case $1 in *noreply*|*no-reply*) return 0 ;; esac
	case $domain in
	localhost|localhost.*|*.localdomain|*.local|example|*.example|\
	example.com|*.example.com|example.org|*.example.org|example.net|\
	*.example.net|*.invalid|*.test|invalid|test)
		return 0 ;;
	esac
	return 1
}
check_only=
if placeholder "$submitter"; then
	if [ "${MEMTIER_SERIES_CHECK:-}" != 1 ]; then
		echo "make-patches: '${submitter:-no identity}' cannot sign a" \
			"series: set your own with git config user.name" \
			"\"Your Name\" and git config user.email" \
			"you@your.domain, or MEMTIER_SUBMITTER=\"Name" \
			"<email>\"" >&2
		exit 1
	fi
	submitter="memtier series check <series-check@localhost>"
	check_only=1
fi
sub_name=${submitter% <*}
sub_email=${submitter##*<}
sub_email=${sub_email%>}
export GIT_AUTHOR_NAME="$sub_name" GIT_AUTHOR_EMAIL="$sub_email"
export GIT_COMMITTER_NAME="$sub_name" GIT_COMMITTER_EMAIL="$sub_email"
git="git -C $wt"

rm -rf "$out"
mkdir -p "$out/tiers" "$out/hotpage"
git -C "$ksrc" worktree remove --force "$wt" >/dev/null 2>&1 || rm -rf "$wt"
git -C "$ksrc" worktree prune
mkdir -p "$(dirname "$wt")"
git -C "$ksrc" worktree add -q --detach "$wt" pristine

hot="free_space ratelimit threshold promote"
hot_tests="latency_kunit ratelimit_kunit threshold_kunit promote_kunit"
no_series="bench_kunit cost_kunit"

# A sched/numa fix that the tiers series needs goes at its head instead:
# a move across the top-tier boundary, which root can repeat at will,
# reaches the bug it fixes.
tiers_needs='never take an access time for a CPU'
is_hot() {
	grep -q '^Subject: \[PATCH [0-9/]*\] \(sched/numa\|mm: memory-tiering:\)' "$1" &&
		! grep -q "^Subject: .*$tiers_needs" "$1"
}
# A backport of an upstream commit ("commit <id> upstream.", as stable
# kernels write it) is a fix too: it comes first.
is_backport() { grep -q '^commit [0-9a-f]\{40\} upstream\.$' "$1"; }
is_fix() { grep -q '^Fixes: ' "$1" || is_backport "$1"; }
is_glue() { grep -q '^Subject: \[PATCH [0-9/]*\] mm: build the memory tiering library' "$1"; }

# A patch's subject, its folded lines joined, without "[PATCH n/m] ".
subject_of() {
	awk '/^Subject: / { s = $0
		while ((getline l) > 0 && l ~ /^ /) s = s l
		print s; exit }' "$1" |
		sed 's/^Subject: \[PATCH [0-9/]*\] //'
}
not_posted=$msgs/not-posted
is_posted() { ! grep -v '^#' "$not_posted" | grep -qxF "$(subject_of "$1")"; }

am() {
	piece=$(piece_before "$1")
	if [ -n "$piece" ]; then
		pieces_added="$pieces_added $piece"
		(cd "$wt" && git apply "$msgs/$piece.diff")
		$git add -f -A mm/memtier include/linux
		$git commit -q -s -F "$msgs/$piece.msg"
	fi
	"$repo/scripts/am-as.sh" "$wt" "$submitter" -q -s -- "$1"
}
# am for the patches that are posted.
am_posted() { if is_posted "$1"; then am "$1"; fi; }

# The library piece that goes right before a patch: the one it first
# calls.
piece_before() {
	if grep -q '^Subject: .*dax/kmem: put kmem memory' "$1"; then
		echo kmem
	elif grep -q '^Subject: .*add a hot page policy' "$1"; then
		echo repeat
	fi
}

# The tier library: src/ and kunit/ less hot page selection, the
# Makefiles less the block under their "# Hot page selection" comment.
library_tiers() {
	mkdir -p "$wt/mm/memtier/tests"
	for f in "$repo"/src/*.c "$repo"/src/*.h "$repo"/src/Kconfig \
		 "$repo"/src/.kunitconfig; do
		b=$(basename "$f" .c)
		case " $hot " in *" $b "*) continue ;; esac
		cp "$f" "$wt/mm/memtier/"
	done
	for f in "$repo"/kunit/*.c "$repo"/kunit/*.h; do
		b=$(basename "$f" .c)
		case " $hot_tests $no_series " in *" $b "*) continue ;; esac
		cp "$f" "$wt/mm/memtier/tests/"
	done
	cp "$repo/src/include/linux/memtier.h" "$wt/include/linux/"
	for mk in src/Makefile:mm/memtier/Makefile \
		  kunit/Makefile:mm/memtier/tests/Makefile; do
		awk '/^# Hot page selection/ { skip = 1; next }
		     skip { if ($0 !~ /\\$/) skip = 0; next }
		     { print }' \
			"$repo/${mk%%:*}" >"$wt/${mk#*:}"
	done
	(cd "$wt" && git apply "$glue")
	# The submitter maintains what they submit.
	m=$(printf '%s' "$submitter" | sed 's/[\/&]/\\&/g')
	sed -i "/^MEMORY TIERING CORE (MEMTIER)\$/a M:\t$m" "$wt/MAINTAINERS"
	# Held back until dax/kmem uses it.
	(cd "$wt" && git apply -R "$msgs/kmem.diff")
	$git add -f -A mm/memtier include/linux/memtier.h mm/Kconfig \
		mm/Makefile MAINTAINERS
	$git commit -q -s -F "$msgs/library.msg"
}

library_hot() {
	for b in $hot; do cp "$repo/src/$b.c" "$wt/mm/memtier/"; done
	for b in $hot_tests; do cp "$repo/kunit/$b.c" "$wt/mm/memtier/tests/"; done
	cp "$repo/src/Makefile" "$wt/mm/memtier/Makefile"
	sed -e 's/ bench_kunit\.o//' -e 's/ cost_kunit\.o//' "$repo/kunit/Makefile" \
		>"$wt/mm/memtier/tests/Makefile"
	cp "$repo/src/include/linux/memtier_promote.h" \
		"$repo/src/include/linux/memtier_promote_types.h" \
		"$wt/include/linux/"
	cp "$repo/src/include/trace/events/memtier.h" \
		"$wt/include/trace/events/"
	sed -i "/^MEMORY TIERING CORE (MEMTIER)\$/,/^\$/ s|^F:\tinclude/linux/memtier.h\$|&\nF:\tinclude/linux/memtier_promote*.h\nF:\tinclude/trace/events/memtier.h|" \
		"$wt/MAINTAINERS"
	# Held back until NUMA balancing offers the repeat policy.
	(cd "$wt" && git apply -R "$msgs/repeat.diff")
	$git add -f -A mm/memtier include/linux/memtier_promote.h \
		include/linux/memtier_promote_types.h \
		include/trace/events/memtier.h MAINTAINERS
	$git commit -q -s -F "$msgs/hotpage.msg"
}

glue=
pieces_added=
pieces_held=
held=
for p in "$series"/*.patch; do
	if is_glue "$p"; then glue=$p; fi
	if ! is_posted "$p"; then
		held="$held $p"
		pieces_held="$pieces_held $(piece_before "$p")"
	fi
done
[ -n "$glue" ] || { echo "make-patches: no build glue patch" >&2; exit 1; }
# Every subject of not-posted must name a patch: a renamed one would
# otherwise be posted without a word.
grep -v '^#' "$not_posted" | while IFS= read -r s; do
	for p in "$series"/*.patch; do
		[ "$(subject_of "$p")" != "$s" ] || continue 2
	done
	echo "make-patches: not-posted names no patch: $s" >&2
	exit 1
done

# Series 1: memory tiers.
for p in "$series"/*.patch; do
	if ! is_hot "$p" && is_fix "$p"; then am_posted "$p"; fi
done
library_tiers
for p in "$series"/*.patch; do
	if ! is_hot "$p" && ! is_fix "$p" && ! is_glue "$p"; then
		am_posted "$p"
	fi
done
$git tag -f series-tiers >/dev/null


# Series 2: hot page selection, on top of the first.
for p in "$series"/*.patch; do
	if is_hot "$p" && is_fix "$p"; then am_posted "$p"; fi
done
library_hot
for p in "$series"/*.patch; do
	if is_hot "$p" && ! is_fix "$p"; then am_posted "$p"; fi
done
# Every held-back piece must have found its first user, posted or not:
# a renamed subject would otherwise leave it out without a word.
for d in "$msgs"/*.diff; do
	case " $pieces_added $pieces_held " in
	*" $(basename "$d" .diff) "*) ;;
	*) echo "make-patches: no patch took the library piece $d" >&2
	   exit 1 ;;
	esac
done

# One cover letter per series: the first line of the blurb file is the
# subject, the rest its text.
cover() {
	python3 - "$1/0000-cover-letter.patch" "$2" <<'PY'
import sys
path, blurb_path = sys.argv[1], sys.argv[2]
text = open(path).read()
blurb = open(blurb_path).read().rstrip("\n")
subject, _, body = blurb.partition("\n\n")
text = text.replace("*** SUBJECT HERE ***", subject)
text = text.replace("*** BLURB HERE ***", body)
open(path, "w").write(text)
PY
}
$git format-patch -q --cover-letter -o "$out/tiers" pristine..series-tiers
cover "$out/tiers" "$msgs/tiers-cover.txt"
$git format-patch -q --cover-letter -o "$out/hotpage" series-tiers..HEAD
cover "$out/hotpage" "$msgs/hotpage-cover.txt"

# Glue lines per patch and per series.
glue_lines() {
	awk '/^diff --git / {
			f = $3; sub(/^a\//, "", f)
			glue = !(f ~ /^Documentation\// || f == "MAINTAINERS" ||
				 f ~ /^mm\/memtier\// ||
				 f ~ /^include\/linux\/memtier[^\/]*\.h$/ ||
				 f == "include/trace/events/memtier.h")
			next }
		/^(\+\+\+|---) / { next }
		/^-- $/ { exit }
		glue && /^[-+]/ { n++ }
		END { print n + 0 }' "$1"
}
total=0
backported=0
: >"$out/glue"
for dir in tiers hotpage; do
	for p in "$out/$dir"/*.patch; do
		case $p in */0000-cover-letter.patch) continue ;; esac
		n=$(glue_lines "$p")
		# A backport's lines are upstream's: shown, not counted.
		if is_backport "$p"; then
			backported=$((backported + n))
			echo "patches: $dir/$(basename "$p" | cut -c1-4) backport $n: $(subject_of "$p")"
			continue
		fi
		total=$((total + n))
		echo "$n $dir/$(basename "$p" | cut -c1-4)" >>"$out/glue"
		echo "patches: $dir/$(basename "$p" | cut -c1-4) glue $n: $(subject_of "$p")"
	done
done
echo "patches: glue $total lines in all (and $backported in backports of" \
	"upstream commits); 2 series in $out/tiers and $out/hotpage"
kept=0
for p in $held; do
	n=$(glue_lines "$p")
	kept=$((kept + n))
	echo "patches: not posted, glue $n: $(subject_of "$p")"
done
[ -z "$held" ] || echo "patches: not posted: $(echo $held | wc -w) patches," \
	"$kept glue lines, named in $not_posted"
if [ -n "$check_only" ]; then
	echo "Built by make patches-check as '$submitter', for checks" \
		"only: not for sending.  make patches signs a series with" \
		"your git identity." >"$out/NOT-FOR-SENDING"
	echo "patches: built for checks only, as '$submitter': not for sending"
fi
