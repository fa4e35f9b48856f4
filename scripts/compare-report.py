#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The report of make compare: stock 6.12 against the patched kernel.

Reads the "KERNEL REP METRIC VALUE" lines of scripts/compare.sh, in
which boot REP of each kernel ran back to back, and prints one line per
metric,

    compare metric=M stock=S memtier=T ratio=R ci95=[L, H] pairs=N

with S and T the medians over the boots, R the mean of the N paired
ratios memtier/stock (boot i of one kernel against boot i of the other)
and [L, H] its 95% confidence interval (Student's t, N - 1 degrees of
freedom; none with one pair).  Then the decisions by reason each kernel
reports (stock 6.12 has no trace event: only the candidates vmstat
counts), the goals as met or missed, and every boot's value per metric,
each kernel's values divided by the stock median (PNG, with
matplotlib).  Exits 1 when a boot lost data or a metric is missing for
a kernel.
"""

import argparse
import math
import statistics
import sys

# The metrics, in print order, with what "better" means for the goals.
METRICS = (
    ("t90_s", "time until 90% of the 32 MB hot set is on the fast node, s"),
    ("promoted_pages", "pages promoted in the hot phase"),
    ("hot_on_fast", "share of the hot set on the fast node at the end"),
    ("cold_on_fast", "share of the cold set on the fast node at the end"),
    ("demoted_pages", "pages demoted under pressure (data verified)"),
    ("hint_faults", "hint faults of the non-promoting sweep"),
    ("sweep_promoted_pages", "pages the non-promoting sweep promoted"),
    ("us_per_hint_fault", "task system time per hint fault, us"),
    ("ns_per_hint_fault", "sweep time beyond its reads per hint fault, ns "
     "(instructions under -icount)"),
    ("promoted_pages_th1ms",
     "pages promoted at hot_threshold_ms=1, 1 MB/s, 100 ms periods"),
    ("candidates_th1ms", "pgpromote_candidate pages of the traced 1 ms run"),
    ("promoted_pages_th1ms_traced",
     "pages promoted in the traced 1 ms run (the trigger slows decisions)"),
    ("promoted_pages_th1ms_short",
     "pages promoted in the 1 ms run with 16 MB scan chunks"),
    ("th1ms_limit_pages", "pages 1 MB/s allows over a 1 ms run"),
)
# The phases whose decisions are counted by reason, as compare.sh names
# them.
PHASES = ("promote", "th1ms")
# Student's t for a two-sided 95% interval, by degrees of freedom.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447,
        7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179,
        13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101,
        19: 2.093, 20: 2.086, 25: 2.060, 30: 2.042}
DATA_LOSS = ("promote_bad_words", "demote_bad_words")


def read(path):
    """{(kernel, metric): {rep: value}}, in the file's order."""
    values = {}
    with open(path, encoding="utf-8") as results:
        for line in results:
            fields = line.split()
            if len(fields) != 4:
                continue
            kernel, rep, metric, value = fields
            try:
                number = float(value)
            except ValueError:
                continue
            values.setdefault((kernel, metric), {})[rep] = number
    return values


def t975(dof):
    """The t quantile for dof, the nearest tabled one below it past 20."""
    if dof in T975:
        return T975[dof]
    if dof > 30:
        return 1.960 + 2.4 / dof
    return T975[max(d for d in T975 if d <= dof)]


def paired(values, metric):
    """(mean ratio, low, high, pairs): low and high None for one pair."""
    stock = values.get(("stock", metric), {})
    memtier = values.get(("memtier", metric), {})
    ratios = [memtier[r] / stock[r] for r in stock
              if r in memtier and stock[r] > 0]
    if not ratios:
        return None, None, None, 0
    mean = statistics.fmean(ratios)
    if len(ratios) < 2:
        return mean, None, None, 1
    half = t975(len(ratios) - 1) * statistics.stdev(ratios) / \
        math.sqrt(len(ratios))
    return mean, mean - half, mean + half, len(ratios)


def fmt(value):
    if value == int(value) and abs(value) >= 10:
        return str(int(value))
    return f"{value:.3f}"


def goal(name, met, why):
    print(f"compare goal {name}: {'met' if met else 'missed'} ({why})")


def plot(values, medians, path):
    try:
        import matplotlib  # pylint: disable=import-outside-toplevel
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel
    except ImportError:
        print("compare: no matplotlib, no plot")
        return
    names = [m for m, _ in METRICS if medians.get(("stock", m))]
    fig, axis = plt.subplots(figsize=(10, 4.5))
    for offset, kernel, colour in ((-0.15, "stock", "tab:blue"),
                                   (0.15, "memtier", "tab:orange")):
        for i, metric in enumerate(names):
            ref = medians[("stock", metric)]
            points = [v / ref
                      for v in values.get((kernel, metric), {}).values()]
            axis.scatter([i + offset] * len(points), points, color=colour,
                         label=kernel if i == 0 else None, s=18)
            if (kernel, metric) in medians:
                axis.hlines(medians[(kernel, metric)] / ref, i + offset - 0.1,
                            i + offset + 0.1, color=colour)
    axis.axhline(1.0, color="grey", linewidth=0.5)
    axis.set_xticks(range(len(names)))
    axis.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
    # Log scale: the 1 ms case spreads over two orders of magnitude.
    axis.set_yscale("log")
    axis.set_ylabel("value / stock median (log)")
    axis.set_title("make compare: every boot, lines at the medians")
    axis.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print(f"compare: plot in {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("-o", "--plot")
    args = parser.parse_args()
    values = read(args.results)
    status = 0

    medians = {}
    for key, vals in values.items():
        medians[key] = statistics.median(vals.values())

    def boots(kernel, metric):
        return " ".join(fmt(v) for v in values[(kernel, metric)].values())

    for metric, meaning in METRICS:
        stock = medians.get(("stock", metric))
        memtier = medians.get(("memtier", metric))
        if stock is None or memtier is None:
            print(f"compare: metric {metric} missing for a kernel")
            status = 1
            continue
        ratio, low, high, pairs = paired(values, metric)
        if ratio is None:
            shown = "ratio=n/a"
        elif low is None:
            shown = f"ratio={ratio:.3f} ci95=n/a pairs={pairs}"
        else:
            shown = (f"ratio={ratio:.3f} ci95=[{low:.3f}, {high:.3f}] "
                     f"pairs={pairs}")
        print(f"compare metric={metric} stock={fmt(stock)} "
              f"memtier={fmt(memtier)} {shown}")
        print(f"  ({meaning}; boots: stock {boots('stock', metric)}, "
              f"memtier {boots('memtier', metric)})")
    for metric in DATA_LOSS:
        for kernel in ("stock", "memtier"):
            vals = values.get((kernel, metric), {}).values()
            bad = [v for v in vals if v != 0]
            if bad or (kernel, metric) not in values:
                print(f"compare: {kernel}: {metric} {bad or 'missing'}")
                status = 1

    # Decisions by reason, medians over the boots.
    for phase in PHASES:
        for kernel in ("stock", "memtier"):
            prefix = f"reason_{phase}_"
            reasons = sorted((m[len(prefix):], medians[(k, m)])
                             for k, m in medians
                             if k == kernel and m.startswith(prefix))
            cand = medians.get((kernel, f"candidates_{phase}"))
            shown = " ".join(f"{r}={fmt(v)}" for r, v in reasons) or \
                "no trace event"
            print(f"compare reasons phase={phase} kernel={kernel}: {shown}"
                  f"; pgpromote_candidate {fmt(cand) if cand is not None else 'n/a'}")

    def med(kernel, metric):
        return medians.get((kernel, metric), float("nan"))

    t90 = (med("memtier", "t90_s"), med("stock", "t90_s"))
    goal("time-to-promote", 0 <= t90[0] <= t90[1],
         f"t90 {fmt(t90[0])} s against {fmt(t90[1])} s")
    promoted = (med("memtier", "promoted_pages"), med("stock", "promoted_pages"))
    goal("promoted-pages", promoted[0] <= promoted[1],
         f"{fmt(promoted[0])} against {fmt(promoted[1])}")
    # The cost goal on the counted measure; the sampled one is shown above.
    ratio, low, high, pairs = paired(values, "ns_per_hint_fault")
    if ratio is None:
        goal("hint-fault-cost", False, "no pair")
    elif low is None:
        goal("hint-fault-cost", ratio <= 1.05,
             f"ratio {ratio:.3f} from one pair, no interval; goal <= 1.05")
    else:
        goal("hint-fault-cost", high <= 1.05,
             f"ratio {ratio:.3f}, 95% CI [{low:.3f}, {high:.3f}], "
             "goal: its upper end <= 1.05")
        goal("hint-fault-cost-ci", high - low <= 0.02,
             f"95% CI {100 * (high - low):.1f} points wide over {pairs} "
             "pairs, goal <= 2")
    th1 = (med("memtier", "promoted_pages_th1ms"),
           med("stock", "promoted_pages_th1ms"))
    goal("promoted-pages-1ms", th1[0] >= th1[1],
         f"{fmt(th1[0])} against {fmt(th1[1])} at hot_threshold_ms=1, "
         "1 MB/s, 100 ms periods; the reasons above say why")
    # The same with 16 MB scan chunks: the decisions, not the length of
    # the scanner's pass, decide what promotes.  Where both kernels
    # promote what the rate limit allows (within 2%: where its one-second
    # windows fall moves a few pages), the count is the knob's.
    th1 = (med("memtier", "promoted_pages_th1ms_short"),
           med("stock", "promoted_pages_th1ms_short"))
    limit = med("stock", "th1ms_limit_pages")
    at_limit = all(v >= 0.98 * limit for v in th1)
    shares = " and ".join(f"{100 * v / limit:.0f}%" for v in th1) \
        if limit > 0 else "n/a"
    goal("promoted-pages-1ms-short", th1[0] >= th1[1] or at_limit,
         f"{fmt(th1[0])} against {fmt(th1[1])} with 16 MB scan chunks: "
         f"{shares} of the {fmt(limit)} pages 1 MB/s allows"
         f"{'; both promote what the limit allows' if at_limit else ''}")

    if args.plot:
        plot(values, medians, args.plot)
    return status


if __name__ == "__main__":
    sys.exit(main())
