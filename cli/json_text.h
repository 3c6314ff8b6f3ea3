// SPDX-License-Identifier: MIT
// JSON as the tools write it, with every number exact: a double is written as the shortest text
// that strtod reads back to the same bits (tried from 1 to 17 significant digits, each checked
// by equality), where cJSON 1.7 writes 15 digits whenever they read back within DBL_EPSILON
// (0.1 + 0.2 comes back as 0.3; about 13% of random doubles lose their last bits), which made
// a resumed tuning run drift. The layout is cJSON_Print's (tabs, one member a line, arrays on
// one line), so files differ from cJSON's only where cJSON lost bits. Reading stays cJSON's
// parser, which reads numbers with strtod and so gets the same bits back.
#pragma once

#include <cJSON.h>
#include <stdbool.h>
#include <stdio.h>

/* Room for any number's text: sign, 17 digits, point, exponent, NUL. */
#define JSON_NUMBER_MAX 32

/* The shortest exact text of value into out: integers below 2^53 in full ("12345678"), others
 * in %g style ("0.30000000000000004", "1e-07"); -0 keeps its sign. NaN and the infinities,
 * which JSON cannot hold, are written "null" (a reader then finds no number). Returns out. */
char *json_text_number(double value, char out[JSON_NUMBER_MAX]);

/* Writes json to f formatted as cJSON_Print formats it, numbers exact. False on a write error
 * (ferror). */
bool json_text_write(FILE *f, const cJSON *json);

/* The same as a malloc'd string (no newline at the end); NULL when memory runs out. */
char *json_text(const cJSON *json);
