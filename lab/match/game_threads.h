// SPDX-License-Identifier: MIT
// Threads that play games: each owns a MatchWorker (one searcher per engine) and runs the
// caller's loop. Used by the runner (this machine's games) and by the other MPI ranks.
#pragma once

#include "match.h"

#include <pthread.h>
#include <stdatomic.h>

typedef struct {
    void *owner;           /* what the loop works for (a Runner, a rank) */
    void *(*loop)(void *); /* run on the thread with this GameThread */
    MatchWorker worker;
    pthread_t thread;
    bool started;
} GameThread;

/* Starts count threads running loop(&threads[i]) with searchers and programs for engines, each
 * thread stopping its own when its loop returns. abort is the flag game_threads_stop raises.
 * False (err says which) when memory, a searcher, a program or a thread cannot be had; the
 * threads already started keep running and game_threads_stop ends them. *threads is calloc'd
 * either way (free it). */
bool game_threads_start(GameThread **threads, int count, const EngineSpec *engines,
                        void *(*loop)(void *), void *owner, const atomic_bool *abort, Error *err);

/* After the owner has told its loops to stop (under its own lock): raises abort so running
 * games give up (a program's wait ends within 100 ms), stops the searches, and joins every
 * started thread, which has stopped its engines by then (programs get `quit`, then their
 * process group is killed after a second). */
void game_threads_stop(GameThread *threads, int count, atomic_bool *abort);
