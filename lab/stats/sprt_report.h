// SPDX-License-Identifier: MIT
// SPRT results as text (fastchess's line shapes) and JSON, shared by `abtest sprt` and the match
// runner's reports. The numbers come from sprt.c; this file only formats them.
#pragma once

#include "sprt.h"
#include "sprt_elo.h"

#include <cJSON.h>
#include <stdio.h>

/* Everything a report needs, computed once from a sample. */
typedef struct {
    SprtParams params;
    SprtSample sample;
    bool has_penta;     /* the sample came from pairs (penta is meaningful) */
    Pentanomial penta;
    double llr, lower, upper;
    SprtDecision decision;
    SprtEstimate estimate;
    SprtCorrectedElo corrected; /* fishtest's SPRT_elo for these bounds (meaningful with an SPRT) */
} SprtReport;

SprtReport sprt_report_make(const SprtSample *sample, const Pentanomial *penta,
                            const SprtParams *params);

/* "LLR: 1.23 (41.8%) (-2.94, 2.94) [0.00, 2.00] normalized": fastchess's line (percentage of
 * the bound the LLR is heading for, square brackets whatever the model), then the model. */
void sprt_report_llr_line(const SprtReport *report, FILE *out);
/* "Elo: 1.23 +/- 4.56, nElo: 1.50 +/- 5.50" and "LOS: ... %, DrawRatio: ... %, PairsRatio: ..." */
void sprt_report_elo_lines(const SprtReport *report, FILE *out);

/* "SPRT-corrected Elo: 7.12 [1.02, 13.40], LOS: 98.70 %": fishtest's median-unbiased estimate
 * after a sequential stop (sprt_corrected_elo), logistic Elo whatever the model. */
void sprt_report_corrected_line(const SprtReport *report, FILE *out);

/* {"llr", "lower_bound", "upper_bound", "decision", "elo", "elo_ci95", "nelo", "nelo_ci95",
 *  "los", "sprt_elo", "sprt_elo_ci95", "sprt_los", "model", "elo0", "elo1", "alpha", "beta",
 *  ...}; non-finite numbers become null. */
void sprt_report_add_json(const SprtReport *report, cJSON *json);

/* The bracket fishtest writes bounds in: <> nElo, {} logistic, [] BayesElo. */
const char *sprt_model_brackets(SprtModel model);
