// SPDX-License-Identifier: MIT
// Bitboard move generation: each direction is one shift of a 25-bit mask. The source masks in
// tables.h keep a shifted piece on the board and on a line (diagonals only through even points),
// so no per-point loops are needed to find destinations.
#include "movegen.h"

static inline uint32_t shift(uint32_t bb, int delta) {
    return delta > 0 ? bb << delta : bb >> -delta;
}

/* Landing points of tiger jumps in direction d. */
static inline uint32_t jump_targets(const Board *b, int d, uint32_t empty) {
    int delta = TABLE_DIR_DELTA[d];
    uint32_t over = shift(b->tigers & TABLE_JUMP_FROM[d], delta) & b->sheep;
    return shift(over, delta) & empty;
}

/* Destinations of one-step moves in direction d of the pieces in movers. */
static inline uint32_t step_targets(uint32_t movers, int d, uint32_t empty) {
    return shift(movers & TABLE_STEP_FROM[d], TABLE_DIR_DELTA[d]) & empty;
}

static void add_steps(MoveList *list, uint32_t movers, uint32_t empty) {
    for (int d = 0; d < DIRECTIONS; d++)
        for (uint32_t to = step_targets(movers, d, empty); to; to &= to - 1) {
            int point = lsb32(to);
            list->moves[list->count++] = move_step(point - TABLE_DIR_DELTA[d], point);
        }
}

void movegen_all(const Board *b, MoveList *list) {
    uint32_t empty = board_empty(b);
    list->count = 0;
    if (b->side == SIDE_TIGERS) {
        for (int d = 0; d < DIRECTIONS; d++)
            for (uint32_t to = jump_targets(b, d, empty); to; to &= to - 1) {
                int point = lsb32(to);
                list->moves[list->count++] = move_jump(point - 2 * TABLE_DIR_DELTA[d], point);
            }
        add_steps(list, b->tigers, empty);
    } else if (b->in_hand > 0) {
        for (uint32_t to = empty; to; to &= to - 1)
            list->moves[list->count++] = move_place(lsb32(to));
    } else {
        add_steps(list, b->sheep, empty);
    }
}

void movegen_all_point_order(const Board *b, MoveList *list) {
    if (b->side != SIDE_TIGERS) {
        movegen_all(b, list);
        return;
    }
    uint32_t empty = board_empty(b);
    list->count = 0;
    for (uint32_t tigers = b->tigers; tigers; tigers &= tigers - 1) {
        int from = lsb32(tigers);
        for (int d = 0; d < DIRECTIONS; d++) {
            if (!(TABLE_STEP_FROM[d] >> from & 1))
                continue;
            int next = from + TABLE_DIR_DELTA[d], beyond = next + TABLE_DIR_DELTA[d];
            if (empty >> next & 1)
                list->moves[list->count++] = move_step(from, next);
            else if ((b->sheep >> next & 1) && (TABLE_JUMP_FROM[d] >> from & 1) &&
                     (empty >> beyond & 1))
                list->moves[list->count++] = move_jump(from, beyond);
        }
    }
}

int movegen_tiger_jumps(const Board *b) {
    uint32_t empty = board_empty(b);
    int count = 0;
    for (int d = 0; d < DIRECTIONS; d++)
        count += popcount32(jump_targets(b, d, empty));
    return count;
}

static int count_steps(uint32_t movers, uint32_t empty) {
    int count = 0;
    for (int d = 0; d < DIRECTIONS; d++)
        count += popcount32(step_targets(movers, d, empty));
    return count;
}

int movegen_count(const Board *b) {
    uint32_t empty = board_empty(b);
    if (b->side == SIDE_TIGERS)
        return movegen_tiger_jumps(b) + count_steps(b->tigers, empty);
    if (b->in_hand > 0)
        return popcount32(empty);
    return count_steps(b->sheep, empty);
}

int movegen_tiger_moves(const Board *b, int *jumps, int *trapped_tigers) {
    uint32_t empty = board_empty(b), can_move = 0;
    int count = 0, jump_count = 0;
    for (int d = 0; d < DIRECTIONS; d++) {
        int delta = TABLE_DIR_DELTA[d];
        uint32_t steps = step_targets(b->tigers, d, empty);
        uint32_t jump_to = jump_targets(b, d, empty);
        jump_count += popcount32(jump_to);
        count += popcount32(steps) + popcount32(jump_to);
        can_move |= shift(steps, -delta) | shift(jump_to, -2 * delta);
    }
    if (jumps)
        *jumps = jump_count;
    if (trapped_tigers)
        *trapped_tigers = TIGERS_TOTAL - popcount32(can_move);
    return count;
}

int movelist_find(const MoveList *list, Move m) {
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m)
            return i;
    return -1;
}
