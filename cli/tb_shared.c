// SPDX-License-Identifier: MIT
#include "tb_shared.h"

#include "paths.h"

#include <pthread.h>
#include <stdio.h>

/* Process-wide, outside lib/: opened once, never closed (read into memory, kept until exit). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Tablebase *shared;
static bool tried;
static Error failure;

const Tablebase *cli_tablebase(Error *err) {
    pthread_mutex_lock(&lock);
    if (!tried) {
        tried = true;
        char path[PATHS_MAX];
        if (paths_tablebase(NULL, path, sizeof path, &failure))
            shared = tb_new(path, CAPTURES_TO_WIN, &failure);
    }
    const Tablebase *tb = shared;
    if (!tb && err)
        *err = failure;
    pthread_mutex_unlock(&lock);
    return tb;
}

bool cli_searcher_init(Searcher *searcher, const SearchConfig *config, Error *err) {
    if (!searcher_init(searcher, config, err))
        return false;
    if (!config->egdb)
        return true;
    Error why;
    const Tablebase *tb = cli_tablebase(&why);
    if (!tb) {
        searcher_destroy(searcher);
        return error_set(err, "egdb=on: %s", why.text);
    }
    searcher_set_tablebase(searcher, tb);
    return true;
}
