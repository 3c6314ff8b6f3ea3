// SPDX-License-Identifier: MIT
#include "match.h"

#include "cli.h"
#include "movegen.h"
#include "program.h"
#include "rng.h"
#include "saturate.h"
#include "tablebase.h"
#include "tb_shared.h"

#include <stdlib.h>
#include <string.h>

static void release_engine(MatchWorker *worker, int e) {
    if (worker->programs[e]) {
        program_stop(worker->programs[e]);
        free(worker->programs[e]);
        worker->programs[e] = NULL;
    } else {
        searcher_destroy(&worker->searchers[e]);
    }
}

static bool make_engine(MatchWorker *worker, int e, const atomic_bool *abort, Error *err) {
    const EngineSpec *spec = &worker->engines[e];
    if (engine_is_program(spec)) {
        worker->programs[e] = calloc(1, sizeof *worker->programs[e]);
        if (!worker->programs[e])
            return error_set(err, "out of memory for an engine");
        if (program_start(worker->programs[e], spec, abort, err))
            return true;
        free(worker->programs[e]);
        worker->programs[e] = NULL;
        return false;
    }
    Error inner;
    SearchConfig config = spec->config;
    if (engine_has_clock(spec) && !config.depth && !config.nodes)
        config.depth = SEARCH_MAX_DEPTH; /* the clock is the limit */
    return cli_searcher_init(&worker->searchers[e], &config, &inner) ||
           error_set(err, "engine %s: %s", spec->name, inner.text);
}

bool match_worker_init(MatchWorker *worker, const EngineSpec *engines, int count,
                       const atomic_bool *abort, Error *err) {
    memset(worker, 0, sizeof *worker);
    worker->engines = engines;
    worker->searchers = calloc((size_t)count, sizeof *worker->searchers);
    worker->programs = calloc((size_t)count, sizeof *worker->programs);
    if (!worker->searchers || !worker->programs) {
        free(worker->searchers);
        free(worker->programs);
        return error_set(err, "out of memory for %d engines", count);
    }
    for (int e = 0; e < count; e++) {
        if (!make_engine(worker, e, abort, err)) {
            match_worker_destroy(worker);
            return false;
        }
        worker->count = e + 1;
    }
    return true;
}

void match_worker_destroy(MatchWorker *worker) {
    for (int e = 0; e < worker->count; e++)
        release_engine(worker, e);
    free(worker->searchers);
    free(worker->programs);
    memset(worker, 0, sizeof *worker);
}

void match_worker_stop(MatchWorker *worker) {
    /* An engine program's move ends by its limit or the abort flag, which its waits check. The
     * kind comes from the specs, not from programs[], which the worker's own thread clears
     * when it destroys the worker (pair_pool.c), perhaps at this moment. */
    for (int e = 0; e < worker->count; e++)
        if (!engine_is_program(&worker->engines[e]))
            search_stop(&worker->searchers[e]);
}

/* The two engines of one pair, 0 the pairing's first: the worker's seats that play it. */
typedef struct {
    const EngineSpec *spec[MATCH_ENGINES];
    Searcher *searcher[MATCH_ENGINES];
    struct EngineProgram *program[MATCH_ENGINES];
} PairSeats;

static PairSeats pair_seats(MatchWorker *worker, Pairing pairing) {
    PairSeats seats;
    int seat[MATCH_ENGINES] = {pairing.first, pairing.second};
    for (int e = 0; e < MATCH_ENGINES; e++) {
        seats.spec[e] = &worker->engines[seat[e]];
        seats.searcher[e] = &worker->searchers[seat[e]];
        seats.program[e] = worker->programs[seat[e]];
    }
    return seats;
}

Board match_opening_position(const Board *opening, int random_plies, uint64_t seed, int64_t round) {
    Rng rng = rng_for_index(seed, round); /* a stream per round */
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

/* One move of a game: the move with its search's nodes, depth and score, what its clock is
 * charged, or a forfeit. */
typedef struct {
    Move move;
    uint64_t nodes;
    int depth;
    MoveNote note;   /* score and depth; time set by charge_clock */
    int64_t wall_us; /* measured around the move on the monotonic clock */
    GameEnd forfeit; /* GAME_END_NONE, or why the engine lost the game instead */
} MoveOutcome;

/* The clocks of a game, one per engine (used for engines with tc= or st= only). */
typedef struct {
    Clock clock[MATCH_ENGINES];
} GameClocks;

/* The note of an in-process search: the score from the mover's side, a forced win as moves. */
static MoveNote search_note(const SearchResult *r, const Board *b) {
    MoveNote note = {.flags = MOVE_NOTE_SCORE, .depth = (uint8_t)r->depth};
    bool tigers = b->side == SIDE_TIGERS;
    note.score = tigers ? r->score : -r->score;
    if (r->win != RESULT_NONE) {
        bool mover_wins = (r->win == RESULT_TIGERS_WIN) == tigers;
        int moves = (r->win_in + 1) / 2;
        note.flags |= MOVE_NOTE_MATE;
        note.score = mover_wins ? moves : -moves;
    }
    return note;
}

static bool internal_move(const PairSeats *seats, const Game *game, int engine,
                          const GameClocks *clocks, const atomic_bool *abort, MoveOutcome *out,
                          Error *err) {
    const EngineSpec *spec = seats->spec[engine];
    Searcher *searcher = seats->searcher[engine];
    const TimeControl *tc = &spec->timing.tc;
    SearchClock clock = {false, 0, 0, 0, spec->timing.nodestime};
    if (engine_has_clock(spec) && !tc->fixed_ms) {
        const Clock *c = &clocks->clock[engine];
        clock = (SearchClock){true, c->left_us / 1000, tc->increment_ms, c->moves_left,
                              spec->timing.nodestime};
    } else if (tc->fixed_ms) { /* st=: the search's movetime, as fastchess sends it */
        search_set_limits(searcher, searcher->config.depth, searcher->config.nodes,
                          tc->fixed_ms);
    }
    search_set_clock(searcher, &clock);
    int64_t started = cli_now_us();
    SearchResult r = search_run(searcher, game_current(game), game->positions, game->plies);
    int64_t wall_us = cli_now_us() - started;
    if (r.failed)
        return error_set(err, "out of memory in a search of engine %d", engine + 1);
    if (atomic_load_explicit(abort, memory_order_relaxed))
        return error_set(err, "aborted");
    *out = (MoveOutcome){r.move, r.stats.nodes, r.depth, search_note(&r, game_current(game)),
                         wall_us, GAME_END_NONE};
    return true;
}

/* What a program's go says: its clocks (wtime is the sheep's; an opponent without a clock shows
 * the mover's), or st='s and movetime='s fixed time, and how long to wait for the move. */
static ProgramGo program_go(const PairSeats *seats, const Game *game, int engine,
                            const GameClocks *clocks) {
    const EngineSpec *spec = seats->spec[engine];
    const TimeControl *tc = &spec->timing.tc;
    ProgramGo go = {0};
    go.movetime = tc->fixed_ms ? tc->fixed_ms : spec->config.movetime;
    int mover_side = game_current(game)->side;
    if (engine_has_clock(spec) && !tc->fixed_ms) {
        go.clock = true;
        for (int side = 0; side < 2; side++) {
            int e = side == mover_side ? engine : 1 - engine;
            if (!engine_has_clock(seats->spec[e]) || seats->spec[e]->timing.tc.fixed_ms)
                e = engine;
            go.time_ms[side] = clocks->clock[e].left_us / 1000;
            go.increment_ms[side] = seats->spec[e]->timing.tc.increment_ms;
        }
        go.moves_to_go = clocks->clock[engine].moves_left;
    }
    /* Under nodestime the wall clock decides nothing: only a stall ends the wait. */
    int64_t left_ms = go.clock ? clocks->clock[engine].left_us / 1000 : go.movetime;
    go.timed = (go.clock || go.movetime) && !spec->timing.nodestime;
    go.wait_ms = go.timed ? left_ms + spec->timing.timemargin : spec->program.stall;
    return go;
}

/* An engine program's move. A time loss or an illegal move loses the game (said on stderr);
 * an exit or a stall loses it and restarts the engine with -recover, and fails the pair without
 * (the run stops, its results saved). */
static bool program_move(const PairSeats *seats, const PairSetup *setup, const Game *game,
                         int engine, const GameClocks *clocks, MoveOutcome *out, Error *err) {
    EngineProgram *x = seats->program[engine];
    const char *name = seats->spec[engine]->name;
    char detail[256], position[BOARD_TEXT_MAX];
    memset(out, 0, sizeof *out);
    ProgramGo go = program_go(seats, game, engine, clocks);
    ProgramMove played;
    ProgramOutcome outcome = program_play(x, game, &go, &played, detail, sizeof detail);
    board_to_text(game_current(game), position);
    switch (outcome) {
    case PROGRAM_MOVED:
        out->move = played.move;
        out->nodes = played.nodes;
        out->depth = played.depth;
        out->wall_us = played.elapsed_us;
        out->note.depth = (uint8_t)(played.depth < 255 ? played.depth : 255);
        if (played.has_score) {
            out->note.score = played.score;
            out->note.flags = MOVE_NOTE_SCORE | (played.score_is_mate ? MOVE_NOTE_MATE : 0);
        }
        return true;
    case PROGRAM_ABORTED:
        return error_set(err, "aborted");
    case PROGRAM_ILLEGAL:
        cli_error("warning: engine %s loses a game by an illegal move in %s (ply %d): %s", name,
                  position, game->plies + 1, detail);
        out->forfeit = GAME_END_ILLEGAL_MOVE;
        return true;
    case PROGRAM_TIME_LOSS:
        cli_error("warning: engine %s loses a game on time in %s (ply %d): %s", name, position,
                  game->plies + 1, detail);
        out->forfeit = GAME_END_TIME_FORFEIT;
        if (program_resync(x))
            return true;
        cli_error("warning: engine %s gave no bestmove and readyok within %d ms of 'stop' after "
                  "its time loss; restarting it", name, PROGRAM_RESYNC_MS);
        return program_restart(x, err);
    case PROGRAM_DISCONNECT:
    case PROGRAM_STALL:
        break;
    }
    const char *what = outcome == PROGRAM_STALL ? "stopped answering" : "disconnected";
    if (!setup->recover)
        return error_set(err, "engine %s %s in %s (ply %d): %s; the run stops here (give "
                              "-recover to count the game as lost and restart the engine)",
                         name, what, position, game->plies + 1, detail);
    cli_error("warning: engine %s %s in %s (ply %d): %s; the game is lost, the engine restarted "
              "(-recover)", name, what, position, game->plies + 1, detail);
    out->forfeit = outcome == PROGRAM_STALL ? GAME_END_STALL : GAME_END_DISCONNECT;
    return program_restart(x, err);
}

/* Charges a clocked engine's move to its clock: its wall time, or its nodes under nodestime.
 * A move past the time left plus timemargin loses the game on time (said on stderr). */
static void charge_clock(const EngineSpec *spec, GameClocks *clocks, int engine,
                         const Game *game, MoveOutcome *move, EngineMoveStats *counts) {
    if (!engine_has_clock(spec))
        return;
    const EngineTiming *t = &spec->timing;
    int64_t charge_us = t->nodestime ? saturate_mul_div((int64_t)(move->nodes & INT64_MAX), 1000,
                                                        t->nodestime)
                                     : move->wall_us;
    Clock *clock = &clocks->clock[engine];
    int64_t left_us = clock->left_us;
    move->note.flags |= MOVE_NOTE_TIMED;
    move->note.time_us = charge_us;
    counts->time_us = match_count_add(counts->time_us, (uint64_t)charge_us);
    if (clock_after_move(clock, &t->tc, charge_us, t->timemargin))
        return;
    char position[BOARD_TEXT_MAX];
    cli_error("warning: engine %s loses a game on time in %s (ply %d): its move took %.3f s "
              "with %.3f s on its clock (timemargin %lld ms)%s",
              spec->name, board_to_text(game_current(game), position), game->plies + 1,
              (double)charge_us / 1e6, (double)left_us / 1e6, (long long)t->timemargin,
              t->nodestime ? " counted in nodes (nodestime)" : "");
    move->forfeit = GAME_END_TIME_FORFEIT;
}

/* Every engine program starts a new game (ucinewgame, isready); one that does not answer is
 * restarted with -recover. */
static bool new_game(const PairSeats *seats, const PairSetup *setup, const atomic_bool *abort,
                     Error *err) {
    for (int e = 0; e < MATCH_ENGINES; e++) {
        EngineProgram *x = seats->program[e];
        if (!x || program_new_game(x, err))
            continue;
        if (!setup->recover || atomic_load_explicit(abort, memory_order_relaxed))
            return false;
        cli_error("warning: %s; restarting it (-recover)", err->text);
        if (!program_restart(x, err))
            return false;
    }
    return true;
}

/* Appends a ply's note (notes grow with the game). */
static bool push_note(MoveNote **notes, int *capacity, int plies, MoveNote note) {
    if (plies >= *capacity) {
        int more = *capacity ? 2 * *capacity : 128;
        MoveNote *grown = realloc(*notes, sizeof *grown * (size_t)more);
        if (!grown)
            return false;
        *notes = grown;
        *capacity = more;
    }
    (*notes)[plies] = note;
    return true;
}

/* One game from start; tigers_engine plays the tigers. */
static bool play_game(const PairSeats *seats, const PairSetup *setup, const Board *start,
                      int tigers_engine, const atomic_bool *abort, GameRecord *out, Error *err) {
    memset(out, 0, sizeof *out);
    out->start = *start;
    out->tigers_engine = tigers_engine;
    Game game;
    if (!new_game(seats, setup, abort, err) || !game_init(&game, start, err))
        return false;
    GameClocks clocks;
    for (int e = 0; e < MATCH_ENGINES; e++)
        clocks.clock[e] = clock_start(&seats->spec[e]->timing.tc);
    MoveNote *notes = NULL;
    int note_capacity = 0;
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
        if (seats->program[engine])
            ok = program_move(seats, setup, &game, engine, &clocks, &move, err);
        else
            ok = internal_move(seats, &game, engine, &clocks, abort, &move, err);
        if (!ok)
            break;
        EngineMoveStats *counts = &out->engine[engine];
        if (move.forfeit == GAME_END_NONE)
            charge_clock(seats->spec[engine], &clocks, engine, &game, &move, counts);
        if (move.forfeit != GAME_END_NONE) {
            game_forfeit(&game, move.forfeit);
            break;
        }
        counts->moves++;
        counts->nodes = match_count_add(counts->nodes, move.nodes);
        counts->depth_sum = match_count_add(counts->depth_sum, (uint64_t)move.depth);
        if (!push_note(&notes, &note_capacity, game.plies, move.note)) {
            ok = error_set(err, "out of memory for a game record");
            break;
        }
        Error refused;
        if (!game_play(&game, move.move, &refused)) {
            /* A program's moves are checked as they arrive (an illegal one loses the game), so
             * this is an in-process search's move: a fault of the engine, not of its opponent. */
            char position[BOARD_TEXT_MAX];
            ok = error_set(err, "engine %s (in-process) played a move the rules refuse in %s "
                                "(ply %d): %s",
                           seats->spec[engine]->name, board_to_text(now, position),
                           game.plies + 1, refused.text);
            break;
        }
    }
    for (int e = 0; e < MATCH_ENGINES; e++)
        if (engine_has_clock(seats->spec[e]))
            out->engine[e].given_us = (uint64_t)clocks.clock[e].given_us;
    if (ok) {
        out->end = game.end;
        out->result = game.result;
        out->plies = game.plies;
        size_t count = (size_t)(game.plies > 0 ? game.plies : 1);
        out->moves = malloc(sizeof *out->moves * count);
        out->notes = calloc(count, sizeof *out->notes);
        if (!out->moves || !out->notes) {
            ok = error_set(err, "out of memory for a game record");
        } else {
            memcpy(out->moves, game.moves, sizeof *out->moves * (size_t)game.plies);
            if (game.plies)
                memcpy(out->notes, notes, sizeof *out->notes * (size_t)game.plies);
        }
    }
    free(notes);
    game_destroy(&game);
    return ok;
}

int64_t match_pair_round(const PairSetup *setup, int64_t index) {
    return tournament_round_of(&setup->segment, index);
}

bool match_play_pair(MatchWorker *worker, const PairSetup *setup, int64_t index,
                     const BookEntry *opening, int opening_index, const atomic_bool *abort,
                     PairRecord *out, Error *err) {
    memset(out, 0, sizeof *out);
    out->index = index;
    out->pairing = tournament_pairing_of(&setup->segment, index);
    out->opening = opening_index;
    PairSeats seats = pair_seats(worker, setup->pairings.pairings[out->pairing]);
    Board start = match_opening_position(&opening->board, setup->random_plies, setup->seed,
                                         match_pair_round(setup, index));
    for (int g = 0; g < 2; g++) /* game 1: the first engine (0) as tigers; game 2: the second */
        if (!play_game(&seats, setup, &start, g, abort, &out->games[g], err)) {
            match_pair_destroy(out);
            return false;
        }
    return true;
}

void match_pair_destroy(PairRecord *pair) {
    for (int g = 0; g < 2; g++) {
        free(pair->games[g].moves);
        free(pair->games[g].notes);
        pair->games[g].moves = NULL;
        pair->games[g].notes = NULL;
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
