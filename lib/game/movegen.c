// SPDX-License-Identifier: MIT
// Bitboard move generation: each direction is one shift of a 25-bit mask. The source masks in
// tables.h keep a shifted piece on the board and on a line (diagonals only through even points),
// so no per-point loops are needed to find destinations.
#include "movegen.h"

static int add_steps(Move *moves, int count, uint32_t movers, uint32_t empty) {
    MOVEGEN_FOR_EACH_DIRECTION(d)
    for (uint32_t to = movegen_step_targets(movers, d, empty); to; to &= to - 1) {
        int point = lsb32(to);
        moves[count++] = move_step(point - TABLE_DIR_DELTA[d], point);
    }
    return count;
}

void movegen_all(const Board *b, MoveList *list) {
    uint32_t empty = board_empty(b);
    int count = 0;
    if (b->side == SIDE_TIGERS) {
        MOVEGEN_FOR_EACH_DIRECTION(d)
        for (uint32_t to = movegen_jump_targets(b, d, empty); to; to &= to - 1) {
            int point = lsb32(to);
            list->moves[count++] = move_jump(point - 2 * TABLE_DIR_DELTA[d], point);
        }
        count = add_steps(list->moves, count, b->tigers, empty);
    } else if (b->in_hand > 0) {
        for (uint32_t to = empty; to; to &= to - 1)
            list->moves[count++] = move_place(lsb32(to));
    } else {
        count = add_steps(list->moves, count, b->sheep, empty);
    }
    list->count = count;
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

int movegen_tiger_moves(const Board *b, int *jumps, int *trapped_tigers) {
    uint32_t empty = board_empty(b), can_move = 0;
    int count = 0, jump_count = 0;
    MOVEGEN_FOR_EACH_DIRECTION(d) {
        int delta = TABLE_DIR_DELTA[d];
        uint32_t steps = movegen_step_targets(b->tigers, d, empty);
        uint32_t jump_to = movegen_jump_targets(b, d, empty);
        jump_count += popcount32(jump_to);
        count += popcount32(steps) + popcount32(jump_to);
        can_move |= movegen_shift(steps, -delta) | movegen_shift(jump_to, -2 * delta);
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
