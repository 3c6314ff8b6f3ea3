// SPDX-License-Identifier: MIT
// Search configuration: one field per feature, and the one option table that the command-line
// parsers, the JSON writers, -help and docs/search.md all read.
#pragma once

#include "error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { CACHE_NONE, CACHE_MAP, CACHE_TABLE, CACHE_TINY } CacheKind;
typedef enum { REPLACE_TWOTIER, REPLACE_ALWAYS, REPLACE_DEEPEST } ReplacePolicy;

#define CONFIG_TINY_BITS 3 /* cache=tiny: 8 slots, so entries collide constantly */

typedef struct {
    int cache;          /* CacheKind */
    int tt_bits;        /* the table has 2^tt_bits slots */
    int cache_depth;    /* the cache is used at nodes with at least this many plies left */
    int replace;        /* ReplacePolicy */
    bool symmetry;      /* share one cache entry among the 8 symmetric images */
    bool killers;       /* two killer moves per remaining depth */
    bool hint;          /* try the cached (or previous pass's) best move first */
    bool jumps_first;   /* try tiger jumps before the other moves */
    bool history;       /* order the remaining quiet moves by their cutoff history */
    bool pvs;           /* principal variation search: null windows after the first move */
    int aspiration;     /* root window half-width in score units (0: full window) */
    bool lmr;           /* late move reductions */
    int lmr_depth;      /* ... from this remaining depth */
    int lmr_moves;      /* ... after this many moves searched in full */
    int lmr_reduction;  /* ... by this many plies */
    bool qsearch;       /* at depth 0, search tiger jumps until quiet */
    bool nullmove;      /* null-move pruning */
    int nullmove_r;     /* ... with this depth reduction */
    int futility;       /* frontier futility margin (0: off) */
    bool jump_extension; /* search a tiger jump one ply deeper */
    bool egdb;           /* below the root, sliding-phase nodes take the tablebase's value */
    int eval_captured;  /* per sheep captured */
    int eval_jumps;     /* per tiger jump available */
    int eval_trapped;   /* per tiger with no move */
    int eval_mobility;  /* per tiger move available */
    int tm_moves;       /* time (timeman.h): moves to go assumed when the clock has no period */
    int tm_soft;        /* time: percent of a move's share after which no new pass starts */
    int tm_hard;        /* time: percent of the share at which a running pass is cut off */
    int tm_overhead;    /* time: milliseconds of the clock kept back for each move's overhead */
    int depth;          /* limit: deepest pass (0 = none) */
    int64_t nodes;      /* limit: node budget (0 = none) */
    int64_t movetime;   /* limit: milliseconds (0 = none) */
} SearchConfig;

typedef enum { OPTION_BOOL, OPTION_INT, OPTION_INT64, OPTION_CHOICE } OptionType;

/* What kind of option a row is; the kind decides what the tools do with it:
 *   EXACT     ordering or caching: every move and score must equal plain minimax at the same
 *             depth; combined in the exactness matrix (bench verify, tests/test_search.c);
 *   PRUNING   changes the tree (pruning, reductions, extensions, quiescence): results may
 *             differ, so each has its own tests;
 *   PARAMETER tunes another feature (tt_bits, lmr_depth);
 *   EVAL      an evaluation weight;
 *   TIME      time management: how a clock (SearchClock, timeman.h) becomes a move's time;
 *   LIMIT     a search limit.
 * preset=plain sets every EXACT and PRUNING option to its off value. */
typedef enum {
    OPTION_KIND_EXACT,
    OPTION_KIND_PRUNING,
    OPTION_KIND_PARAMETER,
    OPTION_KIND_EVAL,
    OPTION_KIND_TIME,
    OPTION_KIND_LIMIT
} OptionKind;

/* Where a feature acts. A move-loop variant changes how the moves of a node are searched (their
 * order, reductions, extensions, pruning): search_node takes the plain move loop, which costs
 * next to nothing, unless one of them is on. */
typedef enum { OPTION_ELSEWHERE, OPTION_MOVE_LOOP } OptionPlace;

/* A tunable row's column: the interval SPSA may explore (narrower than the values the option
 * accepts) and the perturbation at the last iteration (C_END in OpenBench's SPSA input). Chosen
 * around the ledger's findings (docs/experiments.md): wide enough to hold every value an SPRT
 * there decided on, narrow enough that the ends still play sensible games; +- c_end should cost
 * a few Elo, measurable, not ruinous. c_end 0: not in `bench options -spsa`'s list. */
typedef struct {
    int min, max;
    double c_end;
} OptionTuning;

/* One row of the option table. */
typedef struct {
    const char *name;
    OptionType type;
    size_t offset;               /* of the field in SearchConfig */
    const char *default_text;    /* the default, as written on a command line */
    int64_t min, max;            /* for integers */
    const char *const *choices;  /* for OPTION_CHOICE: NULL-terminated, index = stored value */
    OptionKind kind;
    OptionPlace place;           /* OPTION_MOVE_LOOP: a variant of the move loop (search.c) */
    const char *off_text;        /* EXACT and PRUNING: the value that turns the feature off */
    const char *matrix;          /* EXACT: comma-separated values the exactness matrix combines,
                                    the first one the reference */
    /* EXACT: whether the option matters in a configuration (NULL: always); where it does not,
     * the matrix keeps it at its first value. */
    bool (*applies)(const SearchConfig *config);
    const char *help;            /* one line */
    OptionTuning tuning;         /* integer rows worth tuning (tuning.h) */
} OptionSpec;

extern const OptionSpec CONFIG_OPTIONS[];
extern const size_t CONFIG_OPTION_COUNT;

/* Named configurations for preset=NAME: "default", "plain" (every feature off) and earlier
 * defaults kept so that a new default can be tested against the old one. A preset names a
 * search, not a budget: it starts from the defaults with the limits (depth, nodes, movetime)
 * and the time management (tm_*) kept, turns every exact and pruning feature off when
 * features_off, then applies its tokens.
 * So an earlier default names what it had on, and a feature added after it is off in it. */
typedef struct {
    const char *name;
    bool features_off;
    const char *tokens;
    const char *help;
} ConfigPreset;

extern const ConfigPreset CONFIG_PRESETS[];
extern const size_t CONFIG_PRESET_COUNT;

const char *config_kind_name(OptionKind kind); /* "exact", "pruning", ... */

/* Every option at its default. */
SearchConfig config_default(void);

/* Applies one `key=value` token. `preset=NAME` sets a whole named configuration (CONFIG_PRESETS);
 * later tokens apply on top. On an unknown key or bad value returns false with a message that
 * names the key, lists what is allowed and suggests the closest key on a typo. */
bool config_apply(SearchConfig *config, const char *token, Error *err);

/* Applies a line of space-separated tokens in order (the one helper every reader of option
 * text uses). Stops at the first bad token, with its message. */
bool config_apply_line(SearchConfig *config, const char *line, Error *err);

/* Sets every PRUNING option to its off value, leaving the rest: the exact search that plain
 * minimax must agree with (the matrix, bench verify, the exactness tests). False only if the
 * option table's off value is one its option refuses. */
bool config_pruning_off(SearchConfig *config);

/* The exactness matrix: every combination of the matrix values of the EXACT options, an option
 * whose applies() is false taking only its first value. config_matrix_size() counts the raw
 * combinations; config_matrix_entry(i) fills the defaults with every PRUNING option off and
 * combination i applied, and returns false for the combinations skipped by applies(). text gets
 * the tokens. */
size_t config_matrix_size(void);
bool config_matrix_entry(size_t index, SearchConfig *config, char *text, size_t size);

/* Whether any move-loop variant (OPTION_MOVE_LOOP) is on: any value other than its off one. */
bool config_loop_variants_on(const SearchConfig *config);

/* Looks a key up (NULL when unknown). */
const OptionSpec *config_find(const char *name);

/* The closest option name to a misspelt one, or NULL when nothing is close. */
const char *config_suggest(const char *name);

/* Writes the value of one option as text (e.g. "twotier", "on", "20") into out (32 bytes). */
char *config_value_text(const SearchConfig *config, const OptionSpec *spec, char *out);

/* "cache=table tt_bits=20 ..." for every option, in table order; returns the length written
 * (truncated to size like snprintf). */
size_t config_to_text(const SearchConfig *config, char *out, size_t size);

/* A 64-bit hash (FNV-1a) of config_to_text: equal configurations, equal hashes. */
uint64_t config_hash(const SearchConfig *config);

/* The allowed values of an option as text ("none|map|table|tiny", "on|off", "0..64"). */
char *config_allowed_text(const OptionSpec *spec, char *out, size_t size);
