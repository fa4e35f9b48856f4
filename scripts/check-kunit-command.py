#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""usage: check-kunit-command.py FILE

FILE holds the kunit.py command that `make kunit` prints for pasting.
Split it as a POSIX shell would and check that the options that need
quoting arrive as one argument each: exit 1 and say which if not."""
import shlex
import sys

WANT = [("--make_options", "CC=ccache gcc"), ("--filter", "speed>slow")]

text = open(sys.argv[1]).read().strip()
try:
    args = shlex.split(text)
except ValueError as err:
    sys.exit(f"kunit-command: does not parse as shell: {err}")
bad = 0
for opt, value in WANT:
    if opt not in args or args.index(opt) + 1 >= len(args) or \
            args[args.index(opt) + 1] != value:
        print(f"kunit-command: {opt} does not reach kunit.py as '{value}'")
        bad = 1
if "--filter_action=skip" not in args:
    print("kunit-command: --filter_action=skip missing")
    bad = 1
if not bad:
    print("kunit-command: pastes as one argument per option")
sys.exit(bad)
