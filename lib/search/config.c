// SPDX-License-Identifier: MIT
#include "config.h"

#include "parse.h"

#include <stdio.h>
#include <string.h>

static const char *const CACHE_NAMES[] = {"none", "map", "table", "tiny", NULL};
static const char *const REPLACE_NAMES[] = {"twotier", "always", "deepest", NULL};
static const char *const ON_OFF[] = {"off", "on", NULL};

#define FIELD(name) offsetof(SearchConfig, name)
#define WEIGHT_LIMIT 10000

/* Where a replacement policy matters: a table that can be full. */
static bool has_table(const SearchConfig *config) {
    return config->cache == CACHE_TABLE || config->cache == CACHE_TINY;
}

/* Rows by kind: the exact features, the tree-changing ones with their parameters, the weights,
 * the limits. A new feature is one row here and one step in lib/search/search.c (docs/search.md). */
// clang-format off: one option per row, its columns named
const OptionSpec CONFIG_OPTIONS[] = {
    {.name = "cache", .type = OPTION_CHOICE, .offset = FIELD(cache), .default_text = "table",
     .choices = CACHE_NAMES, .kind = OPTION_KIND_EXACT, .off_text = "none",
     .matrix = "none,map,table,tiny",
     .help = "none; map: exact growing hash map (reference); table: fixed transposition table; "
             "tiny: the table with 8 slots"},
    {.name = "tt_bits", .type = OPTION_INT, .offset = FIELD(tt_bits), .default_text = "20",
     .min = 1, .max = 30, .kind = OPTION_KIND_PARAMETER,
     .help = "the table has 2^N slots (16 bytes each), allocated once"},
    {.name = "cache_depth", .type = OPTION_INT, .offset = FIELD(cache_depth), .default_text = "1",
     .min = 1, .max = 64, .kind = OPTION_KIND_PARAMETER,
     .help = "use the cache only at nodes with N or more plies left (1: every node below the "
             "root)"},
    {.name = "replace", .type = OPTION_CHOICE, .offset = FIELD(replace), .default_text = "twotier",
     .choices = REPLACE_NAMES, .kind = OPTION_KIND_EXACT, .off_text = "twotier",
     .matrix = "twotier,always,deepest", .applies = has_table,
     .help = "table replacement: twotier (deepest + always buckets), always, deepest"},
    {.name = "symmetry", .type = OPTION_BOOL, .offset = FIELD(symmetry), .default_text = "on",
     .kind = OPTION_KIND_EXACT, .off_text = "off", .matrix = "on,off",
     .help = "look positions up by their canonical image: 8 symmetric positions share an entry"},
    {.name = "killers", .type = OPTION_BOOL, .offset = FIELD(killers), .default_text = "on",
     .kind = OPTION_KIND_EXACT, .off_text = "off", .matrix = "on,off",
     .help = "two killer moves per remaining depth, tried after the jumps"},
    {.name = "hint", .type = OPTION_BOOL, .offset = FIELD(hint), .default_text = "on",
     .kind = OPTION_KIND_EXACT, .off_text = "off", .matrix = "on,off",
     .help = "try the cached best move (or the previous pass's move at the root) first"},
    {.name = "jumps_first", .type = OPTION_BOOL, .offset = FIELD(jumps_first), .default_text = "on",
     .kind = OPTION_KIND_EXACT, .off_text = "off", .matrix = "on,off",
     .help = "try tiger jumps before other moves (off: each tiger's moves in point order)"},
    {.name = "history", .type = OPTION_BOOL, .offset = FIELD(history), .default_text = "off",
     .kind = OPTION_KIND_EXACT, .place = OPTION_MOVE_LOOP, .off_text = "off", .matrix = "off,on",
     .help = "order the quiet moves after the killers by how often they caused cutoffs (this "
             "search)"},
    {.name = "pvs", .type = OPTION_BOOL, .offset = FIELD(pvs), .default_text = "off",
     .kind = OPTION_KIND_EXACT, .place = OPTION_MOVE_LOOP, .off_text = "off", .matrix = "off,on",
     .help = "principal variation search: null windows after the first move, re-searched on a "
             "fail-high"},
    {.name = "aspiration", .type = OPTION_INT, .offset = FIELD(aspiration), .default_text = "0",
     .min = 0, .max = 10000, .kind = OPTION_KIND_EXACT, .off_text = "0", .matrix = "0,25",
     .tuning = {0, 100, 5},
     .help = "root window of +-N around the previous pass's score, widened until exact (0: off)"},
    {.name = "lmr", .type = OPTION_BOOL, .offset = FIELD(lmr), .default_text = "off",
     .kind = OPTION_KIND_PRUNING, .place = OPTION_MOVE_LOOP, .off_text = "off",
     .help = "late move reductions: quiet moves late in the list searched shallower first"},
    {.name = "lmr_depth", .type = OPTION_INT, .offset = FIELD(lmr_depth), .default_text = "3",
     .min = 2, .max = 64, .kind = OPTION_KIND_PARAMETER, .tuning = {2, 8, 1},
     .help = "lmr: from this remaining depth"},
    {.name = "lmr_moves", .type = OPTION_INT, .offset = FIELD(lmr_moves), .default_text = "3",
     .min = 1, .max = 100, .kind = OPTION_KIND_PARAMETER, .tuning = {1, 12, 1},
     .help = "lmr: after this many moves searched in full"},
    {.name = "lmr_reduction", .type = OPTION_INT, .offset = FIELD(lmr_reduction),
     .default_text = "1", .min = 1, .max = 8, .kind = OPTION_KIND_PARAMETER, .tuning = {1, 4, 0.5},
     .help = "lmr: plies taken off"},
    {.name = "qsearch", .type = OPTION_BOOL, .offset = FIELD(qsearch), .default_text = "off",
     .kind = OPTION_KIND_PRUNING, .off_text = "off",
     .help = "quiescence: at depth 0 the tigers may still jump (or stand pat) before the "
             "evaluation"},
    {.name = "nullmove", .type = OPTION_BOOL, .offset = FIELD(nullmove), .default_text = "off",
     .kind = OPTION_KIND_PRUNING, .off_text = "off",
     .help = "null-move pruning (never for a side with 2 moves or fewer, nor for sheep sliding)"},
    {.name = "nullmove_r", .type = OPTION_INT, .offset = FIELD(nullmove_r), .default_text = "2",
     .min = 1, .max = 8, .kind = OPTION_KIND_PARAMETER, .tuning = {1, 5, 0.5},
     .help = "nullmove: depth reduction of the null-move search"},
    {.name = "futility", .type = OPTION_INT, .offset = FIELD(futility), .default_text = "0",
     .min = 0, .max = 10000, .kind = OPTION_KIND_PRUNING, .place = OPTION_MOVE_LOOP,
     .off_text = "0", .tuning = {0, 300, 10},
     .help = "at depth 1, skip quiet moves when the evaluation is N or more below alpha (0: off)"},
    {.name = "jump_extension", .type = OPTION_BOOL, .offset = FIELD(jump_extension),
     .default_text = "off", .kind = OPTION_KIND_PRUNING, .place = OPTION_MOVE_LOOP,
     .off_text = "off",
     .help = "search a tiger jump one ply deeper (a capture decides games; at most 4 per line)"},
    {.name = "egdb", .type = OPTION_BOOL, .offset = FIELD(egdb), .default_text = "off",
     .kind = OPTION_KIND_PRUNING, .off_text = "off",
     .help = "below the root, a sliding-phase node returns the tablebase's exact value (make "
             "tablebase)"},
    {.name = "eval_captured", .type = OPTION_INT, .offset = FIELD(eval_captured),
     .default_text = "100", .min = -WEIGHT_LIMIT, .max = WEIGHT_LIMIT, .kind = OPTION_KIND_EVAL,
     .tuning = {40, 250, 8},
     .help = "evaluation: weight per sheep captured"},
    {.name = "eval_jumps", .type = OPTION_INT, .offset = FIELD(eval_jumps), .default_text = "20",
     .min = -WEIGHT_LIMIT, .max = WEIGHT_LIMIT, .kind = OPTION_KIND_EVAL, .tuning = {0, 80, 3},
     .help = "evaluation: weight per tiger jump available"},
    {.name = "eval_trapped", .type = OPTION_INT, .offset = FIELD(eval_trapped),
     .default_text = "-15", .min = -WEIGHT_LIMIT, .max = WEIGHT_LIMIT, .kind = OPTION_KIND_EVAL,
     .tuning = {-80, 0, 3},
     .help = "evaluation: weight per tiger with no move"},
    {.name = "eval_mobility", .type = OPTION_INT, .offset = FIELD(eval_mobility),
     .default_text = "2", .min = -WEIGHT_LIMIT, .max = WEIGHT_LIMIT, .kind = OPTION_KIND_EVAL,
     .tuning = {0, 10, 1},
     .help = "evaluation: weight per tiger move available"},
    {.name = "tm_moves", .type = OPTION_INT, .offset = FIELD(tm_moves), .default_text = "30",
     .min = 1, .max = 1000, .kind = OPTION_KIND_TIME, .tuning = {10, 80, 3},
     .help = "time: a clock without periods is shared as if N moves were left"},
    {.name = "tm_soft", .type = OPTION_INT, .offset = FIELD(tm_soft), .default_text = "60",
     .min = 1, .max = 10000, .kind = OPTION_KIND_TIME, .tuning = {20, 200, 8},
     .help = "time: no new pass starts after N percent of the move's share"},
    {.name = "tm_hard", .type = OPTION_INT, .offset = FIELD(tm_hard), .default_text = "300",
     .min = 1, .max = 10000, .kind = OPTION_KIND_TIME, .tuning = {100, 800, 25},
     .help = "time: a pass is cut off at N percent of the share (at most half the clock)"},
    {.name = "tm_overhead", .type = OPTION_INT, .offset = FIELD(tm_overhead), .default_text = "1",
     .min = 0, .max = 10000, .kind = OPTION_KIND_TIME,
     .help = "time: milliseconds of the clock kept back from every move (pipes, the harness)"},
    {.name = "depth", .type = OPTION_INT, .offset = FIELD(depth), .default_text = "0", .min = 0,
     .max = 64, .kind = OPTION_KIND_LIMIT,
     .help = "limit: deepest iteration in plies (0 = no depth limit)"},
    {.name = "nodes", .type = OPTION_INT64, .offset = FIELD(nodes), .default_text = "0",
     .max = INT64_C(1000000000000000), .kind = OPTION_KIND_LIMIT,
     .help = "limit: node budget per search (0 = none); deterministic"},
    {.name = "movetime", .type = OPTION_INT64, .offset = FIELD(movetime), .default_text = "0",
     .max = INT64_C(86400000), .kind = OPTION_KIND_LIMIT,
     .help = "limit: milliseconds per search (0 = none); not reproducible"},
};
// clang-format on

const size_t CONFIG_OPTION_COUNT = sizeof CONFIG_OPTIONS / sizeof CONFIG_OPTIONS[0];

const OptionSpec *config_find(const char *name) {
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++)
        if (!strcmp(CONFIG_OPTIONS[i].name, name))
            return &CONFIG_OPTIONS[i];
    return NULL;
}

static int choice_index(const char *const *choices, const char *value) {
    for (int i = 0; choices[i]; i++)
        if (!strcmp(choices[i], value))
            return i;
    return -1;
}

char *config_allowed_text(const OptionSpec *spec, char *out, size_t size) {
    if (spec->type == OPTION_BOOL || spec->type == OPTION_CHOICE) {
        size_t used = 0;
        out[0] = '\0';
        const char *const *choices = spec->type == OPTION_BOOL ? (const char *const[]){"on", "off", NULL}
                                                               : spec->choices;
        for (int i = 0; choices[i] && used < size; i++)
            used += (size_t)snprintf(out + used, size - used, "%s%s", i ? "|" : "", choices[i]);
        return out;
    }
    snprintf(out, size, "%lld..%lld", (long long)spec->min, (long long)spec->max);
    return out;
}

/* Stores text into the field of spec, after validating it. */
static bool set_value(SearchConfig *config, const OptionSpec *spec, const char *value,
                      Error *err) {
    char *field = (char *)config + spec->offset;
    char allowed[96], quoted[ERROR_EXCERPT_MAX];
    Error inner;
    switch (spec->type) {
    case OPTION_BOOL: {
        int index = choice_index(ON_OFF, value);
        if (index < 0)
            return error_set(err, "option %s: '%s' is not allowed (allowed: on|off)", spec->name,
                             error_excerpt(value, quoted));
        *(bool *)field = index == 1;
        return true;
    }
    case OPTION_CHOICE: {
        int index = choice_index(spec->choices, value);
        if (index < 0)
            return error_set(err, "option %s: '%s' is not allowed (allowed: %s)", spec->name,
                             error_excerpt(value, quoted),
                             config_allowed_text(spec, allowed, sizeof allowed));
        *(int *)field = index;
        return true;
    }
    case OPTION_INT: {
        int number;
        if (!parse_int(value, (int)spec->min, (int)spec->max, &number, &inner))
            return error_set(err, "option %s: %s (allowed: %s)", spec->name, inner.text,
                             config_allowed_text(spec, allowed, sizeof allowed));
        *(int *)field = number;
        return true;
    }
    case OPTION_INT64: {
        int64_t number;
        if (!parse_int64(value, spec->min, spec->max, &number, &inner))
            return error_set(err, "option %s: %s (allowed: %s)", spec->name, inner.text,
                             config_allowed_text(spec, allowed, sizeof allowed));
        *(int64_t *)field = number;
        return true;
    }
    }
    return error_set(err, "option %s: unknown type", spec->name);
}

static size_t option_field_size(OptionType type) {
    return type == OPTION_BOOL ? sizeof(bool) : type == OPTION_INT64 ? sizeof(int64_t) : sizeof(int);
}

SearchConfig config_default(void) {
    SearchConfig config;
    memset(&config, 0, sizeof config);
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        bool ok = set_value(&config, &CONFIG_OPTIONS[i], CONFIG_OPTIONS[i].default_text, NULL);
        (void)ok; /* the defaults in the table are valid: test_config checks every one */
    }
    return config;
}

const char *config_suggest(const char *name) {
    const char *names[sizeof CONFIG_OPTIONS / sizeof CONFIG_OPTIONS[0] + 1];
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++)
        names[i] = CONFIG_OPTIONS[i].name;
    names[CONFIG_OPTION_COUNT] = "preset"; /* not a row: a set of rows */
    return parse_closest(name, names, CONFIG_OPTION_COUNT + 1, 3);
}

/* The 0.2 feature set, named by value so that a later change of a default leaves it. */
#define TSLAB_0_2_TOKENS                                                                         \
    "cache=table tt_bits=20 replace=twotier symmetry=on killers=on hint=on jumps_first=on "       \
    "eval_captured=100 eval_jumps=20 eval_trapped=-15 eval_mobility=2"

const ConfigPreset CONFIG_PRESETS[] = {
    {"default", false, "", "every feature, parameter and weight at its default"},
    {"plain", true, "", "every exact and pruning feature off: plain alpha-beta"},
    /* The defaults of tslab 0.2, before the variants of docs/experiments.md: a new default is
     * tested against this. Its weights are named so that a later change of theirs leaves it. */
    {"tslab-0.2", true, TSLAB_0_2_TOKENS,
     "the defaults of tslab 0.2: cache, symmetry, killers, hint, jumps first, nothing newer"},
    /* The defaults of tslab 0.3: 0.2's and the variants that passed their SPRTs at 5000 nodes in
     * docs/experiments.md, and lost at equal time (the section "Equal time"). */
    {"tslab-0.3", true,
     "cache=table tt_bits=20 replace=twotier symmetry=on killers=on hint=on jumps_first=on "
     "history=on lmr=on lmr_depth=3 lmr_moves=3 lmr_reduction=1 nullmove=on nullmove_r=2 "
     "futility=60 eval_captured=100 eval_jumps=20 eval_trapped=-15 eval_mobility=2",
     "the defaults of tslab 0.3: those of 0.2 with history, LMR, null move and futility"},
    /* The defaults of tslab 0.4: those of 0.2 again, which beat 0.3's at equal time (H1 at
     * tc=0.2+0.002 and at tc=1+0.01, docs/experiments.md). The last preset is always the current
     * default (test_config). */
    {"tslab-0.4", true, TSLAB_0_2_TOKENS,
     "the defaults of tslab 0.4: those of 0.2, which beat 0.3's at equal time"},
};

const size_t CONFIG_PRESET_COUNT = sizeof CONFIG_PRESETS / sizeof CONFIG_PRESETS[0];

const char *config_kind_name(OptionKind kind) {
    static const char *const names[] = {[OPTION_KIND_EXACT] = "exact",
                                        [OPTION_KIND_PRUNING] = "pruning",
                                        [OPTION_KIND_PARAMETER] = "parameter",
                                        [OPTION_KIND_EVAL] = "evaluation",
                                        [OPTION_KIND_TIME] = "time",
                                        [OPTION_KIND_LIMIT] = "limit"};
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

static bool apply_preset(SearchConfig *config, const char *value, Error *err) {
    for (size_t i = 0; i < CONFIG_PRESET_COUNT; i++) {
        const ConfigPreset *preset = &CONFIG_PRESETS[i];
        if (strcmp(value, preset->name))
            continue;
        SearchConfig result = config_default();
        for (size_t k = 0; k < CONFIG_OPTION_COUNT; k++) {
            const OptionSpec *spec = &CONFIG_OPTIONS[k];
            bool feature = spec->kind == OPTION_KIND_EXACT || spec->kind == OPTION_KIND_PRUNING;
            if (spec->kind == OPTION_KIND_LIMIT || spec->kind == OPTION_KIND_TIME)
                memcpy((char *)&result + spec->offset, (const char *)config + spec->offset,
                       option_field_size(spec->type));
            else if (feature && preset->features_off &&
                     !set_value(&result, spec, spec->off_text, err))
                return false;
        }
        if (!config_apply_line(&result, preset->tokens, err))
            return false;
        *config = result;
        return true;
    }
    char quoted[ERROR_EXCERPT_MAX], names[128];
    size_t used = 0;
    names[0] = '\0';
    for (size_t i = 0; i < CONFIG_PRESET_COUNT && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? "|" : "",
                                 CONFIG_PRESETS[i].name);
    return error_set(err, "option preset: '%s' is not allowed (allowed: %s)",
                     error_excerpt(value, quoted), names);
}

bool config_apply(SearchConfig *config, const char *token, Error *err) {
    const char *equals = strchr(token, '=');
    char quoted[ERROR_EXCERPT_MAX];
    if (!equals || equals == token)
        return error_set(err, "'%s' is not a key=value option", error_excerpt(token, quoted));
    char key[64];
    size_t key_length = (size_t)(equals - token);
    if (key_length >= sizeof key)
        return error_set(err, "option name '%s' is too long", error_excerpt(token, quoted));
    memcpy(key, token, key_length);
    key[key_length] = '\0';
    const char *value = equals + 1;
    if (!strcmp(key, "preset"))
        return apply_preset(config, value, err);
    const OptionSpec *spec = config_find(key);
    if (!spec) {
        const char *suggestion = config_suggest(key);
        if (suggestion)
            return error_set(err, "unknown option '%s' (did you mean '%s'?)",
                             error_excerpt(key, quoted), suggestion);
        return error_set(err, "unknown option '%s' (see -help for the list)",
                         error_excerpt(key, quoted));
    }
    return set_value(config, spec, value, err);
}

char *config_value_text(const SearchConfig *config, const OptionSpec *spec, char *out) {
    const char *field = (const char *)config + spec->offset;
    switch (spec->type) {
    case OPTION_BOOL:
        strcpy(out, *(const bool *)field ? "on" : "off");
        break;
    case OPTION_CHOICE:
        strcpy(out, spec->choices[*(const int *)field]);
        break;
    case OPTION_INT:
        sprintf(out, "%d", *(const int *)field);
        break;
    case OPTION_INT64:
        sprintf(out, "%lld", (long long)*(const int64_t *)field);
        break;
    }
    return out;
}

size_t config_to_text(const SearchConfig *config, char *out, size_t size) {
    size_t used = 0;
    if (size)
        out[0] = '\0';
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        char value[32];
        int n = snprintf(out + (used < size ? used : size), used < size ? size - used : 0,
                         "%s%s=%s", i ? " " : "", CONFIG_OPTIONS[i].name,
                         config_value_text(config, &CONFIG_OPTIONS[i], value));
        used += (size_t)n;
    }
    return used;
}

bool config_apply_line(SearchConfig *config, const char *line, Error *err) {
    const char *p = line;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t length = strcspn(p, " ");
        if (!length)
            break;
        char token[256];
        if (length >= sizeof token) {
            char quoted[ERROR_EXCERPT_MAX];
            return error_set(err, "option '%s' is too long", error_excerpt(p, quoted));
        }
        memcpy(token, p, length);
        token[length] = '\0';
        if (!config_apply(config, token, err))
            return false;
        p += length;
    }
    return true;
}

/* The matrix values of an EXACT option: how many, and the k-th into out. */
static int matrix_count(const OptionSpec *spec) {
    int count = 1;
    for (const char *p = spec->matrix; *p; p++)
        count += *p == ',';
    return count;
}

static void matrix_value(const OptionSpec *spec, int k, char *out, size_t size) {
    const char *p = spec->matrix;
    for (int i = 0; i < k; i++)
        p = strchr(p, ',') + 1;
    size_t length = strcspn(p, ",");
    snprintf(out, size, "%.*s", (int)length, p);
}

size_t config_matrix_size(void) {
    size_t size = 1;
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++)
        if (CONFIG_OPTIONS[i].kind == OPTION_KIND_EXACT)
            size *= (size_t)matrix_count(&CONFIG_OPTIONS[i]);
    return size;
}

bool config_loop_variants_on(const SearchConfig *config) {
    SearchConfig off = *config;
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        char mine[32], plain[32];
        if (spec->place != OPTION_MOVE_LOOP)
            continue;
        /* The option's off value, written into a copy, read back as text: the two agree when it
         * is off, whatever its type. */
        set_value(&off, spec, spec->off_text, NULL);
        if (strcmp(config_value_text(config, spec, mine), config_value_text(&off, spec, plain)))
            return true;
    }
    return false;
}

bool config_pruning_off(SearchConfig *config) {
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        if (spec->kind == OPTION_KIND_PRUNING && !set_value(config, spec, spec->off_text, NULL))
            return false; /* an off_text its own option refuses: test_config catches that */
    }
    return true;
}

bool config_matrix_entry(size_t index, SearchConfig *config, char *text, size_t size) {
    /* Pruning changes scores by design: the matrix is the exact features over a search without
     * it, whatever the defaults turn on. */
    *config = config_default();
    if (!config_pruning_off(config))
        return false;
    size_t used = 0;
    if (size)
        text[0] = '\0';
    int chosen[sizeof CONFIG_OPTIONS / sizeof CONFIG_OPTIONS[0]];
    /* Mixed radix: the first EXACT option varies slowest. */
    size_t rest = index;
    for (size_t i = CONFIG_OPTION_COUNT; i-- > 0;) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        chosen[i] = 0;
        if (spec->kind != OPTION_KIND_EXACT)
            continue;
        chosen[i] = (int)(rest % (size_t)matrix_count(spec));
        rest /= (size_t)matrix_count(spec);
    }
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        char value[32];
        if (spec->kind != OPTION_KIND_EXACT)
            continue;
        matrix_value(spec, chosen[i], value, sizeof value);
        if (!set_value(config, spec, value, NULL))
            return false;
        used += (size_t)snprintf(text + (used < size ? used : size), used < size ? size - used : 0,
                                 "%s%s=%s", used ? " " : "", spec->name, value);
    }
    /* A value other than the first where the option does not apply repeats a combination. */
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        if (spec->kind == OPTION_KIND_EXACT && chosen[i] != 0 && spec->applies &&
            !spec->applies(config))
            return false;
    }
    return true;
}

uint64_t config_hash(const SearchConfig *config) {
    char text[1024];
    config_to_text(config, text, sizeof text);
    uint64_t hash = 0xcbf29ce484222325ull;
    for (const char *p = text; *p; p++)
        hash = (hash ^ (unsigned char)*p) * 0x100000001b3ull;
    return hash;
}
