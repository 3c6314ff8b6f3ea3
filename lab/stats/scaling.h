// SPDX-License-Identifier: MIT
// How a difference scales with the limit: the slope of Elo against log2 of the limit, fitted to
// steps each measured with its own error (a ladder, lab/match/ladder.h), and the simulator that
// checks its interval: virtual ladders of known Elos, pairs drawn as `abtest simulate` draws
// them.
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define SCALING_STEPS_MAX 8

/* The slope (Elo per doubling) fitted by weighted least squares to count steps at x (log2 of
 * each limit) with Elo elo and standard error se (weights 1/se^2), and its standard error.
 * Steps whose Elo or se is not finite, or se not positive, are left out. False with fewer than
 * two steps left or all at one x. */
bool scaling_slope(const double x[], const double elo[], const double se[], int count,
                   double *slope, double *slope_se);

typedef struct {
    int steps;
    double elo[SCALING_STEPS_MAX]; /* true logistic Elo of each step, a doubling apart */
    double draws;                  /* per-game draw ratio */
    int64_t pairs;                 /* pairs a step */
    int64_t runs;
    uint64_t seed;
} ScalingSetup;

typedef struct {
    double true_slope;             /* the least-squares slope of the true Elos */
    int64_t fitted;                /* runs with a slope (every step drew pairs) */
    double mean_slope, rmse;       /* of the fitted slopes */
    double mean_half_width;        /* of the 95% intervals */
    double coverage;               /* share of runs whose interval holds true_slope */
} ScalingResult;

/* Runs the virtual ladders: each step's pairs drawn from the pentanomial of its Elo at the draw
 * ratio, its Elo and interval estimated as abtest estimates a match's, the slope fitted as a
 * ladder fits it. False when an Elo is too large for the draw ratio (said in *why). */
bool scaling_simulate(const ScalingSetup *setup, ScalingResult *out, const char **why);
