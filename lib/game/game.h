// SPDX-License-Identifier: MIT
// A game record: the start position, every move and position played, threefold repetition,
// and the result with its reason.
#pragma once

#include "board.h"

#define GAME_REPETITIONS_FOR_DRAW 3

typedef struct {
    Board *positions; /* positions[0] is the start; positions[i] follows moves[i - 1] */
    Move *moves;      /* moves[0 .. plies - 1] */
    int plies;        /* moves played */
    int capacity;     /* room in both arrays, grown by doubling */
    GameEnd end;      /* GAME_END_NONE while the game goes on */
    GameResult result;
} Game;

/* Starts a record at start (any well-formed position; it may already be over, in which case
 * game->end says so). Returns false (with err) if memory runs out. game_destroy frees it. */
bool game_init(Game *game, const Board *start, Error *err);
void game_destroy(Game *game);

/* The position to move in now. */
static inline const Board *game_current(const Game *game) {
    return &game->positions[game->plies];
}

/* Plays m after checking it is legal and the game is not over; updates end and result
 * (rules' ends and threefold repetition). Returns false with the reason otherwise. */
bool game_play(Game *game, Move m, Error *err);

/* Ends a running game by adjudication (for example GAME_END_MAX_MOVES). */
void game_adjudicate(Game *game, GameEnd end);

/* Ends a running game by an adjudication whose result the adjudicator decides (a tablebase's
 * value). */
void game_adjudicate_result(Game *game, GameEnd end, GameResult result);

/* Ends a running game by a forfeit (game_end_is_forfeit): the side to move loses. */
void game_forfeit(Game *game, GameEnd reason);

/* How many times the current position has occurred in the game, itself included. */
int game_occurrences(const Game *game);
