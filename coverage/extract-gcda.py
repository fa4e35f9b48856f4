#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the .gcda files printed by coverage/init into a directory.

usage: extract-gcda.py CONSOLE.log OUTDIR
"""
import base64
import os
import sys


def main():
    log, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    name, chunks, written, done = None, [], 0, False
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip().replace("\r", "")
            if line.startswith("GCDA-BEGIN "):
                name, chunks = line.split(" ", 1)[1], []
            elif line == "GCDA-END" and name:
                with open(os.path.join(outdir, name), "wb") as out:
                    out.write(base64.b64decode("".join(chunks)))
                written += 1
                name = None
            elif line == "GCDA-DONE":
                done = True
            elif name:
                chunks.append(line)
    print(f"coverage: {written} .gcda files from the guest")
    return 0 if written and done else 1


if __name__ == "__main__":
    sys.exit(main())
