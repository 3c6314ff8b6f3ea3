// SPDX-License-Identifier: MIT
// A ladder: the same two engines at a rising limit, step by step (-ladder nodes=1000,nodes=4000
// or tc=0.2+0.002,tc=1+0.01), each step its own test (the run's -sprt, a preset of its own, or
// -rounds pairs), in order, stopping at the first step that accepts H0 unless told to go on.
// Or a gauntlet's candidates against its seed (-tournament gauntlet -seeds 1 -ladder ...): each
// step a gauntlet whose SPRTs are a family (-family), each candidate climbing until its step
// accepts H0 (unless told to go on); a step starts once every candidate of the one before is done.
//
// A ladder is a run of pairings (tournament.h, TOURNAMENT_LADDER): step k holds the engines given,
// each with the step's limit, named NAME.k (engines width*k .. width*k + width - 1); its pairings
// are the match of the two, or each candidate against the seed. One step is open at a time and a
// pairing's j-th pair plays round j, as the match or gauntlet of that step alone would: the pool,
// the results file, resume and MPI ranks serve it as they serve any run.
#pragma once

#include "sprt.h"
#include "totals.h"

#include <cJSON.h>

#define LADDER_STEPS_MAX (TOURNAMENT_RUN_ENGINES_MAX / 2)

/* A step's size on the doubling scale: nodes, or a clock's milliseconds for a game of 40 moves
 * (base + 40 increments; st=: the move's time). */
#define LADDER_CLOCK_MOVES 40

/* Engines a step: the two of a match, or a gauntlet's seed and candidates. */
static inline int ladder_width(const LadderSpec *ladder) { return ladder->candidates + 1; }

/* Pairing p's step and candidate (pairings are numbered step by step, candidate by candidate). */
static inline int ladder_step_of(const LadderSpec *ladder, int pairing) {
    return pairing / ladder->candidates;
}
static inline int ladder_candidate_of(const LadderSpec *ladder, int pairing) {
    return pairing % ladder->candidates;
}

/* The ladder's pairings over engine_count engines (its steps times its width): step k's match
 * (engines 2k, 2k + 1), or each of its candidates against its seed, the candidate first. */
bool ladder_pairings(const LadderSpec *ladder, int engine_count, PairingList *out, Error *err);

/* Whether candidate c reaches step k: no step before it accepted H0 for it (or the ladder goes
 * on whatever they decide). */
bool ladder_climbs(const LadderSpec *ladder, const MatchTotals totals[], int step, int candidate);

/* Whether pairing p plays on: its candidate reaches its step, undecided and under rounds. */
bool ladder_pairing_open(const LadderSpec *ladder, const MatchTotals totals[], int64_t rounds,
                         int pairing);

/* The step that plays now, from the pairings' counts (rounds: -rounds, a pairing's most pairs):
 * the first step with a pairing open. -1 when the ladder is over: every step done, or every
 * candidate stopped by an H0 and the ladder does not go on. */
int ladder_open_step(const LadderSpec *ladder, const MatchTotals totals[], int64_t rounds);

/* Whether a file's counts can be a ladder's: a pairing has pairs only once every step before
 * it is done and its candidate reaches it, none past rounds, and an ended run has no step left
 * to play. */
bool ladder_counts_agree(const LadderSpec *ladder, const MatchTotals totals[], int64_t rounds,
                         bool ended, Error *err);

/* Parses -ladder's words: the steps "LIMIT[:PRESET],..." and an optional continue=on|off. */
bool ladder_parse(char *const *words, int count, LadderSpec *ladder, Error *err);

/* Checks a ladder: 2 to LADDER_STEPS_MAX steps of one kind (nodes=, tc= or st=), each larger
 * than the one before, known presets. */
bool ladder_check(const LadderSpec *ladder, Error *err);

/* The name an engine of the ladder was given (NAME of NAME.k). */
void ladder_base_name(const char *name, char *out, size_t size);

/* Step k's test: its preset over the run's -sprt keys, or the run's -sprt; false when the step
 * plays -rounds pairs without one. A gauntlet's step has Wald's bounds (family.h): no overshoot
 * correction. */
bool ladder_step_sprt(const LadderSpec *ladder, int step, const SprtParams *run_sprt,
                      bool run_has_sprt, SprtParams *out);

/* log2 of step k's size (nodes, or ms for a 40-move game). */
double ladder_step_x(const LadderSpec *ladder, int step);

/* The steps as -ladder takes them ("nodes=1000,nodes=4000:gain-ltc continue=on"). */
void ladder_text(const LadderSpec *ladder, char *out, size_t size);

/* As a results file records it ({"steps": [{"limit", "preset"}], "continue"}), and back. */
cJSON *ladder_to_json(const LadderSpec *ladder);
bool ladder_from_json(const cJSON *json, LadderSpec *ladder, Error *err);

/* What a ladder has shown so far for one candidate (a match's: its only one): each step's Elo and
 * 95% interval (steps without a pair have none), the scaling slope with its 95% interval, and a
 * sentence of what the steps decided ("gains at nodes=1000, loses at nodes=4000"). */
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

void ladder_summary(const LadderSpec *ladder, const MatchTotals totals[], int candidate,
                    LadderSummary *out);

/* A results file's "ladder": a match's summary ({"steps", "slope", "verdict"}), or a gauntlet's
 * as {"candidates": [{"engine", "seed", "steps", "slope", "verdict"}, ...]}; engines: the run's
 * (names NAME.k). */
cJSON *ladder_results_json(const LadderSpec *ladder, const MatchTotals totals[],
                           const EngineSpec engines[]);
