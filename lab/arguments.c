// SPDX-License-Identifier: MIT
#include "arguments.h"

#include "parse.h"
#include "sprt_keys.h"
#include "paths.h"
#include "version.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: abtest [options]            (no options: the built-in main job)\n"
    "       abtest sprt ...             the SPRT calculator (abtest sprt -help)\n"
    "       abtest book ...             the opening-book generator (abtest book -help)\n"
    "       abtest simulate ...         virtual SPRTs: error rates, lengths, Elo bias\n"
    "  -engine name=N [key=value ...]   a search configuration; twice: the engine under test\n"
    "                                   first, then the baseline (every number is the first's)\n"
    "  -engine name=N cmd=PROGRAM [args=\"...\"] [dir=D] [option.NAME=VALUE ...] [bench=NODES]\n"
    "          [timemargin=MS] [startup=MS] [stall=MS]   an engine program (docs/engine.md)\n"
    "  -each [key=value ...]            options for both engines (their own ones win)\n"
    "                                   limits: depth=N nodes=N movetime=MS\n"
    "  -openings file=F [format=epd] [order=random|sequential] [start=N] [randomplies=K]\n"
    "  -srand S                         seed of the book shuffle and random plies\n"
    "  -rounds N                        pairs to play (unbounded with -sprt)\n"
    "  -sprt elo0=X elo1=Y [alpha=0.05 beta=0.05 model=normalized|logistic|bayeselo]\n"
    "        [overshoot=on|off]         fishtest's overshoot correction, fed pair by pair\n"
    "  -maxmoves N                      plies before a game is adjudicated a draw (300)\n"
    "  -tb [file=F]                     adjudicate each game by the tablebase when the sliding\n"
    "                                   phase starts (default file: make tablebase)\n"
    "  -concurrency N                   games in parallel (default: all cores)\n"
    "  -ratinginterval N                report and checkpoint every N pairs (10)\n"
    "  -out FILE.json                   results file (atomic, resumable)\n"
    "  -pgnout file=F                   game records\n"
    "  -plot file=F.png                 LLR and Elo against pairs (needs gnuplot)\n"
    "  -resume FILE.json                continue an interrupted run\n"
    "  -quiet                           no per-game lines, status line or interval blocks\n"
    "  -recover                         an engine program that exits or stalls loses the game\n"
    "                                   and is restarted (without: the run stops, saved)\n"
    "  -repeat, -games 2                accepted: pairs with sides swapped are always played\n"
    "  -rank-timeout S                  abtest-mpi only: seconds a rank may stay silent before\n"
    "                                   its pairs go to the others (30)\n"
    "  -help, -version\n"
    "Search options (key=value) are those of `bench options`.\n";

/* Options abtest understands (for "did you mean" on a typo). */
static const char *const OPTIONS[] = {
    "-engine", "-each",  "-openings", "-srand",  "-rounds", "-sprt",   "-maxmoves",
    "-concurrency", "-ratinginterval", "-out", "-pgnout", "-plot", "-quiet", "-resume",
    "-help", "-version", "-repeat", "-games", "-debug-stopafter", "-recover", "-tb"};

/* fastchess and cutechess-cli options that have no meaning here, with what to do instead. */
typedef struct {
    const char *option;
    const char *pointer;
} Pointer;

#define ADJUDICATION_POINTER                                                                       \
    "score adjudication is not implemented: a game ends by the rules, by threefold repetition, " \
    "or as a draw after -maxmoves N plies, so no result depends on one engine's evaluation"

static const Pointer OPTION_POINTERS[] = {
    {"-log", "engine traffic is not logged; game records: -pgnout file=F, results and state: "
             "-out F.json; a fault is reported with the engine, position and what it sent"},
    {"-draw", ADJUDICATION_POINTER},
    {"-resign", ADJUDICATION_POINTER},
    {"-config", "to continue a run use -resume F.json (the -out file holds its whole state)"},
    {"-autosaveinterval", "the results file is saved every -ratinginterval N pairs"},
    {"-scoreinterval", "status blocks come every -ratinginterval N pairs"},
    {"-report", "pentanomial statistics are always reported (penta=true)"},
    {"-output", "the output is always fastchess's format"},
    {"-variant", "the game is tigers and sheep"},
    {"-event", "the records' Event tag is \"tslab abtest FIRST vs SECOND\""},
    {"-site", "the game records have no Site tag"},
    {"-epdout", "game records: -pgnout file=F"},
    {"-crc32", "the results file records the book's content hash and the records' length"},
    {"-testEnv", "not needed"},
    {"-noswap", "pairs always swap sides: that is what makes them fair"},
    {"-reverse", "pairs always play both sides"},
    {"-quick", "write -engine name=A ... -engine name=B ... -each nodes=N -openings file=F"},
};

/* Engine keys of fastchess (-engine / -each) that abtest does not take. */
static const Pointer ENGINE_KEY_POINTERS[] = {
    {"tc", "engines take nodes=N, depth=N or movetime=MS (no clock)"},
    {"st", "engines take movetime=MS (st=0.1 is movetime=100), or nodes=N"},
    {"restart", "engine programs are started once per worker and reused, with ucinewgame "
                "between games (-recover restarts one that exits or stalls)"},
    {"plies", "use depth=N"},
};

static const char *find_pointer(const Pointer *table, size_t count, const char *key) {
    for (size_t i = 0; i < count; i++)
        if (!strcmp(table[i].option, key))
            return table[i].pointer;
    return NULL;
}

static bool unknown_option(const char *arg, Error *err) {
    if (!strcmp(arg, "-rank-timeout")) /* abtest-mpi takes it out before the others */
        return error_set(err, "-rank-timeout is an option of abtest-mpi (mpirun -np R "
                              "build/abtest-mpi ...): abtest plays on one machine");
    const char *pointer =
        find_pointer(OPTION_POINTERS, sizeof OPTION_POINTERS / sizeof OPTION_POINTERS[0], arg);
    if (pointer)
        return error_set(err, "%s is a fastchess option abtest does not take: %s", arg, pointer);
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

/* Sets the settings field `key` from text: the one check shared with results files. */
static bool set_field(MatchSettings *s, const char *key, const char *text, Error *err) {
    return settings_field_from_text(settings_field(key), s, text, err);
}

static bool parse_openings(int argc, char **argv, int *i, MatchSettings *s, Error *err) {
    int end = group_end(argc, argv, *i + 1);
    if (end == *i + 1)
        return error_set(err, "-openings needs file=F (and optionally order=, start=, "
                              "randomplies=, format=epd)");
    for (int k = *i + 1; k < end; k++) {
        char key[32], quoted[ERROR_EXCERPT_MAX];
        if (!strchr(argv[k], '=') && end == *i + 2) { /* -openings FILE, as -pgnout FILE */
            if (!set_field(s, "book", argv[k], err))
                return false;
            continue;
        }
        const char *value = split_token("-openings", argv[k], key, sizeof key, err);
        if (!value)
            return false;
        static const char *const FIELD_KEYS[][2] = {
            {"file", "book"}, {"order", "order"}, {"start", "start"},
            {"randomplies", "randomplies"}};
        const char *field_key = NULL;
        for (size_t f = 0; f < sizeof FIELD_KEYS / sizeof FIELD_KEYS[0]; f++)
            if (!strcmp(key, FIELD_KEYS[f][0]))
                field_key = FIELD_KEYS[f][1];
        if (field_key) {
            if (!set_field(s, field_key, value, err))
                return false;
        } else if (!strcmp(key, "format")) {
            if (strcmp(value, "epd"))
                return error_set(err, "-openings format: '%s' is not supported: books are "
                                      "EPD-like text, one position per line in the project's "
                                      "notation (format=epd)", error_excerpt(value, quoted));
        } else if (!strcmp(key, "plies")) {
            return error_set(err, "-openings plies: positions of an EPD-like book are played "
                                  "whole; randomplies=K adds K random plies after each");
        } else if (!strcmp(key, "policy")) {
            return error_set(err, "-openings policy: every pair plays its opening twice, sides "
                                  "swapped (fastchess's default)");
        } else {
            return error_set(err, "-openings: unknown key '%s' (file, format, order, start, "
                                  "randomplies)", error_excerpt(key, quoted));
        }
    }
    *i = end - 1;
    return true;
}

static bool parse_sprt(int argc, char **argv, int *i, MatchSettings *s, Error *err) {
    int end = group_end(argc, argv, *i + 1);
    if (!sprt_params_parse(argv + *i + 1, end - *i - 1, &s->sprt, err))
        return false;
    s->has_sprt = true;
    *i = end - 1;
    return true;
}

/* -pgnout file=F or -pgnout F (fastchess takes both), into the settings field key. */
static bool parse_file_group(int argc, char **argv, int *i, const char *key, MatchSettings *s,
                             Error *err) {
    const char *option = argv[*i];
    int end = group_end(argc, argv, *i + 1);
    char quoted[ERROR_EXCERPT_MAX];
    if (end == *i + 1)
        return error_set(err, "%s needs file=NAME", option);
    for (int k = *i + 1; k < end; k++) {
        const char *value = argv[k];
        if (!strncmp(value, "file=", 5))
            value += 5;
        else if (strchr(value, '='))
            return error_set(err, "%s: unknown key in '%s' (file=)", option,
                             error_excerpt(value, quoted));
        if (!*value)
            return error_set(err, "%s: the file name is empty", option);
        if (!set_field(s, key, value, err))
            return false;
    }
    *i = end - 1;
    return true;
}

/* -tb file=F (fastchess's word), or -tb alone for the default tablebase (make tablebase). */
static bool parse_tablebase(int argc, char **argv, int *i, MatchSettings *s, Error *err) {
    if (group_end(argc, argv, *i + 1) > *i + 1)
        return parse_file_group(argc, argv, i, "tb", s, err);
    char path[PATHS_MAX];
    Error inner;
    if (!paths_tablebase(NULL, path, sizeof path, &inner))
        return error_set(err, "-tb: %s", inner.text);
    return set_field(s, "tb", path, err);
}

/* An option followed by one value, set through the settings table. */
static bool parse_value_option(int argc, char **argv, int *i, const char *key, MatchSettings *s,
                               Error *err) {
    if (*i + 1 >= argc)
        return error_set(err, "%s needs a value", argv[*i]);
    (*i)++;
    if (!*argv[*i])
        return error_set(err, "%s: the value is empty", argv[*i - 1]);
    return set_field(s, key, argv[*i], err);
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

static bool parse_resume(int argc, char **argv, int *i, MatchSettings *s, Error *err) {
    char quoted[ERROR_EXCERPT_MAX];
    if (*i + 1 >= argc)
        return error_set(err, "-resume needs a file name");
    const char *path = argv[++*i];
    if (!*path || path[0] == '-' || strlen(path) >= SETTINGS_PATH_MAX)
        return error_set(err, "-resume: '%s' is not a results file name",
                         error_excerpt(path, quoted));
    strcpy(s->resume_path, path);
    return true;
}

/* A run of tokens that belong to one engine: argv[first..end). */
typedef struct {
    int first, end;
} Group;

/* Applies one group's tokens to an engine; name= only in -engine groups. */
static bool apply_group(EngineSpec *spec, char **argv, Group group, bool is_each, Error *err) {
    const char *option = is_each ? "-each" : "-engine";
    /* Errors name the engine, wherever in its group name= comes. */
    const char *who = is_each ? "" : "?";
    for (int k = group.first; k < group.end && !is_each; k++)
        if (!strncmp(argv[k], "name=", 5))
            who = argv[k] + 5;
    char quoted[ERROR_EXCERPT_MAX];
    who = error_excerpt(who, quoted);
    for (int k = group.first; k < group.end; k++) {
        const char *token = argv[k];
        if (!strncmp(token, "name=", 5)) {
            Error inner;
            if (is_each)
                return error_set(err, "-each: name= belongs to -engine");
            if (!engine_spec_check_name(token + 5, &inner))
                return error_set(err, "-engine: %s", inner.text);
            strcpy(spec->name, token + 5);
            continue;
        }
        char key[64];
        const char *equals = strchr(token, '=');
        size_t key_length = equals ? (size_t)(equals - token) : strlen(token);
        snprintf(key, sizeof key, "%.*s", (int)(key_length < sizeof key ? key_length : 0), token);
        const char *pointer = find_pointer(
            ENGINE_KEY_POINTERS, sizeof ENGINE_KEY_POINTERS / sizeof ENGINE_KEY_POINTERS[0], key);
        if (pointer)
            return error_set(err, "%s: '%s' is a fastchess engine option abtest does not take: %s",
                             option, token, pointer);
        bool handled;
        Error inner;
        if (equals && !engine_spec_program_key(&spec->external, key, equals + 1, &handled, &inner))
            return error_set(err, "%s %s: %s", option, who, inner.text);
        if (equals && handled)
            continue;
        if (!config_apply(&spec->config, token, &inner))
            return error_set(err, "%s %s: %s", option, who, inner.text);
    }
    return true;
}

static bool build_engines(char **argv, const Group *engines, int engine_count, const Group *each,
                          int each_count, MatchSettings *s, Error *err) {
    if (engine_count != MATCH_ENGINES)
        return error_set(err, "-engine: exactly two engines are needed (the engine under test "
                              "first, then the baseline); found %d", engine_count);
    for (int e = 0; e < MATCH_ENGINES; e++) {
        EngineSpec *spec = &s->engines[e];
        *spec = engine_spec_default();
        /* Every -each first, in order, so that an engine's own options win. */
        for (int g = 0; g < each_count; g++)
            if (!apply_group(spec, argv, each[g], true, err))
                return false;
        if (!apply_group(spec, argv, engines[e], false, err))
            return false;
        if (!spec->name[0])
            return error_set(err, "-engine: name=N is required (engine %d)", e + 1);
        if (!engine_spec_check_kind(spec, err))
            return false;
    }
    return true;
}

bool arguments_parse(int argc, char **argv, MatchSettings *s, bool *exit_now, Error *err) {
    settings_default_job(s);
    memset(s->engines, 0, sizeof s->engines);
    s->book_path[0] = '\0'; /* the default book, resolved below unless -openings names one */
    s->has_sprt = false;
    s->rounds = 0;
    s->out_path[0] = s->plot_path[0] = s->pgn_path[0] = '\0';
    s->concurrency = 0;
    *exit_now = false;
    Group *engines = calloc((size_t)argc + 1, sizeof *engines);
    Group *each = calloc((size_t)argc + 1, sizeof *each);
    if (!engines || !each) {
        free(engines);
        free(each);
        return error_set(err, "out of memory");
    }
    int engine_count = 0, each_count = 0;
    bool ok = true;
    for (int i = 0; ok && i < argc; i++) {
        const char *arg = argv[i];
        int64_t number;
        if (!strcmp(arg, "-help") || !strcmp(arg, "--help")) {
            char defaults[PATHS_MAX + 128];
            paths_describe_defaults(defaults, sizeof defaults);
            printf("%s%s\n", usage, defaults);
            *exit_now = true;
            break;
        } else if (!strcmp(arg, "-version") || !strcmp(arg, "--version")) {
            printf("abtest (%s)\n", version_text());
            *exit_now = true;
            break;
        } else if (!strcmp(arg, "-engine") || !strcmp(arg, "-each")) {
            Group group = {i + 1, group_end(argc, argv, i + 1)};
            if (!strcmp(arg, "-each"))
                each[each_count++] = group;
            else if (engine_count == MATCH_ENGINES)
                ok = error_set(err, "-engine: exactly two engines (the engine under test first, "
                                    "then the baseline)");
            else
                engines[engine_count++] = group;
            i = group.end - 1;
        } else if (!strcmp(arg, "-openings")) {
            ok = parse_openings(argc, argv, &i, s, err);
        } else if (!strcmp(arg, "-sprt")) {
            ok = parse_sprt(argc, argv, &i, s, err);
        } else if (!strcmp(arg, "-srand")) {
            ok = parse_value_option(argc, argv, &i, "seed", s, err);
        } else if (!strcmp(arg, "-rounds")) {
            ok = parse_value_option(argc, argv, &i, "rounds", s, err);
        } else if (!strcmp(arg, "-games")) {
            ok = parse_number_option(argc, argv, &i, 1, 1000000, &number, err);
            if (ok && number != 2)
                ok = error_set(err, "-games %lld: abtest always plays pairs, each opening with "
                                    "sides swapped (fastchess's -games 2); -rounds N sets the "
                                    "number of pairs", (long long)number);
        } else if (!strcmp(arg, "-repeat")) {
            /* fastchess's -repeat is what abtest always does. */
        } else if (!strcmp(arg, "-maxmoves")) {
            ok = parse_value_option(argc, argv, &i, "maxmoves", s, err);
        } else if (!strcmp(arg, "-concurrency")) {
            ok = parse_value_option(argc, argv, &i, "concurrency", s, err);
        } else if (!strcmp(arg, "-ratinginterval")) {
            ok = parse_value_option(argc, argv, &i, "ratinginterval", s, err);
        } else if (!strcmp(arg, "-debug-stopafter")) {
            ok = parse_number_option(argc, argv, &i, 1, INT32_MAX, &number, err);
            s->debug_stop_after = (int)number;
        } else if (!strcmp(arg, "-out")) {
            ok = parse_value_option(argc, argv, &i, "out", s, err);
        } else if (!strcmp(arg, "-resume")) {
            ok = parse_resume(argc, argv, &i, s, err);
        } else if (!strcmp(arg, "-pgnout")) {
            ok = parse_file_group(argc, argv, &i, "pgnout", s, err);
        } else if (!strcmp(arg, "-plot")) {
            ok = parse_file_group(argc, argv, &i, "plot", s, err);
        } else if (!strcmp(arg, "-tb")) {
            ok = parse_tablebase(argc, argv, &i, s, err);
        } else if (!strcmp(arg, "-quiet")) {
            s->quiet = true;
        } else if (!strcmp(arg, "-recover")) {
            s->recover = true;
        } else if (arg[0] == '-') {
            ok = unknown_option(arg, err);
        } else {
            ok = error_set(err, "unexpected '%s' (options start with '-'; see -help)", arg);
        }
    }
    if (ok && !*exit_now && !(s->resume_path[0] && engine_count == 0)) {
        ok = build_engines(argv, engines, engine_count, each, each_count, s, err);
        if (ok && !s->rounds)
            s->rounds = s->has_sprt ? SETTINGS_UNBOUNDED_ROUNDS : 0;
        if (ok && !s->rounds)
            ok = error_set(err, "give -rounds N, -sprt, or both");
        if (ok)
            ok = settings_resolve_book(s, err);
        if (ok)
            ok = settings_check(s, err);
    }
    free(engines);
    free(each);
    return ok;
}
