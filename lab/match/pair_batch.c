// SPDX-License-Identifier: MIT
#include "pair_batch.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct {
    const PairBatch *batch;
    const int64_t *pairs;
    int count;
    int thread, threads;
    PairScore *scores;
    atomic_bool *abort;
    bool failed;
    Error err;
} BatchThread;

static void *play_share(void *arg) {
    BatchThread *w = arg;
    const PairBatch *batch = w->batch;
    MatchWorker worker;
    if (!match_worker_init(&worker, batch->engines, w->abort, &w->err)) {
        w->failed = true;
        return NULL;
    }
    for (int i = w->thread; i < w->count && !w->failed; i += w->threads) {
        int opening = schedule_opening(batch->order, w->pairs[i]);
        PairRecord pair;
        if (!match_play_pair(&worker, &batch->setup, w->pairs[i], &batch->book->entries[opening],
                             opening, w->abort, &pair, &w->err)) {
            w->failed = true;
            break;
        }
        w->scores[i].half_points = match_pair_half_points(&pair);
        w->scores[i].draws =
            (pair.games[0].result == RESULT_DRAW) + (pair.games[1].result == RESULT_DRAW);
        w->scores[i].plies = pair.games[0].plies + pair.games[1].plies;
        match_pair_destroy(&pair);
    }
    match_worker_destroy(&worker);
    return NULL;
}

bool pair_batch_play(const PairBatch *batch, const int64_t pairs[], int count, int threads,
                     atomic_bool *abort, PairScore scores[], Error *err) {
    if (threads > count)
        threads = count;
    if (threads < 1)
        return true;
    BatchThread *workers = calloc((size_t)threads, sizeof *workers);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    if (!workers || !ids) {
        free(workers);
        free(ids);
        return error_set(err, "out of memory");
    }
    int started = 0;
    for (int i = 0; i < threads; i++) {
        workers[i] = (BatchThread){batch, pairs, count, i, threads, scores, abort, false, {{0}}};
        if (pthread_create(&ids[i], NULL, play_share, &workers[i]) != 0)
            break;
        started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    bool ok = started == threads;
    if (!ok)
        error_set(err, "cannot start %d threads", threads);
    for (int i = 0; ok && i < threads; i++)
        if (workers[i].failed) {
            *err = workers[i].err;
            ok = false;
        }
    free(workers);
    free(ids);
    return ok;
}
