// SPDX-License-Identifier: MIT
#include "engine_spec.h"

#include "engine_process.h"
#include "engine_reply.h"
#include "parse.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef enum {
    KEY_TEXT,    /* one word or more (args), in a fixed buffer */
    KEY_NUMBER,  /* a whole number in min..max */
    KEY_OPTIONS, /* option.NAME=VALUE, collected in order into "NAME=VALUE ..." */
} ProgramKeyType;

typedef struct {
    const char *key;
    ProgramKeyType type;
    size_t offset, size; /* of the field in ExternalSpec */
    int64_t min, max;    /* numbers */
    int64_t fallback;    /* a number's default */
    bool recorded_only;  /* kept in results files, never given on the command line */
    const char *usage;   /* how the usage writes it */
} ProgramKey;

#define TEXT(name, usage)                                                                          \
    {                                                                                              \
#name, KEY_TEXT, offsetof(ExternalSpec, name), sizeof((ExternalSpec *)0)->name, 0, 0, 0,   \
            false, usage                                                                           \
    }
#define NUMBER(name, lo, hi, fallback, recorded, usage)                                            \
    {                                                                                              \
#name, KEY_NUMBER, offsetof(ExternalSpec, name), sizeof(int64_t), lo, hi, fallback,        \
            recorded, usage                                                                        \
    }
static const ProgramKey PROGRAM_KEYS[] = {
    TEXT(cmd, "cmd=PROGRAM"),
    TEXT(args, "[args=\"...\"]"),
    TEXT(dir, "[dir=D]"),
    {"options", KEY_OPTIONS, offsetof(ExternalSpec, options), EXTERNAL_OPTIONS_MAX, 0, 0, 0, false,
     "[option.NAME=VALUE ...]"},
    NUMBER(bench, 0, (int64_t)ENGINE_REPLY_NODES_MAX, 0, false, "[bench=NODES]"),
    NUMBER(timemargin, 0, 3600000, EXTERNAL_DEFAULT_TIMEMARGIN_MS, false, "[timemargin=MS]"),
    NUMBER(startup, 1, 3600000, EXTERNAL_DEFAULT_STARTUP_MS, false, "[startup=MS]"),
    NUMBER(stall, 1, 86400000, EXTERNAL_DEFAULT_STALL_MS, false, "[stall=MS]"),
    NUMBER(bench_seen, 0, (int64_t)ENGINE_REPLY_NODES_MAX, 0, true, NULL),
};
#define PROGRAM_KEY_COUNT (sizeof PROGRAM_KEYS / sizeof PROGRAM_KEYS[0])

static char *field_of(ExternalSpec *x, const ProgramKey *k) { return (char *)x + k->offset; }
static const char *const_field_of(const ExternalSpec *x, const ProgramKey *k) {
    return (const char *)x + k->offset;
}

static int64_t number_of(const ExternalSpec *x, const ProgramKey *k) {
    int64_t value;
    memcpy(&value, const_field_of(x, k), sizeof value);
    return value;
}

EngineSpec engine_spec_default(void) {
    EngineSpec spec;
    memset(&spec, 0, sizeof spec);
    spec.config = config_default();
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++)
        if (PROGRAM_KEYS[i].type == KEY_NUMBER)
            memcpy(field_of(&spec.external, &PROGRAM_KEYS[i]), &PROGRAM_KEYS[i].fallback,
                   sizeof(int64_t));
    return spec;
}

/* Whether a key holds its default (text and options: empty). */
static bool is_default(const ExternalSpec *x, const ProgramKey *k) {
    if (k->type == KEY_NUMBER)
        return number_of(x, k) == k->fallback;
    return !*const_field_of(x, k);
}

void engine_spec_usage(TextBuf *buf) {
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++)
        if (PROGRAM_KEYS[i].usage)
            textbuf_printf(buf, "%s%s", i ? " " : "", PROGRAM_KEYS[i].usage);
}

const char *engine_spec_closest_key(const char *key) {
    const char *names[PROGRAM_KEY_COUNT];
    size_t count = 0;
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++)
        if (PROGRAM_KEYS[i].type != KEY_OPTIONS && !PROGRAM_KEYS[i].recorded_only)
            names[count++] = PROGRAM_KEYS[i].key;
    return parse_closest(key, names, count, 2);
}

bool engine_spec_check_name(const char *name, Error *err) {
    size_t length = strlen(name);
    if (length == 0 || length >= MATCH_NAME_MAX)
        return error_set(err, "name empty or longer than %d characters", MATCH_NAME_MAX - 1);
    for (const char *p = name; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", *p))
            return error_set(err,
                             "name '%s': use letters, digits and . _ + - only (names go "
                             "into per-game lines that parsers split on spaces and colons, "
                             "and into the records' quoted tags)",
                             name);
    return true;
}

/* The first control character of text (a newline, a tab, ESC...), or NULL. Such a character in
 * a value sent to an engine would end its line early and inject a command of its own. */
static const char *control_character(const char *text) {
    for (const char *p = text; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return p;
    return NULL;
}

static bool add_option(ExternalSpec *x, const char *name, const char *value, Error *err) {
    if (!*name || strpbrk(name, " =") || !*value || strchr(value, ' '))
        return error_set(err,
                         "option.NAME=VALUE: NAME and VALUE must be single words "
                         "(got 'option.%s=%s')",
                         name, value);
    size_t used = strlen(x->options);
    int n = snprintf(x->options + used, sizeof x->options - used, "%s%s=%s", used ? " " : "", name,
                     value);
    if (n < 0 || (size_t)n >= sizeof x->options - used)
        return error_set(err, "option.%s: the engine's options exceed %zu characters", name,
                         sizeof x->options - 1);
    return true;
}

static bool set_text(ExternalSpec *x, const ProgramKey *k, const char *value, Error *err) {
    if (strlen(value) >= k->size)
        return error_set(err, "%s=: longer than %zu characters", k->key, k->size - 1);
    if (!strcmp(k->key, "cmd") && !*value)
        return error_set(err, "cmd=: empty (give the engine program)");
    if (!strcmp(k->key, "args")) {
        char words_text[ENGINE_ARGS_TEXT_MAX], *words[ENGINE_ARGS_MAX];
        snprintf(words_text, sizeof words_text, "%s", value);
        if (engine_args_split(words_text, words, ENGINE_ARGS_MAX) < 0)
            return error_set(err, "args=: more than %d words", ENGINE_ARGS_MAX);
    }
    strcpy(field_of(x, k), value);
    return true;
}

static bool set_number(ExternalSpec *x, const ProgramKey *k, const char *value, Error *err) {
    Error inner;
    int64_t number;
    /* bench=0 is "not checked" only as the default: given, it must be a real count. */
    int64_t min = !strcmp(k->key, "bench") ? 1 : k->min;
    if (!parse_int64(value, min, k->max, &number, &inner))
        return error_set(err, "%s=%s: %s", k->key, value, inner.text);
    memcpy(field_of(x, k), &number, sizeof number);
    return true;
}

bool engine_spec_program_key(ExternalSpec *x, const char *key, const char *value, bool *handled,
                             Error *err) {
    *handled = true;
    const char *control = control_character(key);
    if (!control)
        control = control_character(value);
    if (control)
        return error_set(err,
                         "%s: control character 0x%02x in the value (a newline or tab "
                         "would reach the engine as a command of its own)",
                         key, (unsigned)(unsigned char)*control);
    if (!strncmp(key, "option.", 7))
        return add_option(x, key + 7, value, err);
    if (!strcmp(key, "proto")) {
        if (strcmp(value, "uci"))
            return error_set(err,
                             "proto=%s: engine programs speak the engine protocol "
                             "(proto=uci, docs/engine.md)",
                             value);
        return true;
    }
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++) {
        const ProgramKey *k = &PROGRAM_KEYS[i];
        if (strcmp(key, k->key) || k->recorded_only || k->type == KEY_OPTIONS)
            continue;
        return k->type == KEY_TEXT ? set_text(x, k, value, err) : set_number(x, k, value, err);
    }
    *handled = false;
    return true;
}

bool engine_spec_check_kind(const EngineSpec *spec, Error *err) {
    if (!engine_is_external(spec)) {
        for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++) {
            const ProgramKey *k = &PROGRAM_KEYS[i];
            if (k->recorded_only || is_default(&spec->external, k))
                continue;
            if (k->type == KEY_OPTIONS)
                return error_set(err,
                                 "-engine %s: option.NAME=VALUE is for engine programs "
                                 "(cmd=); an in-process engine takes search options as "
                                 "plain key=value (`bench options`)",
                                 spec->name);
            return error_set(err,
                             "-engine %s: %s= belongs to engine programs (give cmd=); an "
                             "in-process engine has no program to wait for",
                             spec->name, k->key);
        }
        return true;
    }
    SearchConfig plain = config_default();
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *o = &CONFIG_OPTIONS[i];
        char mine[32], standard[32];
        if (o->kind == OPTION_KIND_LIMIT || !strcmp(config_value_text(&spec->config, o, mine),
                                                    config_value_text(&plain, o, standard)))
            continue;
        return error_set(err,
                         "-engine %s runs a program (cmd=): '%s=%s' is an in-process search "
                         "option; give the program's options as option.%s=%s",
                         spec->name, o->name, mine, o->name, mine);
    }
    return true;
}

void engine_spec_program_tokens(const ExternalSpec *x, TextBuf *buf) {
    if (!x->cmd[0])
        return;
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++) {
        const ProgramKey *k = &PROGRAM_KEYS[i];
        if (k->recorded_only || is_default(x, k))
            continue;
        if (k->type == KEY_NUMBER) {
            textbuf_printf(buf, " %s=%lld", k->key, (long long)number_of(x, k));
        } else if (k->type == KEY_TEXT) {
            const char *text = const_field_of(x, k);
            textbuf_printf(buf, strchr(text, ' ') ? " '%s=%s'" : " %s=%s", k->key, text);
        } else {
            char options[EXTERNAL_OPTIONS_MAX];
            snprintf(options, sizeof options, "%s", x->options);
            char *save = NULL;
            for (char *word = strtok_r(options, " ", &save); word;
                 word = strtok_r(NULL, " ", &save))
                textbuf_printf(buf, " option.%s", word);
        }
    }
}

bool engine_spec_same_program(const ExternalSpec *a, const ExternalSpec *b, const char **key) {
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++) {
        const ProgramKey *k = &PROGRAM_KEYS[i];
        if (k->recorded_only)
            continue;
        bool same = k->type == KEY_NUMBER ? number_of(a, k) == number_of(b, k)
                                          : !strcmp(const_field_of(a, k), const_field_of(b, k));
        if (!same) {
            *key = k->key;
            return false;
        }
    }
    return true;
}

cJSON *engine_spec_program_to_json(const ExternalSpec *x) {
    cJSON *json = cJSON_CreateObject();
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++) {
        const ProgramKey *k = &PROGRAM_KEYS[i];
        if (k->type == KEY_NUMBER)
            cJSON_AddNumberToObject(json, k->key, (double)number_of(x, k));
        else
            cJSON_AddStringToObject(json, k->key, const_field_of(x, k));
    }
    return json;
}

/* The recorded "NAME=VALUE ..." words, each checked as option.NAME=VALUE is. */
static bool options_from_text(ExternalSpec *x, const char *text, Error *err) {
    char copy[EXTERNAL_OPTIONS_MAX];
    snprintf(copy, sizeof copy, "%s", text);
    char *save = NULL;
    bool handled;
    for (char *word = strtok_r(copy, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
        char *equals = strchr(word, '='), key[EXTERNAL_OPTIONS_MAX + 8];
        if (!equals)
            return error_set(err, "options: '%.40s' is not NAME=VALUE", word);
        *equals = '\0';
        snprintf(key, sizeof key, "option.%s", word);
        if (!engine_spec_program_key(x, key, equals + 1, &handled, err))
            return false;
    }
    return true;
}

bool engine_spec_program_from_json(const cJSON *json, ExternalSpec *x, Error *err) {
    *x = engine_spec_default().external;
    if (!json)
        return true;
    for (size_t i = 0; i < PROGRAM_KEY_COUNT; i++) {
        const ProgramKey *k = &PROGRAM_KEYS[i];
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, k->key);
        if (k->type == KEY_NUMBER) {
            /* Files written before bench_seen was recorded have none: the resumed run records
             * it. */
            if (!item && k->recorded_only)
                continue;
            double value = cJSON_IsNumber(item) ? item->valuedouble : -1;
            if (!(value >= (double)k->min && value <= (double)k->max) || value != floor(value))
                return error_set(err, "\"%s\" must be a whole number, %lld..%lld", k->key,
                                 (long long)k->min, (long long)k->max);
            int64_t number = (int64_t)value;
            char text[32];
            snprintf(text, sizeof text, "%lld", (long long)number);
            if (number != k->fallback && !k->recorded_only && !set_number(x, k, text, err))
                return false;
            memcpy(field_of(x, k), &number, sizeof number);
            continue;
        }
        const char *text = cJSON_GetStringValue(item);
        if (!text || strlen(text) >= k->size)
            return error_set(err, "\"%s\" must be a string of at most %zu characters", k->key,
                             k->size - 1);
        bool handled;
        if (k->type == KEY_OPTIONS ? !options_from_text(x, text, err)
                                   : (*text || !strcmp(k->key, "cmd")) &&
                                         !engine_spec_program_key(x, k->key, text, &handled, err))
            return false;
    }
    return true;
}
