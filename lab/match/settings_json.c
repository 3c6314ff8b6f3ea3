// SPDX-License-Identifier: MIT
// Settings as recorded in results files, and read back with the command line's checks: numbers
// must be whole and in range (no double-to-integer cast of 1e62), words must be known, paths
// bounded, the engines' options pass config_apply, the SPRT sprt_params_check, and the whole
// settings_check.
#include "settings.h"

#include "parse.h"
#include "settings_json.h"

#include "ladder.h"
#include "sprt_keys.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* JSON numbers are doubles: the seed, a 64-bit value, is written as text. */
static cJSON *field_json(const SettingsField *f, const MatchSettings *s) {
    char text[SETTINGS_PATH_MAX];
    settings_field_text(f, s, text, sizeof text);
    switch (f->type) {
    case FIELD_INT:
    case FIELD_INT64:
        return cJSON_CreateNumber(strtod(text, NULL));
    case FIELD_SEED:
    case FIELD_ORDER:
    case FIELD_PATH:
        return cJSON_CreateString(text);
    case FIELD_SWITCH:
        return cJSON_CreateBool(!strcmp(text, "on"));
    }
    return cJSON_CreateNull();
}

cJSON *settings_to_json(const MatchSettings *s) {
    cJSON *json = cJSON_CreateObject();
    cJSON *engines = cJSON_AddArrayToObject(json, "engines");
    for (int e = 0; e < s->engine_count; e++) {
        char text[SETTINGS_CONFIG_TEXT_MAX];
        config_to_text(&s->engines[e].config, text, sizeof text);
        cJSON *engine = cJSON_CreateObject();
        cJSON_AddStringToObject(engine, "name", s->engines[e].name);
        cJSON_AddStringToObject(engine, "config", text);
        engine_spec_timing_to_json(&s->engines[e].timing, engine);
        if (engine_is_program(&s->engines[e]))
            cJSON_AddItemToObject(engine, "program",
                                  engine_spec_program_to_json(&s->engines[e].program));
        cJSON_AddItemToArray(engines, engine);
    }
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++) {
        const SettingsField *f = &SETTINGS_FIELDS[i];
        if (f->traits & SETTINGS_SESSION ||
            (f->traits & SETTINGS_ADDED_LATER && settings_field_is_default(f, s)))
            continue;
        cJSON_AddItemToObject(json, f->key, field_json(f, s));
    }
    cJSON_AddItemToObject(json, "sprt",
                          s->has_sprt ? sprt_params_to_json(&s->sprt) : cJSON_CreateNull());
    if (s->tournament != TOURNAMENT_MATCH) { /* a match's file has no key: as before them */
        cJSON *tournament = cJSON_AddObjectToObject(json, "tournament");
        cJSON_AddStringToObject(tournament, "kind", tournament_kind_name(s->tournament));
        cJSON_AddNumberToObject(tournament, "seeds", s->seeds);
        if (s->tournament == TOURNAMENT_LADDER)
            cJSON_AddItemToObject(tournament, "ladder", ladder_to_json(&s->ladder));
        if (s->has_sprt)
            cJSON_AddStringToObject(tournament, "family", family_control_name(s->family));
    }
    return json;
}

/* The optional "tournament": {"kind": "roundrobin"|"gauntlet", "seeds": N}; absent: a match. */
static bool tournament_from_json(const cJSON *item, MatchSettings *s, Error *err) {
    if (!item)
        return true;
    const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "kind"));
    const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(item, "seeds");
    if (!kind || !tournament_kind_from_name(kind, &s->tournament) ||
        s->tournament == TOURNAMENT_MATCH)
        return error_set(err, "settings: \"tournament\" needs \"kind\": \"roundrobin\", "
                              "\"gauntlet\" or \"ladder\"");
    if (s->tournament == TOURNAMENT_LADDER &&
        !ladder_from_json(cJSON_GetObjectItemCaseSensitive(item, "ladder"), &s->ladder, err))
        return false;
    if (!cJSON_IsNumber(seeds) || seeds->valuedouble != floor(seeds->valuedouble) ||
        seeds->valuedouble < 1 || seeds->valuedouble >= TOURNAMENT_RUN_ENGINES_MAX)
        return error_set(err, "settings: \"tournament\" needs \"seeds\": a whole number in "
                              "1..%d", TOURNAMENT_RUN_ENGINES_MAX - 1);
    s->seeds = (int)seeds->valuedouble;
    /* "family": a gauntlet decided by SPRTs has it (holm when absent: the only kind before). */
    const cJSON *family = cJSON_GetObjectItemCaseSensitive(item, "family");
    if (family && !(cJSON_IsString(family) &&
                    family_control_from_name(family->valuestring, &s->family)))
        return error_set(err, "settings: \"tournament\": \"family\" must be holm, bonferroni "
                              "or none");
    return true;
}

/* A JSON value as the text the command line would have given, or false when its JSON type is
 * wrong. Numbers must be whole: 12.5 or 1e62 is refused, never cast. */
static bool field_text_from_json(const SettingsField *f, const cJSON *item, char *out,
                                 size_t size, Error *err) {
    if (f->type == FIELD_SWITCH) {
        if (!cJSON_IsBool(item))
            return error_set(err, "settings: \"%s\" must be true or false", f->key);
        snprintf(out, size, "%s", cJSON_IsTrue(item) ? "on" : "off");
        return true;
    }
    if (f->type == FIELD_INT || f->type == FIELD_INT64) {
        if (!cJSON_IsNumber(item))
            return error_set(err, "settings: \"%s\" must be a number", f->key);
        double value = item->valuedouble;
        if (!isfinite(value) || value != floor(value) || value < (double)f->min ||
            value > (double)f->max)
            return error_set(err, "settings: \"%s\" is %g: a whole number in %lld..%lld is "
                                  "needed",
                             f->key, value, (long long)f->min, (long long)f->max);
        snprintf(out, size, "%.0f", value);
        return true;
    }
    const char *text = cJSON_GetStringValue(item);
    if (!text)
        return error_set(err, "settings: \"%s\" must be a string", f->key);
    if (strlen(text) >= size)
        return error_set(err, "settings: \"%s\" is too long", f->key);
    strcpy(out, text);
    return true;
}

/* The options of this version that an engine's recorded options do not set (a file written
 * before they existed), as " NAME=DEFAULT" words appended to missing: they took today's
 * default, which may change the experiment. */
static void options_not_recorded(const char *text, char *missing, size_t size) {
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        char token[48];
        snprintf(token, sizeof token, "%s=", CONFIG_OPTIONS[i].name);
        const char *at = strstr(text, token);
        while (at && at != text && at[-1] != ' ') /* "depth=" inside "lmr_depth=" */
            at = strstr(at + 1, token);
        size_t used = strlen(missing);
        if (!at)
            snprintf(missing + used, size - used, " %s=%s", CONFIG_OPTIONS[i].name,
                     CONFIG_OPTIONS[i].default_text);
    }
}

static bool engines_from_json(const cJSON *engines, MatchSettings *s, char *defaulted,
                              size_t defaulted_size, Error *err) {
    int count = cJSON_IsArray(engines) ? cJSON_GetArraySize(engines) : 0;
    if (count < MATCH_ENGINES || count > TOURNAMENT_RUN_ENGINES_MAX)
        return error_set(err, "settings: \"engines\" must list 2 to %d engines",
                         TOURNAMENT_RUN_ENGINES_MAX);
    s->engine_count = count;
    for (int e = 0; e < count; e++) {
        const cJSON *engine = cJSON_GetArrayItem(engines, e);
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(engine, "name"));
        const char *config = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(engine,
                                                                                   "config"));
        if (!name || !config)
            return error_set(err, "settings: engine %d needs \"name\" and \"config\" strings",
                             e + 1);
        if (strlen(name) >= MATCH_NAME_MAX || strlen(config) >= SETTINGS_CONFIG_TEXT_MAX)
            return error_set(err, "settings: engine %d: name or config too long", e + 1);
        strcpy(s->engines[e].name, name);
        s->engines[e].config = config_default();
        Error inner;
        if (!config_apply_line(&s->engines[e].config, config, &inner))
            return error_set(err, "settings: engine %d: %s", e + 1, inner.text);
        char missing[SETTINGS_DEFAULTED_MAX / 2] = "";
        options_not_recorded(config, missing, sizeof missing);
        if (missing[0] && !defaulted)
            return error_set(err, "settings: engine %d: the recorded options do not set%s (written "
                                  "by another version?): they would take this version's default",
                             e + 1, missing);
        if (missing[0]) {
            size_t used = strlen(defaulted);
            snprintf(defaulted + used, defaulted_size - used, "%sengine %s:%s", used ? "; " : "",
                     name, missing);
        }
        if (!engine_spec_program_from_json(cJSON_GetObjectItemCaseSensitive(engine, "program"),
                                           &s->engines[e].program, &inner))
            return error_set(err, "settings: engine %d: program: %s", e + 1, inner.text);
        if (!engine_spec_timing_from_json(engine, &s->engines[e].timing, &inner))
            return error_set(err, "settings: engine %d: %s", e + 1, inner.text);
    }
    return true;
}

static bool sprt_from_json(const cJSON *sprt, MatchSettings *s, Error *err) {
    s->has_sprt = !cJSON_IsNull(sprt);
    Error inner;
    if (s->has_sprt && !sprt_params_from_json(sprt, &s->sprt, &inner))
        return error_set(err, "settings: %s", inner.text);
    return true;
}

bool settings_from_json(const cJSON *json, MatchSettings *s, char *defaulted, Error *err) {
    settings_init(s);
    if (defaulted)
        defaulted[0] = '\0';
    if (!cJSON_IsObject(json))
        return error_set(err, "settings: not an object");
    if (!engines_from_json(cJSON_GetObjectItemCaseSensitive(json, "engines"), s, defaulted,
                           SETTINGS_DEFAULTED_MAX, err))
        return false;
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++) {
        const SettingsField *f = &SETTINGS_FIELDS[i];
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, f->key);
        if (f->traits & SETTINGS_SESSION)
            continue;
        char text[SETTINGS_PATH_MAX];
        Error inner;
        if (!item && f->traits & SETTINGS_ADDED_LATER)
            continue; /* at its default, as every file before it */
        if (!item)
            return error_set(err, "settings: \"%s\" is missing", f->key);
        if (!field_text_from_json(f, item, text, sizeof text, err))
            return false;
        if (!settings_field_from_text(f, s, text, &inner))
            return error_set(err, "settings: \"%s\": %s", f->key, inner.text);
    }
    if (!sprt_from_json(cJSON_GetObjectItemCaseSensitive(json, "sprt"), s, err) ||
        !tournament_from_json(cJSON_GetObjectItemCaseSensitive(json, "tournament"), s, err))
        return false;
    Error inner;
    if (!settings_check(s, &inner))
        return error_set(err, "settings: %s", inner.text);
    return true;
}
