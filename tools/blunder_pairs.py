#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two or more `bench tbaccuracy -positions FILE -json` files compared position by position.

usage: python3 tools/blunder_pairs.py BASE.json OTHER.json [OTHER.json ...]

Every configuration searched the same positions (each search from a cleared cache), so the
difference between two blunder counts is carried by the positions where exactly one of them
blundered. For each OTHER, against BASE: its blunders, the positions only it blundered on
("worse"), those only BASE blundered on ("better"), and the exact two-sided sign test's p-value
of worse against better (binomial, half and half when the two blunder as often), and that
p-value adjusted by Holm's step-down over all the OTHERs (a family of comparisons: the chance of
calling any equal pair different stays within the level). An unpaired comparison of the counts
would take the positions both blunder on as noise; here they cancel.
"""
import json
import math
import sys


def blunder_lines(path):
    with open(path) as f:
        data = json.load(f)
    if "blunders" not in data:
        sys.exit(f"{path}: no \"blunders\" list (bench tbaccuracy -json writes one since 2026-12)")
    lines = set()
    for item in data["blunders"]:
        if "line" not in item:
            sys.exit(f"{path}: a blunder without its line: run with -positions FILE")
        lines.add(item["line"])
    positions = sum(row["positions"] for row in data["layers"])
    return lines, positions


def sign_test(worse, better):
    """Exact two-sided p-value of worse against better under half and half."""
    n = worse + better
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(worse, better) + 1)) / 2**n
    return min(1.0, 2 * tail)


def holm(p_values):
    """Holm's step-down adjusted p-values, in the order given."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted, running = [0.0] * len(p_values), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def shown(p):
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.strip())
    base, base_positions = blunder_lines(argv[1])
    rows = []
    for path in argv[2:]:
        other, positions = blunder_lines(path)
        if positions != base_positions:
            sys.exit(f"{path}: {positions} positions judged, the base {base_positions}: "
                     "not the same positions")
        worse, better = len(other - base), len(base - other)
        rows.append((path, len(other), worse, better, sign_test(worse, better)))
    adjusted = holm([row[4] for row in rows])
    print(f"{'file':<40} {'blunders':>8} {'worse':>6} {'better':>6} {'p':>8} {'Holm':>8}")
    print(f"{argv[1]:<40} {len(base):>8} {'':>6} {'':>6} {'(base)':>8} {'':>8}")
    for (path, count, worse, better, p), p_holm in zip(rows, adjusted):
        print(f"{path:<40} {count:>8} {worse:>6} {better:>6} {shown(p):>8} {shown(p_holm):>8}")


if __name__ == "__main__":
    main(sys.argv)
