#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tables and a plot from the memtier_bench KUnit suite's output.

usage: bench-report.py [-o PLOT.png] [LOG | BUILD_DIR]...

LOG is what kunit.py printed with --raw_output, or the raw console
(BUILD_DIR/test.log, which kunit.py always writes); a directory is read
as DIR/test.log, and no argument means standard input.  The lines used
are the suite's

  benchcfg fast_pages=... rate_limit_mbps=...
  bench workload=W policy=P access_ratio=R promote_mbps=M demote_mbps=D
        settle_ms=S
  benchts workload=W policy=P t_ms=T access_ratio=R promote_mbps=M

wherever they sit in a line (printk time stamps, the KUnit "# case:"
prefix and colours are ignored); a line seen twice counts once.

Prints, per workload, a table of the policies and then the bench lines
themselves, then the issue's targets, met or not.  The plot has one row
per workload: the access ratio and the promotion rate over virtual time,
a line per policy.  It is drawn with matplotlib when it imports (if it
only imports in /usr/bin/python3, Debian's python3-matplotlib, the
script runs itself again there); else a gnuplot script is written next
to the PNG and gnuplot is run on it.  Which one drew it is printed.
Exit status: 1 when the log holds no bench line, else 0.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

SYSTEM_PYTHON = "/usr/bin/python3"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
KV = re.compile(r"(\w+)=(\S+)")
LINE = re.compile(r"(?:^|[\s:])(benchcfg|benchts|bench)((?: \w+=\S+)+)\s*$")
POLICY_ORDER = ("base", "threshold", "ratelimit", "autoadjust", "freq2",
                "auto2", "oracle")
RATE_LIMITED = ("ratelimit", "autoadjust", "auto2")


def have_matplotlib():
    try:
        import matplotlib  # noqa: F401 pylint: disable=import-outside-toplevel
    except ImportError:
        return False
    return True


def reexec_for_matplotlib():
    """Run again under the system Python when only it has matplotlib."""
    if have_matplotlib() or os.environ.get("BENCH_REPORT_REEXEC"):
        return
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        return
    if os.path.realpath(sys.executable) == os.path.realpath(SYSTEM_PYTHON):
        return
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import matplotlib"],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
    if probe.returncode == 0:
        os.environ["BENCH_REPORT_REEXEC"] = "1"
        sys.stdout.flush()
        os.execv(SYSTEM_PYTHON,
                 [SYSTEM_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])


def read_lines(paths):
    if not paths:
        yield from sys.stdin
        return
    for path in paths:
        if os.path.isdir(path):
            path = os.path.join(path, "test.log")
        with open(path, encoding="utf-8", errors="replace") as f:
            yield from f


def parse(lines):
    """Return (config, {(w, p): fields}, {(w, p): {t: fields}}, order)."""
    cfg = {}
    bench = {}
    series = {}
    order = []
    for raw in lines:
        m = LINE.search(ANSI.sub("", raw).rstrip())
        if not m:
            continue
        kind, fields = m.group(1), dict(KV.findall(m.group(2)))
        if kind == "benchcfg":
            cfg.update(fields)
            continue
        if "workload" not in fields or "policy" not in fields:
            continue
        key = (fields["workload"], fields["policy"])
        if kind == "bench":
            if key not in bench:
                order.append(key)
            bench[key] = fields
        elif "t_ms" in fields:
            series.setdefault(key, {})[int(fields["t_ms"])] = fields
    return cfg, bench, series, order


def num(fields, name):
    try:
        return float(fields[name])
    except (KeyError, ValueError):
        return float("nan")


def policy_rank(policy):
    if policy in POLICY_ORDER:
        return (POLICY_ORDER.index(policy), policy)
    return (len(POLICY_ORDER), policy)


def workloads_of(order):
    seen = []
    for w, _ in order:
        if w not in seen:
            seen.append(w)
    return seen


def policies_of(bench, workload):
    return sorted((p for w, p in bench if w == workload), key=policy_rank)


def print_tables(bench, order):
    for w in workloads_of(order):
        print(f"workload {w}")
        print(f"  {'policy':<12} {'access ratio':>12} {'promote MB/s':>13}"
              f" {'demote MB/s':>12} {'settle ms':>10}")
        for p in policies_of(bench, w):
            f = bench[(w, p)]
            settle = f.get("settle_ms", "na")
            print(f"  {p:<12} {f.get('access_ratio', '?'):>12}"
                  f" {f.get('promote_mbps', '?'):>13}"
                  f" {f.get('demote_mbps', '?'):>12}"
                  f" {'-' if settle == 'na' else settle:>10}")
        print()
    for w in workloads_of(order):
        for p in policies_of(bench, w):
            f = bench[(w, p)]
            print(f"bench workload={w} policy={p}"
                  f" access_ratio={f.get('access_ratio')}"
                  f" promote_mbps={f.get('promote_mbps')}"
                  f" demote_mbps={f.get('demote_mbps')}"
                  f" settle_ms={f.get('settle_ms')}")
    print()


def print_targets(cfg, bench):
    """The issue's targets, reported; the suite asserts weaker ones."""
    limit = num(cfg, "rate_limit_mbps")
    print("targets (from the issue; reported, not asserted):")
    base = bench.get(("gauss", "base"))
    auto = bench.get(("gauss", "autoadjust"))
    if base and auto and num(base, "promote_mbps") > 0:
        less = 100 * (1 - num(auto, "promote_mbps") /
                      num(base, "promote_mbps"))
        ok = less >= 75 and (num(auto, "access_ratio") >=
                             num(base, "access_ratio"))
        print(f"  gauss: autoadjust promotes {less:.1f}% less than base"
              f" (target >= 75%) at access ratio"
              f" {auto['access_ratio']} vs {base['access_ratio']}"
              f" (target >=): {'met' if ok else 'NOT met'}")
    else:
        print("  gauss: autoadjust vs base: no data")
    for w in ("gauss", "zipf"):
        oracle = bench.get((w, "oracle"))
        cands = [(num(f, "access_ratio"), p) for (ww, p), f in bench.items()
                 if ww == w and p != "oracle" and
                 num(f, "promote_mbps") <= limit]
        if not oracle or not cands or num(oracle, "access_ratio") <= 0:
            print(f"  {w}: best policy within the rate limit: no data")
            continue
        ratio, best = max(cands)
        share = 100 * ratio / num(oracle, "access_ratio")
        print(f"  {w}: best policy promoting <= {cfg.get('rate_limit_mbps')}"
              f" MB/s is {best}, access ratio {ratio:.3f} ="
              f" {share:.1f}% of the oracle's (target >= 95%):"
              f" {'met' if share >= 95 else 'NOT met'}")
    print()


def plot_matplotlib(series, bench, order, png):
    import matplotlib  # pylint: disable=import-outside-toplevel
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel

    works = workloads_of(order)
    fig, axes = plt.subplots(len(works), 2, figsize=(12, 3 * len(works)),
                             squeeze=False, sharex=True)
    for row, w in enumerate(works):
        for p in policies_of(bench, w):
            pts = sorted(series.get((w, p), {}).items())
            if not pts:
                continue
            t = [ms / 1000 for ms, _ in pts]
            axes[row][0].plot(t, [num(f, "access_ratio") for _, f in pts],
                              label=p)
            axes[row][1].plot(t, [num(f, "promote_mbps") for _, f in pts],
                              label=p)
        axes[row][0].set_ylabel(f"{w}\naccess ratio")
        axes[row][1].set_ylabel("promote MB/s")
        axes[row][0].set_ylim(0, 1)
    for col in (0, 1):
        axes[-1][col].set_xlabel("virtual time (s)")
    axes[0][1].legend(fontsize="small", ncol=2)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


def plot_gnuplot(series, bench, order, png):
    """Write PNG.dat and PNG.gp and run gnuplot; False without it."""
    stem = os.path.splitext(png)[0]
    dat, gp = stem + ".dat", stem + ".gp"
    works = workloads_of(order)
    blocks = []
    with open(dat, "w", encoding="utf-8") as f:
        for w in works:
            for p in policies_of(bench, w):
                pts = sorted(series.get((w, p), {}).items())
                if not pts:
                    continue
                f.write(f"# {w} {p}\n")
                for ms, fields in pts:
                    f.write(f"{ms / 1000} {fields['access_ratio']}"
                            f" {fields['promote_mbps']}\n")
                f.write("\n\n")
                blocks.append((w, p, len(blocks)))
    with open(gp, "w", encoding="utf-8") as f:
        f.write(f"set terminal pngcairo size 1200,{300 * len(works)}\n"
                if gnuplot_has_cairo() else
                f"set terminal png size 1200,{300 * len(works)}\n")
        f.write(f"set output '{png}'\n")
        f.write(f"set multiplot layout {len(works)},2\n")
        f.write("set key outside right font ',8'\n")
        for w in works:
            mine = [(p, i) for ww, p, i in blocks if ww == w]
            for col, label in ((2, "access ratio"), (3, "promote MB/s")):
                f.write(f"set title '{w}: {label}'\n")
                f.write("set xlabel 'virtual time (s)'\n")
                f.write("set yrange [0:1]\n" if col == 2 else
                        "set autoscale y\n")
                plots = [f"'{dat}' index {i} using 1:{col} with lines"
                         f" title '{p}'" for p, i in mine]
                f.write("plot " + ", \\\n     ".join(plots) + "\n")
        f.write("unset multiplot\n")
    if not shutil.which("gnuplot"):
        print(f"bench-report: no matplotlib and no gnuplot: wrote {gp},"
              " not the plot")
        return False
    subprocess.run(["gnuplot", gp], check=True)
    return True


def gnuplot_has_cairo():
    if not shutil.which("gnuplot"):
        return False
    out = subprocess.run(["gnuplot", "-e", "set terminal"],
                         capture_output=True, text=True, check=False)
    return "pngcairo" in out.stdout + out.stderr


def main():
    reexec_for_matplotlib()
    ap = argparse.ArgumentParser(
        description="memtier_bench: tables and a plot from a KUnit log")
    ap.add_argument("logs", nargs="*",
                    help="kunit.py output or console log, or a build dir")
    ap.add_argument("-o", "--output", default="bench.png",
                    help="the PNG to write (default: bench.png)")
    args = ap.parse_args()

    cfg, bench, series, order = parse(read_lines(args.logs))
    if not bench:
        print("bench-report: no 'bench workload=' line in the log")
        return 1
    if cfg:
        print("config: " + " ".join(f"{k}={v}" for k, v in cfg.items()))
        print()
    print_tables(bench, order)
    print_targets(cfg, bench)

    if not series:
        print("bench-report: no 'benchts' line: no plot")
        return 0
    png = os.path.abspath(args.output)
    os.makedirs(os.path.dirname(png), exist_ok=True)
    if have_matplotlib():
        plot_matplotlib(series, bench, order, png)
        print(f"bench-report: plot {png} (matplotlib)")
    elif plot_gnuplot(series, bench, order, png):
        print(f"bench-report: plot {png} (gnuplot,"
              f" script {os.path.splitext(png)[0]}.gp)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
