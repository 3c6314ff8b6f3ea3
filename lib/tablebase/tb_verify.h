// SPDX-License-Identifier: MIT
// Checking a solution of the sliding phase: its counts, every class against its successors, and
// an independent forward search (tb_verify.c).
#pragma once

#include "tb_gen.h"

/* Counts of a solution per level and side, and its longest win (the first class that has it;
 * longest_index -1 when there is no win). */
void tb_count(const TbIndex *index, int win_captures, const TbCode *codes, TbCounts *counts);
void tb_count_entries(const TbIndex *index, int win_captures, const TbEntries *entries,
                      TbCounts *counts);

/* What the verification found: how many positions break each rule, and the first that does. */
typedef struct {
    int64_t checked, failures;
    int64_t first_failure; /* -1 when none */
    char first_reason[160];
} TbCheck;

/* Checks every class in [first, last) against its successors by forward move generation only:
 * a win in n has a successor lost in n - 1 and none lost sooner; a loss in n has every successor
 * won, in at most n - 1, one in exactly n - 1 (a loss in 0 has no move); a draw has no lost
 * successor and at least one drawn one. Uses `threads` threads. */
bool tb_verify(const TbIndex *index, int win_captures, const TbCode *codes, int64_t first,
               int64_t last, int threads, TbCheck *check, Error *err);

/* An independent forward check for tests and `bench tbverify`: plain AND-OR search of the game
 * tree with the project's move generator, no tables, no repetition rule. True when the side to
 * move can force a win within `plies` plies (win_within), or cannot avoid losing within them
 * (lost_within): a win in n by the database holds win_within(n) and not win_within(n - 2). */
bool tb_win_within(const Board *b, int plies, int win_captures);
bool tb_lost_within(const Board *b, int plies, int win_captures);
