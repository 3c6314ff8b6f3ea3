// SPDX-License-Identifier: MIT
#include "settings.h"

#include "cli.h"
#include "parse.h"
#include "paths.h"
#include "sprt_keys.h"
#include "textbuf.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define FIELD(name) offsetof(MatchSettings, name)

const SettingsField SETTINGS_FIELDS[] = {
    {"book", "-openings file", FIELD_PATH, FIELD(book_path), 0, 0, true, true},
    {"order", "-openings order", FIELD_ORDER, FIELD(order), 0, 0, false, true},
    {"start", "-openings start", FIELD_INT, FIELD(start), 1, 1 << 30, false, true},
    {"randomplies", "-openings randomplies", FIELD_INT, FIELD(random_plies), 0, 200, false, true},
    {"seed", "-srand", FIELD_SEED, FIELD(seed), 0, INT64_MAX, false, true},
    {"rounds", "-rounds", FIELD_INT64, FIELD(rounds), 1, SETTINGS_UNBOUNDED_ROUNDS, false, true},
    {"maxmoves", "-maxmoves", FIELD_INT, FIELD(max_plies), 1, 100000, false, true},
    {"ratinginterval", "-ratinginterval", FIELD_INT, FIELD(rating_interval), 1, 1000000, false,
     true},
    {"concurrency", "-concurrency", FIELD_INT, FIELD(concurrency), 0, 256, false, false},
    /* Outputs may move between sessions (a resumed copy writes to itself, -out and -pgnout may
     * relocate); what they hold is checked when they are opened. */
    {"out", "-out", FIELD_PATH, FIELD(out_path), 0, 0, false, false},
    {"pgnout", "-pgnout file", FIELD_PATH, FIELD(pgn_path), 0, 0, false, false},
    {"plot", "-plot file", FIELD_PATH, FIELD(plot_path), 0, 0, false, false},
    /* The tablebase decides games: a resumed run must use the same one (its checksum is checked
     * when it is opened, runner.c). */
    {"tb", "-tb file", FIELD_PATH, FIELD(tb_path), 0, 0, false, true},
};

const size_t SETTINGS_FIELD_COUNT = sizeof SETTINGS_FIELDS / sizeof SETTINGS_FIELDS[0];

static const char *const ORDER_NAMES[] = {[ORDER_SEQUENTIAL] = "sequential",
                                          [ORDER_RANDOM] = "random"};

const SettingsField *settings_field(const char *key) {
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++)
        if (!strcmp(SETTINGS_FIELDS[i].key, key))
            return &SETTINGS_FIELDS[i];
    return NULL;
}

bool settings_field_from_text(const SettingsField *f, MatchSettings *s, const char *text,
                              Error *err) {
    char *field = (char *)s + f->offset;
    char quoted[ERROR_EXCERPT_MAX];
    Error inner;
    int64_t number;
    switch (f->type) {
    case FIELD_INT:
    case FIELD_INT64:
    case FIELD_SEED:
        if (!parse_int64(text, f->min, f->max, &number, &inner))
            return error_set(err, "%s: %s", f->option, inner.text);
        if (f->type == FIELD_INT)
            *(int *)field = (int)number;
        else if (f->type == FIELD_INT64)
            *(int64_t *)field = number;
        else
            *(uint64_t *)field = (uint64_t)number;
        return true;
    case FIELD_ORDER:
        for (int i = 0; i < 2; i++)
            if (!strcmp(text, ORDER_NAMES[i])) {
                *(int *)field = i;
                return true;
            }
        return error_set(err, "%s: '%s' is not allowed (random|sequential)", f->option,
                         error_excerpt(text, quoted));
    case FIELD_PATH:
        if (strlen(text) >= SETTINGS_PATH_MAX)
            return error_set(err, "%s: file name longer than %d characters", f->option,
                             SETTINGS_PATH_MAX - 1);
        if (f->required && !*text)
            return error_set(err, "%s: the file name is empty", f->option);
        if (text[0] == '-')
            return error_set(err, "%s: '%s' looks like an option, not a file name", f->option,
                             error_excerpt(text, quoted));
        strcpy(field, text);
        return true;
    }
    return error_set(err, "%s: unknown type", f->option);
}

void settings_field_text(const SettingsField *f, const MatchSettings *s, char *out, size_t size) {
    const char *field = (const char *)s + f->offset;
    switch (f->type) {
    case FIELD_INT:
        snprintf(out, size, "%d", *(const int *)field);
        return;
    case FIELD_INT64:
        snprintf(out, size, "%lld", (long long)*(const int64_t *)field);
        return;
    case FIELD_SEED:
        snprintf(out, size, "%llu", (unsigned long long)*(const uint64_t *)field);
        return;
    case FIELD_ORDER:
        snprintf(out, size, "%s", ORDER_NAMES[*(const int *)field ? 1 : 0]);
        return;
    case FIELD_PATH:
        snprintf(out, size, "%s", field);
        return;
    }
}

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
    s->order = ORDER_RANDOM;
    s->start = 1;
    s->seed = SETTINGS_DEFAULT_SEED;
    s->rounds = SETTINGS_UNBOUNDED_ROUNDS;
    s->has_sprt = true;
    s->sprt = sprt_params_default();
    s->sprt.elo1 = 10;
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

bool settings_check(const MatchSettings *s, Error *err) {
    for (int e = 0; e < MATCH_ENGINES; e++) {
        const EngineSpec *spec = &s->engines[e];
        Error inner;
        if (!engine_spec_check_name(spec->name, &inner))
            return error_set(err, "engine %d: %s", e + 1, inner.text);
        if (!spec->config.depth && !spec->config.nodes && !spec->config.movetime)
            return error_set(err, "engine %s has no limit: give depth=, nodes= or movetime= "
                                  "(with -engine or -each)", spec->name);
    }
    if (!strcmp(s->engines[0].name, s->engines[1].name))
        return error_set(err, "the two engines need different names (both are %s)",
                         s->engines[0].name);
    if (s->has_sprt && !sprt_params_check(&s->sprt, err)) {
        Error copy = *err;
        return error_set(err, "-sprt: %s", copy.text);
    }
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
        engine_spec_program_tokens(&s->engines[e].external, &buf);
    }
    textbuf_printf(&buf, " -openings file=%s order=%s", s->book_path, ORDER_NAMES[s->order]);
    if (s->start != 1)
        textbuf_printf(&buf, " start=%d", s->start);
    if (s->random_plies)
        textbuf_printf(&buf, " randomplies=%d", s->random_plies);
    textbuf_printf(&buf, " -srand %llu", (unsigned long long)s->seed);
    if (s->rounds != SETTINGS_UNBOUNDED_ROUNDS)
        textbuf_printf(&buf, " -rounds %lld", (long long)s->rounds);
    if (s->has_sprt) {
        textbuf_printf(&buf, " -sprt");
        sprt_params_tokens(&s->sprt, &buf);
    }
    if (s->max_plies != SETTINGS_DEFAULT_MAXMOVES)
        textbuf_printf(&buf, " -maxmoves %d", s->max_plies);
    if (s->tb_path[0])
        textbuf_printf(&buf, " -tb file=%s", s->tb_path);
    if (s->rating_interval != SETTINGS_DEFAULT_RATINGINTERVAL)
        textbuf_printf(&buf, " -ratinginterval %d", s->rating_interval);
    if (s->out_path[0])
        textbuf_printf(&buf, " -out %s", s->out_path);
    if (s->pgn_path[0])
        textbuf_printf(&buf, " -pgnout file=%s", s->pgn_path);
    if (s->plot_path[0])
        textbuf_printf(&buf, " -plot file=%s", s->plot_path);
}

bool settings_same_experiment(const MatchSettings *a, const MatchSettings *b, Error *err) {
    char differences[sizeof err->text];
    TextBuf buf = textbuf(differences, sizeof differences);
    for (int e = 0; e < MATCH_ENGINES; e++) {
        if (strcmp(a->engines[e].name, b->engines[e].name))
            textbuf_printf(&buf, " engine %d name (%s vs %s);", e + 1, a->engines[e].name,
                           b->engines[e].name);
        if (config_hash(&a->engines[e].config) != config_hash(&b->engines[e].config))
            textbuf_printf(&buf, " engine %s options;", a->engines[e].name);
        const char *key;
        if (!engine_spec_same_program(&a->engines[e].external, &b->engines[e].external, &key))
            textbuf_printf(&buf, " engine %s program (%s);", a->engines[e].name, key);
    }
    if (a->has_sprt != b->has_sprt || (a->has_sprt && !sprt_params_same(&a->sprt, &b->sprt)))
        textbuf_printf(&buf, " sprt;");
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++) {
        const SettingsField *f = &SETTINGS_FIELDS[i];
        char x[SETTINGS_PATH_MAX], y[SETTINGS_PATH_MAX];
        if (!f->decides_results)
            continue;
        settings_field_text(f, a, x, sizeof x);
        settings_field_text(f, b, y, sizeof y);
        if (strcmp(x, y))
            textbuf_printf(&buf, " %s (%.60s vs %.60s);", f->key, x, y);
    }
    if (!differences[0])
        return true;
    return error_set(err, "the run differs from the results file in:%s", differences);
}

SprtParams settings_report_sprt(const MatchSettings *s) {
    return s->has_sprt ? s->sprt : sprt_params_default();
}

bool settings_reproducible(const MatchSettings *s) {
    for (int e = 0; e < MATCH_ENGINES; e++)
        if (s->engines[e].config.movetime)
            return false;
    return true;
}
