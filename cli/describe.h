// SPDX-License-Identifier: MIT
// Output shared by the tools: the configuration, counters and search results as JSON or text,
// all driven by the tables in lib/search/config.c and lib/search/stats.c.
#pragma once

#include "config.h"
#include "error.h"
#include "search.h"
#include "stats.h"

#include <cJSON.h>
#include <stdio.h>

/* a / b for the ratios a report prints (nodes, seconds), 0 when b is not positive. */
static inline double describe_ratio(double a, double b) { return b > 0 ? a / b : 0; }

/* {"cache": "table", "tt_bits": 20, ...} with typed values, in table order. */
cJSON *describe_config_json(const SearchConfig *config);

/* {"nodes": ..., "leaves": ..., ...} in table order. */
cJSON *describe_stats_json(const SearchStats *stats);

/* The whole result of one search: move, score, depth, nodes, win, win_in, pv, seconds, stats. */
cJSON *describe_search_json(const SearchResult *result);

/* "tigers win in 7", "sheep win in 4" or "" into out (32 bytes). */
char *describe_win_text(const SearchResult *result, char *out);

/* Prints the option table as -help text (name, allowed values, default, help). */
void describe_print_options(FILE *out);

/* Moves as text separated by spaces, into out (size bytes). */
char *describe_moves_text(const Move *moves, int count, char *out, size_t size);
