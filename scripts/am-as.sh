#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: am-as.sh GITDIR "Name <email>" [GIT-AM-OPTION...] -- PATCH...
#
# git am each PATCH in GITDIR as authored by "Name <email>".  The patches
# of kernel-integration/patches carry no identity of their own (no From:
# header, no Signed-off-by:): whoever applies them says who they are, the
# submitter in make-patches.sh, a local name in the build trees.  The
# exception is a backport of an upstream commit, which keeps its
# author's From: and sign-offs; -s adds the applier's.
set -eu
dir=$1
author=$2
shift 2
opts=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	opts="$opts $1"
	shift
done
[ $# -gt 0 ] && shift
# The committer too, so that a machine without a git identity can apply.
name=${author% <*}
email=${author##*<}
export GIT_COMMITTER_NAME="${GIT_COMMITTER_NAME:-$name}"
export GIT_COMMITTER_EMAIL="${GIT_COMMITTER_EMAIL:-${email%>}}"
for p in "$@"; do
	# A backport keeps its upstream author's From: header.
	if sed '/^$/q' "$p" | grep -q '^From: '; then
		# shellcheck disable=SC2086
		git -C "$dir" am $opts <"$p"
		continue
	fi
	# shellcheck disable=SC2086
	{ sed -n 1p "$p"; printf 'From: %s\n' "$author"; sed 1d "$p"; } |
		git -C "$dir" am $opts
done
