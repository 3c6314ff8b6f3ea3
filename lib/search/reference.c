// SPDX-License-Identifier: MIT
// Plain minimax, the reference every search configuration must match: no pruning, no cache, no
// ordering, and the same terminals, repetition rule and evaluation as search.c.
#include "search.h"

#include "movegen.h"
#include "reference.h"

#include <stdlib.h>

typedef struct {
    const SearchConfig *config;
    uint64_t *keys; /* history then the line */
    int history;
    uint64_t nodes;
} Reference;

/* Score for the side to move. reversible_start as in search.c. */
static int minimax(Reference *r, const Board *b, int depth, int ply, int reversible_start) {
    r->nodes++;
    int index = r->history + ply;
    r->keys[index] = board_key(b);
    if (ply > 0)
        for (int i = index - 4; i >= reversible_start; i -= 2)
            if (r->keys[i] == r->keys[index])
                return SCORE_DRAW;
    if (b->captured >= CAPTURES_TO_WIN)
        return b->side == SIDE_TIGERS ? SCORE_WIN - ply : -(SCORE_WIN - ply);
    MoveList list;
    movegen_all(b, &list);
    if (list.count == 0)
        return -(SCORE_WIN - ply);
    if (depth == 0) {
        int eval = eval_tigers(b, r->config);
        return b->side == SIDE_TIGERS ? eval : -eval;
    }
    int best = -SCORE_INFINITE;
    for (int i = 0; i < list.count; i++) {
        Board child = *b;
        board_make(&child, list.moves[i]);
        bool irreversible = move_is_place(list.moves[i]) || move_is_jump(list.moves[i]);
        int score = -minimax(r, &child, depth - 1, ply + 1,
                             irreversible ? index + 1 : reversible_start);
        if (score > best)
            best = score;
    }
    return best;
}

bool search_reference(const SearchConfig *config, const Board *root, int depth,
                      const Board *history, int history_length, int *score_out, Move *best,
                      uint64_t *nodes) {
    Reference r = {config, malloc((size_t)(history_length + depth + 2) * sizeof(uint64_t)),
                   history_length, 0};
    if (!r.keys)
        return false;
    int start = 0;
    for (int i = 0; i < history_length; i++) {
        r.keys[i] = board_key(&history[i]);
        const Board *next = i + 1 < history_length ? &history[i + 1] : root;
        if (next->in_hand != history[i].in_hand || next->captured != history[i].captured)
            start = i + 1;
    }
    Move best_move = MOVE_NONE;
    int score;
    GameResult over = game_end_result(board_game_end(root));
    if (over != RESULT_NONE) {
        score = over == RESULT_TIGERS_WIN ? SCORE_WIN : -SCORE_WIN;
    } else {
        r.nodes++;
        r.keys[history_length] = board_key(root);
        MoveList list;
        movegen_all(root, &list);
        int best_score = -SCORE_INFINITE;
        for (int i = 0; i < list.count; i++) {
            Board child = *root;
            board_make(&child, list.moves[i]);
            bool irreversible = move_is_place(list.moves[i]) || move_is_jump(list.moves[i]);
            int value = -minimax(&r, &child, depth - 1, 1,
                                 irreversible ? history_length + 1 : start);
            if (value > best_score) {
                best_score = value;
                best_move = list.moves[i];
            }
        }
        score = root->side == SIDE_TIGERS ? best_score : -best_score;
    }
    free(r.keys);
    *score_out = score;
    if (best)
        *best = best_move;
    if (nodes)
        *nodes = r.nodes;
    return true;
}
