#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: timed.sh STAGE COMMAND...  -- run COMMAND, then print how long
# the stage took, and pass its exit status on.
stage=$1
shift
start=$(date +%s)
"$@"
rc=$?
echo "time: $stage took $(($(date +%s) - start)) s (exit $rc)"
exit $rc
