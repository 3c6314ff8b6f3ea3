// SPDX-License-Identifier: MIT
#include "eval.h"

#include "movegen.h"

int eval_tigers_counted(const Board *b, const SearchConfig *config, int moves, int jumps,
                        int trapped) {
    long score = (long)config->eval_captured * b->captured + (long)config->eval_jumps * jumps +
                 (long)config->eval_trapped * trapped + (long)config->eval_mobility * moves;
    if (score >= SCORE_WIN_MIN)
        return SCORE_WIN_MIN - 1;
    if (score <= -SCORE_WIN_MIN)
        return -(SCORE_WIN_MIN - 1);
    return (int)score;
}

int eval_tigers(const Board *b, const SearchConfig *config) {
    int jumps, trapped;
    int moves = movegen_tiger_moves(b, &jumps, &trapped);
    return eval_tigers_counted(b, config, moves, jumps, trapped);
}
