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

const OptionSpec CONFIG_OPTIONS[] = {
    {"cache", OPTION_CHOICE, FIELD(cache), "table", 0, 0, CACHE_NAMES, false,
     "none; map: exact growing hash map (reference); table: fixed transposition table; "
     "tiny: the table with 8 slots"},
    {"tt_bits", OPTION_INT, FIELD(tt_bits), "20", 1, 30, NULL, false,
     "the table has 2^N slots (16 bytes each), allocated once"},
    {"replace", OPTION_CHOICE, FIELD(replace), "twotier", 0, 0, REPLACE_NAMES, false,
     "table replacement: twotier (deepest + always buckets), always, deepest"},
    {"symmetry", OPTION_BOOL, FIELD(symmetry), "on", 0, 0, ON_OFF, false,
     "look positions up by their canonical image: 8 symmetric positions share an entry"},
    {"killers", OPTION_BOOL, FIELD(killers), "on", 0, 0, ON_OFF, false,
     "two killer moves per remaining depth, tried after the jumps"},
    {"hint", OPTION_BOOL, FIELD(hint), "on", 0, 0, ON_OFF, false,
     "try the cached best move (or the previous pass's move at the root) first"},
    {"jumps_first", OPTION_BOOL, FIELD(jumps_first), "on", 0, 0, ON_OFF, false,
     "try tiger jumps before other moves (off: each tiger's moves in point order)"},
    {"eval_captured", OPTION_INT, FIELD(eval_captured), "100", -WEIGHT_LIMIT, WEIGHT_LIMIT, NULL,
     false, "evaluation: weight per sheep captured"},
    {"eval_jumps", OPTION_INT, FIELD(eval_jumps), "20", -WEIGHT_LIMIT, WEIGHT_LIMIT, NULL, false,
     "evaluation: weight per tiger jump available"},
    {"eval_trapped", OPTION_INT, FIELD(eval_trapped), "-15", -WEIGHT_LIMIT, WEIGHT_LIMIT, NULL,
     false, "evaluation: weight per tiger with no move"},
    {"eval_mobility", OPTION_INT, FIELD(eval_mobility), "2", -WEIGHT_LIMIT, WEIGHT_LIMIT, NULL,
     false, "evaluation: weight per tiger move available"},
    {"depth", OPTION_INT, FIELD(depth), "0", 0, 64, NULL, true,
     "limit: deepest iteration in plies (0 = no depth limit)"},
    {"nodes", OPTION_INT64, FIELD(nodes), "0", 0, INT64_C(1000000000000000), NULL, true,
     "limit: node budget per search (0 = none); deterministic"},
    {"movetime", OPTION_INT64, FIELD(movetime), "0", 0, INT64_C(86400000), NULL, true,
     "limit: milliseconds per search (0 = none); not reproducible"},
};

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
    names[CONFIG_OPTION_COUNT] = "preset";
    return parse_closest(name, names, CONFIG_OPTION_COUNT + 1, 3);
}

static bool apply_preset(SearchConfig *config, const char *value, Error *err) {
    if (!strcmp(value, "default")) {
        *config = config_default();
        return true;
    }
    if (!strcmp(value, "plain")) {
        config->cache = CACHE_NONE;
        config->symmetry = false;
        config->killers = false;
        config->hint = false;
        config->jumps_first = false;
        return true;
    }
    char quoted[ERROR_EXCERPT_MAX];
    return error_set(err, "option preset: '%s' is not allowed (allowed: plain|default)",
                     error_excerpt(value, quoted));
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

uint64_t config_hash(const SearchConfig *config) {
    char text[1024];
    config_to_text(config, text, sizeof text);
    uint64_t hash = 0xcbf29ce484222325ull;
    for (const char *p = text; *p; p++)
        hash = (hash ^ (unsigned char)*p) * 0x100000001b3ull;
    return hash;
}
