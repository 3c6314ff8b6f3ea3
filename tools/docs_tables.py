#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Regenerates the tables of a Markdown page that come from results files.

A generated table sits between two markers; the first holds the arguments of `abtest report`
that make it, the results files among them:

    <!-- abtest report -sort given -markdown results/a.json results/b.json -->
    | variant vs base | ... |
    <!-- end of abtest report -->

`make docs` rewrites every such table (tools/docs_tables.py ABTEST PAGE); `make test` runs it with
--check, which fails, naming the table, when the page differs from what the files give.
"""
import re
import shlex
import subprocess
import sys

BLOCK = re.compile(r"(<!-- abtest report (?P<args>[^>]*?) -->\n)(?P<body>.*?)(<!-- end of abtest report -->)",
                   re.S)


def generate(abtest, args):
    words = shlex.split(args)
    if "-markdown" not in words:
        raise SystemExit(f"docs_tables: 'abtest report {args}': the marker needs -markdown")
    done = subprocess.run([abtest, "report", *words], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"docs_tables: 'abtest report {args}' failed: {done.stderr.strip()}")
    return done.stdout


def main():
    check = "--check" in sys.argv
    rest = [a for a in sys.argv[1:] if a != "--check"]
    if len(rest) != 2:
        raise SystemExit("usage: docs_tables.py [--check] ABTEST PAGE.md")
    abtest, page = rest
    with open(page, encoding="utf-8") as f:
        text = f.read()
    stale = []

    def replace(match):
        body = generate(abtest, match.group("args"))
        if body != match.group("body"):
            stale.append(match.group("args"))
        return match.group(1) + body + match.group(4)

    new_text, count = BLOCK.subn(replace, text)
    if count == 0:
        raise SystemExit(f"docs_tables: {page} has no generated table")
    if check:
        for args in stale:
            print(f"{page}: the table of 'abtest report {args}' is out of date with its results "
                  "files: run make docs")
        sys.exit(1 if stale else 0)
    if new_text != text:
        with open(page, "w", encoding="utf-8") as f:
            f.write(new_text)
    print(f"docs_tables: {page}: {count} table(s), {len(stale)} rewritten")


if __name__ == "__main__":
    main()
