// SPDX-License-Identifier: MIT
// abtest's settings: one description of every setting of a run (SETTINGS_FIELDS: key, option,
// type, range, whether it decides results) that the command line (arguments.c), the results file
// (settings_json.c) and resume all go through, so a value read back from a file is checked
// exactly like one typed. Frozen before any thread starts.
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
#define SETTINGS_CONFIG_TEXT_MAX 1024                     /* an engine's options as text */

typedef enum { ORDER_SEQUENTIAL, ORDER_RANDOM } BookOrder;

typedef struct {
    EngineSpec engines[MATCH_ENGINES]; /* the first engine (under test), then the baseline */
    char book_path[SETTINGS_PATH_MAX];
    int order;            /* BookOrder */
    int start;            /* 1-based first opening */
    int random_plies;
    uint64_t seed;
    int64_t rounds;       /* pairs */
    bool has_sprt;
    SprtParams sprt;
    int max_plies;
    int concurrency;      /* 0: one per core */
    int rating_interval;
    char out_path[SETTINGS_PATH_MAX];
    char pgn_path[SETTINGS_PATH_MAX];
    char plot_path[SETTINGS_PATH_MAX];
    char tb_path[SETTINGS_PATH_MAX]; /* -tb: adjudicate by the tablebase ("": off) */
    /* How this session runs; never recorded. */
    char resume_path[SETTINGS_PATH_MAX];
    bool quiet;
    bool recover;         /* -recover: restart an engine that exits or stalls (its game lost) */
    int debug_stop_after; /* testing: behave as if interrupted after this many pairs (0 = off) */
} MatchSettings;

typedef enum { FIELD_INT, FIELD_INT64, FIELD_SEED, FIELD_ORDER, FIELD_PATH } SettingsFieldType;

/* One setting with a single value. The engines and the SPRT have their own checks
 * (config_apply, sprt_params_check) and are handled beside the table. */
typedef struct {
    const char *key;       /* its key in a results file's "settings" */
    const char *option;    /* how the command line writes it, for messages */
    SettingsFieldType type;
    size_t offset;         /* of the field in MatchSettings */
    int64_t min, max;      /* numbers */
    bool required;         /* paths: may not be empty */
    bool decides_results;  /* a resumed run must have the same value */
} SettingsField;

extern const SettingsField SETTINGS_FIELDS[];
extern const size_t SETTINGS_FIELD_COUNT;

/* The field of a key, or NULL. */
const SettingsField *settings_field(const char *key);

/* Sets a field from command-line text, checked against its type and range. */
bool settings_field_from_text(const SettingsField *field, MatchSettings *settings,
                              const char *text, Error *err);

/* The field's value as command-line text (for the echoed command and messages). */
void settings_field_text(const SettingsField *field, const MatchSettings *settings, char *out,
                         size_t size);

/* The built-in main job (README): killers on (under test, first) against killers off at 5000
 * nodes per move, SPRT <0, 10> on the default book, results, game records and plot in
 * results/. The book path is left empty: settings_resolve_book fills it in. */
void settings_default_job(MatchSettings *settings);

/* An empty book path becomes the default book (SETTINGS_DEFAULT_BOOK, found as paths.h says).
 * Fails with where it looked when there is none. */
bool settings_resolve_book(MatchSettings *settings, Error *err);

/* What must hold of complete settings, wherever they came from: two valid, different engine
 * names, a limit for each engine, a valid SPRT when there is one. */
bool settings_check(const MatchSettings *settings, Error *err);

/* The command line that reproduces these settings (for reports and the resume hint). */
void settings_command_line(const MatchSettings *settings, char *out, size_t size);

/* Compares the settings that decide results (the engines, the SPRT and every field marked
 * decides_results); on a difference returns false with a list. */
bool settings_same_experiment(const MatchSettings *a, const MatchSettings *b, Error *err);

/* The run's SPRT, or for a run without one the default test: its Elo estimates do not depend
 * on the bounds (the LLR is not reported then). */
SprtParams settings_report_sprt(const MatchSettings *settings);

/* True when every engine has a depth or node limit and none a time limit. */
bool settings_reproducible(const MatchSettings *settings);

/* Settings as JSON (what results files record) and back (settings_json.c). Reading applies
 * every check of the command line, then settings_check. */
cJSON *settings_to_json(const MatchSettings *settings);
bool settings_from_json(const cJSON *json, MatchSettings *settings, Error *err);
