// SPDX-License-Identifier: MIT
// A results file read back for -resume, every count checked against the others.
#pragma once

#include "results.h"

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
