// SPDX-License-Identifier: MIT
// A ladder: the same two engines at a rising limit, step by step (-ladder nodes=1000,nodes=4000
// or tc=0.2+0.002,tc=1+0.01), each step its own test (the run's -sprt, a preset of its own, or
// -rounds pairs), in order, stopping at the first step that accepts H0 unless told to go on.
//
// A ladder is a run of pairings (tournament.h, TOURNAMENT_LADDER): step k is the pairing of
// engines 2k and 2k+1, the two engines with the step's limit, named NAME.k. One step is open at a
// time and its k-th pair plays round k, as the match of that step alone would: the pool, the
// results file, resume and MPI ranks serve it as they serve any run.
#pragma once

#include "settings.h"
#include "totals.h"

#define LADDER_STEPS_MAX (TOURNAMENT_RUN_ENGINES_MAX / 2)

/* A step's size on the doubling scale: nodes, or a clock's milliseconds for a game of 40 moves
 * (base + 40 increments; st=: the move's time). */
#define LADDER_CLOCK_MOVES 40

/* The step that plays now, from the steps' counts (rounds: -rounds, a step's most pairs):
 * the first step not yet done (decided, or at its rounds). -1 when the ladder is over: every
 * step done, or a step accepted H0 and the ladder does not go on. */
int ladder_open_step(const LadderSpec *ladder, const MatchTotals totals[], int64_t rounds);

/* Whether a file's step counts can be a ladder's: a step has pairs only once every step before
 * it is done (and none of them stopped the ladder), none past rounds, and an ended run has no
 * step left to play. */
bool ladder_counts_agree(const LadderSpec *ladder, const MatchTotals totals[], int64_t rounds,
                         bool ended, Error *err);

/* Parses -ladder's words: the steps "LIMIT[:PRESET],..." and an optional continue=on|off. */
bool ladder_parse(char *const *words, int count, LadderSpec *ladder, Error *err);

/* Checks a ladder: 2 to LADDER_STEPS_MAX steps of one kind (nodes=, tc= or st=), each larger
 * than the one before, known presets. */
bool ladder_check(const LadderSpec *ladder, Error *err);

/* Makes the run's engines the ladder's: engines 0 and 1 as given become NAME.1, NAME.2, ... with
 * each step's limit (settings->engine_count becomes twice the steps). */
bool ladder_expand(MatchSettings *settings, Error *err);

/* The name an engine of the ladder was given (NAME of NAME.k). */
void ladder_base_name(const char *name, char *out, size_t size);

/* Step k's test: its preset over the run's -sprt keys, or the run's -sprt; false when the step
 * plays -rounds pairs without one. */
bool ladder_step_sprt(const LadderSpec *ladder, int step, const MatchSettings *run,
                      SprtParams *out);

/* log2 of step k's size (nodes, or ms for a 40-move game). */
double ladder_step_x(const LadderSpec *ladder, int step);

/* The steps as -ladder takes them ("nodes=1000,nodes=4000:gain-ltc continue=on"). */
void ladder_text(const LadderSpec *ladder, char *out, size_t size);

/* As a results file records it ({"steps": [{"limit", "preset"}], "continue"}), and back. */
cJSON *ladder_to_json(const LadderSpec *ladder);
bool ladder_from_json(const cJSON *json, LadderSpec *ladder, Error *err);

/* What a ladder has shown so far: each step's Elo and 95% interval (steps without a pair have
 * none), the scaling slope with its 95% interval, and a sentence of what the steps decided
 * ("gains at nodes=1000, loses at nodes=4000"). */
typedef struct {
    int count;
    int64_t pairs[LADDER_STEPS_MAX];
    double x[LADDER_STEPS_MAX]; /* log2 of the step's size */
    double elo[LADDER_STEPS_MAX], elo_low[LADDER_STEPS_MAX], elo_high[LADDER_STEPS_MAX];
    SprtDecision decision[LADDER_STEPS_MAX];
    bool has_slope;
    double slope, slope_low, slope_high; /* Elo per doubling of the limit */
    char verdict[LADDER_STEPS_MAX * (LADDER_STEP_TEXT + 24)];
} LadderSummary;

void ladder_summary(const LadderSpec *ladder, const MatchTotals totals[], LadderSummary *out);
cJSON *ladder_summary_json(const LadderSpec *ladder, const LadderSummary *summary);
