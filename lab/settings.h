// SPDX-License-Identifier: MIT
// abtest's settings: filled from the command line (arguments.c) or a results file, frozen before
// any thread starts, written into and compared against results files for resume.
#pragma once

#include "match.h"
#include "sprt.h"

#include <cJSON.h>

#define SETTINGS_PATH_MAX 512
#define SETTINGS_DEFAULT_BOOK "openings/default.txt"
#define SETTINGS_DEFAULT_SEED 20261129
#define SETTINGS_DEFAULT_MAXMOVES 300
#define SETTINGS_DEFAULT_RATINGINTERVAL 10
#define SETTINGS_UNBOUNDED_ROUNDS INT64_C(1000000000000) /* "until the SPRT decides" */

typedef struct {
    EngineSpec engines[MATCH_ENGINES]; /* the first engine (under test), then the baseline */
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

/* The built-in main job (README): killers on (under test, first) against killers off at 5000
 * nodes per move, SPRT <0, 10> on the default book, results, game records and plot in
 * results/. The book path is left empty: settings_resolve_book fills it in. */
void settings_default_job(MatchSettings *settings);

/* An empty book path becomes the default book (SETTINGS_DEFAULT_BOOK, found as paths.h says).
 * Fails with where it looked when there is none. */
bool settings_resolve_book(MatchSettings *settings, Error *err);

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
