// SPDX-License-Identifier: MIT
// An engine program played through the engine protocol (docs/engine.md, UCI's verbs): the start
// handshake with its options, a new game, one move under the match's limits with the deadlines
// that make a fault a lost game, and `bench`. What a fault costs is the match's decision
// (match.c); this file only says what happened.
#pragma once

#include "engine_process.h"
#include "game.h"
#include "engine_spec.h"

#include <stdatomic.h>
#include <stdio.h>

typedef enum {
    EXTERNAL_MOVED,      /* a legal move */
    EXTERNAL_TIME_LOSS,  /* no move by movetime + timemargin */
    EXTERNAL_DISCONNECT, /* it exited (or its output closed) */
    EXTERNAL_STALL,      /* no move within the stall limit of a search without time limit */
    EXTERNAL_ILLEGAL,    /* an unreadable or illegal move */
    EXTERNAL_ABORTED,    /* the run is stopping */
} ExternalOutcome;

typedef struct ExternalEngine {
    EngineProcess process;
    const EngineSpec *spec;
    const atomic_bool *abort; /* the run's: raised, every wait ends within 100 ms */
    bool running;
} ExternalEngine;

/* Starts the program and completes the handshake: uci → uciok, one setoption per option,
 * isready → readyok, each within the spec's startup time (writes included: a program that does
 * not read is refused like one that does not answer). Fails with what went wrong, naming the
 * engine and its program; "aborted" when abort was raised. */
bool external_start(ExternalEngine *x, const EngineSpec *spec, const atomic_bool *abort,
                    Error *err);

/* ucinewgame, then isready → readyok within the startup time. */
bool external_new_game(ExternalEngine *x, Error *err);

/* Asks for a move in the game's current position (`position fen START moves ...`, then `go`
 * with the spec's limits). On EXTERNAL_MOVED, *move, *nodes and *depth are set (nodes and depth
 * from the last info line that gives believable ones: engine_reply.h); otherwise detail says
 * what happened. A program that stops reading its input is a stall (EXTERNAL_STALL). */
ExternalOutcome external_play(ExternalEngine *x, const Game *game, Move *move, uint64_t *nodes,
                              int *depth, char *detail, size_t size);

/* After a time loss the engine may still be thinking: stop, wait for its bestmove and a
 * readyok. False when it does not come back (then restart it). */
bool external_resync(ExternalEngine *x);

/* Stops the program and starts it again (after a disconnect or stall, with -recover). */
bool external_restart(ExternalEngine *x, Error *err);

/* Runs `bench` and reads Stockfish's "Nodes searched  : N" line (within the stall time); a
 * count that is not plain digits up to ENGINE_REPLY_NODES_MAX is refused. */
bool external_bench(ExternalEngine *x, uint64_t *nodes, Error *err);

/* Before play, as fishtest's workers do: starts the program, asks for `bench` and prints
 * "engine NAME (CMD): bench N nodes" on out, with the count in *nodes; with bench=N in the
 * spec, another count refuses the run (false, with both counts). */
bool external_check_bench(const EngineSpec *spec, FILE *out, const atomic_bool *abort,
                          uint64_t *nodes, Error *err);

/* quit, then kill if it lingers. */
void external_stop(ExternalEngine *x);
