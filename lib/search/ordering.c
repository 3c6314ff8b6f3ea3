// SPDX-License-Identifier: MIT
#include "ordering.h"

#include <limits.h>
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

void history_clear(History *history) { memset(history, 0, sizeof *history); }

void history_age(History *history) {
    int *score = &history->score[0][0][0];
    for (size_t i = 0; i < sizeof history->score / sizeof *score; i++)
        score[i] /= 2;
}

void history_update(History *history, int side, Move move, int bonus) {
    int *h = &history->score[side][move >> 5 & 31][move & 31];
    int magnitude = bonus < 0 ? -bonus : bonus;
    *h += bonus - *h * magnitude / HISTORY_MAX;
}

/* The key of the move at place (its index in the list as generated and ordered so far): higher
 * score first, and among equal scores the earlier place, as a stable sort orders them. Scores
 * are within +-HISTORY_MAX, so keys fit an int. */
static int order_key(int score, int place) { return score * MOVES_MAX + (MOVES_MAX - 1 - place); }

_Static_assert((long long)HISTORY_MAX * MOVES_MAX + MOVES_MAX < INT_MAX,
               "history keys must fit an int");

/* Reads the keys of moves[from..] and returns the index of the highest: the first pick after a
 * late read needs no scan of its own (an early read, at the node's start, ignores it; one reader
 * for both costs `preset=tslab-0.3` no more than two did: 735,615,327 instructions against
 * 735,623,816). */
static int read_keys(HistoryOrder *order, const MoveList *list) {
    int best = order->from, best_key = INT_MIN;
    for (int i = order->from; i < list->count; i++) {
        int key = order_key(history_score(order->history, order->side, list->moves[i]), i);
        order->key[i] = key;
        if (key > best_key) {
            best_key = key;
            best = i;
        }
    }
    order->keyed = true;
    return best;
}

/* Sorts moves[i..] by key, highest first: insertion, which is quick on the usual lists, where
 * most moves have no history yet and so come in key order already. */
static void sort_rest(MoveList *list, HistoryOrder *order, int i) {
    for (int j = i + 1; j < list->count; j++) {
        int key = order->key[j];
        Move move = list->moves[j];
        int k = j;
        for (; k > i && order->key[k - 1] < key; k--) {
            order->key[k] = order->key[k - 1];
            list->moves[k] = list->moves[k - 1];
        }
        order->key[k] = key;
        list->moves[k] = move;
    }
    order->from = list->count;
}

/* Puts the highest-keyed move of moves[i..] at i: at the first pick by a swap (the keys are
 * unique, so the moves come out in the same order whichever way the rest are left), from the
 * second on by sorting the rest. */
void order_pick(MoveList *list, HistoryOrder *order, int i) {
    int best = i;
    if (!order->keyed) {
        best = read_keys(order, list);
    } else if (i > order->start) {
        sort_rest(list, order, i);
        return;
    } else {
        for (int j = i + 1; j < list->count; j++)
            if (order->key[j] > order->key[best])
                best = j;
    }
    int key = order->key[best];
    Move move = list->moves[best];
    order->key[best] = order->key[i];
    list->moves[best] = list->moves[i];
    order->key[i] = key;
    list->moves[i] = move;
    order->from = i + 1;
}

void history_order_begin(HistoryOrder *order, const MoveList *list, int from,
                         const History *history, int side, bool read_now) {
    order->from = history ? from : list->count;
    order->start = order->from;
    order->keyed = false;
    order->history = history;
    order->side = side;
    if (history && read_now)
        (void)read_keys(order, list);
}

void history_sort(MoveList *list, int from, const History *history, int side) {
    HistoryOrder order;
    history_order_begin(&order, list, from, history, side, true);
    for (int i = from; i < list->count; i++)
        order_pick(list, &order, i);
}

int order_moves(MoveList *list, Move hint, bool jumps_first, const Killers *killers, int depth) {
    int next = 0;
    if (hint != MOVE_NONE) {
        int at = movelist_find(list, hint);
        if (at >= 0)
            move_to_front(list, at, next++);
    }
    if (jumps_first)
        while (next < list->count && move_is_jump(list->moves[next]))
            next++;
    for (int k = 0; killers && k < KILLERS_PER_DEPTH; k++) {
        Move killer = killers->moves[depth][k];
        if (killer == MOVE_NONE)
            continue;
        for (int i = next; i < list->count; i++)
            if (list->moves[i] == killer) {
                move_to_front(list, i, next++);
                break;
            }
    }
    return next;
}
