#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The report of make compare: stock 6.12 against the patched kernel.

Reads the "KERNEL REP METRIC VALUE" lines of scripts/compare.sh, prints
one line per metric,

    compare metric=M stock=S memtier=T ratio=R

with S and T the medians over the boots and R = T / S, then the goals as
met or missed, and draws every boot's value per metric, each kernel's
values divided by the stock median (PNG, with matplotlib).  Exits 1 when
a boot lost data or a metric is missing for a kernel.
"""

import argparse
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
    ("promoted_pages_th1ms", "pages promoted at hot_threshold_ms=1, 1 MB/s"),
)
DATA_LOSS = ("promote_bad_words", "demote_bad_words")


def read(path):
    values = {}
    with open(path, encoding="utf-8") as results:
        for line in results:
            fields = line.split()
            if len(fields) != 4:
                continue
            kernel, _, metric, value = fields
            try:
                number = float(value)
            except ValueError:
                continue
            values.setdefault((kernel, metric), []).append(number)
    return values


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
            points = [v / ref for v in values.get((kernel, metric), [])]
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
        medians[key] = statistics.median(vals)
    for metric, meaning in METRICS:
        stock = medians.get(("stock", metric))
        memtier = medians.get(("memtier", metric))
        if stock is None or memtier is None:
            print(f"compare: metric {metric} missing for a kernel")
            status = 1
            continue
        ratio = memtier / stock if stock else float("nan")
        print(f"compare metric={metric} stock={fmt(stock)} "
              f"memtier={fmt(memtier)} ratio={ratio:.3f}")
        print(f"  ({meaning}; boots: stock "
              f"{' '.join(fmt(v) for v in values[('stock', metric)])}, "
              f"memtier {' '.join(fmt(v) for v in values[('memtier', metric)])})")
    for metric in DATA_LOSS:
        for kernel in ("stock", "memtier"):
            bad = [v for v in values.get((kernel, metric), []) if v != 0]
            if bad or (kernel, metric) not in values:
                print(f"compare: {kernel}: {metric} {bad or 'missing'}")
                status = 1

    def med(kernel, metric):
        return medians.get((kernel, metric), float("nan"))

    t90 = (med("memtier", "t90_s"), med("stock", "t90_s"))
    goal("time-to-promote", 0 <= t90[0] <= t90[1],
         f"t90 {fmt(t90[0])} s against {fmt(t90[1])} s")
    promoted = (med("memtier", "promoted_pages"), med("stock", "promoted_pages"))
    goal("promoted-pages", promoted[0] <= promoted[1],
         f"{fmt(promoted[0])} against {fmt(promoted[1])}")
    cost = med("memtier", "us_per_hint_fault") / med("stock", "us_per_hint_fault")
    goal("hint-fault-cost", cost <= 1.05, f"ratio {cost:.3f}, goal <= 1.05")

    if args.plot:
        plot(values, medians, args.plot)
    return status


if __name__ == "__main__":
    sys.exit(main())
