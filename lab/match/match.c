// SPDX-License-Identifier: MIT
#include "match.h"

#include "cli.h"
#include "external.h"
#include "movegen.h"
#include "rng.h"
#include "tablebase.h"
#include "tb_shared.h"

#include <stdlib.h>
#include <string.h>

bool match_worker_init(MatchWorker *worker, const EngineSpec *engines, const atomic_bool *abort,
                       Error *err) {
    memset(worker, 0, sizeof *worker);
    worker->engines = engines;
    for (int e = 0; e < MATCH_ENGINES; e++) {
        bool ok;
        if (engine_is_external(&engines[e])) {
            worker->externals[e] = calloc(1, sizeof *worker->externals[e]);
            ok = worker->externals[e]
                     ? external_start(worker->externals[e], &engines[e], abort, err)
                     : error_set(err, "out of memory for an engine");
            if (!ok) {
                free(worker->externals[e]);
                worker->externals[e] = NULL;
            }
        } else {
            Error inner;
            ok = cli_searcher_init(&worker->searchers[e], &engines[e].config, &inner) ||
                 error_set(err, "engine %s: %s", engines[e].name, inner.text);
        }
        if (!ok) {
            for (int k = 0; k < e; k++)
                if (worker->externals[k]) {
                    external_stop(worker->externals[k]);
                    free(worker->externals[k]);
                } else {
                    searcher_destroy(&worker->searchers[k]);
                }
            return false;
        }
    }
    return true;
}

void match_worker_destroy(MatchWorker *worker) {
    for (int e = 0; e < MATCH_ENGINES; e++)
        if (worker->externals[e]) {
            external_stop(worker->externals[e]);
            free(worker->externals[e]);
            worker->externals[e] = NULL;
        } else {
            searcher_destroy(&worker->searchers[e]);
        }
}

void match_worker_stop(MatchWorker *worker) {
    /* An external engine's move ends by its limit or the abort flag, which its waits check. The
     * kind comes from the specs, not from externals[], which the worker's own thread clears
     * when it destroys the worker (game_threads.c), perhaps at this moment. */
    for (int e = 0; e < MATCH_ENGINES; e++)
        if (!engine_is_external(&worker->engines[e]))
            search_stop(&worker->searchers[e]);
}

Board match_opening_position(const Board *opening, int random_plies, uint64_t seed, int64_t index) {
    Rng rng = rng_for_index(seed, index); /* a stream per pair */
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

/* One move of a game: the move with its search's nodes and depth, or a forfeit. */
typedef struct {
    Move move;
    uint64_t nodes;
    int depth;
    GameEnd forfeit; /* GAME_END_NONE, or why the engine lost the game instead */
} MoveOutcome;

static bool internal_move(MatchWorker *worker, const Game *game, int engine,
                          const atomic_bool *abort, MoveOutcome *out, Error *err) {
    SearchResult r = search_run(&worker->searchers[engine], game_current(game), game->positions,
                                game->plies);
    if (r.failed)
        return error_set(err, "out of memory in a search of engine %d", engine + 1);
    if (atomic_load_explicit(abort, memory_order_relaxed))
        return error_set(err, "aborted");
    *out = (MoveOutcome){r.move, r.stats.nodes, r.depth, GAME_END_NONE};
    return true;
}

/* An external engine's move. A time loss or an illegal move loses the game (said on stderr);
 * an exit or a stall loses it and restarts the engine with -recover, and fails the pair without
 * (the run stops, its results saved). */
static bool external_move(MatchWorker *worker, const PairSetup *setup, const Game *game,
                          int engine, MoveOutcome *out, Error *err) {
    ExternalEngine *x = worker->externals[engine];
    const char *name = worker->engines[engine].name;
    char detail[256], position[BOARD_TEXT_MAX];
    memset(out, 0, sizeof *out);
    ExternalOutcome outcome =
        external_play(x, game, &out->move, &out->nodes, &out->depth, detail, sizeof detail);
    board_to_text(game_current(game), position);
    switch (outcome) {
    case EXTERNAL_MOVED:
        return true;
    case EXTERNAL_ABORTED:
        return error_set(err, "aborted");
    case EXTERNAL_ILLEGAL:
        cli_error("warning: engine %s loses a game by an illegal move in %s (ply %d): %s", name,
                  position, game->plies + 1, detail);
        out->forfeit = GAME_END_ILLEGAL_MOVE;
        return true;
    case EXTERNAL_TIME_LOSS:
        cli_error("warning: engine %s loses a game on time in %s (ply %d): %s", name, position,
                  game->plies + 1, detail);
        out->forfeit = GAME_END_TIME_FORFEIT;
        if (!external_resync(x) && !external_restart(x, err))
            return false;
        return true;
    case EXTERNAL_DISCONNECT:
    case EXTERNAL_STALL:
        break;
    }
    const char *what = outcome == EXTERNAL_STALL ? "stopped answering" : "disconnected";
    if (!setup->recover)
        return error_set(err, "engine %s %s in %s (ply %d): %s; the run stops here (give "
                              "-recover to count the game as lost and restart the engine)",
                         name, what, position, game->plies + 1, detail);
    cli_error("warning: engine %s %s in %s (ply %d): %s; the game is lost, the engine restarted "
              "(-recover)", name, what, position, game->plies + 1, detail);
    out->forfeit = outcome == EXTERNAL_STALL ? GAME_END_STALL : GAME_END_DISCONNECT;
    return external_restart(x, err);
}

/* Every external engine starts a new game (ucinewgame, isready); one that does not answer is
 * restarted with -recover. */
static bool new_game(MatchWorker *worker, const PairSetup *setup, const atomic_bool *abort,
                     Error *err) {
    for (int e = 0; e < MATCH_ENGINES; e++) {
        ExternalEngine *x = worker->externals[e];
        if (!x || external_new_game(x, err))
            continue;
        if (!setup->recover || atomic_load_explicit(abort, memory_order_relaxed))
            return false;
        cli_error("warning: %s; restarting it (-recover)", err->text);
        if (!external_restart(x, err))
            return false;
    }
    return true;
}

/* One game from start; tigers_engine plays the tigers. */
static bool play_game(MatchWorker *worker, const PairSetup *setup, const Board *start,
                      int tigers_engine, const atomic_bool *abort, GameRecord *out, Error *err) {
    memset(out, 0, sizeof *out);
    out->start = *start;
    out->tigers_engine = tigers_engine;
    Game game;
    if (!new_game(worker, setup, abort, err) || !game_init(&game, start, err))
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
        TbValue value;
        if (setup->tablebase && tb_probe(setup->tablebase, now, &value)) {
            /* The sliding phase has begun: the tablebase knows the result of perfect play. */
            bool tigers_move = now->side == SIDE_TIGERS;
            GameResult result = value.outcome == TB_DRAW                   ? RESULT_DRAW
                                : (value.outcome == TB_WIN) == tigers_move ? RESULT_TIGERS_WIN
                                                                           : RESULT_SHEEP_WIN;
            game_adjudicate_result(&game, GAME_END_TABLEBASE, result);
            break;
        }
        int engine = now->side == SIDE_TIGERS ? tigers_engine : 1 - tigers_engine;
        MoveOutcome move;
        if (worker->externals[engine])
            ok = external_move(worker, setup, &game, engine, &move, err);
        else
            ok = internal_move(worker, &game, engine, abort, &move, err);
        if (!ok)
            break;
        if (move.forfeit != GAME_END_NONE) {
            game_forfeit(&game, move.forfeit);
            break;
        }
        EngineMoveStats *counts = &out->engine[engine];
        counts->moves++;
        counts->nodes = match_count_add(counts->nodes, move.nodes);
        counts->depth_sum = match_count_add(counts->depth_sum, (uint64_t)move.depth);
        Error refused;
        if (!game_play(&game, move.move, &refused)) {
            /* A program's moves are checked as they arrive (an illegal one loses the game), so
             * this is an in-process search's move: a fault of the engine, not of its opponent. */
            char position[BOARD_TEXT_MAX];
            ok = error_set(err, "engine %s (in-process) played a move the rules refuse in %s "
                                "(ply %d): %s",
                           worker->engines[engine].name, board_to_text(now, position),
                           game.plies + 1, refused.text);
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
            match_pair_destroy(out);
            return false;
        }
    return true;
}

void match_pair_destroy(PairRecord *pair) {
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
