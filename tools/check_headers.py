#!/usr/bin/env python3
"""Each header declares only the functions of its own .c file (docs/architecture.md).

Finds every function prototype in the project's headers and every function definition in its
.c files, and reports a prototype whose definition lives in another file. Run by `make test`.
"""
import glob
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DIRS = ["lib/*", "cli", "suite", "programs", "lab/*", "bench", "engine"]
DEFINITION = re.compile(r"^[A-Za-z][\w \*]*?\b(\w+)\(([^;{]*?)\)\s*\{", re.M)
PROTOTYPE = re.compile(r"^[A-Za-z][\w \*]*?\b(\w+)\([^;{]*\)\s*(?:__attribute__[^;]*)?;", re.M)
INLINE = re.compile(r"static inline[^{]*\{(?:[^{}]|\{[^{}]*\})*\}")


def files(pattern):
    found = []
    for d in DIRS:
        found += glob.glob(os.path.join(ROOT, d, pattern))
    return sorted(found)


def main():
    defined = {}
    for path in files("*.c"):
        for match in DEFINITION.finditer(open(path).read()):
            defined.setdefault(match.group(1), set()).add(os.path.relpath(path, ROOT))
    problems = 0
    for header in files("*.h"):
        own = os.path.relpath(header[:-2] + ".c", ROOT)
        text = INLINE.sub("", open(header).read())
        for match in PROTOTYPE.finditer(text):
            where = defined.get(match.group(1), set())
            if where and own not in where:
                print("headers: %s declares %s, defined in %s"
                      % (os.path.relpath(header, ROOT), match.group(1), ", ".join(sorted(where))),
                      file=sys.stderr)
                problems += 1
    if problems:
        return 1
    print("headers: each declares only its own file's functions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
