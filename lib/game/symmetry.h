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

/* The keys of a position's eight images, kept up to date move by move, so that the canonical
 * key is the smallest of eight numbers instead of eight masks mapped through tables
 * (docs/performance.md: symmetry). Lane s holds (sheep << 25 | tigers) << 3 | s for the image
 * under symmetry s: the image key orders first (sheep, then tigers, as board_key), and the
 * index breaks ties toward the lowest symmetry, as sym_canonical does. The lanes are signed
 * (every key is below 2^53) so that vector compares apply. */
#define SYM_KEY_INDEX_BITS 3

typedef struct {
    int64_t image[SYMMETRIES];
    int64_t least; /* the smallest lane: the canonical image's key and symmetry */
} SymKeys;

static inline int64_t sym_keys_least(const SymKeys *keys) {
    int64_t least = keys->image[0];
    for (int s = 1; s < SYMMETRIES; s++)
        least = keys->image[s] < least ? keys->image[s] : least;
    return least;
}

/* The image keys of b, from scratch. */
void sym_keys_init(SymKeys *keys, const Board *b);

/* The image keys after m, a legal move in b (the position parent describes): each lane flips
 * the bits of the destination, the origin and a jumped sheep (an all-zero row where the move has
 * none), in one pass of vector operations where the target has them. */
static inline void sym_keys_make(SymKeys *restrict child, const SymKeys *restrict parent,
                                 const Board *b, Move m) {
    static const int64_t none[SYMMETRIES] = {0};
    const int64_t(*table)[SYMMETRIES] =
        b->side == SIDE_TIGERS ? TABLE_SYM_TIGER_KEY : TABLE_SYM_SHEEP_KEY;
    const int64_t *to = table[move_to(m)];
    const int64_t *from = move_is_place(m) ? none : table[move_from(m)];
    const int64_t *over = move_is_jump(m) ? TABLE_SYM_SHEEP_KEY[move_over(m)] : none;
    for (int s = 0; s < SYMMETRIES; s++)
        child->image[s] = parent->image[s] ^ to[s] ^ from[s] ^ over[s];
    child->least = sym_keys_least(child);
}

/* board_key of sym_canonical(b, sym), from b's image keys: the same key and symmetry. The
 * smallest lane is kept with the keys (a plain minimum: no branch on which image wins), so that
 * a child's slot can be prefetched and probed without a second minimum. */
static inline uint64_t sym_keys_canonical(const SymKeys *keys, const Board *b, Symmetry *sym) {
    int64_t least = keys->least;
    *sym = (Symmetry)(least & (SYMMETRIES - 1));
    return (uint64_t)least >> SYM_KEY_INDEX_BITS | (uint64_t)b->in_hand << 50 |
           (uint64_t)b->side << 55;
}

/* Name of a symmetry for reports ("rotate 90", ...). */
const char *sym_name(Symmetry s);
