// SPDX-License-Identifier: MIT
#include "coordinator.h"

#include "cli.h"
#include "fingerprint.h"
#include "job_json.h"
#include "messages.h"
#include "pair_wire.h"
#include "rank_limits.h"

#include <cJSON.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What rank 0 knows of one other rank. Touched by the comm thread only while the run plays. */
typedef struct {
    int wanted; /* pair numbers asked for, not yet sent (0: none) */
    /* The batch last sent, kept until its send completes. Sends of batches and of results do
     * not block: two large blocking sends in opposite directions would wait on each other. A
     * rank asks again only after it received a batch, so one is enough. */
    int64_t batch[RANK_BATCH_MAX + 1]; /* [0]: the job's generation */
    MPI_Request batch_send;
    /* The job it plays (its generation), and the JOB message last sent, kept until its send
     * completes as the batch is. */
    int64_t generation;
    char *job_text;
    MPI_Request job_send;
    int64_t *outstanding; /* pair numbers handed to it and not delivered */
    int outstanding_count, outstanding_capacity;
    double last_heard; /* cli_now_seconds() of its last message */
    bool lost;         /* silent past the timeout: its pairs went to others */
} RankState;

struct Coordinator {
    int ranks;
    int default_threads;
    double timeout; /* -rank-timeout: seconds of silence before a rank is lost */
    bool setup_sent;
    PairPool *pool;
    SessionRanks *session; /* hosts and threads of every rank (the runner's totals) */
    RankState *rank;       /* [ranks]; [0] unused */
    atomic_int lost_ranks; /* read by abtest_mpi.c after the run */
    atomic_bool ending;    /* the comm thread returns */
    pthread_t thread;
    bool thread_started;
};

Coordinator *coordinator_new(int ranks, int default_threads, double timeout) {
    Coordinator *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->ranks = ranks;
    c->default_threads = default_threads;
    c->timeout = timeout;
    c->rank = calloc((size_t)ranks, sizeof *c->rank);
    if (!c->rank) {
        free(c);
        return NULL;
    }
    for (int k = 0; k < ranks; k++)
        c->rank[k].batch_send = c->rank[k].job_send = MPI_REQUEST_NULL;
    atomic_init(&c->lost_ranks, 0);
    atomic_init(&c->ending, false);
    return c;
}

void coordinator_send_nothing(int ranks) {
    for (int k = 1; k < ranks; k++)
        messages_send_text(k, TAG_SETUP, "");
}

int coordinator_lost_ranks(const Coordinator *c) { return atomic_load(&c->lost_ranks); }

void coordinator_free(Coordinator *c) {
    if (!c->setup_sent)
        coordinator_send_nothing(c->ranks);
    for (int k = 0; k < c->ranks; k++) {
        free(c->rank[k].outstanding);
        free(c->rank[k].job_text);
    }
    free(c->rank);
    free(c);
}

/* A job as text (job_json.h); NULL when memory is short. */
static char *job_text(const PairPoolJob *job) {
    cJSON *json =
        job_json(job->settings, &job->setup.segment, job->book->content_hash, job->generation);
    char *text = json ? cJSON_PrintUnformatted(json) : NULL;
    cJSON_Delete(json);
    return text;
}

/* {"threads": N, "job": {...}}: what every rank needs to play the first job's pairs. */
static char *setup_text(const PairJob *job, int threads_option) {
    cJSON *json = cJSON_CreateObject();
    PairingList pairings;
    Error unused;
    if (!settings_pairings(job->settings, &pairings, &unused)) /* checked before any job */
        pairings.count = 1;
    PairingSegment all = tournament_segment_all(pairings.count);
    const PairingSegment *segment = job->segment ? job->segment : &all;
    cJSON *first = json ? job_json(job->settings, segment, job->book->content_hash, 1) : NULL;
    if (!first) {
        cJSON_Delete(json);
        return NULL;
    }
    cJSON_AddItemToObject(json, "job", first);
    char *text = cJSON_AddNumberToObject(json, "threads", threads_option)
                     ? cJSON_PrintUnformatted(json)
                     : NULL;
    cJSON_Delete(json);
    return text;
}

/* The MPI refusals: what ranks cannot do yet, for every client. False after saying why. */
static bool ranks_can_play(const MatchSettings *s) {
    for (int e = 0; e < MATCH_ENGINES; e++)
        if (engine_is_program(&s->engines[e])) {
            /* Every rank would need the program, and pair_wire replays games by the rules,
             * which cannot tell a forfeit. */
            cli_error("engine %s is a program (cmd=): abtest-mpi plays in-process engines only; "
                      "run build/abtest on one machine", s->engines[e].name);
            return false;
        }
    if (s->tb_path[0]) {
        /* Every rank would need the file, and pair_wire's replay cannot judge. */
        cli_error("-tb: abtest-mpi does not adjudicate by tablebase yet; run build/abtest on one "
                  "machine");
        return false;
    }
    return true;
}

/* Marks rank k lost (it will not be waited for again) and says so. */
static void mark_lost(Coordinator *c, int k) {
    c->rank[k].lost = true;
    atomic_fetch_add(&c->lost_ranks, 1);
}

/* Reads rank k's HELLO into its record, waiting up to the timeout; false after saying why it
 * cannot play or differs. */
static bool read_hello(Coordinator *c, int k, const char *mine, const char *my_host) {
    MPI_Status status;
    RankRecord *rank = &c->session->ranks[k];
    if (!messages_wait_until(k, TAG_HELLO, cli_now_seconds() + c->timeout, &status)) {
        snprintf(rank->host, sizeof rank->host, "?");
        mark_lost(c, k);
        cli_error("rank %d sent no greeting within %.0f s (-rank-timeout): frozen, or its host "
                  "unreachable?",
                  k, c->timeout);
        return false;
    }
    int size;
    char *text = messages_receive_bytes(&status, &size);
    char *lines[4] = {NULL, NULL, NULL, NULL};
    messages_split_lines(text, lines, 4);
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

static bool start(Coordinator *c);
static void end(void *context, PairPool *pool);

static bool begin(void *context, PairPool *pool, const PairJob *job, SessionRanks *session) {
    Coordinator *c = context;
    const MatchSettings *s = job->settings;
    c->pool = pool;
    c->session = session;
    if (!ranks_can_play(s))
        return false;
    char *setup = setup_text(job, job->rank_threads);
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
        messages_send_go(c->ranks, false);
        return false;
    }
    session->count = c->ranks;
    cli_hostname(session->ranks[0].host, sizeof session->ranks[0].host);
    session->ranks[0].threads = s->concurrency;
    Fingerprint mine;
    Error err;
    bool ok = fingerprint_compute(s->engines, job->book, &mine, &err);
    if (!ok)
        cli_error("rank 0 (host %s) cannot compute its fingerprint: %s", session->ranks[0].host,
                  err.text);
    fingerprint_text(&mine, session->fingerprint, sizeof session->fingerprint);
    for (int k = 1; k < c->ranks; k++) /* every greeting is read, so all differences are said */
        ok = read_hello(c, k, session->fingerprint, session->ranks[0].host) && ok;
    messages_send_go(c->ranks, ok);
    if (!ok) {
        cli_error("the run stops before any game: every rank must run the same build, options "
                  "and book, and greet within -rank-timeout");
        return false;
    }
    int threads = 0;
    int64_t remote = 0;
    double now = cli_now_seconds();
    for (int k = 0; k < c->ranks; k++) {
        threads += session->ranks[k].threads;
        if (k > 0)
            remote += rank_limits_in_flight(session->ranks[k].threads);
        c->rank[k].last_heard = now;
        c->rank[k].generation = 1; /* the pool's first job: the one in SETUP */
    }
    printf("mpi: %d rank(s), %d game thread(s) in all; fingerprint %s\n", c->ranks, threads,
           session->fingerprint);
    /* The ranks were told to play: from here a failure stops them as the end does. */
    if (!pair_pool_add_sources(pool, c->ranks, remote, &err)) {
        cli_error("%s", err.text);
        end(c, pool);
        return false;
    }
    if (!start(c)) {
        end(c, pool);
        return false;
    }
    return true;
}

/* Notes pair numbers handed to rank k; false when memory is short (the run fails). */
static bool note_outstanding(Coordinator *c, int k, const int64_t *indices, int count) {
    RankState *r = &c->rank[k];
    if (r->outstanding_count + count > r->outstanding_capacity) {
        int capacity = 2 * (r->outstanding_count + count);
        int64_t *grown = realloc(r->outstanding, sizeof *grown * (size_t)capacity);
        if (!grown)
            return false;
        r->outstanding = grown;
        r->outstanding_capacity = capacity;
    }
    memcpy(r->outstanding + r->outstanding_count, indices, sizeof *indices * (size_t)count);
    r->outstanding_count += count;
    return true;
}

/* Rank k delivered pair index: no longer outstanding. */
static void note_delivered(Coordinator *c, int k, int64_t index) {
    RankState *r = &c->rank[k];
    for (int i = 0; i < r->outstanding_count; i++)
        if (r->outstanding[i] == index) {
            r->outstanding[i] = r->outstanding[--r->outstanding_count];
            return;
        }
}

static void fail_rank(Coordinator *c, int k, const char *what) {
    Error err;
    error_set(&err, "rank %d (host %s): %s", k, c->session->ranks[k].host, what);
    pair_pool_fail(c->pool, &err);
}

/* Sends rank k the pool's current job, before the first batch of it. Its previous JOB was
 * received before it asked again, so that send is complete. False when memory is short. */
static bool send_job(Coordinator *c, int k, const PairPoolJob *job) {
    RankState *r = &c->rank[k];
    MPI_Wait(&r->job_send, MPI_STATUS_IGNORE);
    free(r->job_text);
    r->job_text = job_text(job);
    if (!r->job_text)
        return false;
    MPI_Isend(r->job_text, (int)strlen(r->job_text), MPI_BYTE, k, TAG_JOB, MPI_COMM_WORLD,
              &r->job_send);
    r->generation = job->generation;
    return true;
}

/* Answers the requests that can be answered now; returns the batches sent. A rank whose
 * request finds nothing to hand out keeps it: pairs a lost rank held may come back. */
static int serve_requests(Coordinator *c) {
    int sent = 0;
    for (int k = 1; k < c->ranks; k++) {
        RankState *r = &c->rank[k];
        if (!r->wanted || r->lost)
            continue;
        /* The rank received its previous batch before it asked again: this returns at once. */
        MPI_Wait(&r->batch_send, MPI_STATUS_IGNORE);
        int64_t generation;
        int taken = pair_pool_take(c->pool, r->batch + 1, r->wanted, &generation);
        if (taken == 0)
            continue;
        /* The job cannot change while pairs of it are out: this is the one they belong to. */
        PairPoolJob job = pair_pool_job(c->pool);
        if (r->generation != job.generation && !send_job(c, k, &job)) {
            pair_pool_give_back(c->pool, r->batch + 1, taken);
            fail_rank(c, k, "out of memory for the job it plays");
            r->wanted = 0;
            continue;
        }
        r->batch[0] = generation;
        if (!note_outstanding(c, k, r->batch + 1, taken)) {
            pair_pool_give_back(c->pool, r->batch + 1, taken);
            fail_rank(c, k, "out of memory for the pairs it holds");
            r->wanted = 0;
            continue;
        }
        MPI_Isend(r->batch, taken + 1, MPI_INT64_T, k, TAG_BATCH, MPI_COMM_WORLD,
                  &r->batch_send);
        r->wanted = 0;
        sent++;
    }
    return sent;
}

/* Checks and deposits every pair of a RESULTS message. */
static void take_results(Coordinator *c, const MPI_Status *status) {
    int size;
    char *data = messages_receive_bytes(status, &size);
    int k = status->MPI_SOURCE;
    PairPoolJob job = pair_pool_job(c->pool);
    int64_t generation;
    size_t at = 0;
    if (!pair_wire_decode_generation((const uint8_t *)data, (size_t)size, &generation, &at)) {
        fail_rank(c, k, "a message of pairs without its job");
        at = (size_t)size;
    } else if (generation != job.generation) {
        at = (size_t)size; /* pairs of an earlier job, which has ended: dropped */
    }
    while (at < (size_t)size) {
        PairRecord pair;
        size_t used;
        Error err;
        if (!pair_wire_decode((const uint8_t *)data + at, (size_t)size - at, job.setup.max_plies,
                              &pair, &used, &err)) {
            fail_rank(c, k, err.text);
            break;
        }
        at += used;
        if (!pair_wire_verify(&pair, &job.setup, job.book, job.order, &err)) {
            match_pair_destroy(&pair);
            fail_rank(c, k, err.text);
            break;
        }
        note_delivered(c, k, pair.index);
        if (!pair_pool_deposit(c->pool, &pair, k, &err)) {
            fail_rank(c, k, err.text);
            break;
        }
    }
    free(data);
}

/* One message from a rank. A lost rank's are received (so that they do not pile up in MPI's
 * buffers) and dropped: its pairs have gone to others. */
static void handle(Coordinator *c, const MPI_Status *status) {
    int k = status->MPI_SOURCE, size;
    RankState *r = &c->rank[k];
    r->last_heard = cli_now_seconds();
    if (r->lost) {
        free(messages_receive_bytes(status, &size));
    } else if (status->MPI_TAG == TAG_RESULTS) {
        take_results(c, status);
    } else if (status->MPI_TAG == TAG_REQUEST) {
        int32_t count = 0;
        MPI_Recv(&count, 1, MPI_INT32_T, k, TAG_REQUEST, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int most = rank_limits_batch(c->session->ranks[k].threads);
        r->wanted = count < 1 ? 1 : count > most ? most : count;
    } else if (status->MPI_TAG == TAG_ALIVE) {
        free(messages_receive_bytes(status, &size));
    } else {
        char *text = messages_receive_bytes(status, &size);
        fail_rank(c, k, status->MPI_TAG == TAG_FAILED ? text : "an unexpected message");
        free(text);
    }
}

/* A rank silent for longer than the timeout (frozen, its host down or cut off) is lost: said
 * once, its outstanding pairs handed out again, the run goes on with the others (rank 0 always
 * plays too). Its late messages are dropped; at the end it is not waited for. */
static void check_silence(Coordinator *c) {
    double now = cli_now_seconds();
    for (int k = 1; k < c->ranks; k++) {
        RankState *r = &c->rank[k];
        if (r->lost || now - r->last_heard <= c->timeout)
            continue;
        mark_lost(c, k);
        cli_error("warning: rank %d (host %s) has sent nothing for %.0f s (-rank-timeout %g): "
                  "taken as lost; its %d unfinished pair(s) go to the other ranks, and whatever "
                  "it sends later is dropped",
                  k, c->session->ranks[k].host, now - r->last_heard, c->timeout,
                  r->outstanding_count);
        pair_pool_give_back(c->pool, r->outstanding, r->outstanding_count);
        r->outstanding_count = 0;
        r->wanted = 0;
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
        check_silence(c);
        int sent = serve_requests(c);
        if (!arrived && !sent) {
            messages_pause();
            continue;
        }
        messages += arrived + sent;
        busy += cli_now_seconds() - start;
        pair_pool_note_messages(c->pool, messages, busy);
    }
    return NULL;
}

static bool start(Coordinator *c) {
    if (pthread_create(&c->thread, NULL, comm_main, c) != 0) {
        cli_error("cannot start the thread that talks to the ranks");
        return false;
    }
    c->thread_started = true;
    return true;
}

/* Stops every rank and waits for each to say it has stopped, each within the timeout; what they
 * still send is read and dropped (a rank may be inside a send that only returns once it is
 * received). A lost rank is sent STOP without waiting for the send; one that does not answer
 * in time is lost too (abtest_mpi.c then ends the job with MPI_Abort, since MPI_Finalize would
 * wait for it). */
static void end(void *context, PairPool *pool) {
    Coordinator *c = context;
    (void)pool;
    atomic_store(&c->ending, true);
    if (c->thread_started)
        pthread_join(c->thread, NULL);
    MPI_Request *stops = malloc(sizeof *stops * (size_t)c->ranks);
    for (int k = 1; k < c->ranks; k++) {
        MPI_Request request;
        MPI_Isend(NULL, 0, MPI_BYTE, k, TAG_STOP, MPI_COMM_WORLD, &request);
        if (stops)
            stops[k] = request;
        else
            MPI_Request_free(&request);
    }
    /* Each rank reads its messages in order up to STOP, so every batch is received. */
    double deadline = cli_now_seconds() + c->timeout;
    bool *done = calloc((size_t)c->ranks, sizeof *done);
    int waiting = 0;
    for (int k = 1; k < c->ranks; k++)
        waiting += !c->rank[k].lost;
    while (waiting > 0) {
        MPI_Status status;
        if (!messages_wait_until(MPI_ANY_SOURCE, MPI_ANY_TAG, deadline, &status))
            break;
        int size, k = status.MPI_SOURCE;
        free(messages_receive_bytes(&status, &size));
        if (status.MPI_TAG == TAG_DONE && !c->rank[k].lost && done && !done[k]) {
            done[k] = true;
            waiting--;
        }
    }
    for (int k = 1; k < c->ranks; k++) {
        if (c->rank[k].lost || (done && done[k]))
            continue;
        mark_lost(c, k);
        cli_error("warning: rank %d (host %s) did not stop within %.0f s (-rank-timeout)", k,
                  c->session->ranks[k].host, c->timeout);
    }
    for (int k = 1; stops && k < c->ranks; k++)
        if (c->rank[k].lost) {
            MPI_Request_free(&stops[k]);
            if (c->rank[k].job_send != MPI_REQUEST_NULL) { /* MPI may still read the text */
                MPI_Request_free(&c->rank[k].job_send);
                c->rank[k].job_text = NULL;
            }
        } else {
            MPI_Wait(&stops[k], MPI_STATUS_IGNORE);
            MPI_Wait(&c->rank[k].batch_send, MPI_STATUS_IGNORE);
            MPI_Wait(&c->rank[k].job_send, MPI_STATUS_IGNORE);
        }
    free(stops);
    free(done);
}

static bool refuses(void *context, const MatchSettings *settings) {
    (void)context;
    return !ranks_can_play(settings);
}

PairRemote coordinator_remote(Coordinator *c) {
    return (PairRemote){c, c->default_threads, refuses, begin, end};
}
