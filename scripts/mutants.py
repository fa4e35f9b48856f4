#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Mutation testing of the library: do the KUnit suites notice a bug?

usage: mutants.py list SRC_DIR
       mutants.py run REPO KSRC BUILD_DIR OUT_DIR [--all] [--resume LOG]
                  [--only KEY...]

"list" prints every mutant the generator makes of SRC_DIR/*.c.  "run"
copies the library (src/, kunit/ and the build glue) to a scratch copy
under OUT_DIR, points the KUnit tree KSRC at it, and for each mutant in
turn: applies the single edit, rebuilds incrementally in BUILD_DIR, runs
the suites (the slow benchmark skipped, as in make kunit) and restores
the file.  A mutant is

  killed      a case failed or crashed, or the kernel hung (timeout);
  survived    every suite passed;
  equivalent  it survived and docs/mutants-equivalent.txt says why no
              test can tell it from the original;
  stillborn   it did not compile (not counted).

The mutants are generated, never picked by hand: every site of every
operator below in every library .c file, and unless --all a sample of
SAMPLE of them chosen by a fixed seed, so that runs compare.

Operators (one edit each, on code only: comments, strings and
preprocessor lines are never touched):
  rel     <  <=  >  >=  ==  !=   each to its neighbour (< to <=, ...)
  logic   && to ||, || to &&
  arith   binary + to -, - to +, / to *, << to >>, >> to <<,
          += to -=, -= to +=
  const   an integer literal N to N + 1
  bool    true to false, false to true
  stmt    a one-line call or assignment statement removed

Prints a line per mutant and at the end
"mutants: K killed, S survived, E equivalent" (and the stillborn), and
writes OUT_DIR/report.txt with the survivors.

--resume LOG takes the killed and stillborn verdicts of an earlier run's
output LOG instead of running those mutants again, when LOG was made
from the same library sources (its "mutants: src SHA1" line): tests only
get stronger, so a killed mutant stays killed.  Survivors run again.
"""
import hashlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

SAMPLE = 160
SEED = 20261203
KUNIT_TIMEOUT = 60

REL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}


def mask_code(lines):
    """Return the lines with comments, strings and char literals blanked.

    Preprocessor lines (and their continuations) are blanked whole.
    Blanking keeps every column where it was.
    """
    out = []
    in_comment = False
    in_pp = False
    for line in lines:
        if in_pp:
            in_pp = line.rstrip("\n").endswith("\\")
            out.append(" " * len(line))
            continue
        if not in_comment and line.lstrip().startswith("#"):
            in_pp = line.rstrip("\n").endswith("\\")
            out.append(" " * len(line))
            continue
        res = []
        i = 0
        while i < len(line):
            if in_comment:
                end = line.find("*/", i)
                if end < 0:
                    res.append(" " * (len(line) - i))
                    i = len(line)
                else:
                    res.append(" " * (end + 2 - i))
                    i = end + 2
                    in_comment = False
                continue
            c = line[i]
            if line.startswith("/*", i):
                in_comment = True
                res.append("  ")
                i += 2
            elif line.startswith("//", i):
                res.append(" " * (len(line) - i))
                i = len(line)
            elif c in "\"'":
                j = i + 1
                while j < len(line) and line[j] != c:
                    j += 2 if line[j] == "\\" else 1
                res.append(" " * (j + 1 - i))
                i = j + 1
            else:
                res.append(c)
                i += 1
        out.append("".join(res)[: len(line)])
    return out


TOKEN = re.compile(
    r"<<=|>>=|->|\+\+|--|&&|\|\||<<|>>|<=|>=|==|!=|\+=|-=|"
    r"0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|[A-Za-z_]\w*|\S")
STMT = re.compile(
    r"^\s*(?!return\b|if\b|while\b|for\b|switch\b|case\b|goto\b|break\b"
    r"|continue\b|default\b|else\b|do\b)"
    r"[A-Za-z_][\w.\->\[\]]*\s*(\(.*\)|[-+|&]?=[^=].*);\s*$")
DECL = re.compile(r"^\s*(static\s+|const\s+|struct\s+|unsigned\s+|int\s+|"
                  r"u8|u16|u32|u64|s32|s64|bool\s|long\s|nodemask_t\s)")


def mutants_of(path):
    """Yield (line_no, col, old, new, op) for every mutant of one file."""
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    masked = mask_code(lines)
    depth = 0
    prev_code = ""
    for n, code in enumerate(masked):
        in_function = depth > 0
        depth += code.count("{") - code.count("}")
        # A statement starts here when the code before it ended one.
        starts = re.search(r"([;{}):]|\belse)\s*$", prev_code) is not None
        if code.strip():
            prev_code = code
        if not in_function:
            continue
        toks = [(m.start(), m.group()) for m in TOKEN.finditer(code)]
        for k, (col, tok) in enumerate(toks):
            prev = toks[k - 1][1] if k else ""
            binary = bool(re.match(r"[\w)\]]", prev)) and prev not in (
                "return", "case")
            if tok in REL:
                yield n, col, tok, REL[tok], "rel"
            elif tok == "&&":
                yield n, col, tok, "||", "logic"
            elif tok == "||":
                yield n, col, tok, "&&", "logic"
            elif tok in ("+", "-") and binary:
                yield n, col, tok, "-" if tok == "+" else "+", "arith"
            elif tok == "/" and binary:
                yield n, col, tok, "*", "arith"
            elif tok in ("<<", ">>"):
                yield n, col, tok, ">>" if tok == "<<" else "<<", "arith"
            elif tok in ("+=", "-="):
                yield n, col, tok, "-=" if tok == "+=" else "+=", "arith"
            elif re.match(r"\d|0[xX]", tok) and prev != "[":
                m = re.match(r"(0[xX][0-9a-fA-F]+|\d+)(\w*)", tok)
                digits = m.group(1)
                if re.match(r"0\d", digits):
                    value = int(digits, 8)
                else:
                    value = int(digits, 0)
                yield n, col, tok, f"{value + 1}{m.group(2)}", "const"
            elif tok in ("true", "false"):
                yield n, col, tok, "false" if tok == "true" else "true", \
                    "bool"
        if starts and STMT.match(code) and not DECL.match(code):
            start = len(code) - len(code.lstrip())
            yield n, start, code.strip(), "(void)0;", "stmt"


# Operators by name in the keys, which must pass through a shell.
OP_NAMES = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq",
            "!=": "ne", "&&": "and", "||": "or", "+": "add", "-": "sub",
            "/": "div", "*": "mul", "<<": "shl", ">>": "shr", "+=": "addeq",
            "-=": "subeq"}


def key_of(fname, line, seen, col, old, new):
    """A name for a mutant that survives edits elsewhere in the file.

    The line's text, and its rank among the lines with the same text;
    operators spelt as words, so that the key needs no shell quoting.
    """
    digest = hashlib.sha1(line.strip().encode()).hexdigest()[:8]
    old, new = OP_NAMES.get(old, old), OP_NAMES.get(new, new)
    return f"{fname}:{digest}.{seen}:{col}:{old}_to_{new}"


def all_mutants(src):
    result = []
    for fname in sorted(os.listdir(src)):
        if not fname.endswith(".c"):
            continue
        path = os.path.join(src, fname)
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
        rank = {}
        for n, text in enumerate(lines):
            rank[n] = sum(1 for t in lines[:n] if t.strip() == text.strip())
        for n, col, old, new, op in mutants_of(path):
            key = key_of(fname, lines[n], rank[n], col,
                         "stmt" if op == "stmt" else old,
                         "void" if op == "stmt" else new)
            result.append(dict(file=fname, line=n, col=col, old=old,
                               new=new, op=op, key=key,
                               text=lines[n].strip()))
    return result


def apply(path, m):
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    line = lines[m["line"]]
    if m["op"] == "stmt":
        indent = line[: len(line) - len(line.lstrip())]
        lines[m["line"]] = indent + m["new"] + "\n"
    else:
        assert line[m["col"]:].startswith(m["old"]), (m, line)
        lines[m["line"]] = (line[: m["col"]] + m["new"] +
                            line[m["col"] + len(m["old"]):])
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)


def load_equivalents(path):
    eq = {}
    if not os.path.exists(path):
        return eq
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            key, _, reason = line.partition(" ")
            eq[key] = reason.strip()
    return eq


def kunit(ksrc, build, json_path, log_path):
    """Build and run the suites: "pass", "fail", "timeout" or "stillborn"."""
    cmd = ["./tools/testing/kunit/kunit.py", "run", "--arch=x86_64",
           "--kunitconfig=" + os.path.join(build, "..", "kunitconfig"),
           "--build_dir=" + build, "--jobs=" + str(os.cpu_count()),
           f"--timeout={KUNIT_TIMEOUT}", "--make_options", "CC=ccache gcc",
           "--filter", "speed>slow", "--filter_action=skip",
           "--json=" + json_path]
    if os.path.exists(json_path):
        os.remove(json_path)
    with open(log_path, "w", encoding="utf-8") as log:
        # Its own process group: on a timeout or an interrupt, make and
        # QEMU go with it and never build beside the next mutant.
        proc = subprocess.Popen(cmd, cwd=ksrc, stdout=log,
                                stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            rc = proc.wait(timeout=KUNIT_TIMEOUT + 600)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return "timeout"
        except BaseException:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise
    if rc == 0:
        return "pass"
    # kunit.py writes its report once the kernel ran, crashed or hung;
    # none means the kernel was not built.
    if not os.path.exists(json_path):
        return "stillborn"
    return "fail"


def src_digest(src):
    """One hash of every library source file, in name order."""
    h = hashlib.sha1()
    for fname in sorted(os.listdir(src)):
        if fname.endswith((".c", ".h")):
            with open(os.path.join(src, fname), "rb") as f:
                h.update(fname.encode() + b"\0" + f.read())
    return h.hexdigest()


def earlier_verdicts(log, digest):
    """The killed and stillborn verdicts of an earlier run, by key."""
    verdicts = {}
    with open(log, encoding="utf-8") as f:
        text = f.read()
    if f"mutants: src {digest}" not in text:
        print(f"mutants: {log} is of other sources; not resumed")
        return verdicts
    for m in re.finditer(r"^mutant \d+/\d+ (killed|stillborn) .*"
                         r"\[(\S+)\]( \(earlier run\))?$",
                         text, re.M):
        verdicts[m.group(2)] = m.group(1)
    return verdicts


def run(repo, ksrc, build, out, run_all, only, resume):
    repo, ksrc, build, out = (os.path.abspath(p)
                              for p in (repo, ksrc, build, out))
    work = os.path.join(out, "repo")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "kernel-integration"))
    # Copied with fresh times: an object built from a mutant of an
    # earlier, interrupted run must not look newer than its source.
    for d in ("src", "kunit"):
        shutil.copytree(os.path.join(repo, d), os.path.join(work, d),
                        copy_function=shutil.copy)
    shutil.copytree(os.path.join(repo, "kernel-integration", "patches"),
                    os.path.join(work, "kernel-integration", "patches"))
    os.makedirs(build, exist_ok=True)
    # The suites' configuration (make kunit's), without gcov: it only
    # slows the runs.
    with open(os.path.join(repo, ".kunitconfig"), encoding="utf-8") as f:
        conf = [ln for ln in f if "GCOV" not in ln]
    with open(os.path.join(build, "..", "kunitconfig"), "w",
              encoding="utf-8") as f:
        f.writelines(conf)
    subprocess.run([os.path.join(repo, "scripts", "prepare-tree.sh"),
                    work, ksrc], check=True)
    src = os.path.join(work, "src")
    eq = load_equivalents(os.path.join(repo, "docs",
                                       "mutants-equivalent.txt"))
    stale = set(eq) - {m["key"] for m in all_mutants(src)}
    if stale:
        print("mutants: equivalents no longer generated: " +
              " ".join(sorted(stale)))
    mutants = all_mutants(src)
    total = len(mutants)
    digest = src_digest(src)
    print(f"mutants: src {digest}", flush=True)
    earlier = earlier_verdicts(resume, digest) if resume else {}
    if only:
        mutants = [m for m in mutants if m["key"] in only]
        unknown = only - {m["key"] for m in mutants}
        if unknown:
            print("mutants: no such mutant: " + " ".join(sorted(unknown)))
            return 2
    elif not run_all:
        rng = random.Random(SEED)
        mutants = sorted(rng.sample(mutants, min(SAMPLE, total)),
                         key=lambda m: (m["file"], m["line"], m["col"]))
    print(f"mutants: {len(mutants)} of {total} generated "
          f"({'all' if run_all or only else f'seed {SEED}'})", flush=True)

    json_path = os.path.join(out, "kunit.json")
    log_path = os.path.join(out, "kunit.log")
    # The unmutated library must pass, or every mutant looks killed.
    if kunit(ksrc, build, json_path, log_path) != "pass":
        print("mutants: the unmutated suites do not pass; see " + log_path)
        return 1
    counts = dict(killed=0, survived=0, equivalent=0, stillborn=0)
    survivors = []
    start = time.time()
    for i, m in enumerate(mutants, 1):
        if m["key"] in earlier:
            verdict = earlier[m["key"]]
            counts[verdict] += 1
            print(f"mutant {i}/{len(mutants)} {verdict:10} {m['op']:5} "
                  f"{m['file']}:{m['line'] + 1} {m['old']} -> {m['new']}  "
                  f"[{m['key']}] (earlier run)", flush=True)
            continue
        path = os.path.join(src, m["file"])
        with open(path, encoding="utf-8") as f:
            original = f.read()
        try:
            apply(path, m)
            result = kunit(ksrc, build, json_path, log_path)
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
        if result == "fail":
            verdict = "killed"
        elif result == "timeout":
            # kunit.py's own timeout catches a hung kernel (a fail);
            # this one is the build and run taking far too long.
            verdict = "killed"
        elif result == "stillborn":
            verdict = "stillborn"
        elif m["key"] in eq:
            verdict = "equivalent"
        else:
            verdict = "survived"
            survivors.append(m)
        counts[verdict] += 1
        print(f"mutant {i}/{len(mutants)} {verdict:10} {m['op']:5} "
              f"{m['file']}:{m['line'] + 1} {m['old']} -> {m['new']}  "
              f"[{m['key']}]", flush=True)
    # Rebuild the unmutated library, so the tree is left as found.
    kunit(ksrc, build, json_path, log_path)
    minutes = (time.time() - start) / 60
    with open(os.path.join(out, "report.txt"), "w", encoding="utf-8") as f:
        f.write(f"{len(mutants)} mutants of {total}, {minutes:.0f} min\n")
        for k, v in counts.items():
            f.write(f"{k} {v}\n")
        for m in survivors:
            f.write(f"survived {m['key']} {m['file']}:{m['line'] + 1}: "
                    f"{m['text']}  ({m['old']} -> {m['new']})\n")
    killed, survived = counts["killed"], counts["survived"]
    score = killed / (killed + survived) if killed + survived else 1.0
    print(f"mutants: took {minutes:.0f} min; score {score:.3f}; "
          f"{counts['stillborn']} stillborn")
    print(f"mutants: {killed} killed, {survived} survived, "
          f"{counts['equivalent']} equivalent")
    return 0


def interrupted(signum, frame):
    """SIGTERM as an interrupt: the mutated file is restored on the way."""
    raise KeyboardInterrupt


def main():
    signal.signal(signal.SIGTERM, interrupted)
    if len(sys.argv) >= 3 and sys.argv[1] == "list":
        ms = all_mutants(sys.argv[2])
        for m in ms:
            print(f"{m['op']:5} {m['file']}:{m['line'] + 1} "
                  f"{m['old']} -> {m['new']}  [{m['key']}]")
        print(f"{len(ms)} mutants")
        return 0
    if len(sys.argv) >= 6 and sys.argv[1] == "run":
        args = sys.argv[6:]
        only = set()
        resume = None
        if "--resume" in args:
            resume = args[args.index("--resume") + 1]
        if "--only" in args:
            only = set(args[args.index("--only") + 1:])
        return run(*sys.argv[2:6], "--all" in args, only, resume)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
