#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a kunit.py --json report against the suites the sources define.

usage: kunit-check.py REPORT.json SOURCE.c...

Fails when the report is missing, when a memtier_ suite named in the
sources did not run, or when any case did not pass (skips are listed).
Prints one line per suite and a closing 'N passed, N failed' line.
"""
import json
import re
import sys


def leaves(group):
    """Yield (name, status) for every leaf case; parameters count."""
    for case in group.get("test_cases", []):
        yield case["name"], case["status"]
    for sub in group.get("sub_groups", []):
        for name, status in leaves(sub):
            yield sub["name"] + "." + name, status


def main():
    report, sources = sys.argv[1], sys.argv[2:]
    expected = set()
    for path in sources:
        with open(path, encoding="utf-8") as src:
            expected.update(re.findall(r'\.name\s*=\s*"(memtier_\w+)"',
                                       src.read()))
    try:
        with open(report, encoding="utf-8") as f:
            top = json.load(f)
    except (OSError, ValueError) as err:
        print(f"kunit-check: no usable report {report}: {err}")
        print("0 passed, 1 failed")
        return 1

    passed = failed = skipped = 0
    seen = set()
    for suite in top.get("sub_groups", []):
        seen.add(suite["name"])
        cases = list(leaves(suite))
        bad = [f"{n}={s}" for n, s in cases if s not in ("PASS", "SKIP")]
        skip = [n for n, s in cases if s == "SKIP"]
        ok = len(cases) - len(bad) - len(skip)
        passed += ok
        failed += len(bad)
        skipped += len(skip)
        line = f"kunit-check: {suite['name']}: {ok} passed"
        if bad:
            line += ", failed: " + " ".join(bad)
        if skip:
            line += ", skipped: " + " ".join(skip)
        print(line)
    for name in sorted(expected - seen):
        print(f"kunit-check: {name}: MISSING (defined in kunit/, not run)")
        failed += 1
    if not expected:
        print("kunit-check: no memtier_ suite found in the sources")
        failed += 1
    tail = f", {skipped} skipped" if skipped else ""
    print(f"kunit: {passed} passed, {failed} failed{tail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
