#!/usr/bin/env python3
"""No include circle between the lab's modules (docs/architecture.md).

A module is a .c file and its header, named by the file's base name. Module A depends on B when
A's .c or .h includes B's header. Reports every group of modules that reach each other (a
strongly connected component of more than one module): such a group can only be read, built or
replaced together. Run by `make test` over lab/, whose kinds of experiment plug into one
lifecycle (issue 56); lib/game (board, movegen) and suite (suite, pinfile, tb_accuracy) still
hold one circle each, and `--all` shows them.
"""
import glob
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LAB = ["lab/*"]
ALL = ["lib/*", "cli", "suite", "programs", "lab/*", "bench", "engine"]
INCLUDE = re.compile(r'^#include "([^"/]+)\.h"', re.M)


def graph(dirs):
    edges = {}
    for d in dirs:
        for path in glob.glob(os.path.join(ROOT, d, "*.[ch]")):
            module = os.path.splitext(os.path.basename(path))[0]
            edges.setdefault(module, set()).update(INCLUDE.findall(open(path).read()))
    return {m: {d for d in deps if d in edges and d != m} for m, deps in edges.items()}


def circles(edges):
    """Tarjan's strongly connected components of more than one module, iteratively."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def main():
    every_room = "--all" in sys.argv[1:]
    found = circles(graph(ALL if every_room else LAB))
    for group in found:
        print("includes: a circle of modules: %s" % ", ".join(group), file=sys.stderr)
    if found:
        return 1
    print("includes: no circle between the modules of %s" % ("every room" if every_room else "lab/"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
