#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A tigers-and-sheep engine written from docs/rules.md and docs/engine.md alone, standard
library only: what an engine author's first program looks like. It searches one ply with a
small evaluation and plays deterministically (ties broken by move text), so two runs of a match
give the same games. tests/test_program.c plays it in a match, a resume and a bench compare.
"""
import sys

FILES = "abcde"


def name(point):
    return FILES[point % 5] + str(point // 5 + 1)


def parse_point(text):
    return (int(text[1]) - 1) * 5 + FILES.index(text[0])


def step(point, df, dr):
    """The point one step from point in direction (df, dr) along a line, or None."""
    f, r = point % 5, point // 5
    if df and dr and (f + r) % 2:  # diagonal lines only through points of even f + r
        return None
    f, r = f + df, r + dr
    return r * 5 + f if 0 <= f < 5 and 0 <= r < 5 else None


DIRECTIONS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr]


class Position:
    def __init__(self, text):
        ranks, side, hand, captured = text.split()
        self.board = [None] * 25
        for row, rank_text in enumerate(ranks.split("/")):
            f = 0
            for c in rank_text:
                if c.isdigit():
                    f += int(c)
                else:
                    self.board[(4 - row) * 5 + f] = c
                    f += 1
        self.side, self.hand, self.captured = side, int(hand), int(captured)

    def moves(self):
        """Every legal move as (text, from, to, jumped)."""
        found = []
        if self.captured >= 5:
            return found
        if self.side == "s" and self.hand:
            return [(name(p), None, p, None) for p in range(25) if self.board[p] is None]
        piece = "S" if self.side == "s" else "T"
        for p in range(25):
            if self.board[p] != piece:
                continue
            for df, dr in DIRECTIONS:
                q = step(p, df, dr)
                if q is None:
                    continue
                if self.board[q] is None:
                    found.append((name(p) + "-" + name(q), p, q, None))
                elif piece == "T" and self.board[q] == "S":
                    r = step(q, df, dr)
                    if r is not None and self.board[r] is None:
                        found.append((name(p) + "x" + name(r), p, r, q))
        return found

    def play(self, move):
        _, frm, to, jumped = move
        if frm is None:
            self.board[to] = "S"
            self.hand -= 1
        else:
            self.board[to], self.board[frm] = self.board[frm], None
        if jumped is not None:
            self.board[jumped] = None
            self.captured += 1
        self.side = "t" if self.side == "s" else "s"

    def play_text(self, text):
        text = text.replace("-", "").replace("x", "")
        for move in self.moves():
            m = move[0].replace("-", "").replace("x", "")
            if m == text:
                self.play(move)
                return
        raise ValueError("illegal move " + text)

    def copy(self):
        other = Position.__new__(Position)
        other.board = list(self.board)
        other.side, other.hand, other.captured = self.side, self.hand, self.captured
        return other


def tigers_score(pos):
    """The evaluation from the tigers' side: captures, then jumps and moves available."""
    if pos.captured >= 5:
        return 10000
    saved = pos.side
    pos.side = "t"
    tiger_moves = pos.moves()
    pos.side = saved
    if not tiger_moves:
        return -10000
    jumps = sum(1 for m in tiger_moves if m[3] is not None)
    return 100 * pos.captured + 20 * jumps + 2 * len(tiger_moves)


def search(pos):
    """One ply: the move whose position scores best for the side to move; (move, score from the
    side to move, nodes)."""
    best, best_score, nodes = None, None, 0
    for move in sorted(pos.moves(), key=lambda m: m[0]):
        after = pos.copy()
        after.play(move)
        nodes += 1
        score = tigers_score(after) * (1 if pos.side == "t" else -1)
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best, best_score or 0, max(nodes, 1)


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def bench(words, current):
    """Stockfish's arguments: [ttSize] [threads] [limit] [fenFile] [limitType]. The per-position
    lines give the score from the tigers' side, as the suite pins it (docs/engine.md)."""
    entries = [("start", Position("T3T/5/5/5/T3T s 20 0"))]
    if len(words) > 3 and words[3] == "current":
        entries = [("current", current.copy())]
    elif len(words) > 3 and words[3] != "default":
        entries = []
        for line in open(words[3]):
            if ";" in line and not line.startswith("#"):
                text, rest = line.split(";", 1)
                entries.append((rest.split()[0], Position(text.strip())))
    total = 0
    for ident, pos in entries:
        move, score, nodes = search(pos)
        tigers = score if pos.side == "t" else -score
        say("info string bench position %s move %s score %d depth 1 nodes %d"
            % (ident, move[0] if move else "none", tigers, nodes))
        total += nodes
    say("Nodes searched  : %d" % total)


def main():
    pos = Position("T3T/5/5/5/T3T s 20 0")
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            say("id name from-docs")
            say("uciok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "ucinewgame":
            pos = Position("T3T/5/5/5/T3T s 20 0")
        elif words[0] == "position":
            rest = words[1:]
            if rest[0] == "startpos":
                pos, rest = Position("T3T/5/5/5/T3T s 20 0"), rest[1:]
            else:
                pos, rest = Position(" ".join(rest[1:5])), rest[5:]
            for text in rest[1:] if rest and rest[0] == "moves" else []:
                pos.play_text(text)
        elif words[0] == "go":
            move, score, nodes = search(pos)
            if move is None:
                say("info string the game is over")
                say("bestmove none")
                continue
            say("info depth 1 score cp %d nodes %d" % (score, nodes))
            say("bestmove " + move[0])
        elif words[0] == "bench":
            bench(words[1:], pos)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
