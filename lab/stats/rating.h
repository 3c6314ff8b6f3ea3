// SPDX-License-Identifier: MIT
// A joint rating of many engines from the pairs they played (docs/sprt.md, "A rating from
// pairs"): one logistic Elo per engine, the anchor's at 0, fitted on the pair scores of every
// pairing. Pairs cancel the tigers/sheep asymmetry, so the model has no side term: the expected
// pair score of A against B is L(x_A - x_B), L the logistic function (x in units of
// ln 10 / 400 Elo). The fit maximises the quasi-likelihood of the pair scores (each pair's score
// s in [0, 1] taken as a fraction of a Bernoulli trial: Bradley-Terry with fractional outcomes),
// whose score equations say that every engine's expected total equals its actual total; with
// two engines that is the match's own Elo. The 95% intervals come from the sandwich covariance:
// the model's information, with the pairs' observed variance in the middle, because a pair's
// score is not a Bernoulli trial (draws, and the two games of a pair are not independent: the
// error of per-game models, Ordo#11). Counts are regularised as the match's (an empty cell
// counts 1e-3), so no rating is infinite.
#pragma once

#include "error.h"
#include "sprt.h"

#include <stdint.h>

#define RATING_ENGINES_MAX 64
#define RATING_PAIRINGS_MAX (RATING_ENGINES_MAX * (RATING_ENGINES_MAX - 1) / 2)

/* The pairs two engines played, counted from first's side. */
typedef struct {
    int first, second;
    Pentanomial penta;
} RatingPairing;

typedef struct {
    double elo, elo_low, elo_high;    /* logistic Elo against the anchor, 95% interval */
    double nelo, nelo_low, nelo_high; /* the same in units of the pooled pair spread */
    double score;                     /* the mean score of its pairs, every opponent */
    double draw_ratio;                /* its pairs that scored 1 (WL or DD) */
    int64_t pairs;
} RatingEngine;

typedef struct {
    int count, anchor;
    RatingEngine engines[RATING_ENGINES_MAX];
    /* The ratings' covariance, in Elo squared (the anchor's row and column are 0). */
    double covariance[RATING_ENGINES_MAX][RATING_ENGINES_MAX];
    double pooled_sigma; /* the pairs' standard deviation of score, pooled over pairings */
    int iterations;      /* Newton steps the fit took */
} RatingList;

/* Fits count engines (2 .. RATING_ENGINES_MAX) from their pairings, engine anchor at 0. False
 * with err when a pairing names an engine out of range or itself, the pairings leave an engine
 * unlinked to the anchor (its rating would be anything), or an engine scored all or none of its
 * points (its rating is unbounded). names[e] names engine e in messages (NULL: "engine 3"). */
bool rating_fit(int count, int anchor, const char *const names[], const RatingPairing pairings[],
                int pairing_count, RatingList *out, Error *err);

/* The likelihood that engine a is stronger than engine b: the normal probability of a positive
 * rating difference under the fit's covariance. */
double rating_los(const RatingList *list, int a, int b);
