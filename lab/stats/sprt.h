// SPDX-License-Identifier: MIT
// SPRT statistics, computed exactly as fishtest computes them: the generalized SPRT's log-
// likelihood ratio on pentanomial or trinomial counts (logistic or normalized Elo bounds, or
// fishtest's BayesElo path), the Wald bounds and decision, Elo and nElo with 95% intervals, LOS.
// Pure functions: no printing, no game knowledge (see docs/sprt.md).
#pragma once

#include "error.h"

#include <stdbool.h>
#include <stdint.h>

#define SPRT_NELO_PER_T 347.43558552260146 /* 800 / ln 10: nElo per unit of normalized t */
#define SPRT_Z95 1.959963984540054         /* two-sided 95% normal quantile */
#define SPRT_ZERO_CELL 1e-3                /* fishtest's replacement for an empty cell */
#define SPRT_ELO_LIMIT 1000.0              /* accepted range of elo0 and elo1 */
/* The narrowest bounds accepted, in the model's unit. A test's expected length grows as
 * 1 / (elo1 - elo0)^2: <0, 0.01> expects 3.2e9 pairs at elo0 and {0, 0.01} 1.3e9 (`abtest sprt
 * -plan 0.6`), which no run reaches; far narrower bounds only lose the statistics' precision. */
#define SPRT_MIN_GAP 0.01

typedef enum { SPRT_MODEL_NORMALIZED, SPRT_MODEL_LOGISTIC, SPRT_MODEL_BAYESELO } SprtModel;
typedef enum { SPRT_CONTINUE, SPRT_H0, SPRT_H1 } SprtDecision;

typedef struct {
    double elo0, elo1;  /* H0 and H1, in the model's unit (nElo, logistic Elo or BayesElo) */
    double alpha, beta; /* error rates */
    SprtModel model;
    bool overshoot; /* abtest: decide with fishtest's overshoot correction (SprtOvershoot) */
} SprtParams;

/* Game pairs from the first engine's side (the engine under test), WL and DD kept apart (both
 * score 1). */
typedef struct {
    uint64_t ll, ld, wl, dd, wd, ww;
} Pentanomial;

/* Single games from the first engine's side. */
typedef struct {
    uint64_t wins, draws, losses;
} Trinomial;

/* What the statistics run on: counts on the evenly spaced support 0..1 (K = 5: pair averages
 * 0, 1/4, 1/2, 3/4, 1 = [LL, LD, WL+DD, WD, WW]; K = 3: game scores = [L, D, W]). For the BayesElo
 * model, drawelo is estimated from W/D/L, so those are carried too when known. */
typedef struct {
    double counts[5];
    int k;
    bool has_wdl;
    Trinomial wdl;
} SprtSample;

SprtSample sprt_sample_pentanomial(const Pentanomial *penta);
SprtSample sprt_sample_trinomial(const Trinomial *wdl);
/* W/D/L implied by pairs (a WL pair is one win and one loss, and so on). */
Trinomial sprt_pentanomial_wdl(const Pentanomial *penta);

/* The largest |nElo| bound the normalized model can test on a K-point support (K = 5: pairs,
 * 231.6; K = 3: games, 340.4): beyond it fishtest's fixed point, started from the uniform
 * distribution, has no root and the LLR is 0 for any counts. */
double sprt_normalized_limit(int k);

/* Checks elo0 < elo1 with elo1 - elo0 >= SPRT_MIN_GAP (both within +-1000; normalized ones
 * within sprt_normalized_limit(5)), 0 < alpha < 1, 0 < beta < 1, alpha + beta < 1. */
bool sprt_params_check(const SprtParams *params, Error *err);

/* Wald bounds: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). */
double sprt_lower_bound(const SprtParams *params);
double sprt_upper_bound(const SprtParams *params);

/* The generalized SPRT's log-likelihood ratio, as fishtest's LLRcalc/stat_util compute it.
 * Zero cells count as 1e-3; the constrained maximum likelihood is solved by bisection to machine
 * precision. Finite for any counts (all wins, all losses, empty). The BayesElo model needs W/D/L
 * (sample->has_wdl); without them it returns 0. */
double sprt_llr(const SprtSample *sample, const SprtParams *params);

/* H1 when llr > upper bound, H0 when llr < lower bound (fishtest's strict inequalities). */
SprtDecision sprt_decide(double llr, const SprtParams *params);
const char *sprt_decision_name(SprtDecision decision); /* "H0", "H1", "continue" */
const char *sprt_model_name(SprtModel model);          /* "normalized", "logistic", "bayeselo" */
bool sprt_model_from_name(const char *name, SprtModel *model);

typedef struct {
    double elo, elo_low, elo_high;    /* logistic Elo, 95% interval [elo - h, elo + h] */
    double nelo, nelo_low, nelo_high; /* normalized Elo, 95% interval (fishtest's raw page) */
    double los;                       /* likelihood of superiority, 0..1 */
    double score;                     /* mean score per game */
    double samples;                   /* pairs (K = 5) or games (K = 3), after regularisation */
} SprtEstimate;

/* Fixed-sample estimates exactly as fishtest's get_elo and raw-stats page: regularised counts,
 * per-game mean and variance (pentanomial variance per pair), z = 1.959964, Elo clamped to the
 * score range [0.001, 0.999], symmetric half-width. */
SprtEstimate sprt_estimate(const SprtSample *sample);

/* Share of pairs scoring 1 (WL or DD), as fastchess's DrawRatio; 0 with no pairs. */
/* The logistic Elo a normalized bound of nelo nElo is at a run's pairs: the pair score
 * 1/2 + nelo * sigma * sqrt 2 / (800 / ln 10), sigma the pairs' standard deviation (nElo's
 * definition, inverted). NAN without pairs. With nearly all pairs drawn, [0, 5] nElo is a
 * fraction of one Elo. */
double sprt_nelo_as_elo(double nelo, const Pentanomial *penta);
double sprt_pair_draw_ratio(const Pentanomial *penta);
/* (WW + WD) / (LL + LD), fastchess's PairsRatio; infinity when only the numerator is non-zero
 * and 1 when both are zero. */
double sprt_pairs_ratio(const Pentanomial *penta);

/* Design-time figures (fishtest's SPRT calculator, Brownian approximation, no overshoot): for a
 * per-game draw ratio, the probability that the test accepts H1 and the expected number of games
 * when the true strength is true_elo (logistic). The bounds' scores come from the model (nElo via
 * the per-game deviation sqrt((1 - draw_ratio) / 4)). Returns false, both outputs 0, for a draw
 * ratio outside [0, 1) or a BayesElo model (no design formula). */
bool sprt_plan(const SprtParams *params, double draw_ratio, double true_elo,
               double *pass_probability, double *expected_games);

/* The same for a normalized SPRT counted in pairs (pentanomial), from the true normalized Elo
 * of a pair (sprt_estimate's nelo on a pentanomial sample): what a book's pair structure does
 * to the test is all in that nElo, where the per-game draw ratio of sprt_plan misses it.
 * False, both outputs 0, for another model, elo1 <= elo0 or a nElo that is not finite. */
bool sprt_plan_pairs(const SprtParams *params, double true_nelo, double *pass_probability,
                     double *expected_pairs);

/* During a test, from the LLR reached: the probability that it accepts H1 and the pairs it has
 * left if the true strength is the one given (true_nelo, per pair, for the normalized model;
 * true_elo at the per-game draw_ratio for the logistic one), as the progress lines estimate it.
 * False, both outputs 0, for a BayesElo model, elo1 <= elo0 or a value that is not finite. */
bool sprt_plan_left(const SprtParams *params, double llr, double draw_ratio, double true_elo,
                    double true_nelo, double *pass_probability, double *pairs_left);

/* The logistic Elo the model's bounds correspond to at this draw ratio. */
bool sprt_plan_bounds(const SprtParams *params, double draw_ratio, double *elo0, double *elo1);

/* The regularised sample's size (zero cells count 1e-3), mean score and variance on its
 * support (per pair for pentanomial samples). */
void sprt_sample_moments(const SprtSample *sample, double *total, double *mean, double *variance);

/* fishtest's drawelo of regularised W/D/L, and a BayesElo difference as logistic Elo at it. */
double sprt_drawelo(const Trinomial *wdl);
double sprt_bayeselo_to_logistic(double belo, double drawelo);

/* Logistic Elo of a score and back. */
double sprt_elo_from_score(double score);
double sprt_score_from_elo(double elo);
