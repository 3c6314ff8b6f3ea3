// SPDX-License-Identifier: MIT
#include "tune_share.h"

#include <pthread.h>
#include <stdlib.h>

struct TuneShare {
    Tune *tune;
    int64_t k;
    const int *offsets;
    int count, threads;
    int *half_points;
    atomic_bool abort;
    atomic_bool finished;
    bool ok;
    Error err;
    pthread_t thread;
};

static void *play_share(void *arg) {
    TuneShare *share = arg;
    share->ok = tune_play(share->tune, share->k, share->offsets, share->count, share->threads,
                          &share->abort, share->half_points, &share->err);
    atomic_store(&share->finished, true);
    return NULL;
}

TuneShare *tune_share_start(Tune *tune, int64_t k, const int offsets[], int count, int threads,
                            int half_points[], Error *err) {
    TuneShare *share = calloc(1, sizeof *share);
    if (!share) {
        error_set(err, "out of memory");
        return NULL;
    }
    *share = (TuneShare){.tune = tune,
                         .k = k,
                         .offsets = offsets,
                         .count = count,
                         .threads = threads,
                         .half_points = half_points};
    atomic_init(&share->abort, false);
    atomic_init(&share->finished, false);
    if (pthread_create(&share->thread, NULL, play_share, share) != 0) {
        free(share);
        error_set(err, "cannot start a thread for the games");
        return NULL;
    }
    return share;
}

bool tune_share_finished(TuneShare *share) { return atomic_load(&share->finished); }

void tune_share_abort(TuneShare *share) { atomic_store(&share->abort, true); }

bool tune_share_join(TuneShare *share, Error *err) {
    pthread_join(share->thread, NULL);
    bool ok = share->ok && !atomic_load(&share->abort);
    if (!share->ok)
        *err = share->err;
    else if (!ok)
        error_set(err, "stopped before its games ended");
    free(share);
    return ok;
}
