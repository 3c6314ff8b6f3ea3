#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One row of docs/performance.md's speed table: this build on this machine, today.

usage: python3 tools/perf_table.py BUILD_DIR [ROUNDS]   (make perf runs it; ROUNDS default 3)

Each figure is the median of ROUNDS runs (their minimum and maximum beside it):
  perft 7 leaves per second       bench perft -repeat 5 7: the median of 5 counts, CPU time
  perft 7 against the anchor      the same from BUILD_DIR/perft_anchor (tools/perft_anchor.c, a
                                  lean one-file perft), run in turn with bench: bench's CPU time
                                  over the anchor's, the median of the rounds' ratios
                                  (perft takes at least 11 rounds: each is about a second)
  suite nodes per CPU second      bench -threads 1 -json: nodes / cpu_seconds
  abtest pairs per second         a fixed 100-pair match at 5000 nodes on 2 threads
Prints the table's header and the row; speed is never asserted anywhere.
"""
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile


def run(command):
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def perft_seconds(command):
    last = run(command).strip().splitlines()[-1]
    match = re.search(r"median ([0-9.]+) s CPU", last)
    if not match:
        sys.exit(f"perf_table: cannot read the perft time from: {last}")
    return float(match.group(1))


PERFT_LEAVES_7 = 339123476
PERFT_ROUNDS_MIN = 11


def perft_rounds(build, rounds):
    """Leaves per CPU second of bench perft 7 and its time over the anchor's, run in turn."""
    rates, ratios = [], []
    for _ in range(rounds):
        anchor = perft_seconds([f"{build}/perft_anchor", "7", "5"])
        ours = perft_seconds([f"{build}/bench", "perft", "-repeat", "5", "7"])
        rates.append(PERFT_LEAVES_7 / ours)
        ratios.append(ours / anchor)
    return rates, ratios


def suite_rate(build):
    result = json.loads(run([f"{build}/bench", "-threads", "1", "-json", "-"]))
    return result["nodes"] / result["cpu_seconds"]


def abtest_rate(build):
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "perf.json")
        run([f"{build}/abtest", "-engine", "name=a", "-engine", "name=b", "killers=off",
             "-each", "nodes=5000", "-rounds", "100", "-concurrency", "2", "-quiet",
             "-out", out])
        with open(out) as f:
            result = json.load(f)
    return result["pairs"] / result["seconds"]


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def summary(values, scale, digits):
    return (f"{statistics.median(values) / scale:.{digits}f} "
            f"({min(values) / scale:.{digits}f}-{max(values) / scale:.{digits}f})")


def main(argv):
    if len(argv) < 2 or (len(argv) > 2 and not argv[2].isdigit()):
        sys.exit(__doc__)
    build, rounds = argv[1], int(argv[2]) if len(argv) > 2 else 3
    # Perft rounds are short (about a second), and three of them spread by half on this machine.
    perft, anchor_ratio = perft_rounds(build, max(rounds, PERFT_ROUNDS_MIN))
    suite = [suite_rate(build) for _ in range(rounds)]
    pairs = [abtest_rate(build) for _ in range(rounds)]
    commit = run(["git", "rev-parse", "--short=12", "HEAD"]).strip()
    print("| date | machine | commit | perft 7, G leaves/s | perft 7, time / anchor's | "
          "suite, M nodes/CPU-s | abtest, pairs/s (2 threads) |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {datetime.date.today().isoformat()} | {cpu_model()}, {os.cpu_count()} cores | "
          f"{commit} | {summary(perft, 1e9, 2)} | {summary(anchor_ratio, 1, 2)} | "
          f"{summary(suite, 1e6, 2)} | "
          f"{summary(pairs, 1, 1)} |")


if __name__ == "__main__":
    main(sys.argv)
