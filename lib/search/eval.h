// SPDX-License-Identifier: MIT
// The hand-written evaluation and the score scale.
#pragma once

#include "board.h"
#include "config.h"

/* Scores are integers. A won game scores SCORE_WIN minus the plies to the win, so a nearer win
 * scores higher; anything beyond SCORE_WIN_MIN in absolute value is a win or loss. The
 * evaluation is clamped inside (-SCORE_WIN_MIN, SCORE_WIN_MIN). */
#define SCORE_INFINITE 32000
#define SCORE_WIN 30000
#define SCORE_WIN_MIN 29000
#define SCORE_DRAW 0

static inline bool score_is_win(int score) { return score >= SCORE_WIN_MIN || score <= -SCORE_WIN_MIN; }

/* From the tigers' side, whoever is to move: eval_captured * captured + eval_jumps * jumps
 * available + eval_trapped * tigers with no move + eval_mobility * tiger moves available.
 * Depends only on the pieces and counts, so every symmetric image scores the same. */
int eval_tigers(const Board *b, const SearchConfig *config);

/* The same from counts already made by movegen_tiger_moves (moves, jumps, trapped tigers): a
 * leaf with the tigers to move needs their move count anyway, so it generates them once. */
int eval_tigers_counted(const Board *b, const SearchConfig *config, int moves, int jumps,
                        int trapped);
