// SPDX-License-Identifier: MIT
// abtest's settings: one table (SETTINGS_FIELDS) describes every setting of a run with a single
// value: its results-file key, its command-line option, type, range, default, usage line and
// role. The table drives the command line (arguments.c), the defaults, the usage text, the
// echoed command, the results file both ways (settings_json.c), resume merging and the check that
// a resumed run is the same experiment. The engines (engine_spec.h) and the SPRT (sprt_keys.h)
// have tables of their own. Frozen before any thread starts.
#pragma once

#include "family.h"
#include "match.h"
#include "sprt.h"
#include "textbuf.h"

#include <cJSON.h>
#include <stdio.h>

#define SETTINGS_PATH_MAX 512
#define SETTINGS_DEFAULT_BOOK "openings/default.txt"
#define SETTINGS_UNBOUNDED_ROUNDS INT64_C(1000000000000) /* "until the SPRT decides" */
#define SETTINGS_CONFIG_TEXT_MAX 1024                     /* an engine's options as text */

typedef enum { ORDER_SEQUENTIAL, ORDER_RANDOM } BookOrder;

typedef struct {
    /* A match: the first engine (under test), then the baseline. A tournament: its engines in
     * the order given, the first the rating's anchor (tournament.h). */
    EngineSpec engines[TOURNAMENT_RUN_ENGINES_MAX];
    int engine_count;
    TournamentKind tournament; /* recorded only when not a match, so a match's file is as before */
    int seeds;                 /* a gauntlet's seeds, its first engines (1 otherwise) */
    /* A gauntlet decided by SPRTs: how its candidates' tests hold the family-wise error
     * (family.h; recorded only then). */
    FamilyControl family;
    LadderSpec ladder;         /* -ladder (tournament TOURNAMENT_LADDER; ladder.h) */
    bool has_sprt;
    SprtParams sprt;
    /* The fields of SETTINGS_FIELDS: */
    char book_path[SETTINGS_PATH_MAX];
    int order;            /* BookOrder */
    int start;            /* 1-based first opening */
    int random_plies;
    uint64_t seed;
    int64_t rounds;       /* pairs */
    int max_plies;
    int concurrency;      /* 0: one per core */
    int rating_interval;
    char out_path[SETTINGS_PATH_MAX];
    char pgn_path[SETTINGS_PATH_MAX];
    char plot_path[SETTINGS_PATH_MAX];
    char html_path[SETTINGS_PATH_MAX];
    char tb_path[SETTINGS_PATH_MAX]; /* -tb: adjudicate by the tablebase ("": off) */
    char blunders_dir[SETTINGS_PATH_MAX]; /* -blunders: the placement layers ("": off) */
    /* How this session runs; never recorded. */
    char resume_path[SETTINGS_PATH_MAX];
    bool quiet;
    bool recover;         /* -recover: restart an engine that exits or stalls (its game lost) */
    bool allow_engine_change; /* -allow-engine-change: resume although a program changed */
    int debug_stop_after; /* testing: behave as if interrupted after this many pairs (0 = off) */
    uint64_t resume_given; /* -resume alone: the SETTINGS_FIELDS deciding results given with it
                              (bit i: field i), each checked against the file's value */
} MatchSettings;

typedef enum {
    FIELD_INT,
    FIELD_INT64,
    FIELD_SEED,
    FIELD_ORDER,
    FIELD_PATH,
    FIELD_SWITCH
} SettingsFieldType;

/* What a field is to a run. */
enum {
    SETTINGS_DECIDES_RESULTS = 1 << 0, /* a resumed run takes the file's value, and a command line
                                          that names the engines must agree with it */
    SETTINGS_SESSION = 1 << 1,         /* how this session runs: never recorded, never resumed */
    SETTINGS_REQUIRED = 1 << 2,        /* a path that may not be given empty */
    SETTINGS_ECHO_ALWAYS = 1 << 3,     /* in the echoed command even at its default */
    SETTINGS_NOT_ECHOED = 1 << 4,      /* the machine's, not the experiment's (-concurrency) */
    /* The commands besides the match that take the option (arguments.h): those that play pairs
     * with engines they make themselves, and refuse an option that would mean nothing there. */
    SETTINGS_FOR_TUNE = 1 << 5,
    SETTINGS_FOR_BOOKTEST = 1 << 6,
    /* Added after results files existed: recorded only when not at its default, and a file
     * without it has it at its default (older files resume, and a run without it writes the
     * file it wrote before). */
    SETTINGS_ADDED_LATER = 1 << 7,
};

/* One setting with a single value. */
typedef struct {
    const char *key;       /* its key in a results file's "settings" */
    const char *option;    /* its command-line option: "-rounds", or the group "-openings" */
    const char *group_key; /* in a group: "start" of "-openings start=N"; NULL: one value */
    SettingsFieldType type;
    size_t offset;         /* of the field in MatchSettings */
    int64_t min, max;      /* numbers */
    int64_t fallback;      /* the default of a number, an order or a switch */
    const char *value;     /* the value's name in the usage: "N", "F" */
    const char *help;      /* its usage line ("": not in the usage) */
    unsigned traits;       /* SETTINGS_* */
    /* A group given with no key (-tb alone): the path it then means. NULL: refused. */
    bool (*bare_path)(char *out, size_t size, Error *err);
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

/* Whether the field holds its default (for a field that is not a decision: not given). */
bool settings_field_is_default(const SettingsField *field, const MatchSettings *settings);

/* Every field at its default, no engine, no SPRT: what a command line starts from. */
void settings_init(MatchSettings *settings);

/* An empty book path becomes the default book (SETTINGS_DEFAULT_BOOK, found as paths.h says).
 * Fails with where it looked when there is none. */
bool settings_resolve_book(MatchSettings *settings, Error *err);

/* The run's pairings (false only for settings that fail settings_check). */
bool settings_pairings(const MatchSettings *settings, PairingList *out, Error *err);

/* What must hold of complete settings, wherever they came from: valid, different engine names
 * making the tournament's pairings (two for a match), a limit for each engine, each engine's
 * keys of its kind (engine_spec_check_kind), a valid SPRT when there is one. */
bool settings_check(const MatchSettings *settings, Error *err);

/* One engine as the command line gives it: " -engine name=N" and every option that differs
 * from the defaults, its clock's keys and a program's. */
void settings_engine_tokens(const EngineSpec *spec, TextBuf *buf);

/* The command line that reproduces these settings (for reports and the resume hint). */
void settings_command_line(const MatchSettings *settings, char *out, size_t size);

/* Compares the settings that decide results (the engines, the SPRT and every field marked
 * SETTINGS_DECIDES_RESULTS); on a difference returns false with a list. */
bool settings_same_experiment(const MatchSettings *a, const MatchSettings *b, Error *err);

/* The settings of a resumed run (*given: the command line's; file: the recorded ones, after
 * pairs pairs): the experiment from the file (checked against the command line's when it names
 * engines), the session from the command line, and the other fields from the command line when
 * given there, else from the file. Results go to -out or to the file resumed. A -rounds above
 * the file's extends the run (not a ladder's, whose -rounds is each step's); below it is
 * refused. */
bool settings_merge_resume(MatchSettings *given, const MatchSettings *file, int64_t pairs,
                           Error *err);

/* What a pair needs of the settings (match.h), with the run's tablebase (NULL: none). */
PairSetup settings_pair_setup(const MatchSettings *settings, const struct Tablebase *tablebase);

/* The run's SPRT, or for a run without one the default test: its Elo estimates do not depend
 * on the bounds (the LLR is not reported then). */
SprtParams settings_report_sprt(const MatchSettings *settings);

/* True when every engine has a depth or node limit and none a time limit. */
bool settings_reproducible(const MatchSettings *settings);

/* The usage lines of the fields' options, in table order. */
void settings_usage(FILE *out);

