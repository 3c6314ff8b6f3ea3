#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One row of docs/performance.md's speed table: this build on this machine, today.

usage: python3 tools/perf_table.py BUILD_DIR [ROUNDS [PORTABLE_BUILD_DIR]]
       (make perf runs it; ROUNDS default 3; the instructions come from PORTABLE_BUILD_DIR's
       bench, default BUILD_DIR's: valgrind cannot run a -march=native build on every CPU)

Each figure is the median of ROUNDS runs (their minimum and maximum beside it):
  perft 7 leaves per second       bench perft -repeat 5 7: the median of 5 counts, CPU time
  perft 7 against the anchor      the same from BUILD_DIR/perft_anchor (tools/perft_anchor.c, a
                                  lean one-file perft), run in turn with bench: bench's CPU time
                                  over the anchor's, the median of the rounds' ratios
                                  (perft takes at least 11 rounds: each is about a second)
  suite nodes per CPU second      bench -threads 1 -json: nodes / cpu_seconds
  abtest pairs per second         a fixed 100-pair match at 5000 nodes on 2 threads
  instructions per node           bench -depth 8 -threads 1 under callgrind, counting the
                                  searches only (--toggle-collect='search_run*'), for the default
                                  and preset=tslab-0.3: exact, whatever the load (one run each;
                                  "-" when valgrind is missing)
Prints the table's header and the row; speed is never asserted anywhere.
"""
import datetime
import json
import os
import platform
import re
import shutil
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


def instructions_per_node(build, options):
    """Instructions per node of the searches of bench -depth 8 -threads 1 OPTIONS, or None."""
    if not shutil.which("valgrind"):
        return None
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--toggle-collect=search_run*",
             f"--callgrind-out-file={scratch}/cg.out", f"{build}/bench", "-depth", "8",
             "-threads", "1", "-json", "-", *options],
            capture_output=True, text=True, check=True)
    collected = re.search(r"Collected : ([0-9]+)", done.stderr)
    if not collected:
        sys.exit("perf_table: callgrind printed no 'Collected' count")
    return int(collected.group(1)) / json.loads(done.stdout)["nodes"]


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
    if len(argv) < 2 or len(argv) > 4 or (len(argv) > 2 and not argv[2].isdigit()):
        sys.exit(__doc__)
    build, rounds = argv[1], int(argv[2]) if len(argv) > 2 else 3
    portable = argv[3] if len(argv) > 3 else build
    # Perft rounds are short (about a second), and three of them spread by half on this machine.
    perft, anchor_ratio = perft_rounds(build, max(rounds, PERFT_ROUNDS_MIN))
    suite = [suite_rate(build) for _ in range(rounds)]
    pairs = [abtest_rate(build) for _ in range(rounds)]
    per_node = [instructions_per_node(portable, options)
                for options in ([], ["preset=tslab-0.3"])]
    commit = run(["git", "rev-parse", "--short=12", "HEAD"]).strip()
    print("| date | machine | commit | perft 7, G leaves/s | perft 7, time / anchor's | "
          "suite, M nodes/CPU-s | abtest, pairs/s (2 threads) | instructions/node, default | "
          "instructions/node, tslab-0.3 |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {datetime.date.today().isoformat()} | {cpu_model()}, {os.cpu_count()} cores | "
          f"{commit} | {summary(perft, 1e9, 2)} | {summary(anchor_ratio, 1, 2)} | "
          f"{summary(suite, 1e6, 2)} | "
          f"{summary(pairs, 1, 1)} | "
          + " | ".join("-" if n is None else f"{n:.1f}" for n in per_node) + " |")


if __name__ == "__main__":
    main(sys.argv)
