#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Mutation testing of the library: do the KUnit suites notice a bug?

usage: mutants.py list SRC_DIR
       mutants.py run REPO KSRC BUILD_DIR OUT_DIR [--all] [--resume LOG]
                  [--only KEY...]

"list" prints every mutant the generator makes of SRC_DIR (its .c files,
memtier.h and include/linux/*.h).  "run" builds each mutant as the
suites' module with the library compiled in, an external module of the
kernel built in BUILD_DIR from KSRC (the sanitizer kernel: KASAN, UBSAN),
and loads it in that kernel under QEMU, one suite at a time, batches of
mutants to a boot, two guests at a time.  A mutant is

  killed      a case failed, the kernel reported (KASAN, UBSAN, a
              warning: it panics) or crashed, or it hung (timeout);
  survived    every suite passed;
  equivalent  it survived and docs/mutants-equivalent.txt says why no
              test can tell it from the original;
  stillborn   it did not compile or load (not counted).

The mutants are generated, never picked by hand: every site of every
operator below in every library file, and unless --all a sample of
SAMPLE of them chosen by a fixed seed, so that runs compare.

Operators (one edit each, in function bodies and initializers; comments,
strings and preprocessor lines are never touched, but for the values
of object-like macros):
  rel       <  <=  >  >=  ==  !=   each to its neighbour (< to <=, ...)
  logic     && to ||, || to &&
  arith     binary + to -, - to +, / to *, << to >>, >> to <<,
            += to -=, -= to +=
  not       a ! removed
  negate    the condition of an if or while negated
  const     an integer literal (code, table or macro value) N to N + 1
  constdec  the same, N to N - 1
  bool      true to false, false to true
  stmt      a call or assignment statement, one line or more, removed
  swap      two neighbouring arguments of a call swapped
  ident     a parameter or local replaced by another of its type
  cast      a cast's type changed in signedness, and in width
  decl      the same for a local that a relational comparison reads
  clamp     min, max (and _t) to one argument; clamp to one side

Prints a line per mutant and at the end
"mutants: K killed, S survived, E equivalent" (and the stillborn), and
writes OUT_DIR/report.txt with the survivors.

--resume LOG takes the killed and stillborn verdicts of an earlier run's
output LOG instead of running those mutants again, when LOG was made
from the same library sources (its "mutants: src SHA1" line): tests only
get stronger, so a killed mutant stays killed.  Survivors run again.
"""
import bisect
import hashlib
import os
import random
import re
import shutil
import signal
import select
import subprocess
import sys
import threading
import time

SAMPLE = 320
SEED = 20261203

REL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}


TOKEN = re.compile(
    r"<<=|>>=|->|\+\+|--|&&|\|\||<<|>>|<=|>=|==|!=|\+=|-=|"
    r"0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|[A-Za-z_]\w*|\S")
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "case",
            "goto", "break", "continue", "default", "else", "do",
            "typeof", "__typeof__", "static", "const", "struct", "union",
            "enum", "unsigned", "signed", "int", "long", "short", "char",
            "bool", "void", "inline", "volatile"}
STMT_START = re.compile(
    r"^\s*(?!(?:return|if|while|for|switch|case|goto|break|continue|"
    r"default|else|do)\b)[A-Za-z_][\w.\->\[\]]*\s*(\(|[-+|&]?=[^=])")
DECL = re.compile(r"^\s*(static\s+|const\s+|struct\s+|unsigned\s+|int\s+|"
                  r"u8|u16|u32|u64|s32|s64|bool\s|long\s|nodemask_t\s)")
# Scalar types, for casts and for the declarations of locals.
SCALAR = (r"unsigned\s+long\s+long|unsigned\s+long|unsigned\s+int|"
          r"long\s+long|unsigned|int|long|[us](?:8|16|32|64)")
CAST = re.compile(r"\(\s*(?:const\s+)?(" + SCALAR + r")\s*\)")
LOCAL = re.compile(r"^\s*(?:const\s+)?(" + SCALAR + r"|bool)\s+(\w+)\s*[=;]")
# Each scalar type changed in signedness, and in width.
RETYPE = {
    "u8": ("s8", "u32"), "s8": ("u8", "s32"),
    "u16": ("s16", "u32"), "s16": ("u16", "s32"),
    "u32": ("s32", "u64"), "s32": ("u32", "s64"),
    "u64": ("s64", "u32"), "s64": ("u64", "s32"),
    "int": ("unsigned int", "long"), "unsigned": ("int", "unsigned long"),
    "unsigned int": ("int", "unsigned long"),
    "long": ("unsigned long", "int"),
    "unsigned long": ("long", "unsigned int"),
    "long long": ("unsigned long long", "int"),
    "unsigned long long": ("long long", "unsigned int"),
}
# Clamps, each reduced to one of its sides.
CLAMPS = {"min", "max", "min_t", "max_t", "umin", "umax", "clamp",
          "clamp_t", "clamp_val"}


def mask_code(text):
    """The text with comments, strings, char literals and preprocessor
    lines blanked; newlines and every other column stay where they were.
    """
    out = list(text)
    i, n = 0, len(text)
    bol = True
    while i < n:
        c = text[i]
        if c == "\n":
            bol = True
            i += 1
            continue
        if bol and c in " \t":
            i += 1
            continue
        if bol and c == "#":
            # The directive and its continuation lines.
            while i < n:
                if text[i] == "\n":
                    if text[i - 1] != "\\":
                        break
                else:
                    out[i] = " "
                i += 1
            continue
        bol = False
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            for j in range(i, end):
                if text[j] != "\n":
                    out[j] = " "
            i = end
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            for k in range(i, min(j + 1, n)):
                out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


def brace_regions(masked):
    """Where mutants may go: (start, end, kind, signature) of each
    top-level brace block that is a function body ("func") or an
    initializer or enum ("init"); struct and union definitions are not.
    """
    regions = []
    depth = 0
    ctx_start = 0
    start = kind = sig = None
    for i, c in enumerate(masked):
        if c == "{":
            if depth == 0:
                ctx = masked[ctx_start:i]
                if (re.search(r"\b(struct|union)\s+\w*\s*$", ctx) and
                        "=" not in ctx):
                    kind = "type"
                elif ctx.rstrip().endswith(")"):
                    kind = "func"
                else:
                    kind = "init"
                start, sig = i, ctx
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if kind != "type":
                    regions.append((start, i + 1, kind, sig))
                ctx_start = i + 1
        elif c == ";" and depth == 0:
            ctx_start = i + 1
    return regions


def match_paren(masked, i):
    """The index just past the parenthesis that closes the one at i."""
    depth = 0
    for j in range(i, len(masked)):
        if masked[j] == "(":
            depth += 1
        elif masked[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        elif masked[j] in ";{}":
            return None
    return None


def split_args(masked, open_at, close_at):
    """The (start, end) of each top-level argument, spaces trimmed."""
    args = []
    depth = 0
    s = open_at + 1
    for j in range(open_at + 1, close_at - 1):
        c = masked[j]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            args.append((s, j))
            s = j + 1
    args.append((s, close_at - 1))
    out = []
    for a, b in args:
        while a < b and masked[a].isspace():
            a += 1
        while b > a and masked[b - 1].isspace():
            b -= 1
        out.append((a, b))
    return out


def function_vars(masked, sig, body_start, body_end):
    """Parameters and scalar locals of a function: name -> (type, from),
    the offset from which the name is in scope."""
    found = {}
    m = re.search(r"\(([^()]*)\)\s*$", sig)
    if m:
        for param in m.group(1).split(","):
            pm = re.match(r"\s*(.*?)\s*\b(\w+)\s*$", param)
            if pm and pm.group(1) and pm.group(1) != "void":
                typ = re.sub(r"\bconst\b", "", pm.group(1))
                found[pm.group(2)] = (" ".join(typ.replace("*", " * ")
                                               .split()), body_start)
    off = body_start
    for line in masked[body_start:body_end].split("\n"):
        lm = LOCAL.match(line)
        if lm:
            found.setdefault(lm.group(2),
                             (" ".join(lm.group(1).split()), off + len(line)))
        off += len(line) + 1
    return found


def mutants_of(text):
    """Yield (start, end, new, op) for every mutant of one file's text."""
    masked = mask_code(text)
    regions = brace_regions(masked)
    toks = [(m.start(), m.group()) for m in TOKEN.finditer(masked)]

    def inside(pos):
        for a, b, kind, _ in regions:
            if a < pos < b:
                return kind
        return None

    for k, (pos, tok) in enumerate(toks):
        kind = inside(pos)
        if not kind:
            continue
        prev = toks[k - 1][1] if k else ""
        nxt = toks[k + 1][1] if k + 1 < len(toks) else ""
        end = pos + len(tok)
        binary = bool(re.match(r"[\w)\]]", prev)) and prev not in (
            "return", "case")
        if tok in REL:
            yield pos, end, REL[tok], "rel"
        elif tok == "&&":
            yield pos, end, "||", "logic"
        elif tok == "||":
            yield pos, end, "&&", "logic"
        elif tok in ("+", "-") and binary:
            yield pos, end, "-" if tok == "+" else "+", "arith"
        elif tok == "/" and binary:
            yield pos, end, "*", "arith"
        elif tok in ("<<", ">>"):
            yield pos, end, ">>" if tok == "<<" else "<<", "arith"
        elif tok in ("+=", "-="):
            yield pos, end, "-=" if tok == "+=" else "+=", "arith"
        elif tok == "!":
            yield pos, end, "", "not"
        elif re.match(r"\d|0[xX]", tok) and prev != "[":
            yield from const_mutants(pos, tok)
        elif tok in ("true", "false"):
            yield pos, end, "false" if tok == "true" else "true", "bool"
        elif tok in ("if", "while") and nxt == "(" and kind == "func":
            open_at = toks[k + 1][0]
            close = match_paren(masked, open_at)
            if close:
                cond = text[open_at + 1:close - 1]
                yield open_at, close, f"(!({cond}))", "negate"
        elif (tok in CLAMPS and nxt == "(" and prev not in (".", "->") and
              kind == "func"):
            yield from clamp_mutants(text, masked, toks[k + 1][0], tok, pos)
        elif (re.match(r"[A-Za-z_]", tok) and nxt == "(" and
              tok not in KEYWORDS and prev not in (".", "->") and
              kind == "func"):
            open_at = toks[k + 1][0]
            close = match_paren(masked, open_at)
            if close:
                args = split_args(masked, open_at, close)
                for (a1, b1), (a2, b2) in zip(args, args[1:]):
                    x, y = text[a1:b1], text[a2:b2]
                    if x and y and x != y:
                        yield a1, b2, y + text[b1:a2] + x, "swap"
    for m in CAST.finditer(masked):
        if inside(m.start()):
            typ = " ".join(m.group(1).split())
            for new in RETYPE[typ]:
                yield m.start(1), m.end(1), new, "cast"
    yield from define_mutants(text)
    for a, b, kind, sig in regions:
        if kind != "func":
            continue
        yield from stmt_mutants(text, masked, a, b)
        yield from decl_mutants(masked, a, b)
        yield from ident_mutants(masked, toks, sig, a, b)


def const_mutants(pos, tok):
    m = re.match(r"(0[xX][0-9a-fA-F]+|\d+)(\w*)", tok)
    digits = m.group(1)
    value = int(digits, 8) if re.match(r"0\d", digits) else int(digits, 0)
    yield pos, pos + len(tok), f"{value + 1}{m.group(2)}", "const"
    if value > 0:
        yield pos, pos + len(tok), f"{value - 1}{m.group(2)}", "constdec"


def define_mutants(text):
    """Object-like macros with a value: its literals and casts."""
    for m in re.finditer(r"^#define[ \t]+\w+[ \t]+(.+)$", text, re.M):
        body, at = m.group(1), m.start(1)
        for t in re.finditer(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b", body):
            yield from const_mutants(at + t.start(), t.group())
        for c in CAST.finditer(body):
            typ = " ".join(c.group(1).split())
            for new in RETYPE[typ]:
                yield at + c.start(1), at + c.end(1), new, "cast"


def clamp_mutants(text, masked, open_at, name, pos):
    close = match_paren(masked, open_at)
    if not close:
        return
    args = [text[a:b] for a, b in split_args(masked, open_at, close)]
    if name in ("min", "max", "umin", "umax") and len(args) == 2:
        for a in args:
            yield pos, close, f"({a})", "clamp"
    elif name in ("min_t", "max_t") and len(args) == 3:
        for a in args[1:]:
            yield pos, close, f"(({args[0]})({a}))", "clamp"
    elif name == "clamp" and len(args) == 3:
        yield pos, close, f"max({args[0]}, {args[1]})", "clamp"
        yield pos, close, f"min({args[0]}, {args[2]})", "clamp"
    elif name == "clamp_val" and len(args) == 3:
        yield pos, close, f"max_t(typeof({args[0]}), {args[0]}, {args[1]})", \
            "clamp"
        yield pos, close, f"min_t(typeof({args[0]}), {args[0]}, {args[2]})", \
            "clamp"
    elif name == "clamp_t" and len(args) == 4:
        yield pos, close, f"max_t({args[0]}, {args[1]}, {args[2]})", "clamp"
        yield pos, close, f"min_t({args[0]}, {args[1]}, {args[3]})", "clamp"


def stmt_mutants(text, masked, a, b):
    """Call and assignment statements deleted, one or more lines each."""
    off = a
    prev_code = ""
    lines = masked[a:b].split("\n")
    for line in lines:
        starts = re.search(r"([;{}):]|\belse)\s*$", prev_code) is not None
        if line.strip():
            prev_code = line
        if starts and STMT_START.match(line) and not DECL.match(line):
            s = off + len(line) - len(line.lstrip())
            depth = 0
            for j in range(s, b):
                if masked[j] in "([":
                    depth += 1
                elif masked[j] in ")]":
                    depth -= 1
                elif masked[j] == ";" and depth == 0:
                    yield s, j + 1, "(void)0;", "stmt"
                    break
                elif masked[j] in "{}":
                    break
        off += len(line) + 1


def decl_mutants(masked, a, b):
    """A scalar local's type changed in signedness and in width, when the
    local is an operand of a relational comparison: the comparison then
    changes signedness or width."""
    body = masked[a:b]
    off = a
    for line in body.split("\n"):
        m = LOCAL.match(line)
        name = m.group(2) if m else None
        if (m and m.group(1) != "bool" and
                re.search(r"(?:<|>|<=|>=)(?![<>=])\s*\b" + name + r"\b|"
                          r"(?<![-<>])\b" + name + r"\s*(?:<|>|<=|>=)(?![<>])",
                          body)):
            typ = " ".join(m.group(1).split())
            for new in RETYPE[typ]:
                yield off + m.start(1), off + m.end(1), new, "decl"
        off += len(line) + 1


def ident_mutants(masked, toks, sig, a, b):
    """A use of a parameter or local replaced by the first other one of
    the same type in scope."""
    found = function_vars(masked, sig, a, b)
    for k, (pos, tok) in enumerate(toks):
        if not a < pos < b or tok not in found:
            continue
        typ, since = found[tok]
        prev = toks[k - 1][1] if k else ""
        nxt = toks[k + 1][1] if k + 1 < len(toks) else ""
        if pos < since or prev in (".", "->") or nxt == "(":
            continue
        others = [n for n, (t, s) in found.items()
                  if t == typ and n != tok and s <= pos]
        if others:
            yield pos, pos + len(tok), others[0], "ident"


# Operators by name in the keys, which must pass through a shell.
OP_NAMES = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq",
            "!=": "ne", "&&": "and", "||": "or", "+": "add", "-": "sub",
            "/": "div", "*": "mul", "<<": "shl", ">>": "shr", "+=": "addeq",
            "-=": "subeq"}
# The operators whose keys spell the edit; the others' keys hash it.
SPELT = {"rel", "logic", "arith", "const", "constdec", "bool", "stmt"}


def key_of(fname, line, seen, col, op, old, new):
    """A name for a mutant that survives edits elsewhere in the file.

    The line's text, and its rank among the lines with the same text;
    operators spelt as words, so that the key needs no shell quoting.
    """
    digest = hashlib.sha1(line.strip().encode()).hexdigest()[:8]
    if op == "stmt":
        edit = "stmt_to_void"
    elif op in SPELT:
        edit = f"{OP_NAMES.get(old, old)}_to_{OP_NAMES.get(new, new)}"
    else:
        edit = op + "." + hashlib.sha1(
            f"{old}\0{new}".encode()).hexdigest()[:6]
    return f"{fname}:{digest}.{seen}:{col}:{edit}"


def library_files(src):
    """The library's sources and headers, by their path under src/."""
    names = []
    for root, _, files in os.walk(src):
        for f in files:
            if f.endswith((".c", ".h")):
                names.append(os.path.relpath(os.path.join(root, f), src))
    return sorted(names)


def all_mutants(src):
    result = []
    for fname in library_files(src):
        with open(os.path.join(src, fname), encoding="utf-8") as f:
            text = f.read()
        lines = text.split("\n")
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line) + 1)
        rank = {}
        count = {}
        for n, line in enumerate(lines):
            rank[n] = count.get(line.strip(), 0)
            count[line.strip()] = rank[n] + 1
        seen = set()
        for start, end, new, op in mutants_of(text):
            if (start, end, new) in seen or text[start:end] == new:
                continue
            seen.add((start, end, new))
            n = bisect.bisect_right(starts, start) - 1
            col = start - starts[n]
            old = text[start:end]
            key = key_of(fname, lines[n], rank[n], col, op, old, new)
            result.append(dict(file=fname, line=n, col=col, start=start,
                               end=end, old=old, new=new, op=op, key=key,
                               text=lines[n].strip()))
    result.sort(key=lambda m: (m["file"], m["start"], m["key"]))
    return result


def apply(path, m):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert text[m["start"]:m["end"]] == m["old"], m
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:m["start"]] + m["new"] + text[m["end"]:])


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


GUEST_INIT = r"""#!/bin/sh
# One mutant after another: each is a build of the suites' module with
# the library compiled in.  Each line of its .suites file names a suite,
# one load of the module that runs that suite alone; the first load in
# which a case fails kills the mutant.
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
glob=/sys/module/kunit/parameters/filter_glob
for ko in /m/*.ko; do
	n=${ko%.ko}
	n=${n#/m/}
	echo "MUTANT-START $n" >/dev/kmsg
	verdict=PASS
	while read -r suite <&3; do
		echo -n "$suite" >$glob
		dmesg -c >/dev/null
		if ! insmod $ko; then
			verdict="NOLOAD $suite"
			break
		fi
		rmmod memtier_kunit
		if dmesg | grep -q "not ok"; then
			verdict="FAIL $suite"
			break
		fi
	done 3</m/$n.suites
	echo "MUTANT-$verdict $n" >/dev/kmsg
	rm -f $ko
done
echo MUTANTS-DONE >/dev/kmsg
poweroff -f
"""
# Every warning, KASAN and UBSAN report panics, and the panic ends QEMU:
# the mutant that was running is killed, the next boot goes on after it.
GUEST_CMDLINE = ("console=ttyS0 panic=-1 panic_on_warn=1 oops=panic "
                 "printk.time=1 kunit.filter=speed>slow "
                 "kunit.filter_action=skip")
QEMU = ["qemu-system-x86_64", "-nographic", "-no-reboot", "-machine", "pc",
        "-smp", "2", "-m", "1G"]
# How many mutants one boot runs: their modules are in its initramfs.
BATCH = 24
# Two guests at a time: each mostly runs one vCPU.
GUESTS = 2
# Set on an interrupt: the guest threads stop, their QEMUs are killed.
STOPPING = threading.Event()
GUEST_PIDS = set()


def makefile_objects(path, var):
    """The objects a Makefile adds to VAR (continuation lines joined)."""
    with open(path, encoding="utf-8") as f:
        text = f.read().replace("\\\n", " ")
    objs = []
    for m in re.finditer(r"^" + re.escape(var) + r"\s*[:+]?=(.*)$", text,
                         re.M):
        objs += m.group(1).split()
    return objs


def module_dir(repo, mod):
    """The suites' module with the library compiled in, as an external
    module: the library's exports are dropped, so it loads beside the
    kernel's own copy of the library, and its own copies of the public
    headers come before the kernel's."""
    shutil.rmtree(mod, ignore_errors=True)
    # Copied with fresh times: an object built from a mutant of an
    # earlier, interrupted run must not look newer than its source.
    shutil.copytree(os.path.join(repo, "src"), mod,
                    copy_function=shutil.copy)
    shutil.copytree(os.path.join(repo, "kunit"), os.path.join(mod, "tests"),
                    copy_function=shutil.copy)
    lib = makefile_objects(os.path.join(repo, "src", "Makefile"),
                           "obj-$(CONFIG_MEMTIER)")
    tests = makefile_objects(os.path.join(repo, "kunit", "Makefile"),
                             "memtier_kunit-y")
    with open(os.path.join(mod, "noexport.h"), "w", encoding="utf-8") as f:
        f.write("#include <kunit/visibility.h>\n"
                "#undef EXPORT_SYMBOL_IF_KUNIT\n"
                "#define EXPORT_SYMBOL_IF_KUNIT(symbol)\n")
    with open(os.path.join(mod, "Kbuild"), "w", encoding="utf-8") as f:
        f.write("NOSTDINC_FLAGS += -I$(src)/include\n"
                "ccflags-y += -I$(src) -include $(src)/noexport.h\n"
                "obj-m += memtier_kunit.o\n"
                f"memtier_kunit-y := {' '.join(lib)} "
                f"{' '.join('tests/' + o for o in tests)}\n")
    return lib, tests


def build_module(ksrc, build, mod, log_path):
    """Build the module: its path, or None when it does not compile."""
    ko = os.path.join(mod, "memtier_kunit.ko")
    if os.path.exists(ko):
        os.remove(ko)
    with open(log_path, "w", encoding="utf-8") as log:
        rc = subprocess.run(
            ["make", "-s", "-C", ksrc, "O=" + build, "M=" + mod,
             "CC=ccache gcc", "-j" + str(os.cpu_count()), "modules"],
            stdout=log, stderr=subprocess.STDOUT).returncode
    return ko if rc == 0 and os.path.exists(ko) else None


def initramfs(path, batch):
    """An initramfs that runs BATCH: [(name, ko, suites)]."""
    root = path + ".d"
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "bin"))
    os.makedirs(os.path.join(root, "m"))
    for d in ("proc", "sys", "dev"):
        os.makedirs(os.path.join(root, d))
    shutil.copy("/bin/busybox", os.path.join(root, "bin", "busybox"))
    for applet in ("sh", "mount", "insmod", "rmmod", "dmesg", "grep",
                   "cat", "rm", "poweroff"):
        os.symlink("busybox", os.path.join(root, "bin", applet))
    with open(os.path.join(root, "init"), "w", encoding="utf-8") as f:
        f.write(GUEST_INIT)
    os.chmod(os.path.join(root, "init"), 0o755)
    for name, ko, suites in batch:
        shutil.copy(ko, os.path.join(root, "m", name + ".ko"))
        with open(os.path.join(root, "m", name + ".suites"), "w",
                  encoding="utf-8") as f:
            f.write("\n".join(suites) + "\n")
    with open(path, "wb") as out:
        find = subprocess.run(["find", "."], cwd=root, check=True,
                              capture_output=True)
        subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=root,
                       input=find.stdout, stdout=out, check=True)
    shutil.rmtree(root)


def boot(bzimage, cpio, log_path, limits, quiet=True):
    """Boot one batch; yield (name, verdict, detail) as each mutant ends.

    LIMITS maps a mutant to the seconds it may take; past that the guest
    is stopped and the mutant is killed (a hang).  A guest that ends
    while a mutant runs (a panic: a crash, a warning, a KASAN or UBSAN
    report) kills that mutant; the caller boots again for the rest.
    """
    # Quiet: the console shows warnings and worse, the markers among
    # them, and not the suites' lines (the guest reads those from
    # dmesg): a mutant that fails a thousand expectations would spend
    # seconds printing them on the emulated serial port.
    cmd = QEMU + ["-kernel", bzimage, "-initrd", cpio,
                  "-append", GUEST_CMDLINE + (" loglevel=5" if quiet else "")]
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT,
                                start_new_session=True)
        GUEST_PIDS.add(proc.pid)
        current = None
        deadline = time.time() + 300
        buf = b""
        seen = []
        try:
            while True:
                ready, _, _ = select.select([proc.stdout], [], [], 1)
                if time.time() > deadline:
                    os.killpg(proc.pid, signal.SIGKILL)
                    if current:
                        yield current, "killed", "timeout"
                    return
                if not ready:
                    continue
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                log.write(chunk)
                buf += chunk
                *lines, buf = buf.split(b"\n")
                for raw in lines:
                    line = raw.decode(errors="replace").strip("\r")
                    seen.append(line)
                    m = re.search(r"MUTANT-(START|PASS|FAIL|NOLOAD) ?(\S*)"
                                  r" ?(\S*)$", line)
                    if not m:
                        if line.endswith("MUTANTS-DONE"):
                            current = None
                        continue
                    what, a, b = m.groups()
                    if what == "START":
                        current = a
                        seen = []
                        deadline = time.time() + limits[a]
                    elif what == "PASS":
                        yield a, "pass", ""
                        current = None
                    elif what == "FAIL":
                        yield b, "killed", "fails " + a
                        current = None
                    else:
                        yield b, "noload", "does not load"
                        current = None
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            GUEST_PIDS.discard(proc.pid)
        if current:
            why = next((t for t in seen
                        if re.search(r"BUG|KASAN|UBSAN|WARNING|panic|"
                                     r"Oops", t)), "guest ended")
            yield current, "killed", "crash: " + re.sub(
                r"^\[\s*[\d.]+\]\s*", "", why)[:60]


def suite_files(tests_dir):
    """Each memtier_* suite, from the names in the suites' sources."""
    suites = []
    for fname in sorted(os.listdir(tests_dir)):
        if fname.endswith(".c"):
            with open(os.path.join(tests_dir, fname), encoding="utf-8") as f:
                suites += re.findall(r'^\s*\.name = "(memtier_\w+)",$',
                                     f.read(), re.M)
    return suites


def baseline(ksrc, build, bzimage, mod, out, suites):
    """The unmutated module, every suite passing, each alone: each
    suite's seconds."""
    ko = build_module(ksrc, build, mod, os.path.join(out, "build.log"))
    if not ko:
        return None
    cpio = os.path.join(out, "baseline.cpio")
    initramfs(cpio, [("base", ko, suites)])
    log = os.path.join(out, "baseline.log")
    results = list(boot(bzimage, cpio, log, {"base": 600}, quiet=False))
    if results != [("base", "pass", "")]:
        print(f"mutants: the unmutated suites do not pass: {results}; "
              f"see {log}")
        return None
    with open(log, encoding="utf-8", errors="replace") as f:
        text = f.read()
    seconds = {}
    for s in suites:
        # Each suite is loaded alone: from its first line to its result.
        m = re.search(r"\[\s*([\d.]+)\]\s+# Subtest: " + s + r"\n(?s:.*?)"
                      r"\[\s*([\d.]+)\] ok \d+ " + s + r"\b", text)
        if not m:
            print(f"mutants: suite {s} did not run alone in the baseline")
            return None
        seconds[s] = float(m.group(2)) - float(m.group(1))
    return seconds


def src_digest_tree(src):
    h = hashlib.sha1()
    for fname in library_files(src):
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
    for m in re.finditer(r"^mutant \d+/\d+ (killed|stillborn) .*?"
                         r"  \[(\S+)\]", text, re.M):
        verdicts[m.group(2)] = m.group(1)
    return verdicts


def run(repo, ksrc, build, out, run_all, only, resume):
    repo, ksrc, build, out = (os.path.abspath(p)
                              for p in (repo, ksrc, build, out))
    bzimage = os.path.join(build, "arch", "x86", "boot", "bzImage")
    os.makedirs(out, exist_ok=True)
    mods = [os.path.join(out, f"mod{i}") for i in range(GUESTS)]
    for mod in mods:
        module_dir(repo, mod)
    src = os.path.join(repo, "src")
    eq = load_equivalents(os.path.join(repo, "docs",
                                       "mutants-equivalent.txt"))
    mutants = all_mutants(src)
    stale = set(eq) - {m["key"] for m in mutants}
    if stale:
        print("mutants: equivalents no longer generated: " +
              " ".join(sorted(stale)))
    total = len(mutants)
    digest = src_digest_tree(src)
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
                         key=lambda m: (m["file"], m["start"]))
    print(f"mutants: {len(mutants)} of {total} generated "
          f"({'all' if run_all or only else f'seed {SEED}'})", flush=True)

    start = time.time()
    suites = suite_files(os.path.join(repo, "kunit"))
    seconds = baseline(ksrc, build, bzimage, mods[0], out, suites)
    if seconds is None:
        return 1
    print("mutants: baseline " + ", ".join(
        f"{s[len('memtier_'):]} {t:.1f} s" for s, t in seconds.items()),
        flush=True)
    # A mutant runs its suites one at a time and dies at the first that
    # fails: first the suite named after its file (adistance.c:
    # memtier_adistance), then those that killed the file's mutants so
    # far, most kills first, then the others, fastest first.  Most
    # mutants die in the first or second, in a few seconds.
    kills = {}

    def order(m):
        stem = os.path.splitext(os.path.basename(m["file"]))[0]
        first = [s for s in suites if s == "memtier_" + stem]
        k = kills.get(m["file"], {})
        learned = sorted(k, key=lambda s: (-k[s], seconds[s]))
        rest = sorted(suites, key=lambda s: seconds[s])
        return list(dict.fromkeys(first + learned + rest))

    # A hang: twice what the suites take together, and a margin.
    budget = 20 + 2 * sum(seconds.values())
    counts = dict(killed=0, survived=0, equivalent=0, stillborn=0)
    survivors = []
    pending = []
    for i, m in enumerate(mutants, 1):
        m["n"] = i
        if m["key"] in earlier:
            verdict = earlier[m["key"]]
            counts[verdict] += 1
            report(m, len(mutants), verdict, "(earlier run)")
        else:
            pending.append(m)

    def build_batch(mod, batch_dir):
        """Build mutants from pending into batch_dir until BATCH are."""
        batch = []
        while len(batch) < BATCH and not STOPPING.is_set():
            with lock:
                if not pending:
                    break
                m = pending.pop(0)
            path = os.path.join(mod, m["file"])
            with open(path, encoding="utf-8") as f:
                original = f.read()
            try:
                apply(path, m)
                ko = build_module(ksrc, build, mod,
                                  os.path.join(batch_dir, "build.log"))
            finally:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(original)
            if not ko:
                with lock:
                    counts["stillborn"] += 1
                    report(m, len(mutants), "stillborn", "")
                continue
            name = f"{m['n']:04d}"
            shutil.copy(ko, os.path.join(batch_dir, name + ".ko"))
            batch.append((name, os.path.join(batch_dir, name + ".ko"),
                          order(m), m))
        return batch

    def settle(m, result, detail):
        if result == "killed":
            verdict = "killed"
            suite = detail.split()[-1] if detail.startswith("fails") else ""
            if suite in seconds:
                k = kills.setdefault(m["file"], {})
                k[suite] = k.get(suite, 0) + 1
        elif result == "noload":
            verdict = "stillborn"
        elif m["key"] in eq:
            verdict = "equivalent"
        else:
            verdict = "survived"
            survivors.append(m)
        counts[verdict] += 1
        report(m, len(mutants), verdict, detail)

    def guest(slot):
        """One guest slot: build a batch, boot it until every mutant of it
        has a verdict, again until no mutant is pending."""
        batch_dir = os.path.join(out, f"batch{slot}")
        while True:
            shutil.rmtree(batch_dir, ignore_errors=True)
            os.makedirs(batch_dir)
            batch = build_batch(mods[slot], batch_dir)
            if not batch:
                return
            left = {name: (ko, suites, m) for name, ko, suites, m in batch}
            while left and not STOPPING.is_set():
                cpio = os.path.join(batch_dir, "initramfs.cpio")
                initramfs(cpio, [(n, v[0], v[1]) for n, v in
                                 sorted(left.items())])
                ended = False
                for name, result, detail in boot(
                        bzimage, cpio, os.path.join(batch_dir, "guest.log"),
                        {n: budget for n in left}):
                    if STOPPING.is_set():
                        # Killed by the interrupt: no verdict.
                        break
                    with lock:
                        settle(left.pop(name)[2], result, detail)
                    ended = ended or result == "killed" and \
                        not detail.startswith("fails")
                if STOPPING.is_set():
                    return
                if left and not ended:
                    # The guest ended with no verdict at all: a boot that
                    # fails every time must not loop.
                    print("mutants: a guest ended without a verdict; see " +
                          os.path.join(batch_dir, "guest.log"))
                    with lock:
                        for name in sorted(left):
                            settle(left.pop(name)[2], "noload", "no boot")

    lock = threading.Lock()
    threads = [threading.Thread(target=guest, args=(s,), daemon=True)
               for s in range(GUESTS)]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(1)
    except KeyboardInterrupt:
        STOPPING.set()
        for pid in list(GUEST_PIDS):
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for t in threads:
            t.join()
        raise
    minutes = (time.time() - start) / 60
    with open(os.path.join(out, "report.txt"), "w", encoding="utf-8") as f:
        f.write(f"{len(mutants)} mutants of {total}, {minutes:.0f} min\n")
        for k, v in counts.items():
            f.write(f"{k} {v}\n")
        for m in sorted(survivors, key=lambda m: m["n"]):
            f.write(f"survived {m['key']} {m['file']}:{m['line'] + 1}: "
                    f"{m['text']}  ({m['old']} -> {m['new']})\n")
    killed, survived = counts["killed"], counts["survived"]
    score = killed / (killed + survived) if killed + survived else 1.0
    print(f"mutants: took {minutes:.0f} min; score {score:.3f}; "
          f"{counts['stillborn']} stillborn")
    print(f"mutants: {killed} killed, {survived} survived, "
          f"{counts['equivalent']} equivalent")
    return 0


def report(m, total, verdict, detail):
    old = " ".join(m["old"].split())
    new = " ".join(m["new"].split())
    if len(old) > 40:
        old = old[:37] + "..."
    if len(new) > 40:
        new = new[:37] + "..."
    print(f"mutant {m['n']}/{total} {verdict:10} {m['op']:8} "
          f"{m['file']}:{m['line'] + 1} {old} -> {new}  [{m['key']}]"
          + (f" {detail}" if detail else ""), flush=True)


def interrupted(signum, frame):
    """SIGTERM as an interrupt: the mutated file is restored on the way."""
    raise KeyboardInterrupt


def main():
    signal.signal(signal.SIGTERM, interrupted)
    if len(sys.argv) >= 3 and sys.argv[1] == "list":
        ms = all_mutants(sys.argv[2])
        for i, m in enumerate(ms, 1):
            m["n"] = i
            report(m, len(ms), "", "")
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
