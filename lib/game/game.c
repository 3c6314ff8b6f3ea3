// SPDX-License-Identifier: MIT
#include "game.h"

#include <assert.h>
#include <stdlib.h>

static void set_end(Game *game, GameEnd end) {
    game->end = end;
    game->result = game_end_result(end);
}

bool game_init(Game *game, const Board *start, Error *err) {
    *game = (Game){0};
    game->capacity = 64;
    game->positions = malloc(sizeof *game->positions * (size_t)(game->capacity + 1));
    game->moves = malloc(sizeof *game->moves * (size_t)game->capacity);
    if (!game->positions || !game->moves) {
        game_destroy(game);
        return error_set(err, "out of memory for the game record");
    }
    game->positions[0] = *start;
    set_end(game, board_game_end(start));
    return true;
}

void game_destroy(Game *game) {
    free(game->positions);
    free(game->moves);
    *game = (Game){0};
}

static bool grow(Game *game, Error *err) {
    int capacity = game->capacity * 2;
    Board *positions = realloc(game->positions, sizeof *positions * (size_t)(capacity + 1));
    if (!positions)
        return error_set(err, "out of memory for the game record");
    game->positions = positions;
    Move *moves = realloc(game->moves, sizeof *moves * (size_t)capacity);
    if (!moves)
        return error_set(err, "out of memory for the game record");
    game->moves = moves;
    game->capacity = capacity;
    return true;
}

int game_occurrences(const Game *game) {
    uint64_t key = board_key(game_current(game));
    int count = 0;
    for (int i = 0; i <= game->plies; i++)
        count += board_key(&game->positions[i]) == key;
    return count;
}

bool game_play(Game *game, Move m, Error *err) {
    if (game->end != GAME_END_NONE)
        return error_set(err, "the game is over (%s)", game_end_name(game->end));
    if (!board_check_move(game_current(game), m, err))
        return false;
    if (game->plies == game->capacity && !grow(game, err))
        return false;
    Board next = *game_current(game);
    board_make(&next, m);
    game->moves[game->plies++] = m;
    game->positions[game->plies] = next;
    GameEnd end = board_game_end(&next);
    if (end == GAME_END_NONE && game_occurrences(game) >= GAME_REPETITIONS_FOR_DRAW)
        end = GAME_END_REPETITION;
    set_end(game, end);
    return true;
}

void game_adjudicate(Game *game, GameEnd end) {
    if (game->end == GAME_END_NONE)
        set_end(game, end);
}

void game_adjudicate_result(Game *game, GameEnd end, GameResult result) {
    if (game->end != GAME_END_NONE)
        return;
    game->end = end;
    game->result = result;
}

void game_forfeit(Game *game, GameEnd reason) {
    assert(game_end_is_forfeit(reason));
    if (game->end != GAME_END_NONE)
        return;
    game->end = reason;
    game->result = game_current(game)->side == SIDE_TIGERS ? RESULT_SHEEP_WIN : RESULT_TIGERS_WIN;
}
