#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tables, targets and plots from the memtier_bench KUnit suite's output.

usage: bench-report.py [-o PLOT.png] [LOG | BUILD_DIR]...

LOG is what kunit.py printed with --raw_output, or the raw console
(BUILD_DIR/test.log, which kunit.py always writes); a directory is read
as DIR/test.log, and no argument means standard input.  The lines used
are the suite's

  benchcfg workload=W fast_pages=... time_bits=K,12 limits_mbps=1,2,4,8
        series_limit_mbps=L default_policy=P
  bench workload=W policy=P limit_mbps=L access_ratio=R promote_mbps=M
        demote_mbps=D time_bits=B settle_ms=S seed=K accesses_per_ms=A
        scan_ms=T
  benchts workload=W policy=P limit_mbps=L t_ms=T access_ratio=R
        promote_mbps=M

wherever they sit in a line (printk time stamps, the KUnit "# case:"
prefix and colours are ignored); a line seen twice counts once.

The configuration (seed, accesses_per_ms, scan_ms) of the main cases,
seed 0 at benchcfg's rate and scan period, is the main one; a line
without those fields belongs to it.  Prints, for the main configuration,
per field width and workload, a table of the policies at every rate
limit, then the bench lines themselves, then the issue's three targets,
met or missed, with the numbers behind each; then, for every
configuration of the sweep, targets 2 and 3 for each online policy, and
how many configurations each meets.  Plots: PLOT.png,
per workload, access ratio against promotion traffic, a line per policy
over the rate limits and the two ceilings as horizontal lines (at the
kernel's field width); PLOT-ts.png, the access ratio and the promotion
rate over virtual time at the smallest limit.  Drawn with matplotlib
when it imports (if it only imports in /usr/bin/python3, Debian's
python3-matplotlib, the script runs itself again there); else a gnuplot
script for the first plot is written next to the PNG and gnuplot is
run on it.  Which one drew it is printed.
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
POLICY_ORDER = ("none", "base", "threshold", "ratelimit", "autoadjust", "repeat",
                "pghot", "memtis", "damon", "counts", "static", "belady")
CEILINGS = ("static", "belady")
# Never promotes: no traffic, the fast tier as first touch filled it.
NO_PROMOTION = "none"
# Sees every access, not only hint faults: a reference for selection
# by the past on the same rate limit and demotion, not a policy to run.
SEES_ALL = "counts"
# What is not a policy a user would run.
REFERENCES = CEILINGS + (NO_PROMOTION, SEES_ALL)
# The policies a user could pick instead of the kernel's (target 3).
PEERS = ("pghot", "memtis", "damon")


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
    """Return (config, {sweep config: {(w, p, limit, bits): fields}},
    {(w, p): {t: fields}}, order of (w, p)).  A sweep configuration is
    (seed, accesses_per_ms, scan_ms) as strings, None where a line has
    no such field (the main configuration's)."""
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
        wp = (fields["workload"], fields["policy"])
        if kind == "bench":
            if wp not in order:
                order.append(wp)
            key = wp + (fields.get("limit_mbps", "?"),
                        fields.get("time_bits", "?"))
            conf = (fields.get("seed"), fields.get("accesses_per_ms"),
                    fields.get("scan_ms"))
            bench.setdefault(conf, {})[key] = fields
        elif "t_ms" in fields:
            series.setdefault(wp, {})[int(fields["t_ms"])] = fields
    return cfg, bench, series, order


def num(fields, name):
    try:
        return float(fields[name])
    except (KeyError, ValueError, TypeError):
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


def policies_of(order, workload):
    return sorted({p for w, p in order if w == workload}, key=policy_rank)


def limits_of(bench):
    return sorted({k[2] for k in bench}, key=lambda x: num({"x": x}, "x"))


def widths_of(cfg, bench):
    """The field widths, the kernel's first (as benchcfg lists them)."""
    listed = []
    for b in cfg.get("time_bits", "").split(","):
        if b and b not in listed:
            listed.append(b)
    seen = {k[3] for k in bench}
    return [b for b in listed if b in seen] + sorted(seen - set(listed))


def points(bench, w, p, bits):
    """(promote MB/s, access ratio, limit) of a policy at each limit."""
    return [(num(f, "promote_mbps"), num(f, "access_ratio"), k[2])
            for k, f in sorted(bench.items(),
                               key=lambda kv: num({"x": kv[0][2]}, "x"))
            if k[0] == w and k[1] == p and k[3] == bits]


def print_tables(cfg, bench, order):
    limits = limits_of(bench)
    for bits in widths_of(cfg, bench):
        for w in workloads_of(order):
            print(f"workload {w}, access time field {bits} bits:"
                  " access ratio / promote MB/s at each rate limit")
            head = "".join(f" {'limit ' + lim + ' MB/s':>17}"
                           for lim in limits)
            print(f"  {'policy':<11}{head} {'settle ms':>10}")
            for p in policies_of(order, w):
                cells = []
                settle = "-"
                for lim in limits:
                    f = bench.get((w, p, lim, bits))
                    if not f:
                        cells.append(f" {'':>17}")
                        continue
                    cells.append(f" {f['access_ratio']:>8} /"
                                 f"{f['promote_mbps']:>7}")
                    if lim == limits[0] and f.get("settle_ms") != "na":
                        settle = f.get("settle_ms", "-")
                print(f"  {p:<11}{''.join(cells)} {settle:>10}")
            print()
    for key in sorted(bench, key=lambda k: (workloads_of(order).index(k[0]),
                                            policy_rank(k[1]),
                                            num({"x": k[2]}, "x"), k[3])):
        f = bench[key]
        print(f"bench workload={key[0]} policy={key[1]}"
              f" limit_mbps={key[2]}"
              f" access_ratio={f.get('access_ratio')}"
              f" promote_mbps={f.get('promote_mbps')}"
              f" demote_mbps={f.get('demote_mbps')}"
              f" time_bits={key[3]} settle_ms={f.get('settle_ms')}")
    print()


# Ratios are printed in thousandths: closer than this is "on" a curve.
RATIO_TOLERANCE = 0.001


def frontier(pts, traffic):
    """The best access ratio a policy's curve reaches at @traffic MB/s.

    The upper hull of its points (one per rate limit) and the segments
    between any two, as alternating two limits would reach, at @traffic
    or less; -inf below its least traffic, where the curve says nothing.
    """
    best = float("-inf")
    pts = sorted(pts)
    for i, (t, r, _) in enumerate(pts):
        if t <= traffic:
            best = max(best, r)
        for t2, r2, _ in pts[i + 1:]:
            if t <= traffic <= t2 and t2 > t:
                best = max(best, r + (r2 - r) * (traffic - t) / (t2 - t))
    return best


def target_traffic(bench, bits):
    """(1) the seeds' algorithm: 75% less traffic than base, at a limit
    where base promotes over four times the limit."""
    ok = False
    lines = []
    for lim in limits_of(bench):
        base = bench.get(("gauss", "base", lim, bits))
        auto = bench.get(("gauss", "autoadjust", lim, bits))
        if not base or not auto:
            continue
        if num(base, "promote_mbps") <= 4 * num({"x": lim}, "x"):
            continue
        less = 100 * (1 - num(auto, "promote_mbps") /
                      num(base, "promote_mbps"))
        good = less >= 75 and (num(auto, "access_ratio") >=
                               num(base, "access_ratio"))
        ok = ok or good
        lines.append(f"limit {lim} MB/s: base {base['promote_mbps']} MB/s,"
                     f" autoadjust {less:.1f}% less, access ratio"
                     f" {auto['access_ratio']} vs {base['access_ratio']}")
    if not lines:
        return None, "no limit where base promotes over 4x the limit"
    return ok, "; ".join(lines)


CEILING_WORKLOADS = ("gauss", "zipf")


def ceiling_share(bench, bits, policy, w, ratio="access_ratio"):
    """The best share of the static ceiling's access ratio @policy
    reaches on @w at a limit it stays within, and that limit; None if
    it stays within none.  @ratio: access_ratio, the whole run's, or
    late_ratio, its second half's."""
    best = None
    for lim in limits_of(bench):
        f = bench.get((w, policy, lim, bits))
        ceil = bench.get((w, "static", lim, bits))
        if not f or not ceil or not num(ceil, ratio) > 0:
            continue
        if num(f, "promote_mbps") > num({"x": lim}, "x"):
            continue
        share = 100 * num(f, ratio) / num(ceil, ratio)
        if best is None or share > best[0]:
            best = (share, lim)
    return best


def target_ceiling(bench, bits, default):
    """(2) the default at >= 95% of the static ceiling on gauss and zipf,
    promoting no more than the limit."""
    ok = True
    lines = []
    for w in CEILING_WORKLOADS:
        best = ceiling_share(bench, bits, default, w)
        if best is None:
            ok = False
            lines.append(f"{w}: never within its limit")
            continue
        ok = ok and best[0] >= 95
        late = ceiling_share(bench, bits, default, w, "late_ratio")
        late = "" if late is None else \
            f" (second half {late[0]:.1f}% at {late[1]} MB/s)"
        lines.append(f"{w}: {best[0]:.1f}% at {best[1]} MB/s{late}")
    return ok, "; ".join(lines)


def curve_wins(bench, order, bits, default, peers=PEERS):
    """The workloads on which the default is on or above the curve of
    every policy of @peers (None: every other online policy), how many
    it has points on, and a line per workload.  The default's curve
    starts at no traffic, at the ratio of never promoting, when the log
    has it: alternating a policy with none reaches any point between."""
    won = 0
    total = 0
    lines = []
    for w in workloads_of(order):
        mine = points(bench, w, default, bits)
        if not mine:
            continue
        total += 1
        mine += [(0.0, r, lim) for _, r, lim in
                 points(bench, w, NO_PROMOTION, bits)[:1]]
        leftmost = min(mine)[1]
        beaten = []
        undecided = []
        for p in policies_of(order, w):
            if p in (default,) + REFERENCES:
                continue
            if peers is not None and p not in peers:
                continue
            seen = set()
            for t, r, lim in points(bench, w, p, bits):
                # A limit that does not bind repeats the same point.
                if (t, r) in seen:
                    continue
                seen.add((t, r))
                mine_at = frontier(mine, t)
                if mine_at == float("-inf"):
                    # Less traffic than any of the default's points: a
                    # better ratio there is above its curve; a worse one
                    # is where the curve says nothing.
                    if r > leftmost + RATIO_TOLERANCE:
                        beaten.append(f"{p}@{lim}")
                    else:
                        undecided.append(f"{p}@{lim}")
                elif r > mine_at + RATIO_TOLERANCE:
                    beaten.append(f"{p}@{lim}")
        won += not beaten and not undecided
        verdict = "on or above every peer" if not beaten else \
            "below " + " ".join(beaten)
        if undecided:
            verdict += "; left of its curve, undecided: " + \
                " ".join(undecided)
        lines.append(f"{w}: {verdict}")
    return won, total, lines


def target_curve(bench, order, bits, default, peers=PEERS):
    """(3) the default on or above every peer's ratio-vs-traffic curve on
    at least 3 of the 4 workloads."""
    won, total, lines = curve_wins(bench, order, bits, default, peers)
    return won >= 3, f"{won} of {total}: " + "; ".join(lines)


def print_targets(cfg, bench, order):
    """The issue's targets, reported; the suite asserts weaker ones."""
    widths = widths_of(cfg, bench)
    if not widths:
        return
    bits = widths[0]
    default = cfg.get("default_policy", "autoadjust")
    print(f"targets (reported, not asserted; access time field {bits} bits,"
          f" the shipped default policy is {default}):")
    for n, (ok, why) in enumerate((target_traffic(bench, bits),
                                   target_ceiling(bench, bits, default),
                                   target_curve(bench, order, bits,
                                                default)), 1):
        verdict = "no data" if ok is None else "met" if ok else "missed"
        print(f"  target {n}: {verdict}: {why}")
    print("  target 3 against every other online policy, the kernel's"
          " included: " + target_curve(bench, order, bits, default,
                                       None)[1])
    ok2, why2 = target_ceiling(bench, bits, SEES_ALL)
    if "never" not in why2:
        print(f"  reference for target 2: {SEES_ALL}, which sees every access,"
              f" {'reaches' if ok2 else 'misses'} it: {why2}")
    print("targets 2 and 3 with each online policy as the default"
          f" (peers: {', '.join(PEERS)}):")
    for p in sorted({k[1] for k in bench}, key=policy_rank):
        if p in REFERENCES:
            continue
        ok2, why2 = target_ceiling(bench, bits, p)
        ok3, why3 = target_curve(bench, order, bits, p)
        print(f"  {p}: target 2 {'met' if ok2 else 'missed'} ({why2});"
              f" target 3 {'met' if ok3 else 'missed'}"
              f" ({why3.split(':')[0]})")
    print()


def conf_name(conf):
    return f"seed={conf[0]} accesses_per_ms={conf[1]} scan_ms={conf[2]}"


def split_configs(cfg, by_conf):
    """The main configuration's lines, and the sweep's by configuration
    (the main one first)."""
    main_conf = ("0", cfg.get("accesses_per_ms"), cfg.get("scan_period_ms"))
    main = dict(by_conf.get((None, None, None), {}))
    main.update(by_conf.get(main_conf, {}))
    sweep = {main_conf: main}
    for conf in sorted((c for c in by_conf if None not in c),
                       key=lambda c: tuple(int(x) for x in c)):
        if conf != main_conf:
            sweep[conf] = by_conf[conf]
    return main, sweep


def print_sweep(cfg, sweep, order):
    """Targets 2 and 3 for each online policy in every configuration,
    at the kernel's field width, and the configurations each meets."""
    if len(sweep) < 2:
        return
    main = next(iter(sweep.values()))
    bits = widths_of(cfg, main)[0]
    default = cfg.get("default_policy", "autoadjust")
    # The reference that sees every access, last, beside the policies.
    pols = sorted({k[1] for b in sweep.values() for k in b
                   if k[1] not in REFERENCES or k[1] == SEES_ALL},
                  key=policy_rank)
    print(f"sweep: per configuration, for each online policy, its share"
          f" of the static ceiling on {' and '.join(CEILING_WORKLOADS)}"
          f" within a limit (target 2: >= 95 on both) and the workloads"
          f" on which it is on or above {', '.join(PEERS)} (target 3:"
          f" >= 3); '*' marks both met; {bits}-bit field")
    print(f"  {'configuration':<42}" +
          "".join(f" {p:>16}" for p in pols))
    met = {p: [0, 0, 0, 0] for p in pols}
    for conf, b in sweep.items():
        cells = []
        for p in pols:
            shares = [ceiling_share(b, bits, p, w)
                      for w in CEILING_WORKLOADS]
            ok2 = all(x is not None and x[0] >= 95 for x in shares)
            won, total, _ = curve_wins(b, order, bits, p)
            ok3 = won >= 3
            met[p][0] += ok2
            met[p][1] += ok3
            met[p][2] += ok2 and ok3
            met[p][3] += all(
                x is not None and x[0] >= 95 for x in
                (ceiling_share(b, bits, p, w, "late_ratio")
                 for w in CEILING_WORKLOADS))
            share = "/".join("-" if x is None else f"{x[0]:.1f}"
                             for x in shares)
            cell = f"{share} {won}/{total}{'*' if ok2 and ok3 else ' '}"
            cells.append(f" {cell:>16}")
        print(f"  {conf_name(conf):<42}" + "".join(cells))
    n = len(sweep)
    print(f"configurations met, of {n}:")
    for p in pols:
        mark = " (the kernel's default)" if p == default else \
            " (a reference: sees every access)" if p == SEES_ALL else ""
        print(f"  {p}{mark}: target 2 in {met[p][0]}, target 3 in"
              f" {met[p][1]}, both in {met[p][2]}; target 2 on the"
              f" second half of the run in {met[p][3]}")
    both = met.get(default, [0, 0, 0, 0])[2]
    print(f"sweep verdict: the default, {default}, meets targets 2 and 3"
          f" in {both} of {n} configurations:"
          f" {'robust' if both == n else 'not robust'}")
    print()


def plot_tradeoff(plt, cfg, bench, order, ax_row):
    bits = widths_of(cfg, bench)[0]
    for ax, w in zip(ax_row, workloads_of(order)):
        for p in policies_of(order, w):
            pts = points(bench, w, p, bits)
            if not pts:
                continue
            if p in CEILINGS:
                ax.axhline(pts[0][1], linestyle="--", linewidth=1,
                           label=f"{p} ceiling", color="grey"
                           if p == "static" else "black")
                continue
            uniq = sorted({(t, r) for t, r, _ in pts})
            ax.plot([t for t, _ in uniq], [r for _, r in uniq],
                    marker="o", label=p)
        ax.set_title(w)
        ax.set_xlabel("promote MB/s")
        ax.set_ylabel("access ratio")
    ax_row[0].legend(fontsize="small")
    del plt


def plot_matplotlib(cfg, series, bench, order, png):
    import matplotlib  # pylint: disable=import-outside-toplevel
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel

    works = workloads_of(order)
    fig, axes = plt.subplots(1, len(works), figsize=(4 * len(works), 4),
                             squeeze=False)
    plot_tradeoff(plt, cfg, bench, order, axes[0])
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)

    if not series:
        return
    fig, axes = plt.subplots(len(works), 2, figsize=(12, 3 * len(works)),
                             squeeze=False, sharex=True)
    for row, w in enumerate(works):
        for p in policies_of(order, w):
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
        axes[-1][col].set_xlabel(
            f"virtual time (s), limit {cfg.get('series_limit_mbps', '?')}"
            " MB/s")
    axes[0][1].legend(fontsize="small", ncol=2)
    fig.tight_layout()
    fig.savefig(series_png(png), dpi=100)
    plt.close(fig)


def series_png(png):
    return os.path.splitext(png)[0] + "-ts.png"


def plot_gnuplot(cfg, series, bench, order, png):
    """Write PNG.dat and PNG.gp and run gnuplot; False without it."""
    stem = os.path.splitext(png)[0]
    dat, gp = stem + ".dat", stem + ".gp"
    works = workloads_of(order)
    bits = widths_of(cfg, bench)[0]
    blocks = []
    with open(dat, "w", encoding="utf-8") as f:
        for w in works:
            for p in policies_of(order, w):
                pts = sorted({(t, r) for t, r, _ in
                              points(bench, w, p, bits)})
                if not pts:
                    continue
                f.write(f"# {w} {p}\n")
                for t, r in pts:
                    f.write(f"{t} {r}\n")
                f.write("\n\n")
                blocks.append((w, p, len(blocks)))
    with open(gp, "w", encoding="utf-8") as f:
        f.write(f"set terminal pngcairo size {400 * len(works)},400\n"
                if gnuplot_has_cairo() else
                f"set terminal png size {400 * len(works)},400\n")
        f.write(f"set output '{png}'\n")
        f.write(f"set multiplot layout 1,{len(works)}\n")
        f.write("set key bottom right font ',8'\n")
        f.write("set xlabel 'promote MB/s'\nset ylabel 'access ratio'\n")
        for w in works:
            mine = [(p, i) for ww, p, i in blocks if ww == w]
            f.write(f"set title '{w}'\n")
            plots = [f"'{dat}' index {i} using 1:2 with linespoints"
                     f" title '{p}'" for p, i in mine]
            f.write("plot " + ", \\\n     ".join(plots) + "\n")
        f.write("unset multiplot\n")
    del series
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

    cfg, by_conf, series, order = parse(read_lines(args.logs))
    bench, sweep = split_configs(cfg, by_conf)
    if not bench:
        print("bench-report: no 'bench workload=' line in the log")
        return 1
    if cfg:
        print("config: " + " ".join(f"{k}={v}" for k, v in cfg.items()
                                    if k not in ("workload", "run_ms")))
        print()
    print_tables(cfg, bench, order)
    print_targets(cfg, bench, order)
    print_sweep(cfg, sweep, order)

    png = os.path.abspath(args.output)
    os.makedirs(os.path.dirname(png), exist_ok=True)
    if have_matplotlib():
        plot_matplotlib(cfg, series, bench, order, png)
        print(f"bench-report: plots {png} and {series_png(png)}"
              " (matplotlib)")
    elif plot_gnuplot(cfg, series, bench, order, png):
        print(f"bench-report: plot {png} (gnuplot,"
              f" script {os.path.splitext(png)[0]}.gp; no time series)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
