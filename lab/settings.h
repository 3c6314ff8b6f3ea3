// SPDX-License-Identifier: MIT
// abtest's settings: parsed from the command line (fastchess grammar: single-dash options,
// key=value groups), frozen before any thread starts, written into and compared against results
// files for resume.
#pragma once

#include "match.h"
#include "sprt.h"

#include <cJSON.h>

#define SETTINGS_PATH_MAX 512
#define SETTINGS_DEFAULT_SEED 20261129
#define SETTINGS_DEFAULT_MAXMOVES 300
#define SETTINGS_DEFAULT_RATINGINTERVAL 10
#define SETTINGS_UNBOUNDED_ROUNDS INT64_C(1000000000000) /* "until the SPRT decides" */

typedef struct {
    EngineSpec engines[MATCH_ENGINES]; /* base, candidate */
    char book_path[SETTINGS_PATH_MAX];
    bool order_random;
    int start;            /* 1-based first opening */
    int random_plies;
    uint64_t seed;
    int64_t rounds;       /* pairs */
    bool has_sprt;
    SprtParams sprt;
    int max_plies;
    int concurrency;
    int rating_interval;
    char out_path[SETTINGS_PATH_MAX];
    char pgn_path[SETTINGS_PATH_MAX];
    char plot_path[SETTINGS_PATH_MAX];
    char resume_path[SETTINGS_PATH_MAX];
    bool quiet;
    int debug_stop_after; /* testing: behave as if interrupted after this many pairs (0 = off) */
} MatchSettings;

/* The built-in main job (README): killers off vs on at 5000 nodes per move, SPRT <0, 10> on the
 * default book, results, game records and plot in results/. */
void settings_default_job(MatchSettings *settings);

/* Parses argv (after the program name). On error returns false with a message naming the option
 * and what is wrong (with the closest option on a typo). `-help`/`-version` set *exit_now. */
bool settings_parse(int argc, char **argv, MatchSettings *settings, bool *exit_now, Error *err);

/* The command line that reproduces these settings (for reports and the resume hint). */
void settings_command_line(const MatchSettings *settings, char *out, size_t size);

/* Settings as JSON (what results files record) and back. */
cJSON *settings_to_json(const MatchSettings *settings);
bool settings_from_json(const cJSON *json, MatchSettings *settings, Error *err);

/* Compares the settings that decide results (engines, limits, book, order, start, seed, random
 * plies, rounds, SPRT, max plies, rating interval); on a difference returns false with a list. */
bool settings_same_experiment(const MatchSettings *a, const MatchSettings *b, Error *err);

/* True when every engine has a depth or node limit and none a time limit. */
bool settings_reproducible(const MatchSettings *settings);
