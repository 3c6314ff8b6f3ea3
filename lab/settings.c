// SPDX-License-Identifier: MIT
#include "settings.h"

#include "parse.h"
#include "textbuf.h"

#include <stdio.h>
#include <string.h>

#define DEFAULT_BOOK "openings/default.txt"
#define CONFIG_TEXT_MAX 512

void settings_default_job(MatchSettings *s) {
    memset(s, 0, sizeof *s);
    Error err;
    for (int e = 0; e < MATCH_ENGINES; e++) {
        s->engines[e].config = config_default();
        config_apply(&s->engines[e].config, "nodes=5000", &err);
    }
    snprintf(s->engines[0].name, MATCH_NAME_MAX, "nokillers");
    snprintf(s->engines[1].name, MATCH_NAME_MAX, "killers");
    config_apply(&s->engines[0].config, "killers=off", &err);
    snprintf(s->book_path, sizeof s->book_path, DEFAULT_BOOK);
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

static const char *const OPTIONS[] = {"-engine", "-each", "-openings", "-srand", "-rounds",
                                      "-sprt", "-maxmoves", "-concurrency", "-ratinginterval",
                                      "-out", "-pgnout", "-plot", "-quiet", "-resume", "-help",
                                      "-version", "-debug-stopafter"};

static bool unknown_option(const char *arg, Error *err) {
    const char *best = parse_closest(arg, OPTIONS, sizeof OPTIONS / sizeof OPTIONS[0], 3);
    if (best)
        return error_set(err, "unknown option '%s' (did you mean '%s'?)", arg, best);
    return error_set(err, "unknown option '%s' (see -help)", arg);
}

/* A group's tokens run until the next option (a '-' word without '='). */
static int group_end(int argc, char **argv, int first) {
    int i = first;
    while (i < argc && !(argv[i][0] == '-' && !strchr(argv[i], '=')))
        i++;
    return i;
}

/* Splits "key=value" into a key buffer and returns the value. */
static const char *split_token(const char *option, const char *token, char *key, size_t size,
                               Error *err) {
    const char *equals = strchr(token, '=');
    if (!equals || equals == token || (size_t)(equals - token) >= size) {
        error_set(err, "%s: '%s' is not key=value", option, token);
        return NULL;
    }
    memcpy(key, token, (size_t)(equals - token));
    key[equals - token] = '\0';
    return equals + 1;
}

static bool copy_path(char *dest, const char *value, const char *option, Error *err) {
    if (!*value || strlen(value) >= SETTINGS_PATH_MAX)
        return error_set(err, "%s: file name empty or too long", option);
    strcpy(dest, value);
    return true;
}

static bool parse_openings(int argc, char **argv, int *i, MatchSettings *s, Error *err) {
    int end = group_end(argc, argv, *i + 1);
    for (int k = *i + 1; k < end; k++) {
        char key[32];
        const char *value = split_token("-openings", argv[k], key, sizeof key, err);
        Error inner;
        if (!value)
            return false;
        if (!strcmp(key, "file")) {
            if (!copy_path(s->book_path, value, "-openings file", err))
                return false;
        } else if (!strcmp(key, "order")) {
            if (strcmp(value, "random") && strcmp(value, "sequential"))
                return error_set(err, "-openings order: '%s' is not allowed (random|sequential)",
                                 value);
            s->order_random = !strcmp(value, "random");
        } else if (!strcmp(key, "start")) {
            if (!parse_int(value, 1, 1 << 30, &s->start, &inner))
                return error_set(err, "-openings start: %s", inner.text);
        } else if (!strcmp(key, "randomplies")) {
            if (!parse_int(value, 0, 200, &s->random_plies, &inner))
                return error_set(err, "-openings randomplies: %s", inner.text);
        } else if (!strcmp(key, "format")) {
            if (strcmp(value, "tslab") && strcmp(value, "epd"))
                return error_set(err, "-openings format: only the project's notation is read");
        } else {
            return error_set(err, "-openings: unknown key '%s' (file, order, start, randomplies)",
                             key);
        }
    }
    *i = end - 1;
    return true;
}

static bool parse_sprt(int argc, char **argv, int *i, MatchSettings *s, Error *err) {
    int end = group_end(argc, argv, *i + 1);
    bool has0 = false, has1 = false;
    s->sprt = (SprtParams){0, 0, 0.05, 0.05, SPRT_MODEL_NORMALIZED};
    for (int k = *i + 1; k < end; k++) {
        char key[32];
        const char *value = split_token("-sprt", argv[k], key, sizeof key, err);
        Error inner;
        double *target = NULL;
        if (!value)
            return false;
        if (!strcmp(key, "model")) {
            if (!sprt_model_from_name(value, &s->sprt.model))
                return error_set(err, "-sprt model: '%s' is not allowed "
                                      "(normalized|logistic|bayeselo)", value);
            continue;
        }
        if (!strcmp(key, "elo0"))
            target = &s->sprt.elo0, has0 = true;
        else if (!strcmp(key, "elo1"))
            target = &s->sprt.elo1, has1 = true;
        else if (!strcmp(key, "alpha"))
            target = &s->sprt.alpha;
        else if (!strcmp(key, "beta"))
            target = &s->sprt.beta;
        else
            return error_set(err, "-sprt: unknown key '%s' (elo0, elo1, alpha, beta, model)", key);
        if (!parse_double(value, -1e9, 1e9, target, &inner))
            return error_set(err, "-sprt %s: %s", key, inner.text);
    }
    if (!has0 || !has1)
        return error_set(err, "-sprt needs elo0= and elo1=");
    if (!sprt_params_check(&s->sprt, err)) {
        Error copy = *err;
        return error_set(err, "-sprt: %s", copy.text);
    }
    s->has_sprt = true;
    *i = end - 1;
    return true;
}

static bool parse_file_group(int argc, char **argv, int *i, const char *option, char *dest,
                             Error *err) {
    int end = group_end(argc, argv, *i + 1);
    if (end == *i + 1)
        return error_set(err, "%s needs file=NAME", option);
    for (int k = *i + 1; k < end; k++) {
        const char *value = argv[k];
        if (!strncmp(value, "file=", 5))
            value += 5;
        else if (strchr(value, '='))
            return error_set(err, "%s: unknown key in '%s' (file=)", option, value);
        if (!copy_path(dest, value, option, err))
            return false;
    }
    *i = end - 1;
    return true;
}

static bool parse_number_option(int argc, char **argv, int *i, int64_t min, int64_t max,
                                int64_t *out, Error *err) {
    Error inner;
    if (*i + 1 >= argc)
        return error_set(err, "%s needs a number", argv[*i]);
    if (!parse_int64(argv[*i + 1], min, max, out, &inner))
        return error_set(err, "%s: %s", argv[*i], inner.text);
    (*i)++;
    return true;
}

static const char usage[] =
    "usage: abtest [options]            (no options: the built-in main job)\n"
    "       abtest sprt ...             the SPRT calculator (abtest sprt -help)\n"
    "       abtest book ...             the opening-book generator (abtest book -help)\n"
    "  -engine name=N [key=value ...]   a search configuration (twice: base, then candidate)\n"
    "  -each [key=value ...]            options for both engines (their own ones win)\n"
    "                                   limits: depth=N nodes=N movetime=MS\n"
    "  -openings file=F [order=random|sequential] [start=N] [randomplies=K]\n"
    "  -srand S                         seed of the book shuffle and random plies\n"
    "  -rounds N                        pairs to play (unbounded with -sprt)\n"
    "  -sprt elo0=X elo1=Y [alpha=0.05 beta=0.05 model=normalized|logistic|bayeselo]\n"
    "  -maxmoves N                      plies before a game is adjudicated a draw (300)\n"
    "  -concurrency N                   games in parallel (default: all cores)\n"
    "  -ratinginterval N                report and checkpoint every N pairs (10)\n"
    "  -out FILE.json                   results file (atomic, resumable)\n"
    "  -pgnout file=F                   game records\n"
    "  -plot file=F.png                 LLR and Elo against pairs (needs gnuplot)\n"
    "  -resume FILE.json                continue an interrupted run\n"
    "  -quiet                           no live status line and no interval blocks\n"
    "  -help, -version\n"
    "Search options (key=value) are those of `bench options`.\n";

bool settings_parse(int argc, char **argv, MatchSettings *s, bool *exit_now, Error *err) {
    settings_default_job(s);
    memset(s->engines, 0, sizeof s->engines);
    s->has_sprt = false;
    s->rounds = 0;
    s->out_path[0] = s->plot_path[0] = s->pgn_path[0] = '\0';
    s->concurrency = 0;
    *exit_now = false;
    int engine_first[MATCH_ENGINES] = {0}, engine_end[MATCH_ENGINES] = {0}, engines = 0;
    int each_first = 0, each_end = 0;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        int64_t number;
        if (!strcmp(arg, "-help") || !strcmp(arg, "--help")) {
            fputs(usage, stdout);
            *exit_now = true;
            return true;
        } else if (!strcmp(arg, "-version") || !strcmp(arg, "--version")) {
            printf("abtest (tslab) 0.1\n");
            *exit_now = true;
            return true;
        } else if (!strcmp(arg, "-engine")) {
            if (engines == MATCH_ENGINES)
                return error_set(err, "-engine: exactly two engines (base, then candidate)");
            engine_first[engines] = i + 1;
            engine_end[engines] = group_end(argc, argv, i + 1);
            i = engine_end[engines++] - 1;
        } else if (!strcmp(arg, "-each")) {
            each_first = i + 1;
            each_end = group_end(argc, argv, i + 1);
            i = each_end - 1;
        } else if (!strcmp(arg, "-openings")) {
            if (!parse_openings(argc, argv, &i, s, err))
                return false;
        } else if (!strcmp(arg, "-sprt")) {
            if (!parse_sprt(argc, argv, &i, s, err))
                return false;
        } else if (!strcmp(arg, "-srand")) {
            if (!parse_number_option(argc, argv, &i, 0, INT64_MAX, &number, err))
                return false;
            s->seed = (uint64_t)number;
        } else if (!strcmp(arg, "-rounds")) {
            if (!parse_number_option(argc, argv, &i, 1, SETTINGS_UNBOUNDED_ROUNDS, &s->rounds, err))
                return false;
        } else if (!strcmp(arg, "-maxmoves")) {
            if (!parse_number_option(argc, argv, &i, 1, 100000, &number, err))
                return false;
            s->max_plies = (int)number;
        } else if (!strcmp(arg, "-concurrency")) {
            if (!parse_number_option(argc, argv, &i, 1, 256, &number, err))
                return false;
            s->concurrency = (int)number;
        } else if (!strcmp(arg, "-ratinginterval")) {
            if (!parse_number_option(argc, argv, &i, 1, 1000000, &number, err))
                return false;
            s->rating_interval = (int)number;
        } else if (!strcmp(arg, "-debug-stopafter")) {
            if (!parse_number_option(argc, argv, &i, 1, INT32_MAX, &number, err))
                return false;
            s->debug_stop_after = (int)number;
        } else if (!strcmp(arg, "-out") || !strcmp(arg, "-resume")) {
            if (i + 1 >= argc)
                return error_set(err, "%s needs a file name", arg);
            if (!copy_path(!strcmp(arg, "-out") ? s->out_path : s->resume_path, argv[++i], arg, err))
                return false;
        } else if (!strcmp(arg, "-pgnout")) {
            if (!parse_file_group(argc, argv, &i, "-pgnout", s->pgn_path, err))
                return false;
        } else if (!strcmp(arg, "-plot")) {
            if (!parse_file_group(argc, argv, &i, "-plot", s->plot_path, err))
                return false;
        } else if (!strcmp(arg, "-quiet")) {
            s->quiet = true;
        } else if (arg[0] == '-') {
            return unknown_option(arg, err);
        } else {
            return error_set(err, "unexpected '%s' (options start with '-'; see -help)", arg);
        }
    }
    if (s->resume_path[0] && engines == 0)
        return true; /* everything else comes from the results file */
    if (engines != MATCH_ENGINES)
        return error_set(err, "-engine: exactly two engines are needed (base, then candidate); "
                              "found %d", engines);
    for (int e = 0; e < MATCH_ENGINES; e++) {
        EngineSpec *spec = &s->engines[e];
        spec->config = config_default();
        /* -each first, so that an engine's own options win. */
        int firsts[2] = {each_first, engine_first[e]}, ends[2] = {each_end, engine_end[e]};
        for (int g = 0; g < 2; g++)
            for (int k = firsts[g]; k < ends[g]; k++) {
                if (!strncmp(argv[k], "name=", 5)) {
                    if (g == 0)
                        return error_set(err, "-each: name= belongs to -engine");
                    if (!argv[k][5] || strlen(argv[k] + 5) >= MATCH_NAME_MAX)
                        return error_set(err, "-engine: name empty or longer than %d",
                                         MATCH_NAME_MAX - 1);
                    strcpy(spec->name, argv[k] + 5);
                    continue;
                }
                Error inner;
                if (!config_apply(&spec->config, argv[k], &inner))
                    return error_set(err, "%s %s: %s", g ? "-engine" : "-each",
                                     g ? (spec->name[0] ? spec->name : "?") : "", inner.text);
            }
        if (!spec->name[0])
            return error_set(err, "-engine: name=N is required (engine %d)", e + 1);
        if (!spec->config.depth && !spec->config.nodes && !spec->config.movetime)
            return error_set(err, "engine %s has no limit: give depth=, nodes= or movetime= "
                                  "(with -engine or -each)", spec->name);
    }
    if (!strcmp(s->engines[0].name, s->engines[1].name))
        return error_set(err, "-engine: the two engines need different names");
    if (!s->rounds)
        s->rounds = s->has_sprt ? SETTINGS_UNBOUNDED_ROUNDS : 0;
    if (!s->rounds)
        return error_set(err, "give -rounds N, -sprt, or both");
    return true;
}

void settings_command_line(const MatchSettings *s, char *out, size_t size) {
    TextBuf buf = textbuf(out, size);
    textbuf_printf(&buf, "build/abtest");
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
        if (!json_text(engine, "name", s->engines[e].name, MATCH_NAME_MAX, err) ||
            !json_text(engine, "config", text, sizeof text, err))
            return false;
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
