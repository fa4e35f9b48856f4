#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install, with apt, whatever the build and the tests need and is missing.
# Idempotent: it does nothing when every package is already installed.
set -eu

PKGS="linux-source-6.12 qemu-system-x86 gcc make flex bison bc libelf-dev
libssl-dev libc6-dev python3 ccache cpio xz-utils rsync perl sparse lcov
busybox-static git python3-matplotlib"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q '^install ok installed$' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: not root; install these by hand:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
