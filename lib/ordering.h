// SPDX-License-Identifier: MIT
// Move ordering: the hint, then tiger jumps, then the killers for this remaining depth, then the
// rest in generated order. Chosen moves are moved to the front; nothing is sorted.
#pragma once

#include "movegen.h"

#define KILLERS_PER_DEPTH 2
#define KILLER_DEPTHS 65 /* remaining depths 0..64 */

/* Two killer moves per remaining depth, newest first, no duplicates. */
typedef struct {
    Move moves[KILLER_DEPTHS][KILLERS_PER_DEPTH];
} Killers;

void killers_clear(Killers *killers);

/* Records a quiet move that caused a cutoff at this depth: it goes in front, the other killer
 * moves back, and a move already there is not added twice. */
void killers_add(Killers *killers, int depth, Move move);

/* Reorders list in place. hint (MOVE_NONE for none) goes first when it is in the list; then the
 * jumps keep their place at the front when jumps_first (movegen_all lists them first); then the
 * killers of this depth (killers may be NULL). Relative order of the rest is kept. */
void order_moves(MoveList *list, Move hint, bool jumps_first, const Killers *killers, int depth);
