// SPDX-License-Identifier: MIT
#include "game_threads.h"

#include <stdlib.h>

/* The owner's loop, then the worker's engines stopped on this same thread: a run that stops
 * waits for its programs' `quit` (or their kill after the grace) once, all threads at a time,
 * not once per thread. */
static void *thread_main(void *arg) {
    GameThread *t = arg;
    t->loop(t);
    match_worker_destroy(&t->worker);
    return NULL;
}

bool game_threads_start(GameThread **threads, int count, const EngineSpec *engines,
                        void *(*loop)(void *), void *owner, const atomic_bool *abort, Error *err) {
    *threads = calloc((size_t)count, sizeof **threads);
    if (!*threads)
        return error_set(err, "out of memory for %d game threads", count);
    for (int i = 0; i < count; i++) {
        GameThread *t = &(*threads)[i];
        t->owner = owner;
        t->loop = loop;
        if (!match_worker_init(&t->worker, engines, abort, err))
            return false;
        if (pthread_create(&t->thread, NULL, thread_main, t) != 0) {
            match_worker_destroy(&t->worker);
            return error_set(err, "cannot start game thread %d", i + 1);
        }
        t->started = true;
    }
    return true;
}

void game_threads_stop(GameThread *threads, int count, atomic_bool *abort) {
    atomic_store(abort, true);
    for (int i = 0; threads && i < count; i++)
        if (threads[i].started)
            match_worker_stop(&threads[i].worker);
    for (int i = 0; threads && i < count; i++)
        if (threads[i].started) {
            pthread_join(threads[i].thread, NULL);
            threads[i].started = false;
        }
}
