// SPDX-License-Identifier: MIT
// A results file read back for -resume, every count checked against the others.
#pragma once

#include "results.h"
#include "settings_json.h"

/* A results file as read back. */
typedef struct {
    MatchSettings settings;
    MatchTotals totals; /* the run's (results_file_destroy releases it) */
    TournamentTotals tournament; /* a tournament's pairings (zero for a match) */
    RunState state;
    uint64_t book_hash;
    int book_positions;
    /* Options the file's engines do not set (written before they existed), at this version's
     * default: "engine a: iir=off" ("": none). A resume refuses them unless allowed. */
    char defaulted[SETTINGS_DEFAULTED_MAX];
} ResultsFile;

/* Reads and validates a results file: format 2, the settings with every command-line check,
 * whole non-negative counts that agree with each other (pairs, pentanomial, W/D/L, sides, end
 * reasons, plies, moves, decision, state, next pair), a trajectory in order. On any failure
 * returns false with "PATH: what is wrong". */
bool results_load(const char *path, ResultsFile *file, Error *err);

/* Releases what a file read holds (nothing after a failed read). */
void results_file_destroy(ResultsFile *file);

/* The same from parsed JSON (format checked by the caller). */
bool results_from_json(const cJSON *json, ResultsFile *file, Error *err);

/* The same from text (length bytes, named path in messages). */
bool results_parse(const char *text, size_t length, const char *path, ResultsFile *file,
                   Error *err);
