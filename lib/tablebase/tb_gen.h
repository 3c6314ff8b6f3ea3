// SPDX-License-Identifier: MIT
// Solving the sliding phase by retrograde analysis, and checking a solution.
//
// Levels go from the most captured sheep to none: a capture leaves a level for the one below,
// already solved, so each level is a closed game whose capture moves are exits with known
// values. Within a level: every position's distinct successor classes are counted once (a
// forward pass); positions with no move are losses in 0; then, distance by distance, each
// newly decided position's predecessors (un-moves: a piece of the side that just moved slides
// back) are told: the predecessor of a loss is a win one ply longer, and a predecessor whose
// every successor has turned out a win is a loss one ply longer than the last of them. What is
// never decided is a draw: neither side can force a win, so play can go on for ever.
#pragma once

#include "error.h"
#include "tb_index.h"
#include "tb_value.h"

#include <stdint.h>

typedef struct {
    /* The capture that wins: 5 by the rules. Smaller values solve a smaller game (tigers win
     * at that many captures) over the levels below it only: what tests can afford. */
    int win_captures;
    int threads;
    /* Called after each level with a line such as "level 4: 64376340 positions, 97 s". */
    void (*progress)(void *context, const char *line);
    void *context;
} TbGenSetup;

typedef struct {
    int64_t positions[TB_LEVELS][2], wins[TB_LEVELS][2], losses[TB_LEVELS][2], draws[TB_LEVELS][2];
    int longest_plies;     /* the longest forced win */
    int64_t longest_index; /* the first position that has it, side to move winning */
    int longest_distance;  /* the longest of any entry, win or loss (counted, not in a file) */
} TbCounts;

/* The number of classes the game of setup->win_captures covers: the first ones of the index. */
int64_t tb_gen_classes(const TbIndex *index, int win_captures);

/* Solves the game: codes[i] (tb_gen_classes entries, zeroed by the caller) receives each class's
 * value. False with err when threads or memory fail. */
bool tb_generate(const TbIndex *index, const TbGenSetup *setup, TbCode *codes, Error *err);

/* The value after move m (legal in b, a position of the game) for the side then to move: a
 * fifth capture (or the win_captures-th) is a loss in 0 for the sheep. */
TbCode tb_successor_code(const TbIndex *index, int win_captures, const TbCode *codes,
                         const Board *b, Move m);
