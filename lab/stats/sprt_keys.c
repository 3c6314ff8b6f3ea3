// SPDX-License-Identifier: MIT
#include "sprt_keys.h"

#include "parse.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef enum { SPRT_KEY_NUMBER, SPRT_KEY_MODEL, SPRT_KEY_SWITCH } SprtKeyType;

typedef struct {
    const char *key;
    SprtKeyType type;
    size_t offset;            /* in SprtParams */
    bool required;            /* on the command line */
    const char *default_text; /* an optional key not given, as written on the command line */
    const char *absent_text;  /* a results file without the key: its value of that time (NULL:
                                 the file must have it) */
    const char *usage;        /* in the usage line: "X", the choices, or NULL for the default */
} SprtKey;

/* The defaults: fishtest's error rates, its normalized model, and the overshoot correction on
 * (docs/sprt.md says why). */
static const SprtKey SPRT_KEYS[] = {
    {.key = "elo0", .type = SPRT_KEY_NUMBER, .offset = offsetof(SprtParams, elo0),
     .required = true, .usage = "X"},
    {.key = "elo1", .type = SPRT_KEY_NUMBER, .offset = offsetof(SprtParams, elo1),
     .required = true, .usage = "Y"},
    {.key = "alpha", .type = SPRT_KEY_NUMBER, .offset = offsetof(SprtParams, alpha),
     .default_text = "0.05"},
    {.key = "beta", .type = SPRT_KEY_NUMBER, .offset = offsetof(SprtParams, beta),
     .default_text = "0.05"},
    {.key = "model", .type = SPRT_KEY_MODEL, .offset = offsetof(SprtParams, model),
     .default_text = "normalized", .usage = "normalized|logistic|bayeselo"},
    /* Runs recorded before the correction existed decided without it, and keep doing so. */
    {.key = "overshoot", .type = SPRT_KEY_SWITCH, .offset = offsetof(SprtParams, overshoot),
     .default_text = "on", .absent_text = "off", .usage = "on|off"},
};
#define SPRT_KEY_COUNT (sizeof SPRT_KEYS / sizeof SPRT_KEYS[0])

/* Named tests in fishtest's manner (docs/sprt.md, "Presets"): preset=NAME sets elo0, elo1,
 * alpha, beta and the model; a key given beside it overrides that key, wherever it stands. The
 * gain-* and nonreg rows are this game's scale (a feature of its search is worth tens of Elo at
 * the ledger's budgets, so they are 2.5 times fishtest's widths); the fishtest-* rows are
 * fishtest's own bounds for chess. */
typedef struct {
    const char *name;
    double elo0, elo1, alpha, beta;
    SprtModel model;
} SprtPreset;

static const SprtPreset SPRT_PRESETS[] = {
    {"gain-stc", 0, 5, 0.05, 0.05, SPRT_MODEL_NORMALIZED}, /* a gain, at a short clock */
    /* A gain confirmed at a long clock: under one nElo counts as none. */
    {"gain-ltc", 1, 6, 0.05, 0.05, SPRT_MODEL_NORMALIZED},
    {"nonreg", -4, 1, 0.05, 0.05, SPRT_MODEL_NORMALIZED}, /* a simplification must not lose */
    {"fishtest-stc", 0, 2, 0.05, 0.05, SPRT_MODEL_NORMALIZED},
    {"fishtest-ltc", 0.5, 2.5, 0.05, 0.05, SPRT_MODEL_NORMALIZED},
    {"fishtest-nonreg", -1.75, 0.25, 0.05, 0.05, SPRT_MODEL_NORMALIZED},
};
#define SPRT_PRESET_COUNT (sizeof SPRT_PRESETS / sizeof SPRT_PRESETS[0])

/* Any number a key accepts; sprt_params_check then bounds each (elo0 < elo1, 0 < alpha...). */
#define SPRT_NUMBER_LIMIT 1e9

static bool set_key(const SprtKey *k, SprtParams *p, const char *value, Error *err);

SprtParams sprt_params_default(void) {
    SprtParams p = {.elo0 = 0}; /* the required keys: 0 until given */
    for (size_t i = 0; i < SPRT_KEY_COUNT; i++) {
        Error ignored; /* the rows' defaults are valid: test_sprt reads them back */
        if (SPRT_KEYS[i].default_text)
            set_key(&SPRT_KEYS[i], &p, SPRT_KEYS[i].default_text, &ignored);
    }
    return p;
}

void sprt_keys_list(TextBuf *buf) {
    for (size_t i = 0; i < SPRT_KEY_COUNT; i++)
        textbuf_printf(buf, "%s%s", i ? ", " : "", SPRT_KEYS[i].key);
    textbuf_printf(buf, ", preset");
}

static void key_text(const SprtKey *k, const SprtParams *p, char *out, size_t size);

void sprt_keys_usage(TextBuf *buf) {
    SprtParams defaults = sprt_params_default();
    for (size_t i = 0; i < SPRT_KEY_COUNT; i++) {
        const SprtKey *k = &SPRT_KEYS[i];
        char value[32];
        key_text(k, &defaults, value, sizeof value); /* an optional number: its default */
        textbuf_printf(buf, "%s%s%s=%s%s", i ? " " : "", k->required ? "" : "[", k->key,
                       k->usage ? k->usage : value, k->required ? "" : "]");
    }
    textbuf_printf(buf, " | preset=NAME [KEY=VALUE...]");
}

static const SprtKey *find_key(const char *key, size_t length) {
    for (size_t i = 0; i < SPRT_KEY_COUNT; i++)
        if (strlen(SPRT_KEYS[i].key) == length && !strncmp(SPRT_KEYS[i].key, key, length))
            return &SPRT_KEYS[i];
    return NULL;
}

static bool set_key(const SprtKey *k, SprtParams *p, const char *value, Error *err) {
    char *field = (char *)p + k->offset;
    char quoted[ERROR_EXCERPT_MAX];
    Error inner;
    switch (k->type) {
    case SPRT_KEY_NUMBER:
        if (!parse_double(value, -SPRT_NUMBER_LIMIT, SPRT_NUMBER_LIMIT, (double *)field, &inner))
            return error_set(err, "-sprt %s: %s", k->key, inner.text);
        return true;
    case SPRT_KEY_MODEL:
        if (!sprt_model_from_name(value, (SprtModel *)field))
            return error_set(err,
                             "-sprt model: '%s' is not allowed "
                             "(normalized|logistic|bayeselo)",
                             error_excerpt(value, quoted));
        return true;
    case SPRT_KEY_SWITCH:
        if (strcmp(value, "on") && strcmp(value, "off"))
            return error_set(err, "-sprt %s: '%s' is not allowed (on|off)", k->key,
                             error_excerpt(value, quoted));
        *(bool *)field = !strcmp(value, "on");
        return true;
    }
    return error_set(err, "-sprt %s: unknown type", k->key);
}

static void key_text(const SprtKey *k, const SprtParams *p, char *out, size_t size) {
    const char *field = (const char *)p + k->offset;
    switch (k->type) {
    case SPRT_KEY_NUMBER:
        snprintf(out, size, "%g", *(const double *)field);
        return;
    case SPRT_KEY_MODEL:
        snprintf(out, size, "%s", sprt_model_name(*(const SprtModel *)field));
        return;
    case SPRT_KEY_SWITCH:
        snprintf(out, size, "%s", *(const bool *)field ? "on" : "off");
        return;
    }
}

static bool check_params(const SprtParams *p, Error *err) {
    if (sprt_params_check(p, err))
        return true;
    Error copy = *err;
    return error_set(err, "-sprt: %s", copy.text);
}

/* An unknown key: the closest one on a typo, else the list. */
static bool unknown_key(const char *token, size_t length, Error *err) {
    char key[32], quoted[ERROR_EXCERPT_MAX], list[128];
    snprintf(key, sizeof key, "%.*s", (int)(length < sizeof key ? length : sizeof key - 1), token);
    const char *names[SPRT_KEY_COUNT + 1];
    for (size_t i = 0; i < SPRT_KEY_COUNT; i++)
        names[i] = SPRT_KEYS[i].key;
    names[SPRT_KEY_COUNT] = "preset";
    const char *best = parse_closest(key, names, SPRT_KEY_COUNT + 1, 2);
    if (best)
        return error_set(err, "-sprt: unknown key in '%s' (did you mean %s=?)",
                         error_excerpt(token, quoted), best);
    TextBuf buf = textbuf(list, sizeof list);
    sprt_keys_list(&buf);
    return error_set(err, "-sprt: unknown key in '%s' (%s)", error_excerpt(token, quoted), list);
}

void sprt_presets_list(TextBuf *buf) {
    for (size_t i = 0; i < SPRT_PRESET_COUNT; i++)
        textbuf_printf(buf, "%s%s", i ? ", " : "", SPRT_PRESETS[i].name);
}

bool sprt_preset_apply(const char *name, SprtParams *p, Error *err) {
    char quoted[ERROR_EXCERPT_MAX], list[256];
    for (size_t i = 0; i < SPRT_PRESET_COUNT; i++) {
        const SprtPreset *x = &SPRT_PRESETS[i];
        if (strcmp(x->name, name))
            continue;
        p->elo0 = x->elo0;
        p->elo1 = x->elo1;
        p->alpha = x->alpha;
        p->beta = x->beta;
        p->model = x->model;
        return true;
    }
    TextBuf buf = textbuf(list, sizeof list);
    sprt_presets_list(&buf);
    return error_set(err, "-sprt preset=%s: no such preset (%s; docs/sprt.md, \"Presets\")",
                     error_excerpt(name, quoted), list);
}

/* Splits "key=value" (false when it is not that shape, said in err). */
static bool split_token(const char *token, const char **equals, Error *err) {
    char quoted[ERROR_EXCERPT_MAX];
    *equals = strchr(token, '=');
    if (!*equals || *equals == token)
        return error_set(err, "-sprt: '%s' is not key=value", error_excerpt(token, quoted));
    return true;
}

bool sprt_params_parse(char *const *tokens, int count, SprtParams *p, Error *err) {
    *p = sprt_params_default();
    bool given[SPRT_KEY_COUNT] = {false}, preset = false;
    const char *equals;
    /* The preset first, so that a key beside it overrides it wherever it stands. */
    for (int t = 0; t < count; t++) {
        if (!split_token(tokens[t], &equals, err))
            return false;
        if ((size_t)(equals - tokens[t]) != strlen("preset") || strncmp(tokens[t], "preset", 6))
            continue;
        if (preset)
            return error_set(err, "-sprt: preset= is given twice");
        if (!sprt_preset_apply(equals + 1, p, err))
            return false;
        preset = true;
    }
    for (int t = 0; t < count; t++) {
        split_token(tokens[t], &equals, err);
        size_t length = (size_t)(equals - tokens[t]);
        if (length == strlen("preset") && !strncmp(tokens[t], "preset", 6))
            continue;
        const SprtKey *k = find_key(tokens[t], length);
        if (!k)
            return unknown_key(tokens[t], length, err);
        if (!set_key(k, p, equals + 1, err))
            return false;
        given[k - SPRT_KEYS] = true;
    }
    for (size_t i = 0; i < SPRT_KEY_COUNT && !preset; i++)
        if (SPRT_KEYS[i].required && !given[i])
            return error_set(err, "-sprt needs elo0= and elo1=, or preset=NAME");
    return check_params(p, err);
}

void sprt_params_tokens(const SprtParams *p, TextBuf *buf) {
    for (size_t i = 0; i < SPRT_KEY_COUNT; i++) {
        char text[32];
        key_text(&SPRT_KEYS[i], p, text, sizeof text);
        textbuf_printf(buf, " %s=%s", SPRT_KEYS[i].key, text);
    }
}

bool sprt_params_same(const SprtParams *a, const SprtParams *b) {
    for (size_t i = 0; i < SPRT_KEY_COUNT; i++) { /* key by key: the struct has padding */
        char x[32], y[32];
        const SprtKey *k = &SPRT_KEYS[i];
        if (k->type == SPRT_KEY_NUMBER) {
            if (*(const double *)((const char *)a + k->offset) !=
                *(const double *)((const char *)b + k->offset))
                return false;
            continue;
        }
        key_text(k, a, x, sizeof x);
        key_text(k, b, y, sizeof y);
        if (strcmp(x, y))
            return false;
    }
    return true;
}

static void add_key(cJSON *json, const SprtKey *k, const SprtParams *p) {
    const char *field = (const char *)p + k->offset;
    if (k->type == SPRT_KEY_NUMBER)
        cJSON_AddNumberToObject(json, k->key, *(const double *)field);
    else if (k->type == SPRT_KEY_MODEL)
        cJSON_AddStringToObject(json, k->key, sprt_model_name(*(const SprtModel *)field));
    else
        cJSON_AddBoolToObject(json, k->key, *(const bool *)field);
}

cJSON *sprt_params_to_json(const SprtParams *p) {
    cJSON *json = cJSON_CreateObject();
    for (size_t i = 0; i < SPRT_KEY_COUNT; i++)
        add_key(json, &SPRT_KEYS[i], p);
    return json;
}

void sprt_params_add_numbers(const SprtParams *p, cJSON *json) {
    for (size_t i = 0; i < SPRT_KEY_COUNT; i++)
        if (SPRT_KEYS[i].type == SPRT_KEY_NUMBER)
            add_key(json, &SPRT_KEYS[i], p);
}

bool sprt_params_from_json(const cJSON *json, SprtParams *p, Error *err) {
    *p = sprt_params_default();
    if (!cJSON_IsObject(json))
        return error_set(err, "\"sprt\" must be an object or null");
    for (size_t i = 0; i < SPRT_KEY_COUNT; i++) {
        const SprtKey *k = &SPRT_KEYS[i];
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, k->key);
        char text[64];
        if (!item && k->absent_text) {
            Error ignored; /* as the defaults: a row's own text */
            set_key(k, p, k->absent_text, &ignored);
            continue;
        }
        if (k->type == SPRT_KEY_NUMBER) {
            if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
                return error_set(err, "sprt \"%s\" must be a number", k->key);
            snprintf(text, sizeof text, "%.17g", item->valuedouble);
        } else if (k->type == SPRT_KEY_MODEL) {
            const char *name = cJSON_GetStringValue(item);
            SprtModel model;
            char quoted[ERROR_EXCERPT_MAX];
            if (!name || !sprt_model_from_name(name, &model))
                return error_set(err,
                                 "sprt \"%s\" must be normalized, logistic or bayeselo, "
                                 "not '%s'",
                                 k->key, name ? error_excerpt(name, quoted) : "(missing)");
            snprintf(text, sizeof text, "%s", name);
        } else {
            if (!cJSON_IsBool(item))
                return error_set(err, "sprt \"%s\" must be true or false", k->key);
            snprintf(text, sizeof text, "%s", cJSON_IsTrue(item) ? "on" : "off");
        }
        Error inner;
        if (!set_key(k, p, text, &inner))
            return error_set(err, "sprt: %s", inner.text);
    }
    return check_params(p, err);
}
