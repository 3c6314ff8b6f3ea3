// SPDX-License-Identifier: MIT
// The engine protocol (docs/engine.md): UCI's verbs with the project's position and move
// notation. One session reads command lines and answers on one stream; a search runs on its
// own thread so that `stop`, `isready` and `quit` are answered while it thinks.
#pragma once

#include "game.h"
#include "search.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct {
    FILE *out;
    pthread_mutex_t out_lock; /* the search thread and the reader both print */
    SearchConfig config;      /* options as set; limits come with each `go` */
    bool searcher_ready;      /* searcher matches config (setoption clears it) */
    Searcher searcher;
    Game game;                /* the position to search, with its history */
    pthread_t thread;
    bool searching;           /* a search thread was started and not joined */
    atomic_bool finished;     /* set by the search thread just before its bestmove */
    bool search_unlimited;    /* the running search ends only on stop */
    int64_t nodestime;        /* setoption nodestime: nodes per ms, the clock of wtime/btime and
                                 movetime counted in nodes (fishtest's; 0: wall time) */
} EngineSession;

bool protocol_init(EngineSession *session, FILE *out, Error *err);
void protocol_destroy(EngineSession *session);

/* Handles one line (without its newline). Returns false after `quit`. Malformed lines get an
 * `info string error: ...` answer and the session goes on. */
bool protocol_handle_line(EngineSession *session, const char *line);

/* Reads lines from in until `quit` (which stops a running search) or end of input (which lets
 * a search with a limit finish, and stops an unlimited one). */
void protocol_run(EngineSession *session, FILE *in);
