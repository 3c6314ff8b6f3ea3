// SPDX-License-Identifier: MIT
// Blunders in a match's games (abtest -blunders): every move of a finished pair judged against
// perfect play where the game is solved, after the pair is played, so the games are the same
// with or without it. Counted per engine and phase, and per game as a histogram.
#pragma once

#include "match.h"

#define BLUNDER_GAME_BINS 4 /* an engine's games with 0, 1, 2, 3 or more blunders */

/* The results file's keys of the verdicts (NULL: unjudged, not counted), and of the phases. */
extern const char *const GAME_PHASE_KEYS[GAME_PHASES];
extern const char *const BLUNDER_GAME_KEYS[BLUNDER_GAME_BINS]; /* "0", "1", "2", "3+" */

typedef struct {
    BlunderCounts phase[MATCH_ENGINES][GAME_PHASES];
    /* Games in which the engine had a move judged, by its number of blunders in them. */
    uint64_t games[MATCH_ENGINES][BLUNDER_GAME_BINS];
} BlunderTotals;

/* Judges every move of both games: each move's verdict into its note, each engine's counts per
 * phase into the game's record. */
void blunders_judge_pair(const TbJudge *judge, PairRecord *pair);

/* Moves judged, and of them the blunders (the three kinds). */
uint64_t blunders_judged(const BlunderCounts *counts);
uint64_t blunders_lost(const BlunderCounts *counts);

/* An engine's counts in a game, over both phases. */
BlunderCounts blunders_in_game(const GameRecord *game, int engine);

/* Adds a judged game's counts. */
void blunder_totals_add_game(BlunderTotals *totals, const GameRecord *game);
