// SPDX-License-Identifier: MIT
#include "match.h"

#include "movegen.h"
#include "rng.h"

#include <stdlib.h>
#include <string.h>

bool match_worker_init(MatchWorker *worker, const EngineSpec *engines, Error *err) {
    memset(worker, 0, sizeof *worker);
    for (int e = 0; e < MATCH_ENGINES; e++)
        if (!searcher_init(&worker->searchers[e], &engines[e].config, err)) {
            for (int k = 0; k < e; k++)
                searcher_destroy(&worker->searchers[k]);
            return false;
        }
    return true;
}

void match_worker_destroy(MatchWorker *worker) {
    for (int e = 0; e < MATCH_ENGINES; e++)
        searcher_destroy(&worker->searchers[e]);
}

void match_worker_stop(MatchWorker *worker) {
    for (int e = 0; e < MATCH_ENGINES; e++)
        search_stop(&worker->searchers[e]);
}

Board match_opening_position(const Board *opening, int random_plies, uint64_t seed, int64_t index) {
    /* A stream per pair: mixing the index through one splitmix step keeps nearby pairs apart. */
    Rng mix = rng_new(seed ^ ((uint64_t)index * 0x9e3779b97f4a7c15ull));
    Rng rng = rng_new(rng_next(&mix));
    Board b = *opening;
    for (int ply = 0; ply < random_plies; ply++) {
        MoveList list, playable;
        movegen_all(&b, &list);
        playable.count = 0;
        for (int i = 0; i < list.count; i++) { /* never end the game inside the opening */
            Board child = b;
            board_make(&child, list.moves[i]);
            if (board_game_end(&child) == GAME_END_NONE)
                playable.moves[playable.count++] = list.moves[i];
        }
        if (playable.count == 0)
            break;
        board_make(&b, playable.moves[rng_below(&rng, (uint64_t)playable.count)]);
    }
    return b;
}

/* One game from start; tigers_engine plays the tigers. */
static bool play_game(MatchWorker *worker, const PairSetup *setup, const Board *start,
                      int tigers_engine, const atomic_bool *abort, GameRecord *out, Error *err) {
    memset(out, 0, sizeof *out);
    out->start = *start;
    out->tigers_engine = tigers_engine;
    Game game;
    if (!game_init(&game, start, err))
        return false;
    bool ok = true;
    while (game.end == GAME_END_NONE) {
        if (game.plies >= setup->max_plies) {
            game_adjudicate(&game, GAME_END_MAX_MOVES);
            break;
        }
        if (atomic_load_explicit(abort, memory_order_relaxed)) {
            ok = error_set(err, "aborted");
            break;
        }
        const Board *now = game_current(&game);
        int engine = now->side == SIDE_TIGERS ? tigers_engine : 1 - tigers_engine;
        SearchResult r = search_run(&worker->searchers[engine], now, game.positions, game.plies);
        if (r.failed) {
            ok = error_set(err, "out of memory in a search of engine %d", engine + 1);
            break;
        }
        if (atomic_load_explicit(abort, memory_order_relaxed)) {
            ok = error_set(err, "aborted");
            break;
        }
        out->engine[engine].moves++;
        out->engine[engine].nodes += r.stats.nodes;
        out->engine[engine].depth_sum += (uint64_t)r.depth;
        if (!game_play(&game, r.move, err)) {
            ok = false;
            break;
        }
    }
    if (ok) {
        out->end = game.end;
        out->result = game.result;
        out->plies = game.plies;
        out->moves = malloc(sizeof *out->moves * (size_t)(game.plies > 0 ? game.plies : 1));
        if (!out->moves)
            ok = error_set(err, "out of memory for a game record");
        else
            memcpy(out->moves, game.moves, sizeof *out->moves * (size_t)game.plies);
    }
    game_destroy(&game);
    return ok;
}

bool match_play_pair(MatchWorker *worker, const PairSetup *setup, int64_t index,
                     const BookEntry *opening, int opening_index, const atomic_bool *abort,
                     PairRecord *out, Error *err) {
    memset(out, 0, sizeof *out);
    out->index = index;
    out->opening = opening_index;
    Board start = match_opening_position(&opening->board, setup->random_plies, setup->seed, index);
    for (int g = 0; g < 2; g++) /* game 1: the first engine (0) as tigers; game 2: the second */
        if (!play_game(worker, setup, &start, g, abort, &out->games[g], err)) {
            match_pair_free(out);
            return false;
        }
    return true;
}

void match_pair_free(PairRecord *pair) {
    for (int g = 0; g < 2; g++) {
        free(pair->games[g].moves);
        pair->games[g].moves = NULL;
    }
}

double match_first_score(const GameRecord *game) {
    if (game->result == RESULT_DRAW)
        return 0.5;
    bool tigers_won = game->result == RESULT_TIGERS_WIN;
    bool first_is_tigers = game->tigers_engine == 0;
    return tigers_won == first_is_tigers ? 1.0 : 0.0;
}

int match_pair_half_points(const PairRecord *pair) {
    return (int)(2 * (match_first_score(&pair->games[0]) + match_first_score(&pair->games[1])));
}
