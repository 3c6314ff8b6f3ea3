// SPDX-License-Identifier: MIT
// The 8 symmetries of the board (rotations and reflections of the square; all preserve the
// lines, since each keeps file + rank parity), applied to masks, points, moves and positions.
#pragma once

#include "board.h"

typedef uint8_t Symmetry; /* 0 = identity; index into TABLE_SYM_* (see tables.h for the order) */

/* Image of a 25-bit mask: five table lookups, one per rank. */
static inline uint32_t sym_mask(Symmetry s, uint32_t mask) {
    const uint32_t(*rows)[32] = TABLE_SYM_ROW_IMAGE[s];
    return rows[0][mask & 31] | rows[1][mask >> 5 & 31] | rows[2][mask >> 10 & 31] |
           rows[3][mask >> 15 & 31] | rows[4][mask >> 20 & 31];
}

static inline int sym_point(Symmetry s, int point) { return TABLE_SYM_POINT[s][point]; }
static inline Symmetry sym_inverse(Symmetry s) { return TABLE_SYM_INVERSE[s]; }

/* Image of a position (side, hand and captures unchanged). */
Board sym_board(Symmetry s, const Board *b);

/* Image of a move: sym_move(s, m) played on sym_board(s, b) gives sym_board(s, b after m). */
Move sym_move(Symmetry s, Move m);

/* The image of b with the smallest key; *sym (if not NULL) receives the symmetry that maps b to
 * it (the lowest such index when several do, so the choice is deterministic). */
Board sym_canonical(const Board *b, Symmetry *sym);

/* Name of a symmetry for reports ("rotate 90", ...). */
const char *sym_name(Symmetry s);
