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
    int replace;        /* ReplacePolicy */
    bool symmetry;      /* share one cache entry among the 8 symmetric images */
    bool killers;       /* two killer moves per remaining depth */
    bool hint;          /* try the cached (or previous pass's) best move first */
    bool jumps_first;   /* try tiger jumps before the other moves */
    int eval_captured;  /* per sheep captured */
    int eval_jumps;     /* per tiger jump available */
    int eval_trapped;   /* per tiger with no move */
    int eval_mobility;  /* per tiger move available */
    int depth;          /* limit: deepest pass (0 = none) */
    int64_t nodes;      /* limit: node budget (0 = none) */
    int64_t movetime;   /* limit: milliseconds (0 = none) */
} SearchConfig;

typedef enum { OPTION_BOOL, OPTION_INT, OPTION_INT64, OPTION_CHOICE } OptionType;

/* One row of the option table. */
typedef struct {
    const char *name;
    OptionType type;
    size_t offset;               /* of the field in SearchConfig */
    const char *default_text;    /* the default, as written on a command line */
    int64_t min, max;            /* for integers */
    const char *const *choices;  /* for OPTION_CHOICE: NULL-terminated, index = stored value */
    bool is_limit;               /* a search limit rather than a feature */
    const char *help;            /* one line */
} OptionSpec;

extern const OptionSpec CONFIG_OPTIONS[];
extern const size_t CONFIG_OPTION_COUNT;

/* Every option at its default. */
SearchConfig config_default(void);

/* Applies one `key=value` token. `preset=plain` turns every speed feature off (cache, killers,
 * hint, jump ordering, symmetry), `preset=default` restores every default; later tokens apply on
 * top. On an unknown key or bad value returns false with a message that names the key, lists what
 * is allowed and suggests the closest key on a typo. */
bool config_apply(SearchConfig *config, const char *token, Error *err);

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
