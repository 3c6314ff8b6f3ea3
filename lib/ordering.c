// SPDX-License-Identifier: MIT
#include "ordering.h"

#include <string.h>

void killers_clear(Killers *killers) { memset(killers, 0, sizeof *killers); }

void killers_add(Killers *killers, int depth, Move move) {
    _Static_assert(KILLERS_PER_DEPTH == 2, "killers_add is written for two slots");
    Move *slot = killers->moves[depth];
    if (slot[0] == move)
        return;
    /* The newest goes in front; the old front moves back, replacing the oldest, or the
     * second slot's copy of move, so there are never two of the same. */
    slot[1] = slot[0];
    slot[0] = move;
}

/* Moves list->moves[from] to index to (to <= from), shifting the ones between back by one. */
static void move_to_front(MoveList *list, int from, int to) {
    Move chosen = list->moves[from];
    memmove(&list->moves[to + 1], &list->moves[to], (size_t)(from - to) * sizeof(Move));
    list->moves[to] = chosen;
}

void order_moves(MoveList *list, Move hint, bool jumps_first, const Killers *killers, int depth) {
    int next = 0;
    if (hint != MOVE_NONE) {
        int at = movelist_find(list, hint);
        if (at >= 0)
            move_to_front(list, at, next++);
    }
    if (jumps_first)
        while (next < list->count && move_is_jump(list->moves[next]))
            next++;
    if (!killers)
        return;
    for (int k = 0; k < KILLERS_PER_DEPTH; k++) {
        Move killer = killers->moves[depth][k];
        if (killer == MOVE_NONE)
            continue;
        for (int i = next; i < list->count; i++)
            if (list->moves[i] == killer) {
                move_to_front(list, i, next++);
                break;
            }
    }
}
