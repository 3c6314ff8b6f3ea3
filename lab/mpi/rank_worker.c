// SPDX-License-Identifier: MIT
#include "rank_worker.h"

#include "cli.h"
#include "fingerprint.h"
#include "game_threads.h"
#include "messages.h"
#include "pair_wire.h"
#include "rank_limits.h"
#include "schedule.h"
#include "settings.h"
#include "settings_json.h"

#include <cJSON.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* After a signal of its own, a rank waits this long for rank 0's STOP before it leaves. */
#define SIGNAL_GRACE_SECONDS 10.0

static volatile sig_atomic_t signalled = 0;

static void on_signal(int signal_number) { signalled = signal_number; }

typedef struct {
    MatchSettings settings;
    Book book;
    Schedule schedule;
    PairSetup setup;
    int threads;
    /* Shared with the game threads, under mutex. */
    pthread_mutex_t mutex;
    pthread_cond_t work_cond;
    int64_t *queue;          /* pair numbers handed out, not started */
    int queue_head, queue_count, queue_capacity;
    WireBuffer outbox;       /* played pairs not yet sent */
    int64_t played;
    bool stop;
    bool failed;
    Error failure;
    atomic_bool abort;
    GameThread *games;
} RankWorker;

/* Reads {"settings": ..., "threads": N} (coordinator.c) with the checks of a results file. */
static bool read_setup(RankWorker *w, const char *text, int default_threads, Error *err) {
    cJSON *json = cJSON_Parse(text);
    if (!json)
        return error_set(err, "the run's settings from rank 0 are not JSON");
    const cJSON *threads = cJSON_GetObjectItemCaseSensitive(json, "threads");
    bool ok = settings_from_json(cJSON_GetObjectItemCaseSensitive(json, "settings"), &w->settings,
                                 err);
    if (ok && (!cJSON_IsNumber(threads) || threads->valuedouble < 0 ||
               threads->valuedouble > RANK_THREADS_MAX ||
               threads->valuedouble != (int)threads->valuedouble))
        ok = error_set(err, "the thread count from rank 0 is not 0..%d", RANK_THREADS_MAX);
    if (ok)
        w->threads = threads->valueint ? threads->valueint : default_threads;
    cJSON_Delete(json);
    return ok;
}

/* Everything before play: settings, book, order, fingerprint. Fills hello (the HELLO text). */
static bool prepare(RankWorker *w, const char *setup, int default_threads, char *hello,
                    size_t size) {
    char host[64];
    cli_hostname(host, sizeof host);
    Error err, inner;
    Fingerprint fingerprint;
    bool ok = read_setup(w, setup, default_threads, &err);
    if (ok && !book_load(&w->book, w->settings.book_path, true, &inner))
        ok = error_set(&err, "-openings: %s", inner.text);
    if (ok && !schedule_init(&w->schedule, &w->book, &w->settings))
        ok = error_set(&err, "out of memory for the book's order");
    if (ok && !fingerprint_compute(w->settings.engines, &w->book, &fingerprint, &inner))
        ok = error_set(&err, "fingerprint: %s", inner.text);
    if (!ok) {
        snprintf(hello, size, "error\n%s\n%s", host, err.text);
        return false;
    }
    char text[FINGERPRINT_TEXT_MAX];
    fingerprint_text(&fingerprint, text, sizeof text);
    snprintf(hello, size, "ok\n%s\n%d\n%s", host, w->threads, text);
    w->setup = settings_pair_setup(&w->settings, NULL); /* no tablebase on ranks (runner.c) */
    return true;
}

static void *game_main(void *arg) {
    GameThread *self = arg;
    RankWorker *w = self->owner;
    pthread_mutex_lock(&w->mutex);
    for (;;) {
        while (!w->stop && w->queue_count == 0)
            pthread_cond_wait(&w->work_cond, &w->mutex);
        if (w->stop)
            break;
        int64_t index = w->queue[w->queue_head];
        w->queue_head = (w->queue_head + 1) % w->queue_capacity;
        w->queue_count--;
        pthread_mutex_unlock(&w->mutex);

        int opening = schedule_opening(&w->schedule, index);
        PairRecord pair;
        Error err;
        bool ok = match_play_pair(&self->worker, &w->setup, index, &w->book.entries[opening],
                                  opening, &w->abort, &pair, &err);

        pthread_mutex_lock(&w->mutex);
        if (ok && !w->stop) {
            if (pair_wire_encode(&pair, &w->outbox))
                w->played++;
            else
                ok = error_set(&err, "out of memory for a played pair");
        }
        if (ok)
            match_pair_destroy(&pair);
        else if (!w->stop && !w->failed) {
            w->failed = true;
            w->failure = err;
        }
    }
    pthread_mutex_unlock(&w->mutex);
    return NULL;
}

static bool start_games(RankWorker *w, Error *err) {
    w->queue_capacity = rank_limits_in_flight(w->threads) + 1;
    w->queue = malloc(sizeof *w->queue * (size_t)w->queue_capacity);
    if (!w->queue)
        return error_set(err, "out of memory for the queue of pairs");
    return game_threads_start(&w->games, w->threads, w->settings.engines, game_main, w, &w->abort,
                              err);
}

static void stop_games(RankWorker *w) {
    pthread_mutex_lock(&w->mutex);
    w->stop = true;
    pthread_cond_broadcast(&w->work_cond);
    pthread_mutex_unlock(&w->mutex);
    game_threads_stop(w->games, w->threads, &w->abort);
}

/* How many pair numbers to ask for: about RANK_BATCH_SECONDS of this rank's measured pace, at
 * least one per thread, at most rank_limits_batch. */
static int batch_size(const RankWorker *w, int64_t played, double seconds) {
    double pace = seconds > 0 ? (double)played / seconds : 0;
    int most = rank_limits_batch(w->threads);
    int want = (int)(pace * RANK_BATCH_SECONDS + 0.5);
    return want < w->threads ? w->threads : want > most ? most : want;
}

/* Puts a BATCH into the queue (under mutex). */
static void queue_batch(RankWorker *w, const MPI_Status *status) {
    int count = 0;
    MPI_Get_count(status, MPI_INT64_T, &count);
    int64_t batch[RANK_BATCH_MAX];
    if (count > RANK_BATCH_MAX)
        count = RANK_BATCH_MAX; /* never sent by rank 0, which caps at the rank's batch */
    MPI_Recv(batch, count, MPI_INT64_T, 0, TAG_BATCH, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    pthread_mutex_lock(&w->mutex);
    for (int i = 0; i < count && w->queue_count < w->queue_capacity; i++) {
        w->queue[(w->queue_head + w->queue_count) % w->queue_capacity] = batch[i];
        w->queue_count++;
    }
    pthread_cond_broadcast(&w->work_cond);
    pthread_mutex_unlock(&w->mutex);
}

/* The rank's loop while it plays: send what is played, ask for more when the queue runs low,
 * take batches, until STOP (or, after a signal of its own, the grace period). */
static void serve(RankWorker *w) {
    bool asked = false, failure_sent = false;
    double first = cli_now_seconds(), signal_time = 0, last_sent = first;
    /* Results go out without blocking (see the coordinator's batches), one message at a time:
     * what is played meanwhile waits in the outbox for the next. */
    WireBuffer outgoing = {0};
    MPI_Request sending = MPI_REQUEST_NULL;
    for (;;) {
        bool busy = false;
        int sent = 1;
        MPI_Test(&sending, &sent, MPI_STATUS_IGNORE);
        if (sent)
            wire_buffer_destroy(&outgoing);
        pthread_mutex_lock(&w->mutex);
        if (sent && w->outbox.used) {
            outgoing = w->outbox;
            w->outbox = (WireBuffer){0};
        }
        int queued = w->queue_count;
        int64_t played = w->played;
        bool failed = w->failed;
        Error failure = w->failure;
        pthread_mutex_unlock(&w->mutex);
        double now = cli_now_seconds();
        if (sent && outgoing.used) {
            MPI_Isend(outgoing.data, (int)outgoing.used, MPI_BYTE, 0, TAG_RESULTS,
                      MPI_COMM_WORLD, &sending);
            busy = true;
            last_sent = now;
        }
        if (failed && !failure_sent) {
            messages_send_text(0, TAG_FAILED, failure.text);
            failure_sent = true;
            last_sent = now;
        }
        if (!asked && !failed && queued < w->threads) {
            int32_t want = batch_size(w, played, now - first);
            MPI_Send(&want, 1, MPI_INT32_T, 0, TAG_REQUEST, MPI_COMM_WORLD);
            asked = true;
            last_sent = now;
        }
        /* However long its games, rank 0 hears from it: silence means a frozen rank. */
        if (now - last_sent >= RANK_HEARTBEAT_SECONDS) {
            MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_ALIVE, MPI_COMM_WORLD);
            last_sent = now;
        }
        int arrived = 0;
        MPI_Status status;
        MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
        if (arrived && status.MPI_TAG == TAG_STOP) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Wait(&sending, MPI_STATUS_IGNORE); /* rank 0 reads everything until DONE */
            wire_buffer_destroy(&outgoing);
            return;
        }
        if (arrived && status.MPI_TAG == TAG_BATCH) {
            queue_batch(w, &status);
            asked = false;
            busy = true;
        }
        if (signalled && !signal_time)
            signal_time = cli_now_seconds();
        if (signal_time && cli_now_seconds() - signal_time > SIGNAL_GRACE_SECONDS) {
            wire_buffer_destroy(&outgoing); /* rank 0 is gone: the job ends */
            return;
        }
        if (!busy)
            messages_pause();
    }
}

static void free_worker(RankWorker *w) {
    free(w->queue);
    free(w->games);
    wire_buffer_destroy(&w->outbox);
    schedule_destroy(&w->schedule);
    book_destroy(&w->book);
    pthread_mutex_destroy(&w->mutex);
    pthread_cond_destroy(&w->work_cond);
    free(w);
}

int rank_worker_main(int rank, int default_threads) {
    (void)rank;
    /* mpirun passes SIGINT/SIGTERM to every rank: this one keeps going until rank 0, which
     * saves the run, tells it to stop. */
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    signal(SIGPIPE, SIG_IGN);

    char *setup = messages_receive_setup();
    if (!setup) /* rank 0 stopped before a run */
        return 0;
    RankWorker *w = calloc(1, sizeof *w);
    if (!w) {
        messages_send_text(0, TAG_HELLO, "error\n?\nout of memory");
        free(setup);
        return 2;
    }
    pthread_mutex_init(&w->mutex, NULL);
    pthread_cond_init(&w->work_cond, NULL);
    atomic_init(&w->abort, false);
    char hello[sizeof(Error) + 160];
    bool ready = prepare(w, setup, default_threads, hello, sizeof hello);
    free(setup);
    messages_send_text(0, TAG_HELLO, hello);
    unsigned char go = 0;
    messages_wait(0, TAG_GO);
    MPI_Recv(&go, 1, MPI_BYTE, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (ready && go) {
        Error err;
        if (start_games(w, &err)) {
            serve(w);
        } else {
            messages_send_text(0, TAG_FAILED, err.text);
            messages_wait(0, TAG_STOP);
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        stop_games(w);
        MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD);
    }
    free_worker(w);
    return 0;
}
