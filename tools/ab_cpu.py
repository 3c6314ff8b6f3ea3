#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CPU time of two builds on the same arguments: interleaved (A B A B ...) or paired.

usage: python3 tools/ab_cpu.py [-paired] A B N [ARGS ...]
  e.g. python3 tools/ab_cpu.py /tmp/bench-before build/bench 7 -threads 1

Prints each side's median and minimum CPU seconds (user + system of the child), the ratio B/A
of the medians with the range of the rounds' own ratios, and the median of the rounds' ratios
with a 95% interval (bootstrap over the rounds, seeded: the same times give the same interval).
Interleaving spreads the machine's changing load over both sides, and the order alternates
(A B, B A, ...) so that neither side always runs second; CPU time leaves out the time another
process held the core. Where neighbours move single runs by 30%, the median of the rounds'
ratios over 30 rounds or more is the figure to quote.

-paired runs A and B at the same time, each on its own core (taskset), swapping the cores each
round, so that both meet the same load. It needs two cores and single-threaded commands.
"""
import os
import random
import resource
import statistics
import subprocess
import sys


def cpu_seconds(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paired_cpu_seconds(a, b, swap):
    """Runs a and b at once on cores 0 and 1 (1 and 0 when swap); their CPU seconds."""
    core_a, core_b = (1, 0) if swap else (0, 1)
    children = {}
    for command, core in ((a, core_a), (b, core_b)):
        child = subprocess.Popen(["taskset", "-c", str(core)] + command,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        children[child.pid] = command is a
    seconds = {}
    for _ in children:
        pid, status, usage = os.wait4(-1, 0)
        if status != 0:
            sys.exit(f"ab_cpu: {'A' if children[pid] else 'B'} failed (status {status})")
        seconds[children[pid]] = usage.ru_utime + usage.ru_stime
    return seconds[True], seconds[False]


def main(argv):
    paired = len(argv) > 1 and argv[1] == "-paired"
    if paired:
        argv = argv[:1] + argv[2:]
    if len(argv) < 4 or not argv[3].isdigit() or int(argv[3]) < 1:
        sys.exit(__doc__)
    a, b, rounds, args = argv[1], argv[2], int(argv[3]), argv[4:]
    times_a, times_b = [], []
    for round_index in range(rounds):
        if paired:
            x, y = paired_cpu_seconds([a] + args, [b] + args, round_index % 2 == 1)
        elif round_index % 2 == 0:
            x, y = cpu_seconds([a] + args), cpu_seconds([b] + args)
        else:
            y, x = cpu_seconds([b] + args), cpu_seconds([a] + args)
        times_a.append(x)
        times_b.append(y)
    ratios = [y / x for x, y in zip(times_a, times_b)]
    median_a, median_b = statistics.median(times_a), statistics.median(times_b)
    print(f"A {a}: median {median_a:.3f} s, min {min(times_a):.3f} s")
    print(f"B {b}: median {median_b:.3f} s, min {min(times_b):.3f} s")
    print(f"B/A {median_b / median_a:.4f} (rounds {min(ratios):.3f} to {max(ratios):.3f}, "
          f"{rounds} round(s){', paired' if paired else ''})")
    low, high = median_interval(ratios)
    print(f"median of the rounds' ratios {statistics.median(ratios):.4f} "
          f"(95% interval {low:.4f} to {high:.4f})")


def median_interval(values, resamples=2000):
    """A 95% percentile-bootstrap interval of the median of values."""
    rng = random.Random(1)
    medians = sorted(statistics.median(rng.choices(values, k=len(values)))
                     for _ in range(resamples))
    return medians[int(0.025 * resamples)], medians[int(0.975 * resamples) - 1]


if __name__ == "__main__":
    main(sys.argv)
