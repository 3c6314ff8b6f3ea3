#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Keeps the docs' example outputs that follow from the option table or committed files true.

A page shows a command's output in a fenced block, after a `$ COMMAND` line. Where that output
holds what any new option changes (the configuration's `config:` line and its hash, the SPSA
input lines) or what a report prints of committed files (results/ledger/), OUTPUTS below names
the page, the command shown and what of it is generated:

    "config"  the block's line starting with `config:`, from the run of `command`;
    "all"     every line between the command and the end of the block.

`make docs` rewrites them (tools/docs_outputs.py BUILD); `make test` runs it with --check, which
fails naming the page and the command when a page differs from what the build prints. The
command runs with the build's tools (`build/bench ...` becomes BUILD/bench ...), from the
checkout; `run` may replace the command shown with a quicker one that prints the same lines.
"""
import os
import shlex
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ONE_POSITION = "tests/data/one_position.txt"

OUTPUTS = [
    {"page": "docs/search.md", "shown": "build/bench search depth=8", "part": "config"},
    # The suite's config line does not depend on the positions: one position prints it quickly.
    {"page": "docs/bench.md", "shown": "build/bench -threads 2", "part": "config",
     "run": "build/bench -positions " + ONE_POSITION},
    {"page": "docs/tuning.md", "shown": "build/bench options -spsa", "part": "all"},
    # The report's example: what the files in results/ledger/ and openings/ say, whatever the build.
    {"page": "docs/abtest.md", "part": "all",
     "shown": "build/abtest report results/ledger/killers.json results/ledger/et_revert.json "
              "results/ledger/et4_lmr_on.json results/ledger/tune_futility_lmr.json "
              "results/ledger/booktest_killers_hint.json openings/booktest.json"},
]


def run(build, command):
    words = shlex.split(command)
    if words[0].startswith("build/"):
        words[0] = os.path.join(build, words[0][len("build/"):])
    done = subprocess.run(words, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"docs_outputs: '{command}' failed: {done.stderr.strip()}")
    return done.stdout.splitlines()


def block_after(lines, shown, page):
    """The index of the `$ shown` line and of the block's closing fence after it."""
    for i, line in enumerate(lines):
        if line == "$ " + shown:
            for j in range(i + 1, len(lines)):
                if lines[j].startswith("```") or lines[j].startswith("$ "):
                    return i, j
    raise SystemExit(f"docs_outputs: {page} has no block with '$ {shown}'")


def regenerate(lines, item, build):
    start, end = block_after(lines, item["shown"], item["page"])
    output = run(build, item.get("run", item["shown"]))
    if item["part"] == "all":
        return lines[:start + 1] + output + lines[end:]
    wanted = [line for line in output if line.startswith("config:")]
    if len(wanted) != 1:
        raise SystemExit(f"docs_outputs: '{item['shown']}' printed {len(wanted)} config: lines")
    for k in range(start + 1, end):
        if lines[k].startswith("config:"):
            return lines[:k] + wanted + lines[k + 1:]
    raise SystemExit(f"docs_outputs: {item['page']}: no config: line after '$ {item['shown']}'")


def main():
    check = "--check" in sys.argv
    rest = [a for a in sys.argv[1:] if a != "--check"]
    if len(rest) != 1:
        raise SystemExit("usage: docs_outputs.py [--check] BUILD")
    build = os.path.abspath(rest[0])
    stale = 0
    for item in OUTPUTS:
        path = os.path.join(ROOT, item["page"])
        with open(path, encoding="utf-8") as f:
            text = f.read()
        lines = text.split("\n")
        new = "\n".join(regenerate(lines, item, build))
        if new == text:
            continue
        if check:
            print(f"docs_outputs: {item['page']}: the output of '{item['shown']}' is stale "
                  "(make docs rewrites it)", file=sys.stderr)
            stale += 1
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    sys.exit(1 if stale else 0)


if __name__ == "__main__":
    main()
