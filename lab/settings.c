// SPDX-License-Identifier: MIT
#include "settings.h"

#include "arguments.h"
#include "cli.h"
#include "parse.h"
#include "paths.h"
#include "textbuf.h"

#include <stdio.h>
#include <string.h>

#define CONFIG_TEXT_MAX 512

void settings_default_job(MatchSettings *s) {
    memset(s, 0, sizeof *s);
    Error err;
    for (int e = 0; e < MATCH_ENGINES; e++) {
        s->engines[e].config = config_default();
        config_apply(&s->engines[e].config, "nodes=5000", &err);
    }
    /* The engine under test first, as fastchess and fishtest order them. */
    snprintf(s->engines[0].name, MATCH_NAME_MAX, "killers");
    snprintf(s->engines[1].name, MATCH_NAME_MAX, "nokillers");
    config_apply(&s->engines[1].config, "killers=off", &err);
    s->book_path[0] = '\0'; /* the default book: settings_resolve_book finds it */
    s->order_random = true;
    s->start = 1;
    s->seed = SETTINGS_DEFAULT_SEED;
    s->rounds = SETTINGS_UNBOUNDED_ROUNDS;
    s->has_sprt = true;
    s->sprt = (SprtParams){0, 10, 0.05, 0.05, SPRT_MODEL_NORMALIZED};
    s->max_plies = SETTINGS_DEFAULT_MAXMOVES;
    s->concurrency = 0; /* all cores */
    s->rating_interval = SETTINGS_DEFAULT_RATINGINTERVAL;
    snprintf(s->out_path, sizeof s->out_path, "results/killers.json");
    snprintf(s->pgn_path, sizeof s->pgn_path, "results/killers.pgn");
    snprintf(s->plot_path, sizeof s->plot_path, "results/killers.png");
}

bool settings_resolve_book(MatchSettings *s, Error *err) {
    if (s->book_path[0])
        return true;
    char path[PATHS_MAX];
    Error inner;
    if (!paths_data_file(SETTINGS_DEFAULT_BOOK, path, sizeof path, &inner))
        return error_set(err, "-openings: %s", inner.text);
    if (strlen(path) >= sizeof s->book_path)
        return error_set(err, "-openings: the default book's path is too long: %s", path);
    strcpy(s->book_path, path);
    return true;
}

void settings_command_line(const MatchSettings *s, char *out, size_t size) {
    TextBuf buf = textbuf(out, size);
    textbuf_printf(&buf, "%s", cli_program());
    SearchConfig defaults = config_default();
    for (int e = 0; e < MATCH_ENGINES; e++) {
        textbuf_printf(&buf, " -engine name=%s", s->engines[e].name);
        for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
            char value[32], base[32];
            config_value_text(&s->engines[e].config, &CONFIG_OPTIONS[i], value);
            config_value_text(&defaults, &CONFIG_OPTIONS[i], base);
            if (strcmp(value, base))
                textbuf_printf(&buf, " %s=%s", CONFIG_OPTIONS[i].name, value);
        }
    }
    textbuf_printf(&buf, " -openings file=%s order=%s", s->book_path, s->order_random ? "random" : "sequential");
    if (s->start != 1)
        textbuf_printf(&buf, " start=%d", s->start);
    if (s->random_plies)
        textbuf_printf(&buf, " randomplies=%d", s->random_plies);
    textbuf_printf(&buf, " -srand %llu", (unsigned long long)s->seed);
    if (s->rounds != SETTINGS_UNBOUNDED_ROUNDS)
        textbuf_printf(&buf, " -rounds %lld", (long long)s->rounds);
    if (s->has_sprt)
        textbuf_printf(&buf, " -sprt elo0=%g elo1=%g alpha=%g beta=%g model=%s", s->sprt.elo0, s->sprt.elo1,
               s->sprt.alpha, s->sprt.beta, sprt_model_name(s->sprt.model));
    if (s->max_plies != SETTINGS_DEFAULT_MAXMOVES)
        textbuf_printf(&buf, " -maxmoves %d", s->max_plies);
    if (s->rating_interval != SETTINGS_DEFAULT_RATINGINTERVAL)
        textbuf_printf(&buf, " -ratinginterval %d", s->rating_interval);
    if (s->out_path[0])
        textbuf_printf(&buf, " -out %s", s->out_path);
    if (s->pgn_path[0])
        textbuf_printf(&buf, " -pgnout file=%s", s->pgn_path);
    if (s->plot_path[0])
        textbuf_printf(&buf, " -plot file=%s", s->plot_path);
}

cJSON *settings_to_json(const MatchSettings *s) {
    cJSON *json = cJSON_CreateObject();
    cJSON *engines = cJSON_AddArrayToObject(json, "engines");
    for (int e = 0; e < MATCH_ENGINES; e++) {
        char text[CONFIG_TEXT_MAX];
        config_to_text(&s->engines[e].config, text, sizeof text);
        cJSON *engine = cJSON_CreateObject();
        cJSON_AddStringToObject(engine, "name", s->engines[e].name);
        cJSON_AddStringToObject(engine, "config", text);
        cJSON_AddItemToArray(engines, engine);
    }
    cJSON_AddStringToObject(json, "book", s->book_path);
    cJSON_AddStringToObject(json, "order", s->order_random ? "random" : "sequential");
    cJSON_AddNumberToObject(json, "start", s->start);
    cJSON_AddNumberToObject(json, "randomplies", s->random_plies);
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)s->seed);
    cJSON_AddStringToObject(json, "seed", seed);
    cJSON_AddNumberToObject(json, "rounds", (double)s->rounds);
    if (s->has_sprt) {
        cJSON *sprt = cJSON_AddObjectToObject(json, "sprt");
        cJSON_AddNumberToObject(sprt, "elo0", s->sprt.elo0);
        cJSON_AddNumberToObject(sprt, "elo1", s->sprt.elo1);
        cJSON_AddNumberToObject(sprt, "alpha", s->sprt.alpha);
        cJSON_AddNumberToObject(sprt, "beta", s->sprt.beta);
        cJSON_AddStringToObject(sprt, "model", sprt_model_name(s->sprt.model));
    } else {
        cJSON_AddNullToObject(json, "sprt");
    }
    cJSON_AddNumberToObject(json, "maxmoves", s->max_plies);
    cJSON_AddNumberToObject(json, "concurrency", s->concurrency);
    cJSON_AddNumberToObject(json, "ratinginterval", s->rating_interval);
    cJSON_AddStringToObject(json, "out", s->out_path);
    cJSON_AddStringToObject(json, "pgnout", s->pgn_path);
    cJSON_AddStringToObject(json, "plot", s->plot_path);
    return json;
}

static bool json_text(const cJSON *json, const char *key, char *out, size_t size, Error *err) {
    const char *value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, key));
    if (!value || strlen(value) >= size)
        return error_set(err, "settings: missing or bad \"%s\"", key);
    strcpy(out, value);
    return true;
}

static bool json_number(const cJSON *json, const char *key, double *out, Error *err) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, key);
    if (!cJSON_IsNumber(item))
        return error_set(err, "settings: missing number \"%s\"", key);
    *out = item->valuedouble;
    return true;
}

bool settings_from_json(const cJSON *json, MatchSettings *s, Error *err) {
    memset(s, 0, sizeof *s);
    const cJSON *engines = cJSON_GetObjectItemCaseSensitive(json, "engines");
    if (cJSON_GetArraySize(engines) != MATCH_ENGINES)
        return error_set(err, "settings: \"engines\" must list two engines");
    for (int e = 0; e < MATCH_ENGINES; e++) {
        const cJSON *engine = cJSON_GetArrayItem(engines, e);
        char text[CONFIG_TEXT_MAX];
        Error inner;
        if (!json_text(engine, "name", s->engines[e].name, MATCH_NAME_MAX, err) ||
            !json_text(engine, "config", text, sizeof text, err))
            return false;
        if (!arguments_check_name(s->engines[e].name, &inner))
            return error_set(err, "settings: engine %d: %s", e + 1, inner.text);
        s->engines[e].config = config_default();
        for (char *token = strtok(text, " "); token; token = strtok(NULL, " "))
            if (!config_apply(&s->engines[e].config, token, err))
                return false;
    }
    char order[16];
    double number = 0;
    if (!json_text(json, "book", s->book_path, sizeof s->book_path, err) ||
        !json_text(json, "order", order, sizeof order, err))
        return false;
    s->order_random = !strcmp(order, "random");
    struct {
        const char *key;
        int *field;
    } ints[] = {{"start", &s->start},
                {"randomplies", &s->random_plies},
                {"maxmoves", &s->max_plies},
                {"concurrency", &s->concurrency},
                {"ratinginterval", &s->rating_interval}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        if (!json_number(json, ints[i].key, &number, err))
            return false;
        *ints[i].field = (int)number;
    }
    if (!json_number(json, "rounds", &number, err))
        return false;
    s->rounds = (int64_t)number; /* at most 1e12: exact in a double */
    /* The seed is text: a 64-bit value does not survive a JSON number (a double). */
    char seed[24];
    int64_t seed_value;
    Error inner;
    if (!json_text(json, "seed", seed, sizeof seed, err))
        return false;
    if (!parse_int64(seed, 0, INT64_MAX, &seed_value, &inner))
        return error_set(err, "settings: seed: %s", inner.text);
    s->seed = (uint64_t)seed_value;
    const cJSON *sprt = cJSON_GetObjectItemCaseSensitive(json, "sprt");
    if (cJSON_IsObject(sprt)) {
        char model[16];
        s->has_sprt = true;
        if (!json_number(sprt, "elo0", &s->sprt.elo0, err) ||
            !json_number(sprt, "elo1", &s->sprt.elo1, err) ||
            !json_number(sprt, "alpha", &s->sprt.alpha, err) ||
            !json_number(sprt, "beta", &s->sprt.beta, err) ||
            !json_text(sprt, "model", model, sizeof model, err))
            return false;
        if (!sprt_model_from_name(model, &s->sprt.model))
            return error_set(err, "settings: unknown SPRT model '%s'", model);
    }
    return json_text(json, "out", s->out_path, sizeof s->out_path, err) &&
           json_text(json, "pgnout", s->pgn_path, sizeof s->pgn_path, err) &&
           json_text(json, "plot", s->plot_path, sizeof s->plot_path, err);
}

bool settings_same_experiment(const MatchSettings *a, const MatchSettings *b, Error *err) {
    char differences[sizeof err->text];
    TextBuf buf = textbuf(differences, sizeof differences);
    for (int e = 0; e < MATCH_ENGINES; e++) {
        if (strcmp(a->engines[e].name, b->engines[e].name))
            textbuf_printf(&buf, " engine %d name (%s vs %s);", e + 1, a->engines[e].name, b->engines[e].name);
        if (config_hash(&a->engines[e].config) != config_hash(&b->engines[e].config))
            textbuf_printf(&buf, " engine %s options;", a->engines[e].name);
    }
    if (strcmp(a->book_path, b->book_path))
        textbuf_printf(&buf, " book (%s vs %s);", a->book_path, b->book_path);
    if (a->order_random != b->order_random || a->start != b->start)
        textbuf_printf(&buf, " book order or start;");
    if (a->random_plies != b->random_plies)
        textbuf_printf(&buf, " randomplies (%d vs %d);", a->random_plies, b->random_plies);
    if (a->seed != b->seed)
        textbuf_printf(&buf, " seed (%llu vs %llu);", (unsigned long long)a->seed, (unsigned long long)b->seed);
    if (a->rounds != b->rounds)
        textbuf_printf(&buf, " rounds;");
    if (a->has_sprt != b->has_sprt || (a->has_sprt && memcmp(&a->sprt, &b->sprt, sizeof a->sprt)))
        textbuf_printf(&buf, " sprt;");
    if (a->max_plies != b->max_plies)
        textbuf_printf(&buf, " maxmoves (%d vs %d);", a->max_plies, b->max_plies);
    if (a->rating_interval != b->rating_interval)
        textbuf_printf(&buf, " ratinginterval (%d vs %d);", a->rating_interval, b->rating_interval);
    if (strcmp(a->pgn_path, b->pgn_path))
        textbuf_printf(&buf, " pgnout;");
    if (!differences[0])
        return true;
    return error_set(err, "the run differs from the results file in:%s", differences);
}

bool settings_reproducible(const MatchSettings *s) {
    for (int e = 0; e < MATCH_ENGINES; e++)
        if (s->engines[e].config.movetime)
            return false;
    return true;
}
