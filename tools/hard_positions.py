#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Positions where perfect play is narrow, chosen by the tablebase alone.

usage: python3 tools/hard_positions.py POOL ANSWERS OUT [--keep-at-most F] [--max-in-hand H]
                                       [--count N]

POOL is a position file (an `abtest book` output); ANSWERS is `bench tbprobe -positions POOL
-json ANSWERS`, one answer per position in order. OUT gets, in POOL's order and with POOL's lines
unchanged, the first N positions (default 6000) that are won or drawn for the side to move, have
at most H sheep in hand (default 2, what `tbaccuracy -in-hand 2` judges), and in which at most
the fraction F (default 0.25) of the legal moves keep the value. A lost position cannot be
blundered, nor one where every move keeps the value; the choice names no engine, so no search
is favoured by it.
"""
import argparse
import json
import sys


def pool_lines(path):
    """The position lines of a book file (blank and '#' lines skipped), each with its position."""
    with open(path) as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            position = text.split(";")[0].split("#")[0].strip()
            yield number, line if line.endswith("\n") else line + "\n", position


def in_hand(path, number, position):
    fields = position.split()
    if len(fields) != 4 or not fields[2].isdigit():
        sys.exit(f"{path}:{number}: '{position}' is not 'BOARD SIDE IN_HAND CAPTURED'")
    return int(fields[2])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pool")
    parser.add_argument("answers")
    parser.add_argument("out")
    parser.add_argument("--keep-at-most", type=float, default=0.25)
    parser.add_argument("--max-in-hand", type=int, default=2)
    parser.add_argument("--count", type=int, default=6000)
    args = parser.parse_args()
    if not 0 < args.keep_at_most < 1:
        sys.exit(f"--keep-at-most {args.keep_at_most}: give a fraction between 0 and 1")
    with open(args.answers) as f:
        answers = json.load(f)
    if not isinstance(answers, list):
        sys.exit(f"{args.answers}: not a list of answers (bench tbprobe -positions FILE -json F)")
    lines = list(pool_lines(args.pool))
    if len(lines) != len(answers):
        sys.exit(f"{args.answers}: {len(answers)} answers for the {len(lines)} positions of "
                 f"{args.pool}")
    chosen = []
    for index, ((number, line, position), answer) in enumerate(zip(lines, answers)):
        if answer.get("position") != position:
            sys.exit(f"{args.answers}: answer {index + 1} is for '{answer.get('position')}', "
                     f"{args.pool}:{number} holds '{position}'")
        if answer["value"] == "loss" or in_hand(args.pool, number, position) > args.max_in_hand:
            continue
        legal, keeping = len(answer["successors"]), len(answer["moves"])
        if keeping < legal and keeping <= args.keep_at_most * legal:
            chosen.append(line)
        if len(chosen) == args.count:
            break
    if len(chosen) < args.count:
        sys.exit(f"{args.pool}: only {len(chosen)} positions qualify, fewer than --count "
                 f"{args.count}")
    try:
        f = open(args.out, "x")
    except FileExistsError:
        sys.exit(f"{args.out}: exists; give a new file (an earlier set is never replaced)")
    with f:
        f.write(f"# {len(chosen)} positions of {args.pool} (in its order) that are won or drawn, "
                f"with at most {args.max_in_hand} sheep in hand,\n# and in which at most "
                f"{args.keep_at_most:g} of the moves keep the value: tools/hard_positions.py\n")
        f.writelines(chosen)
    print(f"hard_positions: {len(chosen)} positions written to {args.out}")


if __name__ == "__main__":
    main()
