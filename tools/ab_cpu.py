#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CPU time of two builds on the same arguments, interleaved: A B A B ... for N rounds.

usage: python3 tools/ab_cpu.py A B N [ARGS ...]
  e.g. python3 tools/ab_cpu.py /tmp/bench-before build/bench 7 -threads 1

Prints each side's median and minimum CPU seconds (user + system of the child) and the ratio
B/A of the medians with the range of the rounds' own ratios. Interleaving spreads the machine's
changing load over both sides; CPU time leaves out the time another process held the core.
"""
import resource
import statistics
import subprocess
import sys


def cpu_seconds(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv):
    if len(argv) < 4 or not argv[3].isdigit() or int(argv[3]) < 1:
        sys.exit(__doc__)
    a, b, rounds, args = argv[1], argv[2], int(argv[3]), argv[4:]
    times_a, times_b = [], []
    for _ in range(rounds):
        times_a.append(cpu_seconds([a] + args))
        times_b.append(cpu_seconds([b] + args))
    ratios = [y / x for x, y in zip(times_a, times_b)]
    median_a, median_b = statistics.median(times_a), statistics.median(times_b)
    print(f"A {a}: median {median_a:.3f} s, min {min(times_a):.3f} s")
    print(f"B {b}: median {median_b:.3f} s, min {min(times_b):.3f} s")
    print(f"B/A {median_b / median_a:.4f} (rounds {min(ratios):.3f} to {max(ratios):.3f}, "
          f"{rounds} round(s))")


if __name__ == "__main__":
    main(sys.argv)
