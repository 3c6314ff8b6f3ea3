// SPDX-License-Identifier: MIT
#include "arguments.h"

#include "ladder.h"

#include "parse.h"
#include "paths.h"
#include "sprt_keys.h"
#include "textbuf.h"
#include "version.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The built-in main job (README): killers on (under test, first) against killers off at 5000
 * nodes per move, SPRT <0, 10> on the default book, results, game records and plot in
 * results/. */
static const char *const MAIN_JOB[] = {
    "-engine", "name=killers", "-engine", "name=nokillers", "killers=off", "-each", "nodes=5000",
    "-sprt", "elo0=0", "elo1=10", "-out", "results/killers.json", "-pgnout",
    "results/killers.pgn", "-plot", "results/killers.png",
};

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
    {"-wait", "games start at once: a clock (tc=, st=) runs only while its engine is asked "
              "for a move"},
    {"-quick", "write -engine name=A ... -engine name=B ... -each nodes=N -openings file=F"},
};

/* Options of no tool that a user of pairs reaches for (tune and booktest take -pairs). */
static const Pointer MISTAKEN_POINTERS[] = {
    {"-pairs", "a round is a pair here (an opening played both ways): -rounds N plays N pairs"},
};

/* Engine keys of fastchess (-engine / -each) that abtest does not take. */
static const Pointer ENGINE_KEY_POINTERS[] = {
    {"restart", "engine programs are started once per worker and reused, with ucinewgame "
                "between games (-recover restarts one that exits or stalls)"},
    {"plies", "use depth=N"},
};

/* A run of tokens that belong to one engine: argv[first..end). */
typedef struct {
    int first, end;
} Group;

/* What the command line has said so far. */
typedef struct {
    const ArgumentsCommand *command; /* NULL: the match */
    void *context;                   /* the command's, for its own options */
    int argc;
    char **argv;
    MatchSettings *settings;
    Group *engines, *each; /* argc + 1 each */
    int engine_count, each_count;
    bool rounds_given, seeds_given, family_given;
    bool exit_now;
} Parse;

/* A group's tokens run until the next option (a '-' word without '='). */
static int group_end(int argc, char **argv, int first) {
    int i = first;
    while (i < argc && !(argv[i][0] == '-' && !strchr(argv[i], '=')))
        i++;
    return i;
}

static const char *find_pointer(const Pointer *table, size_t count, const char *key) {
    for (size_t i = 0; i < count; i++)
        if (!strcmp(table[i].option, key))
            return table[i].pointer;
    return NULL;
}

/* Keys a group accepts besides its fields' (fastchess's, with what abtest does instead);
 * `accepts` is the one value taken without a word (NULL: none). */
typedef struct {
    const char *option, *key, *accepts, *pointer;
} GroupPointer;

static const GroupPointer GROUP_POINTERS[] = {
    {"-openings", "format", "epd",
     "is not supported: books are EPD-like text, one position per line in the project's "
     "notation (format=epd)"},
    {"-openings", "plies", NULL,
     "positions of an EPD-like book are played whole; randomplies=K adds K random plies after "
     "each"},
    {"-openings", "policy", NULL,
     "every pair plays its opening twice, sides swapped (fastchess's default)"},
};

/* The field of option's group key, or NULL. */
static const SettingsField *group_field(const char *option, const char *key) {
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++) {
        const SettingsField *f = &SETTINGS_FIELDS[i];
        if (f->group_key && !strcmp(f->option, option) && !strcmp(f->group_key, key))
            return f;
    }
    return NULL;
}

/* "file, order, start, randomplies": a group's keys, for messages. */
static void group_keys(const char *option, char *out, size_t size) {
    TextBuf buf = textbuf(out, size);
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++)
        if (SETTINGS_FIELDS[i].group_key && !strcmp(SETTINGS_FIELDS[i].option, option))
            textbuf_printf(&buf, "%s%s", buf.used ? ", " : "", SETTINGS_FIELDS[i].group_key);
    for (size_t i = 0; i < sizeof GROUP_POINTERS / sizeof GROUP_POINTERS[0]; i++)
        if (!strcmp(GROUP_POINTERS[i].option, option) && GROUP_POINTERS[i].accepts)
            textbuf_printf(&buf, ", %s", GROUP_POINTERS[i].key);
}

/* One key=value of a group: a field, or a key fastchess knows. */
static bool group_token(const SettingsField *first, const char *token, MatchSettings *s,
                        Error *err) {
    const char *option = first->option, *equals = strchr(token, '=');
    char key[32], quoted[ERROR_EXCERPT_MAX], keys[128];
    /* One word alone is the group's first key (-openings FILE, -pgnout FILE, as fastchess). */
    if (!equals)
        return settings_field_from_text(first, s, token, err);
    if (equals == token || (size_t)(equals - token) >= sizeof key)
        return error_set(err, "%s: '%s' is not key=value", option, error_excerpt(token, quoted));
    memcpy(key, token, (size_t)(equals - token));
    key[equals - token] = '\0';
    const SettingsField *f = group_field(option, key);
    if (f)
        return settings_field_from_text(f, s, equals + 1, err);
    for (size_t i = 0; i < sizeof GROUP_POINTERS / sizeof GROUP_POINTERS[0]; i++) {
        const GroupPointer *p = &GROUP_POINTERS[i];
        if (strcmp(p->option, option) || strcmp(p->key, key))
            continue;
        if (p->accepts && !strcmp(p->accepts, equals + 1))
            return true;
        return error_set(err, "%s %s: %s%s%s%s", option, key, p->accepts ? "'" : "",
                         p->accepts ? error_excerpt(equals + 1, quoted) : "",
                         p->accepts ? "' " : "", p->pointer);
    }
    group_keys(option, keys, sizeof keys);
    return error_set(err, "%s: unknown key '%s' (%s)", option, error_excerpt(key, quoted), keys);
}

/* An option of the settings table: one value, a switch, or a group of key=value tokens. */
static bool parse_field_option(Parse *p, int *i, const SettingsField *f, Error *err) {
    MatchSettings *s = p->settings;
    const char *option = p->argv[*i];
    if (f->type == FIELD_SWITCH) {
        *(bool *)((char *)s + f->offset) = true;
        return true;
    }
    if (!f->group_key) {
        if (*i + 1 >= p->argc)
            return error_set(err, "%s needs a value", option);
        const char *value = p->argv[++*i];
        if (!*value)
            return error_set(err, "%s: the value is empty", option);
        if (!strcmp(f->key, "rounds"))
            p->rounds_given = true;
        return settings_field_from_text(f, s, value, err);
    }
    int end = group_end(p->argc, p->argv, *i + 1);
    if (end == *i + 1) {
        char path[SETTINGS_PATH_MAX], keys[128];
        Error inner;
        if (!f->bare_path) {
            group_keys(option, keys, sizeof keys);
            return error_set(err, "%s needs %s=F (keys: %s)", option, f->group_key, keys);
        }
        if (!f->bare_path(path, sizeof path, &inner))
            return error_set(err, "%s: %s", option, inner.text);
        return settings_field_from_text(f, s, path, err);
    }
    for (int k = *i + 1; k < end; k++) {
        if (!strchr(p->argv[k], '=') && end != *i + 2)
            return error_set(err, "%s: '%s' is not key=value", option, p->argv[k]);
        if (!group_token(f, p->argv[k], s, err))
            return false;
    }
    *i = end - 1;
    return true;
}

/* Applies words[0..count) to an engine; name= only in -engine groups (is_each false). Messages
 * start "-each: " or "-engine NAME: ", with name (NULL: from the words' name=). */
static bool apply_words(EngineSpec *spec, char **words, int count, bool is_each, const char *name,
                        Error *err) {
    const char *option = is_each ? "-each" : "-engine";
    /* Errors name the engine, wherever in its group name= comes. */
    for (int k = 0; k < count && !is_each && !name; k++)
        if (!strncmp(words[k], "name=", 5))
            name = words[k] + 5;
    char quoted[ERROR_EXCERPT_MAX], who[ERROR_EXCERPT_MAX + 2] = "";
    if (!is_each) /* "-engine NAME: ...", "-each: ..." */
        snprintf(who, sizeof who, " %s", error_excerpt(name ? name : "?", quoted));
    for (int k = 0; k < count; k++) {
        const char *token = words[k];
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
        if (equals && !engine_spec_timing_key(&spec->timing, key, equals + 1, &handled, &inner))
            return error_set(err, "%s%s: %s", option, who, inner.text);
        if (equals && handled)
            continue;
        if (equals && !engine_spec_program_key(&spec->program, key, equals + 1, &handled, &inner))
            return error_set(err, "%s%s: %s", option, who, inner.text);
        if (equals && handled)
            continue;
        /* Neither a program or timing key nor a search option: one edit from such a key is a
         * typo of it (stal=, tcc=), two edits when no search option is near; the rest are the
         * option table's to explain. */
        const char *closest = NULL;
        if (!config_find(key)) {
            closest = engine_spec_closest_key(key, 1);
            if (!closest && !config_suggest(key))
                closest = engine_spec_closest_key(key, 2);
        }
        if (closest)
            return error_set(err, "%s%s: unknown key '%s' (did you mean '%s'?)", option, who, key,
                             closest);
        if (!config_apply(&spec->config, token, &inner))
            return error_set(err, "%s%s: %s", option, who, inner.text);
    }
    return true;
}

/* Every -each group, in order. */
static bool apply_each(EngineSpec *spec, char **argv, const Group *each, int each_count,
                       Error *err) {
    for (int g = 0; g < each_count; g++)
        if (!apply_words(spec, argv + each[g].first, each[g].end - each[g].first, true, NULL, err))
            return false;
    return true;
}

static bool build_engines(char **argv, const Group *engines, int engine_count, const Group *each,
                          int each_count, MatchSettings *s, Error *err) {
    if (s->tournament == TOURNAMENT_MATCH && engine_count != MATCH_ENGINES)
        return error_set(err, "-engine: exactly two engines are needed (the engine under test "
                              "first, then the baseline); found %d (-tournament roundrobin or "
                              "gauntlet plays more)", engine_count);
    if (engine_count < MATCH_ENGINES)
        return error_set(err, "-tournament %s: two engines or more are needed; found %d",
                         tournament_kind_name(s->tournament), engine_count);
    s->engine_count = engine_count;
    for (int e = 0; e < engine_count; e++) {
        EngineSpec *spec = &s->engines[e];
        *spec = engine_spec_default();
        /* Every -each first, in order, so that an engine's own options win. */
        if (!apply_each(spec, argv, each, each_count, err))
            return false;
        if (!apply_words(spec, argv + engines[e].first, engines[e].end - engines[e].first, false,
                         NULL, err))
            return false;
        if (!spec->name[0])
            return error_set(err, "-engine: name=N is required (engine %d)", e + 1);
    }
    return true;
}

static bool parse_engine(Parse *p, int *i, Error *err) {
    Group group = {*i + 1, group_end(p->argc, p->argv, *i + 1)};
    if (!strcmp(p->argv[*i], "-each"))
        p->each[p->each_count++] = group;
    else if (p->engine_count == TOURNAMENT_RUN_ENGINES_MAX)
        return error_set(err, "-engine: a run takes at most %d engines",
                         TOURNAMENT_RUN_ENGINES_MAX);
    else
        p->engines[p->engine_count++] = group;
    *i = group.end - 1;
    return true;
}

static bool parse_sprt(Parse *p, int *i, Error *err) {
    int end = group_end(p->argc, p->argv, *i + 1);
    if (!sprt_params_parse(p->argv + *i + 1, end - *i - 1, &p->settings->sprt, err))
        return false;
    p->settings->has_sprt = true;
    *i = end - 1;
    return true;
}

/* -ladder STEP,STEP,... [continue=on|off] (ladder.h): the engines are made the ladder's once
 * they are built. */
static bool parse_ladder(Parse *p, int *i, Error *err) {
    int end = group_end(p->argc, p->argv, *i + 1);
    if (!ladder_parse(p->argv + *i + 1, end - *i - 1, &p->settings->ladder, err))
        return false;
    *i = end - 1;
    return true;
}

static bool parse_games(Parse *p, int *i, Error *err) {
    Error inner;
    int64_t games;
    if (*i + 1 >= p->argc)
        return error_set(err, "-games needs a number");
    if (!parse_int64(p->argv[++*i], 1, 1000000, &games, &inner))
        return error_set(err, "-games: %s", inner.text);
    if (games != 2)
        return error_set(err, "-games %lld: abtest always plays pairs, each opening with sides "
                              "swapped (fastchess's -games 2); -rounds N sets the number of pairs",
                         (long long)games);
    return true;
}

/* fastchess's -tournament: a round robin or a gauntlet of the engines given. */
static bool parse_tournament(Parse *p, int *i, Error *err) {
    const char *word = *i + 1 < p->argc ? p->argv[*i + 1] : "";
    TournamentKind kind;
    if (!tournament_kind_from_name(word, &kind) || kind == TOURNAMENT_MATCH ||
        kind == TOURNAMENT_LADDER) /* -ladder makes one */
        return error_set(err, "-tournament: '%s' is not roundrobin or gauntlet", word);
    p->settings->tournament = kind;
    (*i)++;
    return true;
}

/* fastchess's -seeds N: a gauntlet's first N engines, each playing every other. */
static bool parse_seeds(Parse *p, int *i, Error *err) {
    const char *word = *i + 1 < p->argc ? p->argv[*i + 1] : "";
    int64_t seeds;
    Error inner;
    if (!parse_int64(word, 1, TOURNAMENT_RUN_ENGINES_MAX - 1, &seeds, &inner))
        return error_set(err, "-seeds: '%s': %s", word, inner.text);
    p->settings->seeds = (int)seeds;
    p->seeds_given = true;
    (*i)++;
    return true;
}

/* A gauntlet's family-wise control over its candidates' SPRTs (the simulator's -family). */
static bool parse_family(Parse *p, int *i, Error *err) {
    const char *word = *i + 1 < p->argc ? p->argv[*i + 1] : "";
    if (!family_control_from_name(word, &p->settings->family))
        return error_set(err, "-family: '%s' is not holm, bonferroni or none", word);
    p->family_given = true;
    (*i)++;
    return true;
}

/* fastchess's -repeat is what abtest always does. */
static bool parse_repeat(Parse *p, int *i, Error *err) {
    (void)p, (void)i, (void)err;
    return true;
}

static bool parse_rank_timeout(Parse *p, int *i, Error *err) {
    (void)p, (void)i;
    /* abtest-mpi takes it out of argv before the others. */
    return error_set(err, "-rank-timeout is an option of abtest-mpi (mpirun -np R "
                          "build/abtest-mpi ...): abtest plays on one machine");
}

static bool print_help(Parse *p, int *i, Error *err);

static bool print_version(Parse *p, int *i, Error *err) {
    (void)i, (void)err;
    printf("abtest (%s)\n", version_text());
    p->exit_now = true;
    return true;
}

/* Options that are not a setting of the table: the engines, the SPRT, fastchess's words and the
 * program's own. Their usage lines come before (engines) or after the table's. */
typedef struct {
    const char *option;
    bool (*parse)(Parse *p, int *i, Error *err);
    bool before_fields;
    const char *usage;               /* whole lines */
    void (*print_usage)(FILE *out);  /* or lines made from another table */
    unsigned traits;                 /* the other commands that take it (SETTINGS_FOR_*) */
    bool decides;                    /* it decides the games or their verdict: a resumed run
                                        keeps what its file says (check_resume_options) */
} SpecialOption;

#define TEXT_OF(number) #number
#define TEXT_OF_NUMBER(number) TEXT_OF(number) /* a macro's value as a string literal */

/* How any command's pairs are played, and the program's own words. */
#define ALL_COMMANDS (SETTINGS_FOR_TUNE | SETTINGS_FOR_BOOKTEST)

#define USAGE_WIDTH 95

/* A usage line: the option and its keys (wrapped at word boundaries, continued 8 columns in),
 * then the help in its column, on a line of its own when the keys are long. */
static void usage_line(FILE *out, const char *left, const char *help) {
    if (strlen(left) < 35) {
        fprintf(out, "%-35s %s\n", left, help);
        return;
    }
    const char *rest = left;
    bool first = true;
    while (*rest) {
        int width = first ? USAGE_WIDTH : USAGE_WIDTH - 8;
        int take = (int)strlen(rest);
        if (take > width) {
            take = width;
            while (take > 0 && rest[take] != ' ')
                take--;
        }
        fprintf(out, "%s%.*s\n", first ? "" : "          ", take, rest);
        rest += take;
        while (*rest == ' ')
            rest++;
        first = false;
    }
    fprintf(out, "%-35s %s\n", "", help);
}

static void print_engine_usage(FILE *out) {
    char program[256];
    TextBuf buf = textbuf(program, sizeof program);
    textbuf_printf(&buf, "  -engine name=N ");
    engine_spec_usage(&buf);
    usage_line(out, "  -engine name=N [key=value ...]",
               "a search configuration; twice: the engine under test");
    usage_line(out, "", "first, then the baseline (every number is the first's)");
    usage_line(out, program, "an engine program (docs/engine.md)");
    char timing[256];
    buf = textbuf(timing, sizeof timing);
    textbuf_printf(&buf, "  -engine name=N ");
    engine_spec_timing_usage(&buf);
    usage_line(out, timing, "a clock abtest keeps for either kind (docs/abtest.md)");
}

static void print_sprt_usage(FILE *out) {
    char keys[256];
    TextBuf buf = textbuf(keys, sizeof keys);
    textbuf_printf(&buf, "  -sprt ");
    sprt_keys_usage(&buf);
    usage_line(out, keys, "fishtest's test; overshoot: its correction, fed pair by pair");
}

static const SpecialOption SPECIAL_OPTIONS[] = {
    {"-engine", parse_engine, true, NULL, print_engine_usage, 0, true},
    {"-each", parse_engine, true,
     "  -each [key=value ...]             options for both engines (their own ones win)\n"
     "                                    limits: depth=N nodes=N movetime=MS\n",
     NULL, ALL_COMMANDS, true},
    {"-sprt", parse_sprt, true, NULL, print_sprt_usage, 0, true},
    {"-tournament", parse_tournament, true,
     "  -tournament roundrobin|gauntlet   more than two engines: every two of them, or each of\n"
     "                                    the first -seeds against every other; -rounds is each\n"
     "                                    pairing's pairs; a joint rating of all (docs/abtest.md)\n",
     NULL, 0, true},
    {"-ladder", parse_ladder, true,
     "  -ladder LIMIT[:PRESET],... [continue=on]\n"
     "                                    the two engines at each limit in turn (nodes=N, tc= or\n"
     "                                    st=, smallest first), each step its own test; stops at\n"
     "                                    the first H0 unless continue=on; a scaling slope; with\n"
     "                                    -tournament gauntlet -seeds 1 each step a gauntlet\n",
     NULL, 0, true},
    {"-seeds", parse_seeds, true,
     "  -seeds N                          a gauntlet's seeds, its first N engines (1)\n", NULL, 0,
     true},
    {"-family", parse_family, true,
     "  -family holm|bonferroni|none      a gauntlet's SPRTs: how the chance that any null\n"
     "                                    candidate passes stays at most alpha (holm)\n",
     NULL, 0, true},
    {"-repeat", parse_repeat, false,
     "  -repeat, -games 2                 accepted: pairs with sides swapped are always played\n",
     NULL, 0, false},
    {"-games", parse_games, false, "", NULL, 0, false},
    {"-rank-timeout", parse_rank_timeout, false,
     "  -rank-timeout S                   abtest-mpi only: seconds a rank may stay silent before\n"
     "                                    its pairs go to the others (" TEXT_OF_NUMBER(
         ARGUMENTS_RANK_TIMEOUT_SECONDS) ")\n",
     NULL, ALL_COMMANDS, false},
    {"-help", print_help, false, "  -help, -version\n", NULL, ALL_COMMANDS, false},
    {"--help", print_help, false, "", NULL, ALL_COMMANDS, false},
    {"-version", print_version, false, "", NULL, ALL_COMMANDS, false},
    {"--version", print_version, false, "", NULL, ALL_COMMANDS, false},
};
#define SPECIAL_COUNT (sizeof SPECIAL_OPTIONS / sizeof SPECIAL_OPTIONS[0])

static void print_usage(FILE *out) {
    fputs("usage: abtest [options]            (no options: the built-in main job)\n"
          "       abtest COMMAND ...          (the commands follow the options)\n",
          out);
    for (int before = 1; before >= 0; before--) {
        if (!before)
            settings_usage(out);
        for (size_t i = 0; i < SPECIAL_COUNT; i++) {
            const SpecialOption *o = &SPECIAL_OPTIONS[i];
            if (o->before_fields != before)
                continue;
            if (o->print_usage)
                o->print_usage(out);
            else
                fputs(o->usage, out);
        }
    }
    fputs("Search options (key=value) are those of `bench options`.\n", out);
}

static bool print_help(Parse *p, int *i, Error *err) {
    (void)i, (void)err;
    char defaults[PATHS_MAX + 128];
    if (p->command)
        arguments_command_usage(p->command, stdout);
    else
        print_usage(stdout);
    paths_describe_defaults(defaults, sizeof defaults);
    printf("%s\n", defaults);
    p->exit_now = true;
    return true;
}

/* Whether the command being parsed takes an option whose row has traits. */
static bool taken(const Parse *p, unsigned traits) {
    return !p->command || (traits & p->command->trait);
}

static bool unknown_option(const Parse *p, const char *arg, Error *err) {
    const char *pointer =
        find_pointer(OPTION_POINTERS, sizeof OPTION_POINTERS / sizeof OPTION_POINTERS[0], arg);
    if (pointer)
        return error_set(err, "%s is a fastchess option abtest does not take: %s", arg, pointer);
    pointer = find_pointer(MISTAKEN_POINTERS,
                           sizeof MISTAKEN_POINTERS / sizeof MISTAKEN_POINTERS[0], arg);
    if (pointer)
        return error_set(err, "%s is not an option of a match: %s", arg, pointer);
    /* Every option the command takes, for "did you mean". */
    const char *names[SPECIAL_COUNT + 64];
    const size_t most = sizeof names / sizeof names[0];
    size_t count = 0;
    for (size_t i = 0; i < SPECIAL_COUNT; i++)
        if (taken(p, SPECIAL_OPTIONS[i].traits))
            names[count++] = SPECIAL_OPTIONS[i].option;
    for (size_t i = 0; p->command && i < p->command->own_count && count < most; i++)
        names[count++] = p->command->own[i].option;
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT && count < most; i++)
        if (taken(p, SETTINGS_FIELDS[i].traits))
            names[count++] = SETTINGS_FIELDS[i].option;
    const char *best = parse_closest(arg, names, count, 3);
    if (best)
        return error_set(err, "unknown option '%s' (did you mean '%s'?)", arg, best);
    return error_set(err, "unknown option '%s' (see -help)", arg);
}

/* An option of the match's tables that the command does not take. */
static bool refused(const char *arg, const ArgumentsCommand *command, Error *err) {
    return error_set(err, "%s: not taken here, as %s", arg, command->makes);
}

/* A command's own option: its value handed over. */
static bool parse_own(Parse *p, int *i, const ArgumentsOwn *own, Error *err) {
    if (*i + 1 >= p->argc)
        return error_set(err, "%s needs %s", own->option, own->value);
    return own->take(p->context, p->argv[++*i], err);
}

static bool parse_option(Parse *p, int *i, Error *err) {
    const char *arg = p->argv[*i];
    const ArgumentsCommand *command = p->command;
    for (size_t k = 0; command && k < command->own_count; k++)
        if (!strcmp(arg, command->own[k].option))
            return parse_own(p, i, &command->own[k], err);
    for (size_t k = 0; k < SPECIAL_COUNT; k++)
        if (!strcmp(arg, SPECIAL_OPTIONS[k].option))
            return taken(p, SPECIAL_OPTIONS[k].traits)
                       ? SPECIAL_OPTIONS[k].parse(p, i, err)
                       : refused(arg, command, err);
    for (size_t k = 0; k < SETTINGS_FIELD_COUNT; k++)
        if (!strcmp(arg, SETTINGS_FIELDS[k].option))
            return taken(p, SETTINGS_FIELDS[k].traits)
                       ? parse_field_option(p, i, &SETTINGS_FIELDS[k], err)
                       : refused(arg, command, err);
    if (arg[0] == '-')
        return unknown_option(p, arg, err);
    return error_set(err, "unexpected '%s' (options start with '-'; see -help)", arg);
}

/* The words of argv through the tables; p->engines and p->each hold the groups found. */
static bool parse_words(Parse *p, Error *err) {
    if (!p->engines || !p->each)
        return error_set(err, "out of memory");
    for (int i = 0; !p->exit_now && i < p->argc; i++)
        if (!parse_option(p, &i, err))
            return false;
    return true;
}

/* Makes the run's engines the ladder's: each engine given becomes NAME.1, NAME.2, ... with each
 * step's limit (engine_count becomes the steps times the engines given); a gauntlet (one seed)
 * makes every step one. */
static bool expand_ladder(MatchSettings *s, Error *err) {
    LadderSpec *ladder = &s->ladder;
    int given = s->engine_count;
    if (given * ladder->count > TOURNAMENT_RUN_ENGINES_MAX)
        return error_set(err,
                         "-ladder: %d steps of %d engines are %d engines, more than a run's %d",
                         ladder->count, given, given * ladder->count, TOURNAMENT_RUN_ENGINES_MAX);
    ladder->gauntlet = s->tournament == TOURNAMENT_GAUNTLET;
    ladder->candidates = given - 1;
    EngineSpec base[TOURNAMENT_RUN_ENGINES_MAX];
    memcpy(base, s->engines, sizeof base[0] * (size_t)given);
    for (int k = 0; k < ladder->count; k++)
        for (int e = 0; e < given; e++) {
            EngineSpec *spec = &s->engines[given * k + e];
            *spec = base[e];
            char word[LADDER_STEP_TEXT], *words[1] = {word};
            snprintf(word, sizeof word, "%s", ladder->limit[k]);
            if (!strncmp(word, "tc=", 3) || !strncmp(word, "st=", 3))
                spec->timing.tc = (TimeControl){0}; /* the step's clock replaces the engine's */
            if (!arguments_engine_words(spec, words, 1, err))
                return false;
            int written = snprintf(spec->name, sizeof spec->name, "%s.%d", base[e].name, k + 1);
            if (written < 0 || (size_t)written >= sizeof spec->name)
                return error_set(err,
                                 "-ladder: engine %s.%d: a ladder's engine names take up "
                                 "to %zu characters",
                                 base[e].name, k + 1, sizeof spec->name - 1);
        }
    s->engine_count = given * ladder->count;
    s->tournament = TOURNAMENT_LADDER;
    return true;
}

/* What only a gauntlet takes, said before any game (-sprt's kinds: settings_check). */
static bool check_tournament(const Parse *p, Error *err) {
    MatchSettings *s = p->settings;
    if (p->seeds_given && s->tournament != TOURNAMENT_GAUNTLET)
        return error_set(err, "-seeds: only a gauntlet has seeds (-tournament gauntlet)");
    if (s->ladder.count) { /* a ladder's steps are each a match, or each a gauntlet */
        if (s->tournament == TOURNAMENT_ROUNDROBIN)
            return error_set(err, "-ladder climbs with two engines or a gauntlet (-tournament "
                                  "gauntlet -seeds 1), not a roundrobin");
        if (s->tournament == TOURNAMENT_GAUNTLET && s->seeds != 1)
            return error_set(err, "-ladder with a gauntlet of %d seeds: each step tests its "
                                  "candidates against one seed (-seeds 1)",
                             s->seeds);
        if (s->tournament == TOURNAMENT_MATCH && s->engine_count != MATCH_ENGINES)
            return error_set(err, "-ladder climbs with two engines, not %d (give -tournament "
                                  "gauntlet -seeds 1 for candidates against one seed)",
                             s->engine_count);
        if (p->family_given && s->tournament != TOURNAMENT_GAUNTLET)
            return error_set(err, "-family: a ladder of two engines has one test a step, not a "
                                  "family (-tournament gauntlet -seeds 1 has one)");
        /* A step's family has Wald's bounds (family.h): no overshoot correction. */
        if (s->tournament == TOURNAMENT_GAUNTLET)
            s->sprt.overshoot = false;
        return expand_ladder(s, err);
    }
    if (p->family_given && !(s->tournament == TOURNAMENT_GAUNTLET && s->has_sprt))
        return error_set(err, "-family: only a gauntlet decided by SPRTs (-tournament gauntlet "
                              "-seeds 1 -sprt ...) has a family of tests");
    /* The family's levels are Wald's bounds (family.h), as the simulator measured them:
     * fishtest's overshoot correction is for one test. */
    if (s->tournament != TOURNAMENT_MATCH)
        s->sprt.overshoot = false;
    return true; /* -html and -plot: the runner refuses them, on a resume too */
}

/* -resume F alone: the run's settings are F's, so an option that decides its games or their
 * verdict is never ignored. The table's are marked to be checked against the file's values
 * (settings_merge_resume: the same value is no change, another is refused); the engines, the
 * SPRT and the kind of run are refused here. -rounds may extend the run; the session's
 * options (-concurrency, -quiet, -out, -pgnout, -html, -recover, -allow-engine-change)
 * apply. */
static bool check_resume_options(const Parse *p, Error *err) {
    for (int i = 0; i < p->argc; i++) {
        const char *arg = p->argv[i];
        bool decides = false;
        for (size_t k = 0; k < SPECIAL_COUNT; k++)
            decides |= SPECIAL_OPTIONS[k].decides && !strcmp(arg, SPECIAL_OPTIONS[k].option);
        for (size_t k = 0; k < SETTINGS_FIELD_COUNT && k < 64; k++) {
            const SettingsField *f = &SETTINGS_FIELDS[k];
            if (!(f->traits & SETTINGS_DECIDES_RESULTS) || !strcmp(f->key, "rounds") ||
                strcmp(arg, f->option))
                continue;
            /* A group's field: its key among the words after, or the group's first key given
             * alone (-tb, -openings FILE). */
            int end = group_end(p->argc, p->argv, i + 1);
            bool first = k == 0 || strcmp(SETTINGS_FIELDS[k - 1].option, f->option);
            bool given =
                !f->group_key ||
                (first && (end == i + 1 || (end == i + 2 && !strchr(p->argv[i + 1], '='))));
            for (int j = i + 1; !given && j < end; j++)
                given = !strncmp(p->argv[j], f->group_key, strlen(f->group_key)) &&
                        p->argv[j][strlen(f->group_key)] == '=';
            if (given)
                p->settings->resume_given |= (uint64_t)1 << k;
        }
        if (decides)
            return error_set(err,
                             "%s with -resume: a resumed run keeps the engines, test and kind "
                             "its file records (its pairs so far were played with them): give "
                             "the whole command line, or start a new run to change %s",
                             arg, arg);
    }
    return true;
}

bool arguments_parse(int argc, char **argv, MatchSettings *s, bool *exit_now, Error *err) {
    settings_init(s);
    Parse p = {.argc = argc,
               .argv = argv,
               .settings = s,
               .engines = calloc((size_t)argc + 1, sizeof(Group)),
               .each = calloc((size_t)argc + 1, sizeof(Group))};
    bool ok = parse_words(&p, err);
    *exit_now = p.exit_now;
    if (ok && !p.exit_now && s->resume_path[0] && p.engine_count == 0)
        ok = check_resume_options(&p, err);
    if (ok && !p.exit_now && !(s->resume_path[0] && p.engine_count == 0)) {
        ok = build_engines(argv, p.engines, p.engine_count, p.each, p.each_count, s, err);
        if (ok)
            ok = check_tournament(&p, err);
        if (ok && !s->has_sprt && !p.rounds_given && !s->ladder.count)
            ok = error_set(err, "give -rounds N, -sprt, or both");
        if (ok)
            ok = settings_resolve_book(s, err);
        if (ok)
            ok = settings_check(s, err);
    }
    free(p.engines);
    free(p.each);
    return ok;
}

bool arguments_parse_command(const ArgumentsCommand *command, void *context, int argc,
                             char **argv, MatchSettings *s, bool *exit_now, Error *err) {
    settings_init(s);
    Parse p = {.command = command,
               .context = context,
               .argc = argc,
               .argv = argv,
               .settings = s,
               .engines = calloc((size_t)argc + 1, sizeof(Group)),
               .each = calloc((size_t)argc + 1, sizeof(Group))};
    bool ok = parse_words(&p, err);
    *exit_now = p.exit_now;
    for (int e = 0; ok && !p.exit_now && e < MATCH_ENGINES; e++) {
        EngineSpec *spec = &s->engines[e];
        *spec = engine_spec_default();
        snprintf(spec->name, sizeof spec->name, "%s", command->engine_names[e]);
        ok = apply_each(spec, argv, p.each, p.each_count, err);
        /* Only the match measures a speed before its first game. */
        if (ok && spec->timing.measured.on)
            ok = error_set(err, "-each nodestime=auto: only a match measures an engine's speed "
                                "before its first game; give nodestime=N here (a match with "
                                "nodestime=auto prints the number it measures)");
    }
    if (ok && !p.exit_now && taken(&p, settings_field("book")->traits))
        ok = settings_resolve_book(s, err);
    free(p.engines);
    free(p.each);
    return ok;
}

void arguments_command_usage(const ArgumentsCommand *command, FILE *out) {
    fputs(command->usage, out);
    char list[512];
    TextBuf buf = textbuf(list, sizeof list);
    textbuf_printf(&buf, "  The match's options it takes (abtest -help says what they do):");
    const Parse p = {.command = command};
    for (size_t i = 0; i < SPECIAL_COUNT; i++)
        if (taken(&p, SPECIAL_OPTIONS[i].traits) && SPECIAL_OPTIONS[i].usage &&
            *SPECIAL_OPTIONS[i].usage && strcmp(SPECIAL_OPTIONS[i].option, "-help"))
            textbuf_printf(&buf, " %s", SPECIAL_OPTIONS[i].option);
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++) {
        const SettingsField *f = &SETTINGS_FIELDS[i]; /* a group: its first key's row */
        bool first = !f->group_key || i == 0 || strcmp(SETTINGS_FIELDS[i - 1].option, f->option);
        if (taken(&p, f->traits) && *f->help && first)
            textbuf_printf(&buf, " %s", f->option);
    }
    /* Wrapped at word boundaries, continued 4 columns in. */
    const char *rest = list;
    for (bool more = false; *rest; more = true) {
        int width = more ? USAGE_WIDTH - 4 : USAGE_WIDTH, take = (int)strlen(rest);
        if (take > width)
            for (take = width; take > 0 && rest[take] != ' ';)
                take--;
        fprintf(out, "%s%.*s\n", more ? "    " : "", take, rest);
        rest += take;
        while (*rest == ' ')
            rest++;
    }
}

bool arguments_engine_words(EngineSpec *spec, char **words, int count, Error *err) {
    return apply_words(spec, words, count, false, spec->name, err);
}

bool arguments_main_job(MatchSettings *s, Error *err) {
    char *argv[sizeof MAIN_JOB / sizeof MAIN_JOB[0]];
    for (size_t i = 0; i < sizeof MAIN_JOB / sizeof MAIN_JOB[0]; i++)
        argv[i] = (char *)MAIN_JOB[i]; /* read, never written */
    bool exit_now;
    return arguments_parse((int)(sizeof MAIN_JOB / sizeof MAIN_JOB[0]), argv, s, &exit_now, err);
}
