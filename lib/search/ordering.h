// SPDX-License-Identifier: MIT
// Move ordering: the hint, then tiger jumps, then the killers for this remaining depth, then the
// rest in generated order, or by history (toggle: history). Chosen moves are moved to the front;
// only the rest is sorted, and stably.
#pragma once

#include "movegen.h"

#define KILLERS_PER_DEPTH 2
#define KILLER_DEPTHS 65 /* remaining depths 0..64 */

/* Two killer moves per remaining depth, newest first, no duplicates. */
typedef struct {
    Move moves[KILLER_DEPTHS][KILLERS_PER_DEPTH];
} Killers;

void killers_clear(Killers *killers);

#define HISTORY_MAX 16384

/* How often each quiet move (by side to move, origin and destination; MOVE_FROM_HAND for a
 * placement) caused a cutoff in the running search. A cutoff adds depth^2 to its move and takes
 * as much from the quiet moves tried before it, with gravity (h += b - h |b| / HISTORY_MAX), so
 * values stay within +-HISTORY_MAX and recent results weigh more. Cleared at every search (so a
 * search depends only on its inputs, whichever searcher runs it) and halved between its
 * passes. */
typedef struct {
    int score[2][32][32];
} History;

void history_clear(History *history);
void history_age(History *history);
void history_update(History *history, int side, Move move, int bonus);
static inline int history_score(const History *history, int side, Move move) {
    return history->score[side][move >> 5 & 31][move & 31];
}

/* Records a quiet move that caused a cutoff at this depth: it goes in front, the other killer
 * moves back, and a move already there is not added twice. */
void killers_add(Killers *killers, int depth, Move move);

/* Reorders list in place: hint (MOVE_NONE for none) goes first when it is in the list; then the
 * jumps keep their place at the front when jumps_first (movegen_all lists them first); then the
 * killers of this depth (killers may be NULL). Returns the index of the first move left in
 * generated order: history, when on, orders from there (history_sort or order_next). */
int order_moves(MoveList *list, Move hint, bool jumps_first, const Killers *killers, int depth);

/* The history-ordered part of a move list, put in order as the move loop reaches it: a cutoff
 * early in the list (the usual case) spares ordering the rest. The order is that of a stable sort
 * by score, highest first: each move's key is its score and its place together, so keys are
 * unique and any way of sorting them gives that order. The first pick is a scan for the highest
 * key; from the second on, the node is likely to try every move, so the rest is sorted at once
 * (insertion: most moves have no history yet, and so are in order already). Scores are read as
 * late as the order allows: the searches of the hint, jumps and killers may update the history
 * before the loop reaches the rest (history_order_begin's read_now).
 * Measured, `preset=tslab-0.3`, `bench -depth 8 -threads 1` (callgrind, portable build, the
 * searches only; docs/performance.md): sorting every list in full at the node's start cost
 * 3,312,179,373 instructions (history=on alone, then); picks by shifting 801,476,697; by
 * swapping 787,862,689; with scores read late and the rest sorted at the second pick,
 * 691,959,851 (the loop inlined in between: 743,608,351). */
typedef struct {
    int from;           /* moves before this index are in their final order */
    int start;          /* the first history-ordered index */
    bool keyed;         /* key[from..] read */
    const History *history;
    int side;
    int key[MOVES_MAX]; /* of moves[from..]: score * MOVES_MAX + (MOVES_MAX - 1 - place) */
} HistoryOrder;

/* Prepares list->moves[from..] for order_next; history NULL leaves the list as it is. With
 * read_now the scores are read at once; without, when the loop first reaches index from, which
 * gives the same order only when nothing searched before then can update the history (the
 * caller's to know: children at depth 0 never do). */
void history_order_begin(HistoryOrder *order, const MoveList *list, int from,
                         const History *history, int side, bool read_now);

/* The list stays as generated and ordered so far. The keys are left unwritten: setting the
 * whole struct costs 512 bytes a node. */
static inline void history_order_none(HistoryOrder *order, const MoveList *list) {
    order->from = list->count;
    order->start = list->count;
    order->keyed = true;
    order->history = NULL;
    order->side = 0;
}

/* Puts the right move at index i (i == order->from, every index before it in order). */
void order_pick(MoveList *list, HistoryOrder *order, int i);

/* The move at index i of the ordered list; i counts up from 0 without gaps. */
static inline Move order_next(MoveList *list, HistoryOrder *order, int i) {
    if (i >= order->from)
        order_pick(list, order, i);
    return list->moves[i];
}

/* Sorts list->moves[from..] in full by history (the root, whose list serves several passes). */
void history_sort(MoveList *list, int from, const History *history, int side);
