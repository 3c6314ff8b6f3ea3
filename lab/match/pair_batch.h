// SPDX-License-Identifier: MIT
// A batch of a match's pairs played on threads, for the tools that need each pair's score
// rather than a whole run (abtest tune's iterations, abtest booktest's cells): the pairs given by
// number, each with its opening from the book's order, as the runner would play them.
#pragma once

#include "book.h"
#include "match.h"
#include "schedule.h"

#include <stdatomic.h>

typedef struct {
    const EngineSpec *engines; /* [MATCH_ENGINES]: engine 0 is the one scored */
    PairSetup setup;
    const Book *book;
    const Schedule *order;
} PairBatch;

/* What a pair left: engine 0's half points (0..4), how many of its two games were drawn, and
 * the plies of both games (after the opening: what the pair cost, at a node limit). */
typedef struct {
    int half_points;
    int draws;
    int plies;
} PairScore;

/* Plays pairs[0..count) on up to threads threads; scores[i] for pairs[i]. abort, when set,
 * stops the games (the call then fails). False with err naming the pair that failed. */
bool pair_batch_play(const PairBatch *batch, const int64_t pairs[], int count, int threads,
                     atomic_bool *abort, PairScore scores[], Error *err);
