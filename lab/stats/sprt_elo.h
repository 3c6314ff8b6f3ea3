// SPDX-License-Identifier: MIT
// fishtest's SPRT-corrected Elo of a sequential test (sprt_elo.c).
#pragma once

#include "sprt.h"

/* fishtest's SPRT-corrected Elo (stat_util.SPRT_elo, notes §5), for a sequential test that has
 * stopped or is running: the LLR modelled as Brownian motion absorbed at the bounds, the
 * observed test summarised as a point (samples, LLR) cut back to the bound it crossed, and for a
 * candidate logistic Elo e the probability of a worse outcome (an earlier H0 exit, a later H1
 * exit, or less at that time). elo is the e where it is 1/2 (median-unbiased), the 95% interval
 * where it is 0.975 and 0.025, los its value at e = 0. Logistic Elo whatever the model; searched
 * in [-1000, 1000]. The variance is the sample's whatever e is (fishtest since July 2026), which
 * makes the probability monotone in e. BayesElo bounds are converted at the drawelo of the
 * sample's W/D/L (of zero counts when it has none, as fishtest does for a pentanomial-only
 * result). Matches fishtest's 196 reference values to 5e-13. */
typedef struct {
    double elo, ci_low, ci_high, los;
} SprtCorrectedElo;
SprtCorrectedElo sprt_corrected_elo(const SprtSample *sample, const SprtParams *params);
