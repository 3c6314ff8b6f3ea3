// SPDX-License-Identifier: MIT
// Output shared by the tools: JSON files written atomically, and the configuration, counters and
// search results as JSON or text, all driven by the tables in lib/search/config.c and
// lib/search/stats.c.
#pragma once

#include "config.h"
#include "error.h"
#include "search.h"
#include "stats.h"

#include <cJSON.h>
#include <stdio.h>

/* a / b for the ratios a report prints (nodes, seconds), 0 when b is not positive. */
static inline double report_ratio(double a, double b) { return b > 0 ? a / b : 0; }

/* Writes json (pretty-printed) to path: "-" is stdout; otherwise a temporary file in the same
 * directory renamed into place, so a reader never sees half a file. Missing directories above
 * path are created; through a symbolic link the target is replaced; a FIFO, device or directory
 * at path is refused (paths_check_output). */
bool report_write_json(const cJSON *json, const char *path, Error *err);

/* The same for any text, written as it is (an HTML page). */
bool report_write_text(const char *text, const char *path, Error *err);

/* {"cache": "table", "tt_bits": 20, ...} with typed values, in table order. */
cJSON *report_config_json(const SearchConfig *config);

/* {"nodes": ..., "leaves": ..., ...} in table order. */
cJSON *report_stats_json(const SearchStats *stats);

/* The whole result of one search: move, score, depth, nodes, win, win_in, pv, seconds, stats. */
cJSON *report_search_json(const SearchResult *result);

/* "tigers win in 7", "sheep win in 4" or "" into out (32 bytes). */
char *report_win_text(const SearchResult *result, char *out);

/* Prints the option table as -help text (name, allowed values, default, help). */
void report_print_options(FILE *out);

/* Moves as text separated by spaces, into out (size bytes). */
char *report_moves_text(const Move *moves, int count, char *out, size_t size);
