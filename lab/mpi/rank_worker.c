// SPDX-License-Identifier: MIT
#include "rank_worker.h"

#include "cli.h"
#include "fingerprint.h"
#include "job_json.h"
#include "messages.h"
#include "pair_pool.h"
#include "pair_wire.h"
#include "rank_limits.h"
#include "schedule.h"
#include "settings.h"

#include <cJSON.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* After a signal of its own, a rank waits this long for rank 0's STOP before it leaves. */
#define SIGNAL_GRACE_SECONDS 10.0

/* The signal this rank got (0: none). Its handler may run on a pool's worker thread while the
 * rank's loop reads it: a lock-free atomic, not a volatile sig_atomic_t, which is safe only
 * within one thread (as in lab/run/runner.c). */
static atomic_int signalled = 0;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "a signal handler may store only to lock-free atomics");

static void on_signal(int signal_number) { atomic_store(&signalled, signal_number); }

/* The rank's job: rank 0's settings, the book they name (kept while the path and hash stay)
 * and its order, played by the rank's pool. */
typedef struct {
    MatchSettings settings;
    Book book;
    bool has_book;
    char book_path[SETTINGS_PATH_MAX]; /* the book's, as the job named it */
    Schedule schedule;
    bool has_schedule;
    PairingSegment segment; /* the job's pairings from which pair */
    int64_t generation;
    int threads;
    PairPool *pool;
    int64_t played;
    bool forge; /* TSLAB_TEST_FORGE_RANK names this rank: tests/test_distributed.c */
} RankWorker;

/* A job from rank 0: its settings, the book (loaded again only when its path or bytes
 * changed) and the order; then the pool's engines, when the pool runs. */
static bool take_job(RankWorker *w, const cJSON *json, Error *err) {
    uint64_t hash = 0;
    int64_t generation = 0;
    Error inner;
    if (!job_json_read(json, &w->settings, &w->segment, &hash, &generation, err))
        return false;
    if (!w->has_book || strcmp(w->book_path, w->settings.book_path) ||
        w->book.content_hash != hash) {
        if (w->has_book)
            book_destroy(&w->book);
        w->has_book = book_load(&w->book, w->settings.book_path, true, &inner);
        if (!w->has_book)
            return error_set(err, "-openings: %s", inner.text);
        snprintf(w->book_path, sizeof w->book_path, "%s", w->settings.book_path);
    }
    if (w->book.content_hash != hash)
        return error_set(err, "the book %s here is not rank 0's (its bytes differ)",
                         w->settings.book_path);
    if (w->has_schedule)
        schedule_destroy(&w->schedule);
    w->has_schedule = schedule_init(&w->schedule, &w->book, &w->settings);
    if (!w->has_schedule)
        return error_set(err, "out of memory for the book's order");
    w->generation = generation;
    if (!w->pool)
        return true;
    pair_pool_end(w->pool); /* nothing of the last job is left to send */
    PairJob job = {&w->settings, &w->book, &w->schedule, NULL, 0, &w->segment}; /* no -tb here */
    return pair_pool_set_job(w->pool, &job, err);
}

/* Reads {"threads": N, "job": {...}} (coordinator.c). */
static bool read_setup(RankWorker *w, const char *text, int default_threads, Error *err) {
    cJSON *json = cJSON_Parse(text);
    if (!json)
        return error_set(err, "the run's setup from rank 0 is not JSON");
    const cJSON *threads = cJSON_GetObjectItemCaseSensitive(json, "threads");
    bool ok = true;
    if (!cJSON_IsNumber(threads) || threads->valuedouble < 0 ||
        threads->valuedouble > RANK_THREADS_MAX ||
        threads->valuedouble != (int)threads->valuedouble)
        ok = error_set(err, "the thread count from rank 0 is not 0..%d", RANK_THREADS_MAX);
    if (ok)
        w->threads = threads->valueint ? threads->valueint : default_threads;
    ok = ok && take_job(w, cJSON_GetObjectItemCaseSensitive(json, "job"), err);
    cJSON_Delete(json);
    return ok;
}

/* Everything before play: the setup, the first job, the fingerprint. Fills hello. */
static bool prepare(RankWorker *w, const char *setup, int default_threads, char *hello,
                    size_t size) {
    char host[64];
    cli_hostname(host, sizeof host);
    Error err, inner;
    Fingerprint fingerprint;
    bool ok = read_setup(w, setup, default_threads, &err);
    if (ok && !fingerprint_compute(w->settings.engines, &w->book, &fingerprint, &inner))
        ok = error_set(&err, "fingerprint: %s", inner.text);
    if (!ok) {
        snprintf(hello, size, "error\n%s\n%s", host, err.text);
        return false;
    }
    char text[FINGERPRINT_TEXT_MAX];
    fingerprint_text(&fingerprint, text, sizeof text);
    snprintf(hello, size, "ok\n%s\n%d\n%s", host, w->threads, text);
    return true;
}

/* The pool, with the first job's engines. */
static bool start_games(RankWorker *w, Error *err) {
    w->pool = pair_pool_new(w->threads, NULL, err);
    if (!w->pool)
        return false;
    PairJob job = {&w->settings, &w->book, &w->schedule, NULL, 0, &w->segment};
    return pair_pool_set_job(w->pool, &job, err);
}

/* How many pair numbers to ask for: about RANK_BATCH_SECONDS of this rank's measured pace, at
 * least one per thread, at most rank_limits_batch. */
static int batch_size(const RankWorker *w, double seconds) {
    double pace = seconds > 0 ? (double)w->played / seconds : 0;
    int most = rank_limits_batch(w->threads);
    int want = (int)(pace * RANK_BATCH_SECONDS + 0.5);
    return want < w->threads ? w->threads : want > most ? most : want;
}

/* A BATCH: the job's generation, then pair numbers, into the pool. */
static bool queue_batch(RankWorker *w, const MPI_Status *status, Error *err) {
    int count = 0;
    MPI_Get_count(status, MPI_INT64_T, &count);
    int64_t batch[RANK_BATCH_MAX + 1];
    if (count > RANK_BATCH_MAX + 1)
        count = RANK_BATCH_MAX + 1; /* never sent by rank 0, which caps at the rank's batch */
    MPI_Recv(batch, count, MPI_INT64_T, 0, TAG_BATCH, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (count < 2 || batch[0] != w->generation)
        return error_set(err, "rank 0 sent a batch for another job than this rank's");
    if (!pair_pool_add(w->pool, batch + 1, count - 1))
        return error_set(err, "out of memory for a batch of pairs");
    return true;
}

/* A JOB: the pool's next job. */
static bool read_job(RankWorker *w, const MPI_Status *status, Error *err) {
    int size;
    char *text = messages_receive_bytes(status, &size);
    cJSON *json = cJSON_Parse(text);
    free(text);
    bool ok = json ? take_job(w, json, err)
                   : error_set(err, "a job from rank 0 that is not JSON");
    cJSON_Delete(json);
    return ok;
}

/* What the pool finished, encoded behind the job's generation into outbox (empty: nothing). */
static bool collect(RankWorker *w, WireBuffer *outbox) {
    PairRecord pairs[64];
    int count;
    while ((count = pair_pool_collect(w->pool, pairs, 64)) > 0) {
        bool ok = outbox->used > 0 || pair_wire_encode_generation(w->generation, outbox);
        if (w->forge) { /* a rank that lies: game 1's result turned, which the replay catches */
            GameRecord *game = &pairs[0].games[0];
            game->result =
                game->result == RESULT_TIGERS_WIN ? RESULT_SHEEP_WIN : RESULT_TIGERS_WIN;
        }
        for (int i = 0; i < count; i++) {
            ok = ok && pair_wire_encode(&pairs[i], outbox);
            match_pair_destroy(&pairs[i]);
        }
        if (!ok)
            return false;
        w->played += count;
    }
    return true;
}

/* The rank's loop while it plays: send what is played, ask for more when the queue runs low,
 * take batches and jobs, until STOP (or, after a signal of its own, the grace period). */
static void serve(RankWorker *w) {
    bool asked = false, failure_sent = false;
    double first = cli_now_seconds(), signal_time = 0, last_sent = first;
    /* Results go out without blocking (see the coordinator's batches), one message at a time:
     * what is played meanwhile waits for the next. */
    WireBuffer outgoing = {0};
    MPI_Request sending = MPI_REQUEST_NULL;
    Error failure = {{0}};
    bool failed = false;
    for (;;) {
        bool busy = false;
        int sent = 1;
        MPI_Test(&sending, &sent, MPI_STATUS_IGNORE);
        if (sent) {
            wire_buffer_destroy(&outgoing);
            if (!failed && !collect(w, &outgoing))
                failed = error_set(&failure, "out of memory for a played pair");
        }
        if (!failed)
            failed = pair_pool_failure(w->pool, &failure);
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
        if (!asked && !failed && pair_pool_queued(w->pool) < w->threads) {
            int32_t want = batch_size(w, now - first);
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
            if (!queue_batch(w, &status, &failure))
                failed = true;
            asked = false;
            busy = true;
        } else if (arrived && status.MPI_TAG == TAG_JOB) {
            if (!read_job(w, &status, &failure))
                failed = true;
            busy = true;
        } else if (arrived) {
            int size;
            free(messages_receive_bytes(&status, &size));
            failed = error_set(&failure, "an unexpected message from rank 0");
        }
        if (atomic_load(&signalled) && !signal_time)
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
    pair_pool_free(w->pool);
    if (w->has_schedule)
        schedule_destroy(&w->schedule);
    if (w->has_book)
        book_destroy(&w->book);
    free(w);
}

int rank_worker_main(int default_threads) {
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
    /* The test of rank 0's replay needs a rank that sends a forged result; nothing else reads
     * this variable, and a run under it stops at the first pair that rank sends. */
    const char *forge = getenv("TSLAB_TEST_FORGE_RANK");
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    w->forge = forge && atoi(forge) == rank;
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
        if (w->pool)
            pair_pool_end(w->pool);
        MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD);
    }
    free_worker(w);
    return 0;
}
