#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the placement layers from outside the solver (docs/tablebase.md).

Usage: check_placement.py BENCH IN_HAND|LOW..HIGH [SAMPLES] [SEED] [-- tbprobe options...]

Draws SAMPLES random positions (200 by default) with 1..IN_HAND (or LOW..HIGH) sheep in hand, either side to
move, 0..4 captured; makes every successor with the rules written here (nothing of lib/game);
asks `BENCH tbprobe -positions` for all of them in one process; and checks that each sample's
value is the best of its successors' (a win when one leaves the opponent a loss, else a draw
when one leaves a draw, else a loss), with a fifth capture a loss for the sheep, and that the
tool lists as many moves as the rules give. Exits 1 on any disagreement.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

SIZE = 5
SHEEP = 20
CAPTURES_TO_WIN = 5  # a test game's (-- -captures K) replaces it


def point(rank, file):
    return rank * SIZE + file


def directions(p):
    """The directions a piece on p may step in: orthogonal everywhere, diagonal from the points
    whose rank + file is even (the lines of the board)."""
    rank, file = divmod(p, SIZE)
    out = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if (rank + file) % 2 == 0:
        out += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    return out


def along(p, d, steps):
    rank, file = divmod(p, SIZE)
    r, f = rank + d[0] * steps, file + d[1] * steps
    return point(r, f) if 0 <= r < SIZE and 0 <= f < SIZE else None


def text(tigers, sheep, side, in_hand, captured):
    rows = []
    for rank in range(SIZE - 1, -1, -1):
        row, run = "", 0
        for file in range(SIZE):
            p = point(rank, file)
            piece = "T" if p in tigers else "S" if p in sheep else ""
            if not piece:
                run += 1
                continue
            row += (str(run) if run else "") + piece
            run = 0
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows) + " %s %d %d" % (side, in_hand, captured)


def successors(tigers, sheep, side, in_hand, captured):
    """Each child as (text or None for a fifth capture, which ends the game)."""
    empty = [p for p in range(SIZE * SIZE) if p not in tigers and p not in sheep]
    children = []
    if side == "s":  # with sheep in hand, the sheep place
        for p in empty:
            children.append(text(tigers, sheep | {p}, "t", in_hand - 1, captured))
        return children
    for t in sorted(tigers):
        for d in directions(t):
            step = along(t, d, 1)
            if step is None:
                continue
            if step not in tigers and step not in sheep:
                children.append(text(tigers - {t} | {step}, sheep, "s", in_hand, captured))
            elif step in sheep:
                land = along(t, d, 2)
                if land is not None and land not in tigers and land not in sheep:
                    if captured + 1 >= CAPTURES_TO_WIN:
                        children.append(None)
                    else:
                        children.append(text(tigers - {t} | {land}, sheep - {step}, "s",
                                             in_hand, captured + 1))
    return children


def sample(rng, low, high):
    in_hand = rng.randint(low, high)
    captured = rng.randint(0, min(CAPTURES_TO_WIN - 1, SHEEP - in_hand))
    points = list(range(SIZE * SIZE))
    rng.shuffle(points)
    tigers = set(points[:4])
    sheep = set(points[4:4 + SHEEP - in_hand - captured])
    return tigers, sheep, rng.choice("st"), in_hand, captured


def best(values):
    if "loss" in values:
        return "win"
    return "draw" if "draw" in values else "loss"


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    if len(args) < 2:
        raise SystemExit(__doc__)
    global CAPTURES_TO_WIN
    if "-captures" in extra:
        CAPTURES_TO_WIN = int(extra[extra.index("-captures") + 1])
    bench, span = args[0], args[1]
    # A range keeps the layers a run reads (and its memory) to those of the positions drawn.
    low, high = (int(x) for x in span.split("..")) if ".." in span else (1, int(span))
    if not 1 <= low <= high <= SHEEP:
        raise SystemExit("check_placement: IN_HAND %s: 1..20, or LOW..HIGH within it" % span)
    count = int(args[2]) if len(args) > 2 else 200
    rng = random.Random(int(args[3]) if len(args) > 3 else 1)
    samples, lines = [], []
    for _ in range(count):
        s = sample(rng, low, high)
        kids = successors(*s)
        samples.append((text(*s), kids))
        lines.append(text(*s))
        lines += [k for k in kids if k is not None]
    with tempfile.TemporaryDirectory() as work:
        positions = os.path.join(work, "positions.txt")
        answers = os.path.join(work, "answers.json")
        with open(positions, "w") as f:
            f.write("\n".join(lines) + "\n")
        done = subprocess.run([bench, "tbprobe", "-positions", positions, "-json", answers] +
                              extra, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit("check_placement: tbprobe failed: " + done.stderr.strip())
        with open(answers) as f:
            answered = json.load(f)
    if len(answered) != len(lines):
        raise SystemExit("check_placement: %d answers for %d positions" %
                         (len(answered), len(lines)))
    value = {}
    for line, answer in zip(lines, answered):
        value[line] = answer
    failures = 0
    tally = {"win": 0, "draw": 0, "loss": 0}
    for position, kids in samples:
        answer = value[position]
        kid_values = ["loss" if k is None else value[k]["value"] for k in kids]
        want = best(kid_values)
        tally[want] += 1
        if answer["value"] != want or len(answer["successors"]) != len(kids):
            failures += 1
            if failures <= 10:
                print("disagrees: %s: tbprobe %s with %d moves, the successors give %s with %d" %
                      (position, answer["value"], len(answer["successors"]), want, len(kids)))
    print("check_placement: %d positions with %d..%d sheep in hand (%d wins, %d draws, %d "
          "losses), %d successors probed: %d disagree" %
          (count, low, high, tally["win"], tally["draw"], tally["loss"], len(lines) - count,
           failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
