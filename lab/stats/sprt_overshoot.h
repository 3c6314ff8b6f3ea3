// SPDX-License-Identifier: MIT
// fishtest's dynamic overshoot correction, and the sequential test's step that uses it.
#pragma once

#include "sprt.h"

/* fishtest's dynamic overshoot correction (stat_util.update_SPRT, notes §6). A discrete test
 * jumps past its bounds, so its real error rates fall below alpha and beta and it runs longer
 * than needed; the expected overshoot is estimated from the test's own ladder of new minima and
 * maxima of the LLR (Siegmund: E[S^2] / 2E[S]) and the bounds are moved in by it. Fed once per
 * batch of samples with the cumulative count and its LLR. */
typedef struct {
    bool active;             /* false once dropped for good (see sprt_overshoot_update) */
    int64_t last_update;     /* samples at the last update */
    int64_t skipped_updates; /* samples of batches that were never seen */
    double ref0, m0, sq0;    /* running minimum; sum and sum of squares of its drops */
    double ref1, m1, sq1;    /* running maximum; sum and sum of squares of its rises */
} SprtOvershoot;

void sprt_overshoot_init(SprtOvershoot *o);

/* One update, as fishtest makes it: a sample count that is not a multiple of batch, or fewer
 * samples than at the last update, drops the correction for good; the same count changes
 * nothing; exactly one batch more adds a new minimum's drop or a new maximum's rise; any other
 * growth restarts the ladders at this LLR. */
void sprt_overshoot_update(SprtOvershoot *o, int64_t samples, int64_t batch, double llr);

/* The expected overshoots: o0 = -sq0 / 2 m0 below, o1 = sq1 / 2 m1 above (0 without data or
 * once dropped). */
void sprt_overshoot_margins(const SprtOvershoot *o, double *o0, double *o1);

/* The decision with the bounds moved in: H0 when llr < lower + o0, H1 when llr > upper - o1. */
SprtDecision sprt_decide_corrected(double llr, const SprtParams *params, const SprtOvershoot *o);

/* A sequential test's step after each batch of pairs (the match runner and the simulator call
 * this one function): the LLR of the counts so far; with params->overshoot, the correction fed
 * that LLR at `pairs` (a multiple of `batch`) and the corrected decision, else the plain one. */
SprtDecision sprt_decide_batch(const SprtSample *sample, int64_t pairs, int64_t batch,
                               const SprtParams *params, SprtOvershoot *o);

/* The step as abtest takes it: after each pair, in pair order, so the same for any concurrency
 * or number of ranks (sprt_decide_batch with batches of one pair). */
SprtDecision sprt_decide_pair(const SprtSample *sample, int64_t pairs, const SprtParams *params,
                              SprtOvershoot *o);
