// SPDX-License-Identifier: MIT
#include "tune_ranks.h"

#include "cli.h"
#include "coordinator.h"
#include "fingerprint.h"
#include "messages.h"
#include "rank_limits.h"
#include "tune_share.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUNE_RANKS_NO_TABLEBASE                                                                    \
    "abtest-mpi does not adjudicate by tablebase yet; run build/abtest tune on one machine for "   \
    "that"

typedef struct {
    char host[64];
    int threads;
    bool lost;
    int *offsets; /* the pairs it holds in this iteration (count 0: none) */
    /* The ITERATION last sent, kept until its send completes: a send that does not block, so
     * that a rank frozen before it received a long one cannot stop rank 0. */
    double *message;
    MPI_Request sending;
    int count;
    double last_heard;
} RankShare;

struct TuneRanks {
    int ranks;
    int default_threads;
    double timeout;
    bool setup_sent;
    int lost;
    RankShare *rank; /* [ranks]; [0] is this one */
};

TuneRanks *tune_ranks_new(int ranks, int default_threads, double timeout) {
    TuneRanks *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->rank = calloc((size_t)ranks, sizeof *r->rank);
    if (!r->rank) {
        free(r);
        return NULL;
    }
    for (int k = 0; k < ranks; k++)
        r->rank[k].sending = MPI_REQUEST_NULL;
    r->ranks = ranks;
    r->default_threads = default_threads;
    r->timeout = timeout;
    return r;
}

int tune_ranks_lost(const TuneRanks *r) { return r->lost; }

void tune_ranks_free(TuneRanks *r) {
    for (int k = 0; k < r->ranks; k++) {
        free(r->rank[k].offsets);
        free(r->rank[k].message);
    }
    free(r->rank);
    free(r);
}

static void cancel(void *context) {
    TuneRanks *r = context;
    if (!r->setup_sent)
        coordinator_send_nothing(r->ranks);
    r->setup_sent = true;
}

static void mark_lost(TuneRanks *r, int k) {
    r->rank[k].lost = true;
    r->lost++;
}

/* Rank k's HELLO, waited for up to the timeout; false after saying why it cannot play. */
static bool read_hello(TuneRanks *r, int k, const char *mine) {
    RankShare *rank = &r->rank[k];
    MPI_Status status;
    if (!messages_wait_until(k, TAG_HELLO, cli_now_seconds() + r->timeout, &status)) {
        snprintf(rank->host, sizeof rank->host, "?");
        mark_lost(r, k);
        cli_error("rank %d sent no greeting within %.0f s (-rank-timeout)", k, r->timeout);
        return false;
    }
    int size;
    char *text = messages_receive_bytes(&status, &size);
    char *lines[4];
    int count = messages_split_lines(text, lines, 4);
    snprintf(rank->host, sizeof rank->host, "%s", count > 1 ? lines[1] : "?");
    bool ok = false;
    if (count >= 3 && !strcmp(lines[0], "error"))
        cli_error("rank %d (host %s) cannot play: %s", k, rank->host, lines[2]);
    else if (count != 4 || strcmp(lines[0], "ok") ||
             !rank_limits_parse_threads(lines[2], &rank->threads))
        cli_error("rank %d (host %s) sent a greeting this build does not understand: is it "
                  "another version of abtest-mpi?",
                  k, rank->host);
    else if (strcmp(lines[3], mine))
        cli_error("rank %d (host %s) runs another engine, options or book: its fingerprint is\n"
                  "  %s\nrank 0 has\n  %s",
                  k, rank->host, lines[3], mine);
    else
        ok = true;
    free(text);
    return ok;
}

/* {"arguments": [...]}: the run, as every rank parses it. */
static char *setup_text(int argc, char **argv) {
    cJSON *json = cJSON_CreateObject();
    cJSON *words = cJSON_AddArrayToObject(json, "arguments");
    for (int i = 0; i < argc; i++)
        cJSON_AddItemToArray(words, cJSON_CreateString(argv[i]));
    char *text = cJSON_PrintUnformatted(json);
    cJSON_Delete(json);
    return text;
}

static bool begin(void *context, Tune *tune, int argc, char **argv, Error *err) {
    TuneRanks *r = context;
    char *setup = setup_text(argc, argv);
    if (!setup) {
        cancel(r);
        return error_set(err, "out of memory for the run's arguments");
    }
    for (int k = 1; k < r->ranks; k++)
        messages_send_text(k, TAG_SETUP, setup);
    free(setup);
    r->setup_sent = true;
    char mine[FINGERPRINT_TEXT_MAX];
    bool ok = tune_fingerprint(tune, mine, sizeof mine, err);
    cli_hostname(r->rank[0].host, sizeof r->rank[0].host);
    r->rank[0].threads = tune_threads(tune);
    for (int k = 1; k < r->ranks; k++) /* every greeting is read, so all differences are said */
        ok = read_hello(r, k, mine) && ok;
    messages_send_go(r->ranks, ok);
    if (!ok)
        return err->text[0] ? false
                            : error_set(err, "the run stops before any game: every rank must "
                                             "run the same build, options and book, and greet "
                                             "within -rank-timeout");
    int threads = 0;
    for (int k = 0; k < r->ranks; k++)
        threads += r->rank[k].threads;
    printf("mpi: %d rank(s), %d game thread(s) in all; fingerprint %s\n", r->ranks, threads, mine);
    return true;
}

/* Pair offset j goes to the rank whose threads hold slot j mod (all threads): each rank gets
 * pairs in proportion to its threads. Rank 0 counts as live always. */
static bool assign(TuneRanks *r, int pairs) {
    int slots = 0;
    for (int k = 0; k < r->ranks; k++) {
        RankShare *rank = &r->rank[k];
        rank->count = 0;
        free(rank->offsets);
        rank->offsets = NULL;
        if (k == 0 || !rank->lost)
            slots += rank->threads;
    }
    for (int j = 0; j < pairs; j++) {
        int slot = j % slots, k = 0;
        for (;; k++) {
            if (k > 0 && r->rank[k].lost)
                continue;
            if (slot < r->rank[k].threads)
                break;
            slot -= r->rank[k].threads;
        }
        RankShare *rank = &r->rank[k];
        if (!rank->offsets && !(rank->offsets = malloc(sizeof(int) * (size_t)pairs)))
            return false;
        rank->offsets[rank->count++] = j;
    }
    return true;
}

/* Rank k answered its previous iteration, so that send is complete and this wait returns at
 * once. */
static void send_iteration(RankShare *rank, int k, int64_t iteration, const double theta[],
                           int params) {
    MPI_Wait(&rank->sending, MPI_STATUS_IGNORE);
    int size = 1 + params + rank->count;
    free(rank->message);
    rank->message = malloc(sizeof *rank->message * (size_t)size);
    if (!rank->message) {
        fprintf(stderr, "abtest-mpi: out of memory for an iteration's message\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    rank->message[0] = (double)iteration;
    memcpy(rank->message + 1, theta, sizeof *theta * (size_t)params);
    for (int i = 0; i < rank->count; i++)
        rank->message[1 + params + i] = rank->offsets[i];
    MPI_Isend(rank->message, size, MPI_DOUBLE, k, TAG_ITERATION, MPI_COMM_WORLD, &rank->sending);
}

/* Rank k's SCORES: one (offset, half points) per pair it held, in its order. */
static bool take_scores(TuneRanks *r, const MPI_Status *status, int half_points[], Error *err) {
    int k = status->MPI_SOURCE, count = 0;
    RankShare *rank = &r->rank[k];
    MPI_Get_count(status, MPI_INT32_T, &count);
    int32_t *scores = malloc(sizeof *scores * (size_t)(count > 0 ? count : 1));
    if (!scores)
        return error_set(err, "out of memory");
    MPI_Recv(scores, count, MPI_INT32_T, k, TAG_SCORES, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bool ok = count == 2 * rank->count;
    for (int i = 0; ok && i < rank->count; i++)
        ok = scores[2 * i] == rank->offsets[i] && scores[2 * i + 1] >= 0 && scores[2 * i + 1] <= 4;
    for (int i = 0; ok && i < rank->count; i++)
        half_points[rank->offsets[i]] = scores[2 * i + 1];
    free(scores);
    if (!ok)
        return error_set(err,
                         "rank %d (host %s) returned scores for other pairs than it was "
                         "given",
                         k, rank->host);
    rank->count = 0;
    return true;
}

/* A lost rank may never receive its last ITERATION: the request is let go, and so is the
 * message, which MPI may still read (the job ends by MPI_Abort soon after). */
static void forget_send(RankShare *rank) {
    if (rank->sending != MPI_REQUEST_NULL) {
        MPI_Request_free(&rank->sending);
        rank->message = NULL;
    }
}

/* A rank that holds pairs and has been silent past the timeout is lost: its pairs go to the
 * list rank 0 plays after its own. */
static void check_silence(TuneRanks *r, int reassigned[], int *reassigned_count) {
    double now = cli_now_seconds();
    for (int k = 1; k < r->ranks; k++) {
        RankShare *rank = &r->rank[k];
        if (rank->lost || rank->count == 0 || now - rank->last_heard <= r->timeout)
            continue;
        cli_error("warning: rank %d (host %s) has sent nothing for %.0f s (-rank-timeout %g): "
                  "taken as lost; rank 0 plays its %d pair(s) of this iteration",
                  k, rank->host, now - rank->last_heard, r->timeout, rank->count);
        mark_lost(r, k);
        forget_send(rank);
        memcpy(reassigned + *reassigned_count, rank->offsets, sizeof(int) * (size_t)rank->count);
        *reassigned_count += rank->count;
        rank->count = 0;
    }
}

/* One message while an iteration plays; false (err set) when the run cannot go on. */
static bool handle(TuneRanks *r, const MPI_Status *status, int half_points[], Error *err) {
    int k = status->MPI_SOURCE, size;
    RankShare *rank = &r->rank[k];
    rank->last_heard = cli_now_seconds();
    if (!rank->lost && status->MPI_TAG == TAG_SCORES)
        return take_scores(r, status, half_points, err);
    char *text = messages_receive_bytes(status, &size);
    bool ok = rank->lost || status->MPI_TAG == TAG_ALIVE;
    if (!ok)
        error_set(err, "rank %d (host %s): %s", k, rank->host,
                  status->MPI_TAG == TAG_FAILED ? text : "an unexpected message");
    free(text);
    return ok;
}

static int held_by_ranks(const TuneRanks *r) {
    int held = 0;
    for (int k = 1; k < r->ranks; k++)
        held += r->rank[k].lost ? 0 : r->rank[k].count;
    return held;
}

static bool play(void *context, Tune *tune, int64_t iteration, int half_points[], Error *err) {
    TuneRanks *r = context;
    int pairs = tune_pairs(tune), params = tune_param_count(tune);
    double theta[TUNE_PARAMS_MAX];
    tune_theta(tune, theta);
    int *mine = malloc(sizeof *mine * (size_t)pairs);
    int *reassigned = malloc(sizeof *reassigned * (size_t)pairs);
    int *my_points = malloc(sizeof *my_points * (size_t)pairs);
    if (!mine || !reassigned || !my_points || !assign(r, pairs)) {
        free(mine);
        free(reassigned);
        free(my_points);
        return error_set(err, "out of memory");
    }
    double now = cli_now_seconds();
    for (int k = 1; k < r->ranks; k++)
        if (!r->rank[k].lost && r->rank[k].count > 0) {
            r->rank[k].last_heard = now;
            send_iteration(&r->rank[k], k, iteration, theta, params);
        }
    int mine_count = r->rank[0].count, reassigned_count = 0;
    memcpy(mine, r->rank[0].offsets, sizeof *mine * (size_t)mine_count);
    TuneShare *share = mine_count ? tune_share_start(tune, iteration, mine, mine_count,
                                                     r->rank[0].threads, my_points, err)
                                  : NULL;
    bool ok = share || mine_count == 0;
    while (ok && (share || held_by_ranks(r) > 0 || reassigned_count > 0)) {
        int arrived = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
        if (arrived)
            ok = handle(r, &status, half_points, err);
        check_silence(r, reassigned, &reassigned_count);
        if (ok && share && tune_share_finished(share)) {
            ok = tune_share_join(share, err);
            share = NULL;
            for (int i = 0; ok && i < mine_count; i++)
                half_points[mine[i]] = my_points[i];
            mine_count = 0;
        }
        if (ok && !share && reassigned_count > 0) { /* a lost rank's pairs, played here */
            memcpy(mine, reassigned, sizeof *mine * (size_t)reassigned_count);
            mine_count = reassigned_count;
            reassigned_count = 0;
            share = tune_share_start(tune, iteration, mine, mine_count, r->rank[0].threads,
                                     my_points, err);
            ok = share != NULL;
        }
        if (!arrived)
            messages_pause();
    }
    if (share) { /* failed meanwhile */
        Error ignored;
        tune_share_abort(share);
        tune_share_join(share, &ignored);
    }
    free(mine);
    free(reassigned);
    free(my_points);
    return ok;
}

/* Stops every rank and waits for each to say so within the timeout, dropping what else they
 * send. One that does not answer is lost (the job then ends with MPI_Abort). */
static void end(void *context, Tune *tune) {
    TuneRanks *r = context;
    (void)tune;
    int waiting = 0;
    bool *done = calloc((size_t)r->ranks, sizeof *done);
    for (int k = 1; k < r->ranks; k++)
        if (!r->rank[k].lost) {
            MPI_Send(NULL, 0, MPI_BYTE, k, TAG_STOP, MPI_COMM_WORLD);
            waiting++;
        }
    double deadline = cli_now_seconds() + r->timeout;
    while (waiting > 0 && done) {
        MPI_Status status;
        if (!messages_wait_until(MPI_ANY_SOURCE, MPI_ANY_TAG, deadline, &status))
            break;
        int size, k = status.MPI_SOURCE;
        free(messages_receive_bytes(&status, &size));
        if (status.MPI_TAG == TAG_DONE && !r->rank[k].lost && !done[k]) {
            done[k] = true;
            waiting--;
        }
    }
    for (int k = 1; k < r->ranks; k++) {
        if (!r->rank[k].lost && !(done && done[k])) {
            mark_lost(r, k);
            cli_error("warning: rank %d (host %s) did not stop within %.0f s (-rank-timeout)", k,
                      r->rank[k].host, r->timeout);
        }
        if (r->rank[k].lost)
            forget_send(&r->rank[k]);
        else
            MPI_Wait(&r->rank[k].sending, MPI_STATUS_IGNORE);
    }
    free(done);
}

TuneRemote tune_ranks_remote(TuneRanks *r) {
    return (TuneRemote){r, r->default_threads, TUNE_RANKS_NO_TABLEBASE, begin, play, end, cancel};
}
