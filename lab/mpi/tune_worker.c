// SPDX-License-Identifier: MIT
#include "tune_worker.h"

#include "cli.h"
#include "fingerprint.h"
#include "messages.h"
#include "rank_limits.h"
#include "tune.h"
#include "tune_share.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUNE_WORDS_MAX 300

/* {"arguments": [...]}: the run, opened as rank 0 opened it; NULL after saying why in err. */
static Tune *open_run(const char *setup, int default_threads, Error *err) {
    cJSON *json = cJSON_Parse(setup);
    const cJSON *words = json ? cJSON_GetObjectItemCaseSensitive(json, "arguments") : NULL;
    char *argv[TUNE_WORDS_MAX];
    int argc = 0;
    bool ok = cJSON_IsArray(words);
    const cJSON *word;
    cJSON_ArrayForEach(word, words) {
        if (!cJSON_IsString(word) || argc == TUNE_WORDS_MAX) {
            ok = false;
            break;
        }
        argv[argc++] = word->valuestring;
    }
    Tune *tune = NULL;
    if (!ok)
        error_set(err, "the run's arguments from rank 0 are not a list of words");
    else
        tune = tune_open(argc, argv, default_threads, NULL, err);
    cJSON_Delete(json);
    return tune;
}

/* An ITERATION: k, theta, then the offsets (checked: whole numbers within the iteration). */
typedef struct {
    int64_t k;
    double theta[TUNE_PARAMS_MAX];
    int *offsets;
    int count;
} Iteration;

static bool read_iteration(const Tune *tune, const MPI_Status *status, Iteration *it, Error *err) {
    int size = 0, params = tune_param_count(tune), pairs = tune_pairs(tune);
    MPI_Get_count(status, MPI_DOUBLE, &size);
    double *message = malloc(sizeof *message * (size_t)(size > 0 ? size : 1));
    if (!message)
        return error_set(err, "out of memory");
    MPI_Recv(message, size, MPI_DOUBLE, 0, TAG_ITERATION, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    it->count = size - 1 - params;
    bool ok =
        it->count >= 1 && it->count <= pairs && message[0] >= 1 && message[0] == floor(message[0]);
    it->offsets = ok ? malloc(sizeof *it->offsets * (size_t)it->count) : NULL;
    ok = ok && it->offsets;
    for (int i = 0; ok && i < it->count; i++) {
        double offset = message[1 + params + i];
        ok = offset >= 0 && offset < pairs && offset == floor(offset);
        if (ok)
            it->offsets[i] = (int)offset;
    }
    if (ok) {
        it->k = (int64_t)message[0];
        memcpy(it->theta, message + 1, sizeof *it->theta * (size_t)params);
    }
    free(message);
    return ok || error_set(err, "rank 0 sent an iteration this build does not understand");
}

/* Plays an iteration's share, sending ALIVE meanwhile; then SCORES, or FAILED. False when rank
 * 0 said STOP during it (received here). */
static bool play_iteration(Tune *tune, const Iteration *it) {
    int *half_points = calloc((size_t)it->count, sizeof *half_points);
    int32_t *scores = calloc(2 * (size_t)it->count, sizeof *scores);
    Error err = {{0}};
    tune_set_theta(tune, it->theta);
    TuneShare *share = half_points && scores
                           ? tune_share_start(tune, it->k, it->offsets, it->count,
                                              tune_threads(tune), half_points, &err)
                           : NULL;
    bool stopped = false, ok = share != NULL;
    if (!share && !err.text[0])
        error_set(&err, "out of memory");
    double last_sent = cli_now_seconds();
    while (share && !tune_share_finished(share)) {
        int arrived = 0;
        MPI_Status status;
        MPI_Iprobe(0, TAG_STOP, MPI_COMM_WORLD, &arrived, &status);
        if (arrived) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            tune_share_abort(share);
            stopped = true;
            break;
        }
        if (cli_now_seconds() - last_sent >= RANK_HEARTBEAT_SECONDS) {
            MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_ALIVE, MPI_COMM_WORLD);
            last_sent = cli_now_seconds();
        }
        messages_pause();
    }
    if (share)
        ok = tune_share_join(share, &err);
    if (!stopped && ok) {
        for (int i = 0; i < it->count; i++) {
            scores[2 * i] = it->offsets[i];
            scores[2 * i + 1] = half_points[i];
        }
        MPI_Send(scores, 2 * it->count, MPI_INT32_T, 0, TAG_SCORES, MPI_COMM_WORLD);
    } else if (!stopped) {
        messages_send_text(0, TAG_FAILED, err.text);
    }
    free(half_points);
    free(scores);
    return !stopped;
}

/* Plays what rank 0 hands out until STOP. */
static void serve(Tune *tune) {
    for (;;) {
        MPI_Status status = messages_wait(0, MPI_ANY_TAG);
        if (status.MPI_TAG == TAG_STOP) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            return;
        }
        Iteration it = {0};
        Error err;
        if (status.MPI_TAG != TAG_ITERATION) {
            int size;
            free(messages_receive_bytes(&status, &size));
            messages_send_text(0, TAG_FAILED, "an unexpected message from rank 0");
            continue;
        }
        if (!read_iteration(tune, &status, &it, &err)) {
            messages_send_text(0, TAG_FAILED, err.text);
            continue;
        }
        bool going_on = play_iteration(tune, &it);
        free(it.offsets);
        if (!going_on)
            return;
    }
}

int tune_worker_main(int default_threads) {
    char *setup = messages_receive_setup();
    if (!setup) /* rank 0 stopped before a run */
        return 0;
    char host[64], hello[sizeof(Error) + 160], fingerprint[FINGERPRINT_TEXT_MAX];
    cli_hostname(host, sizeof host);
    Error err;
    Tune *tune = open_run(setup, default_threads, &err);
    free(setup);
    if (tune && tune_fingerprint(tune, fingerprint, sizeof fingerprint, &err))
        snprintf(hello, sizeof hello, "ok\n%s\n%d\n%s", host, tune_threads(tune), fingerprint);
    else
        snprintf(hello, sizeof hello, "error\n%s\n%s", host, err.text);
    messages_send_text(0, TAG_HELLO, hello);
    unsigned char go = 0;
    messages_wait(0, TAG_GO);
    MPI_Recv(&go, 1, MPI_BYTE, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (tune && go) {
        serve(tune);
        MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD);
    }
    tune_close(tune);
    return 0;
}
