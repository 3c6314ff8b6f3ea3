// SPDX-License-Identifier: MIT
// Move generation into a caller-owned list (tiger jumps first) and bulk move counting.
#pragma once

#include "board.h"

/* Upper bound on legal moves: sheep steps are at most 8 per empty point (at most 10 empty
 * points with 11+ sheep on board, else at most 15 sheep): well under 128. */
#define MOVES_MAX 128

typedef struct {
    Move moves[MOVES_MAX];
    int count;
} MoveList;

/* Fills list with every legal move of the side to move: tiger jumps first, then the other
 * moves, each group in direction order (N, NE, E, SE, S, SW, W, NW) then point order.
 * A position whose game is over by captures still gets its moves: callers check the end. */
void movegen_all(const Board *b, MoveList *list);

/* The same moves with no priority for jumps: each tiger in point order, its moves in direction
 * order (a jump where the neighbour holds a sheep, a step where it is empty). Sheep moves are
 * as in movegen_all. For measuring what jump ordering is worth (jumps_first=off). */
void movegen_all_point_order(const Board *b, MoveList *list);

/* Number of legal moves, without listing them (bulk counting for perft's last ply). */
int movegen_count(const Board *b);

/* Tiger jumps available now, whoever is to move (for the evaluation). */
int movegen_tiger_jumps(const Board *b);

/* Tiger moves (steps + jumps) available now, whoever is to move; also (when not NULL) how many
 * of them are jumps and how many tigers have no move at all. */
int movegen_tiger_moves(const Board *b, int *jumps, int *trapped_tigers);

/* Index of m in list, or -1. */
int movelist_find(const MoveList *list, Move m);
