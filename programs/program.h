// SPDX-License-Identifier: MIT
// An engine program played through the engine protocol (docs/engine.md, UCI's verbs): the start
// handshake with its options, a new game, one move under the match's limits with the deadlines
// that make a fault a lost game, and `bench`. What a fault costs is the match's decision
// (match.c); this file only says what happened.
#pragma once

#include "engine_spec.h"
#include "game.h"
#include "program_process.h"
#include "program_reply.h"

#include <stdatomic.h>
#include <stdio.h>

typedef enum {
    PROGRAM_MOVED,      /* a legal move */
    PROGRAM_TIME_LOSS,  /* no move by the time left (or movetime) + timemargin */
    PROGRAM_DISCONNECT, /* it exited (or its output closed) */
    PROGRAM_STALL,      /* no move within the stall limit of a search without time limit */
    PROGRAM_ILLEGAL,    /* an unreadable or illegal move */
    PROGRAM_ABORTED,    /* the run is stopping */
} ProgramOutcome;

typedef struct EngineProgram {
    ProgramProcess process;
    const EngineSpec *spec;
    const atomic_bool *abort; /* the run's: raised, every wait ends within 100 ms */
    bool running;
} EngineProgram;

/* Starts the program and completes the handshake: uci → uciok, one setoption per option,
 * isready → readyok, each within the spec's startup time (writes included: a program that does
 * not read is refused like one that does not answer). Fails with what went wrong, naming the
 * engine and its program; "aborted" when abort was raised. */
bool program_start(EngineProgram *x, const EngineSpec *spec, const atomic_bool *abort,
                    Error *err);

/* ucinewgame, then isready → readyok within the startup time. */
bool program_new_game(EngineProgram *x, Error *err);

/* What a program's `go` says and how long abtest waits for its bestmove. */
typedef struct {
    bool clock;               /* wtime btime winc binc [movestogo], from abtest's clocks */
    int64_t time_ms[2];       /* by side (SIDE_SHEEP is wtime: the sheep move first) */
    int64_t increment_ms[2];
    int moves_to_go;          /* the mover's moves to the end of its period (0: none) */
    int64_t movetime;         /* go movetime (st=, or movetime=); 0: none */
    int64_t wait_ms;          /* from go to bestmove, then PROGRAM_TIME_LOSS (timed) or
                                 PROGRAM_STALL */
    bool timed;
} ProgramGo;

/* A move and what the program said of it. */
typedef struct {
    Move move;
    uint64_t nodes;    /* from the last info line that gives believable ones (engine_reply.h) */
    int depth;
    bool has_score;    /* score cp N or mate N from the last info line with one */
    bool score_is_mate;
    int score;
    int64_t elapsed_us; /* from writing go to reading bestmove, on abtest's monotonic clock */
} ProgramMove;

/* Asks for a move in the game's current position (`position fen START moves ...`, then `go`
 * with the spec's depth and nodes limits and go's time). On PROGRAM_MOVED, out is set;
 * otherwise detail says what happened. A program that stops reading its input is a stall
 * (PROGRAM_STALL). */
ProgramOutcome program_play(EngineProgram *x, const Game *game, const ProgramGo *go,
                              ProgramMove *out, char *detail, size_t size);

/* How long an engine that lost on time gets to send its late bestmove and a readyok. */
#define PROGRAM_RESYNC_MS 2000

/* After a time loss the engine may still be thinking: stop, wait for its bestmove and a
 * readyok. False when it does not come back (then restart it, saying why). */
bool program_resync(EngineProgram *x);

/* Stops the program and starts it again (after a disconnect or stall, with -recover). */
bool program_restart(EngineProgram *x, Error *err);

/* What a program's `bench` said. */
typedef struct ProgramBenchReply {
    uint64_t nodes;                                      /* Stockfish's "Nodes searched  : N" */
    char signature[PROGRAM_REPLY_SIGNATURE_LENGTH + 1];   /* tslab's "signature HEX"; "": none */
    /* Called with each per-position line (tslab's "info string bench position ..."), when set;
     * false stops the bench with err. */
    bool (*on_position)(void *context, const ProgramReply *reply, Error *err);
    void *context;
} ProgramBenchReply;

/* Sends "bench ARGUMENTS" (Stockfish's [ttSize threads limit fenFile limitType]; "" for the
 * program's default bench) and reads up to Stockfish's "Nodes searched  : N" line, within the
 * stall time. A count that is not plain digits up to PROGRAM_REPLY_NODES_MAX is refused, and so
 * is an "info string error" line on the way (at once, rather than after stall=). */
bool program_ask_bench(EngineProgram *x, const char *arguments, ProgramBenchReply *result, Error *err);

/* Before play, as fishtest's workers do: starts the program, asks for its default `bench` and
 * prints "engine NAME (CMD): bench N nodes; signature HEX" on out; with bench=N in the spec,
 * another count refuses the run (false, with both counts). */
bool program_check_bench(const EngineSpec *spec, FILE *out, const atomic_bool *abort,
                          ProgramBenchReply *result, Error *err);

/* quit, then kill if it lingers. */
void program_stop(EngineProgram *x);
