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

/* The counting functions are inline: perft counts at every last-ply node, the search at every
 * leaf (docs/performance.md). The loops over directions unroll so that each shift is by a
 * constant. */
#define MOVEGEN_FOR_EACH_DIRECTION(d) \
    _Pragma("GCC unroll 8") for (int d = 0; d < DIRECTIONS; d++)

static inline uint32_t movegen_shift(uint32_t bb, int delta) {
    return delta > 0 ? bb << delta : bb >> -delta;
}

/* Landing points of tiger jumps in direction d. */
static inline uint32_t movegen_jump_targets(const Board *b, int d, uint32_t empty) {
    int delta = TABLE_DIR_DELTA[d];
    uint32_t over = movegen_shift(b->tigers & TABLE_JUMP_FROM[d], delta) & b->sheep;
    return movegen_shift(over, delta) & empty;
}

/* Destinations of one-step moves in direction d of the pieces in movers. */
static inline uint32_t movegen_step_targets(uint32_t movers, int d, uint32_t empty) {
    return movegen_shift(movers & TABLE_STEP_FROM[d], TABLE_DIR_DELTA[d]) & empty;
}

/* Tiger jumps available now, whoever is to move (for the evaluation). */
static inline int movegen_tiger_jumps(const Board *b) {
    uint32_t empty = board_empty(b);
    int count = 0;
    MOVEGEN_FOR_EACH_DIRECTION(d)
    count += popcount32(movegen_jump_targets(b, d, empty));
    return count;
}

static inline int movegen_count_steps(uint32_t movers, uint32_t empty) {
    int count = 0;
    MOVEGEN_FOR_EACH_DIRECTION(d)
    count += popcount32(movegen_step_targets(movers, d, empty));
    return count;
}

/* Number of legal moves, without listing them (bulk counting for perft's last ply). */
static inline int movegen_count(const Board *b) {
    uint32_t empty = board_empty(b);
    if (b->side == SIDE_TIGERS)
        return movegen_tiger_jumps(b) + movegen_count_steps(b->tigers, empty);
    if (b->in_hand > 0)
        return popcount32(empty);
    return movegen_count_steps(b->sheep, empty);
}

/* Tiger moves (steps + jumps) available now, whoever is to move; also (when not NULL) how many
 * of them are jumps and how many tigers have no move at all. With AVX2 (-march=native on most
 * x86-64 machines) the eight directions are one vector's lanes; otherwise it is
 * movegen_tiger_moves_portable. */
int movegen_tiger_moves(const Board *b, int *jumps, int *trapped_tigers);
/* The same, one direction after another, whatever the build: the reference tests compare the
 * vector version with. */
int movegen_tiger_moves_portable(const Board *b, int *jumps, int *trapped_tigers);

/* Index of m in list, or -1. */
int movelist_find(const MoveList *list, Move m);
