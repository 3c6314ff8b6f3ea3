// SPDX-License-Identifier: MIT
// The match runner: worker threads play pairs; the main thread counts them in pair order, runs
// the SPRT, reports, checkpoints and resumes. Other ranks (lab/mpi/) plug in as a remote source
// of played pairs through RunnerRemote and the runner_* calls below.
#pragma once

#include "book.h"
#include "match.h"
#include "results.h"
#include "schedule.h"
#include "settings.h"

typedef struct Runner Runner;

/* Another source of played pairs besides this machine's threads, called at fixed points of a
 * run that plays (not one that fails to start or has already ended). */
typedef struct {
    void *context;
    /* Before any game, with the settings final and the book loaded: prove every rank runs the
     * same engine, and describe the ranks in session (allocated here, freed with the totals;
     * rank 0 is this one) and the most pairs the other ranks hold at once. False stops the
     * run before play, after saying why. */
    bool (*begin)(void *context, Runner *runner, SessionRanks *session, int64_t *in_flight);
    /* Starts handing out work (this machine's threads are running). False: could not. */
    bool (*start)(void *context, Runner *runner);
    /* The run has stopped counting (decision, rounds, interrupt or failure), or could not
     * start after begin succeeded (start may not have been called): stop every rank and wait
     * for them. Pairs they still send are discarded. */
    void (*end)(void *context, Runner *runner);
} RunnerRemote;

/* Runs (or resumes) the match the settings describe, on this machine's threads and, when
 * remote is not NULL, on the ranks behind it. Returns the process exit code: 0 when the run
 * ended (SPRT decision or rounds done), 130/143 when interrupted by SIGINT/SIGTERM (the results
 * are saved and the resume command printed), 2 on an error (already reported). */
int runner_run(MatchSettings *settings, const RunnerRemote *remote);

/* For a remote source, from any thread while the run plays. */
const MatchSettings *runner_settings(const Runner *runner);
const Book *runner_book(const Runner *runner);
const Schedule *runner_schedule(const Runner *runner);

/* Hands out up to max pair indices: those given back first (runner_give_back), then the next
 * in order, within the rounds and the window of finished pairs; 0 when none can go out now. */
int runner_take_pairs(Runner *runner, int64_t *indices, int max);

/* Pairs handed out to a source that will never deliver them (a lost rank): they go out again,
 * to this machine's threads or another source. A pair's games depend only on its number, so
 * the result is the same as if the first source had played it. */
void runner_give_back(Runner *runner, const int64_t *indices, int count);

/* A played pair from rank source (taken with runner_take_pairs): the runner owns it from now
 * on. False (pair freed, err says why) when it was not handed out or came twice. */
bool runner_deposit(Runner *runner, PairRecord *pair, int source, Error *err);

/* Stops the run with err as its failure (reported once, the results saved). */
void runner_fail(Runner *runner, const Error *err);

/* The remote source's traffic so far this session (messages, and the seconds spent handling
 * them), for the results file. */
void runner_note_messages(Runner *runner, int64_t messages, double busy_seconds);
