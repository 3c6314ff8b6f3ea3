// SPDX-License-Identifier: MIT
#include "perft.h"

#include "movegen.h"

/* The last two plies are one loop: each child's moves are counted without a call per child
 * (docs/performance.md: perft). */
static uint64_t count_children_moves(const Board *b, const MoveList *list) {
    uint64_t total = 0;
    for (int i = 0; i < list->count; i++) {
        Board child = *b;
        board_make(&child, list->moves[i]);
        if (child.captured < CAPTURES_TO_WIN)
            total += (uint64_t)movegen_count(&child);
    }
    return total;
}

uint64_t perft(const Board *b, int depth) {
    if (depth == 0)
        return 1;
    if (b->captured >= CAPTURES_TO_WIN)
        return 0;
    if (depth == 1)
        return (uint64_t)movegen_count(b);
    MoveList list;
    movegen_all(b, &list);
    if (depth == 2)
        return count_children_moves(b, &list);
    uint64_t total = 0;
    for (int i = 0; i < list.count; i++) {
        Board child = *b;
        board_make(&child, list.moves[i]);
        total += perft(&child, depth - 1);
    }
    return total;
}
