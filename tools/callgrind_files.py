#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Instructions per node by source file, from callgrind runs of a -g build.

usage: python3 tools/callgrind_files.py NAME=OUT:NODES ...
  e.g. python3 tools/callgrind_files.py default=/tmp/d.out:3391936 tslab-0.3=/tmp/t.out:884843

Each OUT is a callgrind output of `bench -depth 8 -threads 1 [OPTIONS]` on a build with -g
(docs/performance.md gives the commands); NODES is the run's node count. Link-time inlining puts
nearly all of the search into one function, so the table groups instructions by the source file
the inlined code comes from (search.c, ordering.c, movegen.c, ...), one column per run, as a
Markdown table, largest first; files under half an instruction a node in every run are
summed in one row.
"""
import re
import subprocess
import sys


def by_file(out):
    text = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", out], capture_output=True,
                          text=True, check=True).stdout
    totals = {}
    for line in text.splitlines():
        match = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+(\S+):(\S+)", line)
        if not match or match.group(2) == "PROGRAM":
            continue
        name = match.group(2).rsplit("/", 1)[-1]
        if name == "???" or name.startswith("."):
            name = "libc and other"
        totals[name] = totals.get(name, 0) + int(match.group(1).replace(",", ""))
    return totals


def main(args):
    if not args:
        sys.exit(__doc__)
    runs = []
    for arg in args:
        name, _, rest = arg.partition("=")
        out, _, nodes = rest.rpartition(":")
        if not name or not out or not nodes.isdigit():
            sys.exit(f"callgrind_files: '{arg}': expected NAME=OUT:NODES")
        runs.append((name, by_file(out), int(nodes)))
    files = sorted({f for _, totals, _ in runs for f in totals},
                   key=lambda f: -max(t.get(f, 0) / n for _, t, n in runs))
    shown = [f for f in files if max(t.get(f, 0) / n for _, t, n in runs) >= 0.5]
    print("| source file | " + " | ".join(name for name, _, _ in runs) + " |")
    print("|---|" + "---:|" * len(runs))
    for f in shown:
        cells = [f"{t.get(f, 0) / n:.1f}" for _, t, n in runs]
        print(f"| {f} | " + " | ".join(cells) + " |")
    rest = [f for f in files if f not in shown]
    cells = [f"{sum(t.get(f, 0) for f in rest) / n:.1f}" for _, t, n in runs]
    print(f"| {len(rest)} others, each under 0.5 | " + " | ".join(cells) + " |")
    print("| total | " + " | ".join(f"{sum(t.values()) / n:.1f}" for _, t, n in runs) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
