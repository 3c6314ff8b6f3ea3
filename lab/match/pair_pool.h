// SPDX-License-Identifier: MIT
// The pair pool: the one place in lab/ that plays pairs. It holds a job (the engines and how
// their games are set up, the book and its order) and game threads, each with one searcher or
// program per engine, kept across pairs and made again only when the job changes. Clients hand
// it pair numbers in one of two ways:
//   - a span of pairs [first, limit), played in order within a window and handed back strictly
//     in pair order (pair_pool_next): the match, tune's iterations, booktest's cells;
//   - pair numbers as they come (pair_pool_add), handed back as they finish
//     (pair_pool_collect): an MPI rank playing rank 0's batches.
// Other sources of played pairs (MPI ranks, lab/mpi/coordinator.c) take pair numbers of a span
// and deposit what they played through the same window, so a span's records are the same
// whoever played them: a pair's games depend only on the job and the pair's number.
#pragma once

#include "book.h"
#include "match.h"
#include "schedule.h"
#include "settings.h"
#include "totals.h"

#include <stdatomic.h>

typedef struct PairPool PairPool;

/* What the pairs are. The pool copies the settings (engines, max moves, random plies, seed,
 * book path: what a rank rebuilds the job from); book, order and tablebase stay the caller's
 * and must live until the next job or the pool's end. */
typedef struct {
    const MatchSettings *settings;
    const Book *book;
    const Schedule *order;
    const struct Tablebase *tablebase; /* -tb adjudication (NULL: none) */
    int rank_threads; /* game threads of each other rank: -concurrency as given (0: its own) */
    /* The pairings playing from which pair (NULL: every pairing from pair 0); copied. */
    const PairingSegment *segment;
} PairJob;

/* The job as the pool holds it, for a source that checks what it is given (pair_wire_verify)
 * or passes the job on; generation counts the jobs set (1 for the first). */
typedef struct {
    const MatchSettings *settings;
    PairSetup setup;
    const Book *book;
    const Schedule *order;
    int64_t generation;
} PairPoolJob;

typedef enum { POOL_PAIR, POOL_WAITING, POOL_FAILED } PoolNext;

/* Other processes that play a pool's pairs (MPI ranks: lab/mpi/coordinator.c), for every
 * client alike. They take the pool's pairs, get every job the pool is given, and deposit what
 * they play, checked, through the pool's window. */
typedef struct {
    void *context;
    int default_threads; /* this process's game threads when -concurrency is not given */
    /* What the ranks cannot play (engine programs, -tb), said as soon as a client knows its
     * settings, before any file or engine is touched: true after saying why. */
    bool (*refuses)(void *context, const MatchSettings *settings);
    /* Once, before any span, with the job the pool is given first: proves every rank plays
     * that job as this one would, describes the ranks in session (allocated here, freed with
     * the totals; rank 0 is this one), widens the pool's window for what they hold, and starts
     * handing out work. False stops before play, after saying why. */
    bool (*begin)(void *context, PairPool *pool, const PairJob *first, SessionRanks *session);
    /* Once after a successful begin, when the client is done (or fails): every rank stopped
     * and waited for; pairs they still send are dropped. */
    void (*end)(void *context, PairPool *pool);
} PairRemote;

/* threads game threads; abort, when not NULL, is the caller's flag (a signal handler may raise
 * it: running games give up), else the pool keeps its own. NULL after saying why in err. */
PairPool *pair_pool_new(int threads, atomic_bool *abort, Error *err);

/* Ends every game (raising the abort flag), joins the threads, which stop their engines
 * (programs get `quit`, then their process group is killed after a second), frees the rest. */
void pair_pool_free(PairPool *pool);

/* Sets the job, with no pair in flight: every thread makes its searchers and starts its
 * programs for it, in parallel, before this returns. False with the first thread's reason (a
 * program that would not start, the abort flag raised meanwhile). */
bool pair_pool_set_job(PairPool *pool, const PairJob *job, Error *err);

/* Other sources of pairs: sources in all (this machine's threads are source 0) holding up to
 * in_flight pairs at once between them, which widens the window. Before the first span. */
bool pair_pool_add_sources(PairPool *pool, int sources, int64_t in_flight, Error *err);

/* Starts handing out the pairs [first, limit) in order. */
void pair_pool_start(PairPool *pool, int64_t first, int64_t limit);

/* The next pair of the span in pair order into *out (the caller then owns it), waiting up to
 * seconds: POOL_PAIR, POOL_WAITING (not finished yet) or POOL_FAILED (pair_pool_failure). */
PoolNext pair_pool_next(PairPool *pool, double seconds, PairRecord *out);

/* Ends the span (or the pairs added): nothing more handed out, running games given up, what is
 * finished and not taken dropped. Returns how many pairs were handed out and not taken. The
 * pool is then ready for another job or span. */
int64_t pair_pool_end(PairPool *pool);

/* Plays the pairs [first, first + count) and returns their records in pair order (out[i] for
 * pair first + i; pair_pool_records_destroy frees them). False with the reason. */
bool pair_pool_play(PairPool *pool, int64_t first, int count, PairRecord out[], Error *err);
void pair_pool_records_destroy(PairRecord records[], int count);

/* Pair numbers to play as they come, outside any span; their records come back by
 * pair_pool_collect, in the order they finish. False when memory is short. */
bool pair_pool_add(PairPool *pool, const int64_t pairs[], int count);
/* Up to most finished pairs (added ones) into out; returns how many. */
int pair_pool_collect(PairPool *pool, PairRecord out[], int most);
/* Pairs added and not started yet. */
int pair_pool_queued(PairPool *pool);

/* For another source, from any thread while a span plays. */
PairPoolJob pair_pool_job(PairPool *pool);
/* Up to most pair numbers to play: those given back first, then the next in order within the
 * span and the window; 0 when none can go out now. *generation: the job they belong to, which
 * stays the pool's job until they are delivered (or given back). */
int pair_pool_take(PairPool *pool, int64_t pairs[], int most, int64_t *generation);
/* Pairs taken that will never be delivered (a lost rank): they go out again. A pair's games
 * depend only on its number, so the result is as if the first source had played it. */
void pair_pool_give_back(PairPool *pool, const int64_t pairs[], int count);
/* A played pair from source (taken with pair_pool_take): the pool owns it from now on. False
 * (pair freed, err says why) when it was not handed out or came twice. */
bool pair_pool_deposit(PairPool *pool, PairRecord *pair, int source, Error *err);
/* Stops the span with err as its failure (the first failure is the one kept). */
void pair_pool_fail(PairPool *pool, const Error *err);
/* The other sources' traffic so far (messages, and the seconds spent handling them). */
void pair_pool_note_messages(PairPool *pool, int64_t messages, double busy_seconds);

/* Whether the span failed, and why. */
bool pair_pool_failure(PairPool *pool, Error *err);
/* Into session: the pairs each source (rank) delivered since the pool began, and the traffic. */
void pair_pool_traffic(PairPool *pool, SessionRanks *session);
