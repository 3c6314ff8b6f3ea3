// SPDX-License-Identifier: MIT
#include "coordinator.h"

#include "cli.h"
#include "fingerprint.h"
#include "messages.h"
#include "pair_wire.h"
#include "rank_limits.h"

#include <cJSON.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Coordinator {
    int ranks;
    int threads_option;
    bool setup_sent;
    Runner *runner;
    PairSetup setup;           /* for checking what arrives */
    SessionRanks *session;     /* hosts and threads of every rank (the runner's totals) */
    int *wanted;               /* per rank: pair numbers asked for, not yet sent (0: none) */
    /* Per rank, the batch last sent, kept until its send completes. Sends of batches and of
     * results do not block: two large blocking sends in opposite directions would wait on
     * each other. A rank asks again only after it received a batch, so one is enough. */
    int64_t (*batches)[RANK_BATCH_MAX];
    MPI_Request *batch_sends;
    atomic_bool ending;        /* the comm thread returns */
    pthread_t thread;
    bool thread_started;
};

Coordinator *coordinator_new(int ranks, int threads_option) {
    Coordinator *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->ranks = ranks;
    c->threads_option = threads_option;
    c->wanted = calloc((size_t)ranks, sizeof *c->wanted);
    c->batches = calloc((size_t)ranks, sizeof *c->batches);
    c->batch_sends = malloc(sizeof *c->batch_sends * (size_t)ranks);
    if (!c->wanted || !c->batches || !c->batch_sends) {
        free(c->wanted);
        free(c->batches);
        free(c->batch_sends);
        free(c);
        return NULL;
    }
    for (int k = 0; k < ranks; k++)
        c->batch_sends[k] = MPI_REQUEST_NULL;
    atomic_init(&c->ending, false);
    return c;
}

void coordinator_send_nothing(int ranks) {
    for (int k = 1; k < ranks; k++)
        messages_send_text(k, TAG_SETUP, "");
}

void coordinator_release(Coordinator *c) {
    if (!c->setup_sent)
        coordinator_send_nothing(c->ranks);
    free(c->wanted);
    free(c->batches);
    free(c->batch_sends);
    free(c);
}

/* {"settings": {...}, "threads": N}: what every rank needs to play the run's pairs. */
static char *setup_text(const MatchSettings *s, int threads_option) {
    cJSON *json = cJSON_CreateObject();
    cJSON_AddItemToObject(json, "settings", settings_to_json(s));
    cJSON_AddNumberToObject(json, "threads", threads_option);
    char *text = cJSON_PrintUnformatted(json);
    cJSON_Delete(json);
    return text;
}

static void send_go(const Coordinator *c, bool go) {
    unsigned char byte = go;
    for (int k = 1; k < c->ranks; k++)
        MPI_Send(&byte, 1, MPI_BYTE, k, TAG_GO, MPI_COMM_WORLD);
}

/* Reads rank k's HELLO into its record; false after saying why it cannot play or differs. */
static bool read_hello(Coordinator *c, int k, const char *mine, const char *my_host) {
    MPI_Status status = messages_wait(k, TAG_HELLO);
    int size;
    char *text = messages_receive_bytes(&status, &size);
    RankRecord *rank = &c->session->ranks[k];
    char *lines[4] = {text, NULL, NULL, NULL};
    for (int i = 1; i < 4 && lines[i - 1]; i++) {
        char *newline = strchr(lines[i - 1], '\n');
        if (newline) {
            *newline = '\0';
            lines[i] = newline + 1;
        }
    }
    snprintf(rank->host, sizeof rank->host, "%s", lines[1] ? lines[1] : "?");
    bool ok = false;
    if (!strcmp(text, "error") && lines[2]) {
        cli_error("rank %d (host %s) cannot play: %s", k, rank->host, lines[2]);
    } else if (strcmp(text, "ok") || !lines[3] ||
               !rank_limits_parse_threads(lines[2], &rank->threads)) {
        cli_error("rank %d (host %s) sent a greeting this build does not understand: is it "
                  "another version of abtest-mpi?",
                  k, rank->host);
    } else if (strcmp(lines[3], mine)) {
        cli_error("rank %d (host %s) runs another engine, options or book: its fingerprint is\n"
                  "  %s\nrank 0 (host %s) has\n  %s",
                  k, rank->host, lines[3], my_host, mine);
    } else {
        ok = true;
    }
    free(text);
    return ok;
}

static bool begin(void *context, Runner *runner, SessionRanks *session, int64_t *in_flight) {
    Coordinator *c = context;
    const MatchSettings *s = runner_settings(runner);
    c->runner = runner;
    c->session = session;
    c->setup = (PairSetup){s->engines, s->max_plies, s->random_plies, s->seed, false, NULL};
    char *setup = setup_text(s, c->threads_option);
    if (!setup) {
        cli_error("out of memory for the run's settings");
        return false;
    }
    for (int k = 1; k < c->ranks; k++)
        messages_send_text(k, TAG_SETUP, setup);
    free(setup);
    c->setup_sent = true;

    session->ranks = calloc((size_t)c->ranks, sizeof *session->ranks);
    if (!session->ranks) {
        cli_error("out of memory for %d ranks", c->ranks);
        send_go(c, false);
        return false;
    }
    session->count = c->ranks;
    cli_hostname(session->ranks[0].host, sizeof session->ranks[0].host);
    session->ranks[0].threads = s->concurrency;
    Fingerprint mine;
    Error err;
    bool ok = fingerprint_compute(s->engines, runner_book(runner), &mine, &err);
    if (!ok)
        cli_error("rank 0 (host %s) cannot compute its fingerprint: %s", session->ranks[0].host,
                  err.text);
    fingerprint_text(&mine, session->fingerprint, sizeof session->fingerprint);
    for (int k = 1; k < c->ranks; k++) /* every greeting is read, so all differences are said */
        ok = read_hello(c, k, session->fingerprint, session->ranks[0].host) && ok;
    send_go(c, ok);
    if (!ok) {
        cli_error("the run stops before any game: every rank must run the same build, options "
                  "and book");
        return false;
    }
    int threads = 0;
    int64_t remote = 0;
    for (int k = 0; k < c->ranks; k++) {
        threads += session->ranks[k].threads;
        if (k > 0)
            remote += rank_limits_in_flight(session->ranks[k].threads);
    }
    *in_flight = remote;
    printf("mpi: %d rank(s), %d game thread(s) in all; fingerprint %s\n", c->ranks, threads,
           session->fingerprint);
    return true;
}

/* Answers the requests that can be answered now; returns the batches sent. */
static int serve_requests(Coordinator *c) {
    int sent = 0;
    for (int k = 1; k < c->ranks; k++) {
        if (!c->wanted[k])
            continue;
        /* The rank received its previous batch before it asked again: this returns at once. */
        MPI_Wait(&c->batch_sends[k], MPI_STATUS_IGNORE);
        bool finished;
        int taken = runner_take_pairs(c->runner, c->batches[k], c->wanted[k], &finished);
        if (taken > 0) {
            MPI_Isend(c->batches[k], taken, MPI_INT64_T, k, TAG_BATCH, MPI_COMM_WORLD,
                      &c->batch_sends[k]);
            sent++;
        }
        if (taken > 0 || finished) /* finished: the rank idles until STOP */
            c->wanted[k] = 0;
    }
    return sent;
}

static void fail_rank(Coordinator *c, int k, const char *what) {
    Error err;
    error_set(&err, "rank %d (host %s): %s", k, c->session->ranks[k].host, what);
    runner_fail(c->runner, &err);
}

/* Checks and deposits every pair of a RESULTS message. */
static void take_results(Coordinator *c, const MPI_Status *status) {
    int size;
    char *data = messages_receive_bytes(status, &size);
    int k = status->MPI_SOURCE;
    size_t at = 0;
    while (at < (size_t)size) {
        PairRecord pair;
        size_t used;
        Error err;
        if (!pair_wire_decode((const uint8_t *)data + at, (size_t)size - at, c->setup.max_plies,
                              &pair, &used, &err)) {
            fail_rank(c, k, err.text);
            break;
        }
        at += used;
        if (!pair_wire_verify(&pair, &c->setup, runner_book(c->runner),
                              runner_schedule(c->runner), &err)) {
            match_pair_free(&pair);
            fail_rank(c, k, err.text);
            break;
        }
        if (!runner_deposit(c->runner, &pair, k, &err)) {
            fail_rank(c, k, err.text);
            break;
        }
    }
    free(data);
}

/* One message from a playing rank. */
static void handle(Coordinator *c, const MPI_Status *status) {
    int k = status->MPI_SOURCE, size;
    if (status->MPI_TAG == TAG_RESULTS) {
        take_results(c, status);
    } else if (status->MPI_TAG == TAG_REQUEST) {
        int32_t count = 0;
        MPI_Recv(&count, 1, MPI_INT32_T, k, TAG_REQUEST, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int most = rank_limits_batch(c->session->ranks[k].threads);
        c->wanted[k] = count < 1 ? 1 : count > most ? most : count;
    } else {
        char *text = messages_receive_bytes(status, &size);
        fail_rank(c, k, status->MPI_TAG == TAG_FAILED ? text : "an unexpected message");
        free(text);
    }
}

/* The comm thread: the only MPI caller while the run plays (MPI_THREAD_SERIALIZED). It never
 * waits on a game: rank 0's own games run on the runner's threads. */
static void *comm_main(void *arg) {
    Coordinator *c = arg;
    int64_t messages = 0;
    double busy = 0;
    while (!atomic_load(&c->ending)) {
        int arrived = 0;
        MPI_Status status;
        double start = cli_now_seconds();
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
        if (arrived)
            handle(c, &status);
        int sent = serve_requests(c);
        if (!arrived && !sent) {
            messages_pause();
            continue;
        }
        messages += arrived + sent;
        busy += cli_now_seconds() - start;
        runner_note_messages(c->runner, messages, busy);
    }
    return NULL;
}

static bool start(void *context, Runner *runner) {
    Coordinator *c = context;
    (void)runner;
    if (pthread_create(&c->thread, NULL, comm_main, c) != 0) {
        cli_error("cannot start the thread that talks to the ranks");
        return false;
    }
    c->thread_started = true;
    return true;
}

/* Stops every rank and waits for each to say it has stopped; what they still send is read and
 * dropped (a rank may be inside a send that only returns once it is received). */
static void end(void *context, Runner *runner) {
    Coordinator *c = context;
    (void)runner;
    atomic_store(&c->ending, true);
    if (c->thread_started)
        pthread_join(c->thread, NULL);
    for (int k = 1; k < c->ranks; k++)
        MPI_Send(NULL, 0, MPI_BYTE, k, TAG_STOP, MPI_COMM_WORLD);
    /* Each rank reads its messages in order up to STOP, so every batch is received. */
    MPI_Waitall(c->ranks, c->batch_sends, MPI_STATUSES_IGNORE);
    int stopped = 0;
    while (stopped < c->ranks - 1) {
        MPI_Status status = messages_wait(MPI_ANY_SOURCE, MPI_ANY_TAG);
        int size;
        free(messages_receive_bytes(&status, &size));
        stopped += status.MPI_TAG == TAG_DONE;
    }
}

RunnerRemote coordinator_remote(Coordinator *c) {
    return (RunnerRemote){c, begin, start, end};
}
