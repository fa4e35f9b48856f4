#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The report of make seed-experiment: seed 001's pmbench run, booted.

Reads the "KERNEL REP CONFIG.METRIC VALUE" lines scripts/compare.sh
collects in seed mode and prints, per kernel and configuration, the
mean over the boots and the spread (min-max) of: the score (accesses
per modelled second, tierwork gauss), its change against the same
kernel without NUMA balancing, the second half's share of accesses on
the slow node, the hot set's share on the fast node, and promotion and
demotion traffic in MB/s.  Then seed 001's own table, for the docs.
Exits 1 when a boot lost data or a configuration is missing a metric.
"""

import statistics
import sys

METRICS = ("score", "slow_share", "hot_on_fast", "promote_mbps",
           "demote_mbps")
# Seed 001's table (2-socket DRAM + PMEM server, pmbench Gaussian).
SEED = (("base", 146887704.1, 725.6), ("hot selection", 165695601.2, 544.0),
        ("rate limit", 162814569.8, 165.2),
        ("auto adjustment", 170495294.0, 136.9))


def main():
    values = {}
    order = []
    with open(sys.argv[1], encoding="utf-8") as results:
        for line in results:
            fields = line.split()
            if len(fields) != 4 or "." not in fields[2]:
                continue
            kernel, _, name, value = fields
            config, metric = name.rsplit(".", 1)
            if (kernel, config) not in order:
                order.append((kernel, config))
            try:
                values.setdefault((kernel, config, metric), []).append(
                    float(value))
            except ValueError:
                pass
    status = 0

    def cell(kernel, config, metric, digits):
        vals = values.get((kernel, config, metric))
        if not vals:
            return "-"
        mean = statistics.fmean(vals)
        if len(vals) == 1 or min(vals) == max(vals):
            return f"{mean:.{digits}f}"
        return f"{mean:.{digits}f} ({min(vals):.{digits}f}-{max(vals):.{digits}f})"

    print(f"seed {'kernel':8} {'configuration':18} {'score':>22} {'vs off':>7} "
          f"{'slow share':>11} {'hot on fast':>11} {'promote MB/s':>13} "
          f"{'demote MB/s':>12}")
    for kernel, config in order:
        for metric in METRICS + ("bad_words",):
            if not values.get((kernel, config, metric)):
                print(f"seed: {kernel} {config}: {metric} missing")
                status = 1
        if any(v != 0 for v in values.get((kernel, config, "bad_words"), [])):
            print(f"seed: {kernel} {config}: data lost")
            status = 1
        off = values.get((kernel, "off", "score"))
        score = values.get((kernel, config, "score"))
        gain = (f"{100 * (statistics.fmean(score) / statistics.fmean(off) - 1):+.1f}%"
                if off and score else "-")
        print(f"seed {kernel:8} {config:18} {cell(kernel, config, 'score', 0):>22} "
              f"{gain:>7} {cell(kernel, config, 'slow_share', 3):>11} "
              f"{cell(kernel, config, 'hot_on_fast', 3):>11} "
              f"{cell(kernel, config, 'promote_mbps', 2):>13} "
              f"{cell(kernel, config, 'demote_mbps', 2):>12}")
    print("seed 001's table (pmbench score, accesses/s; promotion MB/s):")
    for name, score, rate in SEED:
        print(f"seed   {name:16} {score:14.1f} {100 * (score / SEED[0][1] - 1):+6.1f}% "
              f"{rate:7.1f}")
    return status


if __name__ == "__main__":
    sys.exit(main())
