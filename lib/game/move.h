// SPDX-License-Identifier: MIT
// Moves: a 16-bit encoding and the text notation (c3, a1-b2, a1xc3).
#pragma once

#include "error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Layout: bits 0-4 destination point, bits 5-9 origin point (MOVE_FROM_HAND for a placement),
 * bit 10 set on a jump. A jump's captured sheep sits halfway: (from + to) / 2, because the
 * point index is linear in file and rank. No legal move encodes to 0, so 0 means "no move". */
typedef uint16_t Move;

#define MOVE_NONE ((Move)0)
#define MOVE_FROM_HAND 31
#define MOVE_TEXT_MAX 8 /* "a1xc3" plus terminator, with room */

static inline Move move_place(int to) { return (Move)(to | MOVE_FROM_HAND << 5); }
static inline Move move_step(int from, int to) { return (Move)(to | from << 5); }
static inline Move move_jump(int from, int to) { return (Move)(to | from << 5 | 1 << 10); }
static inline int move_to(Move m) { return m & 31; }
static inline int move_from(Move m) { return m >> 5 & 31; }
static inline bool move_is_place(Move m) { return move_from(m) == MOVE_FROM_HAND; }
static inline bool move_is_jump(Move m) { return m >> 10 & 1; }
static inline int move_over(Move m) { return (move_from(m) + move_to(m)) / 2; }

/* Whether m uses the encoding as documented above: no bits above 10, points on the board (or
 * the hand as origin), a placement never a jump. A move read from bytes (another rank's game
 * record) is checked with this before anything looks its points up. */
bool move_is_well_formed(Move m);

/* Writes the canonical text of m ("c3", "a1-b2", "a1xc3"; "none" for MOVE_NONE) into out,
 * which holds at least MOVE_TEXT_MAX bytes. Returns out. */
char *move_to_text(Move m, char *out);

/* Parses a move in canonical or compact form ("a1b2", "a1c3": a step when the points are
 * neighbours on the grid, a jump when they are two apart in a straight line). Checks the
 * shape only: whether the move is legal in a position is board_check_move's job.
 * Returns false with a message naming the column on malformed text (and *out MOVE_NONE). */
bool move_from_text(const char *text, Move *out, Error *err);

/* Text of a point ("a1".."e5") into out (3 bytes at least). */
char *point_to_text(int point, char *out);
