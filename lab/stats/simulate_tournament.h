// SPDX-License-Identifier: MIT
// `abtest simulate -tournament`: virtual families of engines. A gauntlet plays each candidate
// against the base (engine 0), every open candidate one pair a look, each with its own GSPRT
// decided together under a family-wise control (family.h), and counts how often any candidate
// no better than elo0 is accepted and any at least elo1 rejected, each candidate's decisions
// and pairs. A round robin plays every two engines the same number of pairs, fits the joint
// rating (rating.h) and counts how often each engine's 95% interval holds its true rating.
// Pairs come from two independent games at a per-game draw ratio; seeded by run, so the
// numbers never depend on the threads.
#pragma once

#include "family.h"
#include "rating.h"
#include "sprt.h"

#include <stdint.h>

#define SIMULATE_ENGINES_MAX (FAMILY_TESTS_MAX + 1)

typedef struct {
    int count;                           /* engines: the base (anchor) first */
    double elo[SIMULATE_ENGINES_MAX];  /* each one's true logistic Elo, the base's 0 */
    double nelo[SIMULATE_ENGINES_MAX]; /* the same against the base, normalized */
    double draws;                        /* per-game draw ratio */
    SprtParams params;                   /* a gauntlet's test of each candidate */
    FamilyControl control;
    int64_t max_pairs; /* gauntlet: a candidate still open after this many stays open */
    int64_t batch;     /* gauntlet: pairs each open candidate plays between looks (1: a match) */
    int64_t pairs;     /* round robin: pairs of each pairing */
    int64_t runs;
    uint64_t seed;
    int threads;
} TournamentSetup;

typedef struct {
    int64_t runs;
    /* gauntlet */
    int64_t null_accepted; /* runs where some candidate at or below elo0 got H1 */
    int64_t good_rejected; /* runs where some candidate at or above elo1 got H0 */
    int64_t h1[SIMULATE_ENGINES_MAX], h0[SIMULATE_ENGINES_MAX], open[SIMULATE_ENGINES_MAX];
    double mean_pairs[SIMULATE_ENGINES_MAX]; /* a candidate's, to its decision or the end */
    double mean_total_pairs;
    /* round robin */
    int64_t covered[SIMULATE_ENGINES_MAX]; /* runs whose interval held the true Elo */
} TournamentResult;

/* Runs the gauntlet or the round robin; false when memory or threads fail or a strength is out
 * of reach at the draw ratio. */
bool simulate_gauntlet(const TournamentSetup *setup, TournamentResult *out, Error *err);
bool simulate_round_robin(const TournamentSetup *setup, TournamentResult *out, Error *err);
