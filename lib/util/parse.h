// SPDX-License-Identifier: MIT
// Checked number parsing for option values and file fields (instead of atoi/strtol misuse).
#pragma once

#include "error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parses a whole decimal integer (optional sign, no spaces, no trailing text) in [min, max].
 * On failure returns false, sets *out to 0 and err says "'12x' is not an integer" or "... out
 * of range". */
bool parse_int64(const char *text, int64_t min, int64_t max, int64_t *out, Error *err);

/* Same for an int. */
bool parse_int(const char *text, int min, int max, int *out, Error *err);

/* Parses a whole finite decimal number in [min, max]. */
bool parse_double(const char *text, double min, double max, double *out, Error *err);

/* The candidate closest to word by edit distance (insertions, deletions, substitutions), if it
 * is at most max_distance edits away and fewer than half word's length; NULL otherwise. For "did
 * you mean ...?" messages. */
const char *parse_closest(const char *word, const char *const *candidates, size_t count,
                          size_t max_distance);
