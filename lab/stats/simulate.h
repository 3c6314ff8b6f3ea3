// SPDX-License-Identifier: MIT
// `abtest simulate`: virtual SPRTs. Pair outcomes are drawn from a pentanomial distribution
// (from a true Elo and a draw ratio, or given), run through the same SPRT code as a match (the
// LLR and decision pair by pair, or every batch of pairs as fishtest looks at its tests, with or
// without the overshoot correction), many times with a
// seed on all cores. Reports how often H1 is accepted, how long tests run, and the bias and
// coverage of the plain and the SPRT-corrected Elo. Results depend on the seed only, never on
// the number of threads.
#pragma once

#include "sprt.h"

#define SIMULATE_MAX_THREADS 256

typedef struct {
    SprtParams params;       /* the SPRT under test (overshoot on or off) */
    double probabilities[5]; /* pair outcomes LL, LD, WL+DD, WD, WW (sum 1) */
    double true_elo;         /* logistic Elo of the distribution (its mean score) */
    int64_t runs;
    int64_t max_pairs; /* a run still undecided here counts as undecided */
    int64_t batch; /* pairs between looks at the LLR: 1 as a match, more as fishtest's workers */
    uint64_t seed;
    int threads;
} SimulateSetup;

typedef struct {
    int64_t runs, h1, h0, undecided;
    double mean_pairs; /* of decided runs */
    int64_t median_pairs, p90_pairs, p99_pairs;
    double plain_bias, plain_rmse, plain_coverage; /* logistic Elo, decided runs */
    double corrected_bias, corrected_rmse, corrected_coverage;
} SimulateResult;

/* Pentanomial probabilities for a true logistic Elo and a per-game draw ratio: games
 * independent, each a win with probability s - d/2 and a loss with 1 - s - d/2 (s the score of
 * the Elo). False when that is not a distribution (|Elo| too large for the draw ratio). */
bool simulate_pentanomial_from_elo(double elo, double draw_ratio, double out[5]);

/* The logistic Elo whose score is the distribution's mean. */
double simulate_elo_of(const double probabilities[5]);

/* The logistic Elo of an nElo at a per-game draw ratio, through the per-game deviation
 * sqrt((1 - d) / 4), as -plan converts bounds. */
double simulate_elo_of_nelo(double nelo, double draws);

/* Runs the simulation (threads workers, each taking runs by index). False when threads cannot
 * start or memory is short. */
bool simulate_run(const SimulateSetup *setup, SimulateResult *out, Error *err);

/* one(context, run) for every run in [0, runs) on threads workers, each taking runs by index:
 * what a run gives depends on its index only, so the numbers never depend on the threads.
 * False when a thread cannot start. */
bool simulate_parallel(int64_t runs, int threads, void (*one)(void *context, int64_t run),
                       void *context, Error *err);
