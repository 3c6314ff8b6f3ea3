#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Summarises an `abtest booktest -json` file as a Markdown table: per book, each difference's
expected pairs to an SPRT [0, 5] against the first book's, the plies a game lasts, and a pooled
estimate of the book's resolving power.

The pooled figure: for each difference whose Elo the first book resolves (95% interval without
zero), the ratio of this book's nElo to the first book's, with its delta-method variance from
the two cells' nElo errors; the inverse-variance mean r of those ratios; then the pairs a
normalized SPRT needs against the first book, 1 / r^2 (its cost depends only on nElo), with a
95% interval, and the same in plies (pairs times plies a game, over the differences both books
played).

    python3 tools/booktest_table.py openings/booktest.json [MORE.json ...]

Several files (runs of booktest with the same first book, seed and -each) are read as one table:
the first book's cells must then be the same in every file, as determinism says they are.
"""
import json
import math
import sys


def same_cell(a, b):
    """The same counts, and the same figures to 1e-12 (a rebuild may move a last bit), over the
    keys both hold (format 2 adds the pentanomial's detail, the draws and the plies)."""
    for key in a.keys() & b.keys():
        x, y = a[key], b[key]
        if isinstance(x, float) or isinstance(y, float):
            if abs(x - y) > 1e-12 * max(1.0, abs(x), abs(y)):
                return False
        elif x != y:
            return False
    return True


def book_name(cell):
    return cell["book"].rsplit("/", 1)[-1]


def main():
    if len(sys.argv) < 2:
        raise SystemExit("usage: booktest_table.py BOOKTEST.json [MORE.json ...]")
    cells, seen = [], {}
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        # Format 2 is an object with its cells under "cells"; format 1 was the list itself.
        for cell in data["cells"] if isinstance(data, dict) else data:
            key = (book_name(cell), cell["difference"])
            if key in seen:
                if not same_cell(seen[key], cell):
                    raise SystemExit(f"booktest_table: {path}: the cell {key} differs from "
                                     "the one of an earlier file")
                continue
            seen[key] = cell
            cells.append(cell)
    books, diffs = [], []
    for cell in cells:
        if book_name(cell) not in books:
            books.append(book_name(cell))
        if cell["difference"] not in diffs:
            diffs.append(cell["difference"])
    at = {(book_name(c), c["difference"]): c for c in cells}
    first = books[0]
    resolved = [d for d in diffs if abs(at[(first, d)]["elo"]) > at[(first, d)]["elo_error"]]
    header = ["book"] + [f"`{d}`: Elo, pairs (x)" for d in diffs]
    header += ["plies a game", "nElo ratio (pooled)", "pairs x (95%)", "plies x"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for book in books:
        row = [f"`{book}`"]
        weight_sum = weighted = 0.0
        for d in diffs:
            cell, base = at.get((book, d)), at[(first, d)]
            if not cell:
                row.append("-")
                continue
            ratio = cell["expected_pairs"] / base["expected_pairs"]
            row.append(f"{cell['elo']:+.1f}, {cell['expected_pairs']:.0f} (x{ratio:.2f})")
            if d not in resolved:
                continue
            r = cell["nelo"] / base["nelo"]
            relative = (cell["nelo_error"] / 1.96 / cell["nelo"]) ** 2
            relative += (base["nelo_error"] / 1.96 / base["nelo"]) ** 2
            variance = r * r * relative
            weighted += r / variance
            weight_sum += 1 / variance
        played = [d for d in diffs if (book, d) in at]
        plies_here = sum(at[(book, d)]["plies_per_game"] for d in played) / len(played)
        plies_first = sum(at[(first, d)]["plies_per_game"] for d in played) / len(played)
        row.append(f"{plies_here:.1f}")
        if book == first or weight_sum == 0:
            row += ["1", "x1", "x1"] if book == first else ["-", "-", "-"]
        else:
            r, half = weighted / weight_sum, 1.96 / math.sqrt(weight_sum)
            pairs = 1 / (r * r)
            low, high = 1 / (r + half) ** 2, 1 / (r - half) ** 2 if r > half else math.inf
            row += [f"{r:.3f} ± {half:.3f}", f"x{pairs:.2f} [{low:.2f}, {high:.2f}]",
                    f"x{pairs * plies_here / plies_first:.2f}"]
        print("| " + " | ".join(row) + " |")
    print(f"\nPooled over {', '.join('`' + d + '`' for d in resolved)} (the differences the first "
          "book resolves).")


if __name__ == "__main__":
    main()
