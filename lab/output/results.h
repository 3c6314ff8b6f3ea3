// SPDX-License-Identifier: MIT
// The results file: the settings and the counts (totals.h) of a run as JSON, written
// atomically by runfiles.c; results_load.h reads it back for -resume.
#pragma once

#include "settings.h"
#include "settings_json.h"
#include "totals.h"
#include "tournament_totals.h"

#include <cJSON.h>

/* The results file's format. 2: every count from the first engine's side (format 1 counted from
 * the second's and cannot be resumed by this version). */
#define RESULTS_FORMAT 2

/* The keys of the overshoot correction's running sums in the results file, in SprtOvershoot's
 * order (ref0, m0, sq0, ref1, m1, sq1); stored as exact decimal text. */
extern const char *const RESULTS_OVERSHOOT_SUMS[6];

/* The results file's key of each forfeit in an engine's entry ("time_losses", ...), NULL for
 * the other ends. */
const char *results_forfeit_key(GameEnd end);

/* Why a run stopped, for the file: "running", "sprt", "rounds", "interrupted". */
typedef enum { RUN_RUNNING, RUN_SPRT, RUN_ROUNDS, RUN_INTERRUPTED } RunState;

/* A results file as read back (results_load.h reads it, results_check.h checks it). */
typedef struct {
    MatchSettings settings;
    MatchTotals totals;          /* the run's (results_file_destroy releases it) */
    TournamentTotals tournament; /* a tournament's pairings (zero for a match) */
    RunState state;
    uint64_t book_hash;
    int book_positions;
    /* Options the file's engines do not set (written before they existed), at this version's
     * default: "engine a: iir=off" ("": none). A resume refuses them unless allowed. */
    char defaulted[SETTINGS_DEFAULTED_MAX];
} ResultsFile;

/* The whole results file. book_hash identifies the book's content. */
cJSON *results_to_json(const MatchSettings *settings, const MatchTotals *totals, RunState state,
                       uint64_t book_hash, int book_positions, const char *command);

const char *results_state_name(RunState state);

/* The results file of a tournament: the run's counts, its engines, and under "tournament" its
 * kind, the joint rating (null before every pairing has a pair) and each pairing as the
 * results file of its own match. */
cJSON *results_tournament_to_json(const MatchSettings *settings, const MatchTotals *totals,
                                  TournamentTotals *pairings, const RatingList *rating,
                                  RunState state, uint64_t book_hash, int book_positions,
                                  const char *command);

/* The rating list: the anchor, each engine strongest first with its Elo and 95% interval,
 * nElo, pairs, score, draw ratio and its likelihood of superiority over every other. */
cJSON *results_rating_json(const MatchSettings *settings, const RatingList *list);
