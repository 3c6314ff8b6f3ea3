// SPDX-License-Identifier: MIT
#include "settings.h"

#include "ladder.h"

#include "cli.h"
#include "parse.h"
#include "paths.h"
#include "sprt_keys.h"
#include "tb_place_file.h"
#include "textbuf.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define FIELD(name) offsetof(MatchSettings, name)

/* -tb alone: the default tablebase (make tablebase). */
static bool default_tablebase(char *out, size_t size, Error *err) {
    return paths_tablebase(NULL, out, size, err);
}

/* -blunders alone: the placement layers' default directory (bench tbplace). */
static bool default_placement_dir(char *out, size_t size, Error *err) {
    return paths_data_target(TB_PLACE_DIR, out, size, err);
}

enum {
    DECIDES = SETTINGS_DECIDES_RESULTS,
    SESSION = SETTINGS_SESSION,
    REQUIRED = SETTINGS_REQUIRED,
    ALWAYS = SETTINGS_ECHO_ALWAYS,
    UNECHOED = SETTINGS_NOT_ECHOED,
    TUNE = SETTINGS_FOR_TUNE,
    BOOKTEST = SETTINGS_FOR_BOOKTEST,
    PLAYERS = SETTINGS_FOR_TUNE | SETTINGS_FOR_BOOKTEST, /* how any pair is played */
    LATER = SETTINGS_ADDED_LATER,
};

/* In usage and echo order. Outputs may move between sessions (a resumed copy writes to itself,
 * -out and -pgnout may relocate); what they hold is checked when they are opened. The tablebase
 * decides games: a resumed run must use the same one (its checksum is checked when it is
 * opened). */
const SettingsField SETTINGS_FIELDS[] = {
    {"book", "-openings", "file", FIELD_PATH, FIELD(book_path), 0, 0, 0, "F",
     "the book (default: " SETTINGS_DEFAULT_BOOK "; format=epd accepted)",
     DECIDES | REQUIRED | ALWAYS | TUNE, NULL},
    {"order", "-openings", "order", FIELD_ORDER, FIELD(order), 0, 0, ORDER_RANDOM,
     "random|sequential", "", DECIDES | ALWAYS | TUNE, NULL},
    {"start", "-openings", "start", FIELD_INT, FIELD(start), 1, 1 << 30, 1, "N", "",
     DECIDES | TUNE, NULL},
    {"randomplies", "-openings", "randomplies", FIELD_INT, FIELD(random_plies), 0, 200, 0, "K", "",
     DECIDES | TUNE, NULL},
    {"seed", "-srand", NULL, FIELD_SEED, FIELD(seed), 0, INT64_MAX, 20261129, "S",
     "seed of the book shuffle and random plies", DECIDES | ALWAYS | PLAYERS, NULL},
    {"rounds", "-rounds", NULL, FIELD_INT64, FIELD(rounds), 1, SETTINGS_UNBOUNDED_ROUNDS,
     SETTINGS_UNBOUNDED_ROUNDS, "N", "pairs to play (unbounded with -sprt)", DECIDES, NULL},
    {"maxmoves", "-maxmoves", NULL, FIELD_INT, FIELD(max_plies), 1, 100000, 300, "N",
     "plies before a game is adjudicated a draw", DECIDES | PLAYERS, NULL},
    {"tb", "-tb", "file", FIELD_PATH, FIELD(tb_path), 0, 0, 0, "F",
     "adjudicate each game by the tablebase when the sliding phase starts (-tb alone: the "
     "default file of make tablebase)",
     DECIDES | TUNE, default_tablebase},
    {"blunders", "-blunders", "dir", FIELD_PATH, FIELD(blunders_dir), 0, 0, 0, "DIR",
     "judge every move against perfect play where the game is solved: the sliding file (-tb's, "
     "or the default) and the placement layers of DIR (-blunders alone: bench tbplace's "
     "default); the games do not change",
     DECIDES | LATER, default_placement_dir},
    {"ratinginterval", "-ratinginterval", NULL, FIELD_INT, FIELD(rating_interval), 1, 1000000, 10,
     "N", "report and checkpoint every N pairs", DECIDES, NULL},
    {"concurrency", "-concurrency", NULL, FIELD_INT, FIELD(concurrency), 0, 256, 0, "N",
     "games in parallel (0, the default: one per core)", UNECHOED | PLAYERS, NULL},
    {"out", "-out", NULL, FIELD_PATH, FIELD(out_path), 0, 0, 0, "FILE.json",
     "results file (atomic, resumable; without it nothing is saved)", 0, NULL},
    {"pgnout", "-pgnout", "file", FIELD_PATH, FIELD(pgn_path), 0, 0, 0, "F", "game records", 0,
     NULL},
    {"plot", "-plot", "file", FIELD_PATH, FIELD(plot_path), 0, 0, 0, "F.png",
     "LLR and Elo against pairs (needs gnuplot)", 0, NULL},
    {"html", "-html", NULL, FIELD_PATH, FIELD(html_path), 0, 0, 0, "F.html",
     "the run as a web page (abtest report's), rewritten at every checkpoint; it reloads itself "
     "while the run is live",
     0, NULL},
    {"resume", "-resume", NULL, FIELD_PATH, FIELD(resume_path), 0, 0, 0, "FILE.json",
     "continue an interrupted run", SESSION | REQUIRED, NULL},
    {"quiet", "-quiet", NULL, FIELD_SWITCH, FIELD(quiet), 0, 0, false, NULL,
     "no per-game lines, status line or interval blocks", SESSION, NULL},
    {"recover", "-recover", NULL, FIELD_SWITCH, FIELD(recover), 0, 0, false, NULL,
     "an engine program that exits or stalls loses the game and is restarted (without: the "
     "run stops, saved)",
     SESSION | PLAYERS, NULL},
    {"allow-engine-change", "-allow-engine-change", NULL, FIELD_SWITCH,
     FIELD(allow_engine_change), 0, 0, false, NULL,
     "with -resume: go on although an engine program's bench or file changed since the run "
     "began (a deliberate rebuild; its games join the first build's)",
     SESSION, NULL},
    {"debug-stopafter", "-debug-stopafter", NULL, FIELD_INT, FIELD(debug_stop_after), 1,
     INT32_MAX, 0, "N", "", SESSION, NULL},
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

static size_t field_size(SettingsFieldType type) {
    switch (type) {
    case FIELD_INT:
    case FIELD_ORDER:
        return sizeof(int);
    case FIELD_INT64:
        return sizeof(int64_t);
    case FIELD_SEED:
        return sizeof(uint64_t);
    case FIELD_PATH:
        return SETTINGS_PATH_MAX;
    case FIELD_SWITCH:
        return sizeof(bool);
    }
    return 0;
}

/* Sets a number, an order or a switch without checks (defaults, and values already checked). */
static void set_number(const SettingsField *f, MatchSettings *s, int64_t number) {
    char *field = (char *)s + f->offset;
    if (f->type == FIELD_INT || f->type == FIELD_ORDER)
        *(int *)field = (int)number;
    else if (f->type == FIELD_INT64)
        *(int64_t *)field = number;
    else if (f->type == FIELD_SEED)
        *(uint64_t *)field = (uint64_t)number;
    else if (f->type == FIELD_SWITCH)
        *(bool *)field = number != 0;
}

bool settings_field_from_text(const SettingsField *f, MatchSettings *s, const char *text,
                              Error *err) {
    char *field = (char *)s + f->offset;
    char quoted[ERROR_EXCERPT_MAX], option[64];
    snprintf(option, sizeof option, "%s%s%s", f->option, f->group_key ? " " : "",
             f->group_key ? f->group_key : "");
    Error inner;
    int64_t number;
    switch (f->type) {
    case FIELD_INT:
    case FIELD_INT64:
    case FIELD_SEED:
        if (!parse_int64(text, f->min, f->max, &number, &inner))
            return error_set(err, "%s: %s", option, inner.text);
        set_number(f, s, number);
        return true;
    case FIELD_ORDER:
        for (int i = 0; i < 2; i++)
            if (!strcmp(text, ORDER_NAMES[i])) {
                set_number(f, s, i);
                return true;
            }
        return error_set(err, "%s: '%s' is not allowed (random|sequential)", option,
                         error_excerpt(text, quoted));
    case FIELD_SWITCH:
        if (strcmp(text, "on") && strcmp(text, "off"))
            return error_set(err, "%s: '%s' is not allowed (on|off)", option,
                             error_excerpt(text, quoted));
        set_number(f, s, !strcmp(text, "on"));
        return true;
    case FIELD_PATH:
        if (strlen(text) >= SETTINGS_PATH_MAX)
            return error_set(err, "%s: file name longer than %d characters", option,
                             SETTINGS_PATH_MAX - 1);
        if ((f->traits & SETTINGS_REQUIRED) && !*text)
            return error_set(err, "%s: the file name is empty", option);
        if (text[0] == '-')
            return error_set(err, "%s: '%s' looks like an option, not a file name", option,
                             error_excerpt(text, quoted));
        strcpy(field, text);
        return true;
    }
    return error_set(err, "%s: unknown type", option);
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
    case FIELD_SWITCH:
        snprintf(out, size, "%s", *(const bool *)field ? "on" : "off");
        return;
    case FIELD_PATH:
        snprintf(out, size, "%s", field);
        return;
    }
}

/* A number, an order or a switch as its row's fallback would be written. */
static int64_t number_of(const SettingsField *f, const MatchSettings *s) {
    const char *field = (const char *)s + f->offset;
    switch (f->type) {
    case FIELD_INT:
    case FIELD_ORDER:
        return *(const int *)field;
    case FIELD_INT64:
        return *(const int64_t *)field;
    case FIELD_SEED:
        return (int64_t)(*(const uint64_t *)field);
    case FIELD_SWITCH:
        return *(const bool *)field;
    case FIELD_PATH:
        break;
    }
    return 0;
}

/* Against the row itself: a path's default is "" (whatever bytes follow its end), a number's
 * its fallback. */
bool settings_field_is_default(const SettingsField *f, const MatchSettings *s) {
    if (f->type == FIELD_PATH)
        return ((const char *)s + f->offset)[0] == '\0';
    return number_of(f, s) == f->fallback;
}

void settings_init(MatchSettings *s) {
    memset(s, 0, sizeof *s);
    s->engine_count = MATCH_ENGINES; /* a match, its two engines not named yet */
    s->tournament = TOURNAMENT_MATCH;
    s->seeds = 1;
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++)
        if (SETTINGS_FIELDS[i].type != FIELD_PATH) /* paths default to "" */
            set_number(&SETTINGS_FIELDS[i], s, SETTINGS_FIELDS[i].fallback);
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

/* A ladder: its steps, its engines a step with the step's limit, and every step a test or
 * -rounds pairs. */
static bool check_ladder(const MatchSettings *s, Error *err) {
    Error inner;
    if (!ladder_check(&s->ladder, &inner))
        return error_set(err, "%s", inner.text);
    PairingList pairings;
    if (!ladder_pairings(&s->ladder, s->engine_count, &pairings, err))
        return false;
    for (int k = 0; k < s->ladder.count; k++) {
        SprtParams sprt;
        if (!ladder_step_sprt(&s->ladder, k, &s->sprt, s->has_sprt, &sprt) &&
            s->rounds >= SETTINGS_UNBOUNDED_ROUNDS)
            return error_set(err, "-ladder step %s has no test: give -sprt, a preset of its own "
                                  "(%s:gain-stc) or -rounds N",
                             s->ladder.limit[k], s->ladder.limit[k]);
    }
    return true;
}

bool settings_pairings(const MatchSettings *s, PairingList *out, Error *err) {
    if (s->tournament == TOURNAMENT_LADDER)
        return ladder_pairings(&s->ladder, s->engine_count, out, err);
    return tournament_pairings(s->tournament, s->engine_count, s->seeds, out, err);
}

bool settings_check(const MatchSettings *s, Error *err) {
    PairingList pairings;
    if (!settings_pairings(s, &pairings, err))
        return false;
    for (int e = 0; e < s->engine_count; e++) {
        const EngineSpec *spec = &s->engines[e];
        Error inner;
        if (!engine_spec_check_name(spec->name, &inner))
            return error_set(err, "engine %d: %s", e + 1, inner.text);
        if (!spec->config.depth && !spec->config.nodes && !spec->config.movetime &&
            !engine_has_clock(spec))
            return error_set(err, "engine %s has no limit: give tc=, st=, depth=, nodes= or "
                                  "movetime= (with -engine or -each)", spec->name);
        /* Here, not in one caller: a results file is held to it like a command line. */
        if (!engine_spec_check_kind(spec, err))
            return false;
    }
    for (int a = 0; a < s->engine_count; a++)
        for (int b = a + 1; b < s->engine_count; b++)
            if (!strcmp(s->engines[a].name, s->engines[b].name))
                return s->engine_count == 2
                           ? error_set(err, "the two engines need different names (both are %s)",
                                       s->engines[a].name)
                           : error_set(err, "engines %d and %d are both named %s: every engine "
                                            "needs its own name",
                                       a + 1, b + 1, s->engines[a].name);
    if (s->has_sprt && !sprt_params_check(&s->sprt, err)) {
        Error copy = *err;
        return error_set(err, "-sprt: %s", copy.text);
    }
    /* An SPRT tests one engine against another: in a tournament, each candidate of a gauntlet
     * against its one seed. */
    if (s->tournament == TOURNAMENT_LADDER)
        return check_ladder(s, err);
    if (s->has_sprt && s->tournament != TOURNAMENT_MATCH &&
        !(s->tournament == TOURNAMENT_GAUNTLET && s->seeds == 1))
        return error_set(err, "-sprt with -tournament %s: an SPRT tests a candidate against "
                              "one base, so a tournament takes -sprt only as -tournament "
                              "gauntlet -seeds 1",
                         s->tournament == TOURNAMENT_GAUNTLET ? "gauntlet -seeds 2 or more"
                                                              : "roundrobin");
    return true;
}

/* Whether the echoed command names the field: a recorded setting of the experiment, when it is
 * not at its default or always is. */
static bool echoed(const SettingsField *f, const MatchSettings *s) {
    if (f->traits & (SETTINGS_SESSION | SETTINGS_NOT_ECHOED))
        return false;
    return (f->traits & SETTINGS_ECHO_ALWAYS) || !settings_field_is_default(f, s);
}

void settings_engine_tokens(const EngineSpec *spec, TextBuf *buf) {
    SearchConfig defaults = config_default();
    textbuf_printf(buf, " -engine name=%s", spec->name);
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        char value[32], base[32];
        config_value_text(&spec->config, &CONFIG_OPTIONS[i], value);
        config_value_text(&defaults, &CONFIG_OPTIONS[i], base);
        if (strcmp(value, base))
            textbuf_printf(buf, " %s=%s", CONFIG_OPTIONS[i].name, value);
    }
    engine_spec_timing_tokens(&spec->timing, buf);
    engine_spec_program_tokens(&spec->program, buf);
}

void settings_command_line(const MatchSettings *s, char *out, size_t size) {
    TextBuf buf = textbuf(out, size);
    textbuf_printf(&buf, "%s", cli_program());
    bool ladder = s->tournament == TOURNAMENT_LADDER;
    bool family = s->tournament != TOURNAMENT_MATCH && (ladder ? s->ladder.gauntlet : s->has_sprt);
    for (int e = 0; e < (ladder ? ladder_width(&s->ladder) : s->engine_count); e++) {
        EngineSpec spec = s->engines[e]; /* a ladder's: as given, its first step's limit on it */
        if (ladder)
            ladder_base_name(s->engines[e].name, spec.name, sizeof spec.name);
        settings_engine_tokens(&spec, &buf);
    }
    if (ladder) {
        char steps[LADDER_STEPS_MAX * (LADDER_STEP_TEXT + LADDER_PRESET_TEXT) + 16];
        ladder_text(&s->ladder, steps, sizeof steps);
        textbuf_printf(&buf, "%s -ladder %s",
                       s->ladder.gauntlet ? " -tournament gauntlet -seeds 1" : "", steps);
    } else if (s->tournament != TOURNAMENT_MATCH)
        textbuf_printf(&buf, " -tournament %s", tournament_kind_name(s->tournament));
    if (s->tournament == TOURNAMENT_GAUNTLET)
        textbuf_printf(&buf, " -seeds %d", s->seeds);
    if (family)
        textbuf_printf(&buf, " -family %s", family_control_name(s->family));
    if (s->has_sprt) {
        textbuf_printf(&buf, " -sprt");
        sprt_params_tokens(&s->sprt, &buf);
    }
    const char *group = NULL; /* the group whose keys are being written */
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++) {
        const SettingsField *f = &SETTINGS_FIELDS[i];
        char value[SETTINGS_PATH_MAX];
        if (!echoed(f, s))
            continue;
        settings_field_text(f, s, value, sizeof value);
        if (f->type == FIELD_SWITCH) {
            textbuf_printf(&buf, " %s", f->option);
            group = NULL;
        } else if (!f->group_key) {
            textbuf_printf(&buf, " %s %s", f->option, value);
            group = NULL;
        } else {
            if (!group || strcmp(group, f->option))
                textbuf_printf(&buf, " %s", f->option);
            textbuf_printf(&buf, " %s=%s", f->group_key, value);
            group = f->option;
        }
    }
}

/* "roundrobin", "gauntlet -seeds 2", "match". */
static const char *tournament_text(const MatchSettings *s, char *out, size_t size) {
    if (s->tournament == TOURNAMENT_GAUNTLET)
        snprintf(out, size, "gauntlet -seeds %d", s->seeds);
    else
        snprintf(out, size, "%s", tournament_kind_name(s->tournament));
    return out;
}

bool settings_same_experiment(const MatchSettings *a, const MatchSettings *b, Error *err) {
    char differences[sizeof err->text];
    TextBuf buf = textbuf(differences, sizeof differences);
    if (a->tournament != b->tournament || a->seeds != b->seeds) {
        char x[48], y[48];
        textbuf_printf(&buf, " tournament (%s vs %s);", tournament_text(a, x, sizeof x),
                       tournament_text(b, y, sizeof y));
    }
    char steps_a[LADDER_STEPS_MAX * (LADDER_STEP_TEXT + LADDER_PRESET_TEXT) + 16],
        steps_b[sizeof steps_a];
    ladder_text(&a->ladder, steps_a, sizeof steps_a);
    ladder_text(&b->ladder, steps_b, sizeof steps_b);
    if (strcmp(steps_a, steps_b))
        textbuf_printf(&buf, " -ladder (%s vs %s);", steps_a[0] ? steps_a : "none",
                       steps_b[0] ? steps_b : "none");
    bool family = a->tournament == TOURNAMENT_LADDER ? a->ladder.gauntlet
                                                   : a->tournament != TOURNAMENT_MATCH &&
                                                         a->has_sprt && b->has_sprt;
    if (a->ladder.gauntlet != b->ladder.gauntlet)
        textbuf_printf(&buf, " -ladder of a %s vs of a %s;",
                       a->ladder.gauntlet ? "gauntlet" : "match",
                       b->ladder.gauntlet ? "gauntlet" : "match");
    if (family && a->family != b->family)
        textbuf_printf(&buf, " -family (%s vs %s);", family_control_name(a->family),
                       family_control_name(b->family));
    if (a->engine_count != b->engine_count)
        textbuf_printf(&buf, " engines (%d vs %d);", a->engine_count, b->engine_count);
    int engines = a->engine_count < b->engine_count ? a->engine_count : b->engine_count;
    for (int e = 0; e < engines; e++) {
        if (strcmp(a->engines[e].name, b->engines[e].name))
            textbuf_printf(&buf, " engine %d name (%s vs %s);", e + 1, a->engines[e].name,
                           b->engines[e].name);
        if (config_hash(&a->engines[e].config) != config_hash(&b->engines[e].config))
            textbuf_printf(&buf, " engine %s options;", a->engines[e].name);
        const char *key;
        if (!engine_spec_same_program(&a->engines[e].program, &b->engines[e].program, &key))
            textbuf_printf(&buf, " engine %s program (%s);", a->engines[e].name, key);
        if (!engine_spec_same_timing(&a->engines[e].timing, &b->engines[e].timing, &key))
            textbuf_printf(&buf, " engine %s timing (%s);", a->engines[e].name, key);
    }
    if (a->has_sprt != b->has_sprt || (a->has_sprt && !sprt_params_same(&a->sprt, &b->sprt)))
        textbuf_printf(&buf, " sprt;");
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++) {
        const SettingsField *f = &SETTINGS_FIELDS[i];
        char x[SETTINGS_PATH_MAX], y[SETTINGS_PATH_MAX];
        if (!(f->traits & SETTINGS_DECIDES_RESULTS))
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

/* -rounds on a resume (the unbounded default: not given): more pairs than the run was started
 * for is the one change a resume makes to what it plays. */
static bool rounds_on_resume(const MatchSettings *given, const MatchSettings *file, Error *err) {
    if (given->rounds == SETTINGS_UNBOUNDED_ROUNDS || given->rounds == file->rounds)
        return true;
    if (file->ladder.count)
        return error_set(err,
                         "-rounds %" PRId64 ": a ladder's -rounds is each step's pairs "
                         "(%" PRId64 "), and its steps are decided with it: it does not "
                         "change on a resume",
                         given->rounds, file->rounds);
    if (given->rounds < file->rounds)
        return error_set(err,
                         "-rounds %" PRId64 ": the run was started for %" PRId64 "; a "
                         "resume plays more pairs, never fewer",
                         given->rounds, file->rounds);
    return true;
}

/* The settings deciding results given with -resume alone (given->resume_given): the file's
 * value again is no change; another is refused, never ignored. */
static bool resume_values_same(const MatchSettings *given, const MatchSettings *file, Error *err) {
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT && i < 64; i++) {
        const SettingsField *f = &SETTINGS_FIELDS[i];
        char asked[SETTINGS_PATH_MAX], recorded[SETTINGS_PATH_MAX];
        if (!(given->resume_given >> i & 1))
            continue;
        settings_field_text(f, given, asked, sizeof asked);
        settings_field_text(f, file, recorded, sizeof recorded);
        if (!strcmp(asked, recorded))
            continue;
        char option[64];
        if (f->group_key)
            snprintf(option, sizeof option, "%s %s=", f->option, f->group_key);
        else
            snprintf(option, sizeof option, "%s ", f->option);
        return error_set(err,
                         "%s%.60s: the run was played with %s%.60s, and a resumed run keeps "
                         "the settings its file records (its pairs so far were played with "
                         "them): only -rounds (more pairs) and how the session runs "
                         "(-concurrency, -quiet, -out, -pgnout, -html, -recover) change; "
                         "start a new run to change %s",
                         option, asked, option, recorded, f->option);
    }
    return true;
}

bool settings_merge_resume(MatchSettings *given, const MatchSettings *file, int64_t pairs,
                           Error *err) {
    if (given->engines[0].name[0]) { /* the whole command line: the same experiment */
        int64_t asked = given->rounds;
        given->rounds = file->rounds;
        bool same = settings_same_experiment(given, file, err);
        given->rounds = asked;
        if (!same)
            return false;
    }
    if (!rounds_on_resume(given, file, err) || !resume_values_same(given, file, err))
        return false;
    int64_t rounds = given->rounds == SETTINGS_UNBOUNDED_ROUNDS ? file->rounds : given->rounds;
    if (given->pgn_path[0] && !file->pgn_path[0] && pairs > 0)
        return error_set(err, "-pgnout: the run kept no game records, so new ones would miss its "
                              "first %lld pairs",
                         (long long)pairs);
    MatchSettings merged = *file;
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++) {
        const SettingsField *f = &SETTINGS_FIELDS[i];
        bool from_command = (f->traits & SETTINGS_SESSION) ||
                            (!(f->traits & SETTINGS_DECIDES_RESULTS) &&
                             !settings_field_is_default(f, given));
        if (from_command)
            memcpy((char *)&merged + f->offset, (const char *)given + f->offset,
                   field_size(f->type));
    }
    merged.rounds = rounds;
    /* Without -out, the file resumed goes on (a copy writes to itself). */
    if (!given->out_path[0])
        strcpy(merged.out_path, given->resume_path);
    *given = merged;
    return true;
}

PairSetup settings_pair_setup(const MatchSettings *s, const struct Tablebase *tablebase) {
    PairingList pairings;
    Error unused;
    if (!settings_pairings(s, &pairings, &unused)) /* settings_check refuses such settings */
        pairings.count = 0;
    return (PairSetup){.pairings = pairings,
                       .segment = tournament_segment_all(pairings.count),
                       .max_plies = s->max_plies,
                       .random_plies = s->random_plies,
                       .seed = s->seed,
                       .recover = s->recover,
                       .tablebase = tablebase};
}

SprtParams settings_report_sprt(const MatchSettings *s) {
    return s->has_sprt ? s->sprt : sprt_params_default();
}

bool settings_reproducible(const MatchSettings *s) {
    for (int e = 0; e < s->engine_count; e++)
        if (engine_on_wall_time(&s->engines[e]))
            return false;
    return true;
}

#define USAGE_HELP_COLUMN 36 /* where -help's explanations start */
#define USAGE_HELP_WIDTH 58  /* and how wide they run (95 columns in all) */

/* A number whose default means a value, shown after its help: not 0 (which means "none" or
 * "automatic", and the help says what) and not the unbounded rounds. */
static bool shows_default(const SettingsField *f) {
    bool number = f->type == FIELD_INT || f->type == FIELD_INT64 || f->type == FIELD_SEED;
    return number && f->fallback != 0 && f->fallback != SETTINGS_UNBOUNDED_ROUNDS;
}

void settings_usage(FILE *out) {
    for (size_t i = 0; i < SETTINGS_FIELD_COUNT; i++) {
        const SettingsField *f = &SETTINGS_FIELDS[i];
        if (!*f->help)
            continue;
        char left[160];
        TextBuf buf = textbuf(left, sizeof left);
        textbuf_printf(&buf, "  %s", f->option);
        /* A group's keys: the first plain, the others in brackets. */
        for (size_t k = i; k < SETTINGS_FIELD_COUNT && f->group_key; k++) {
            const SettingsField *g = &SETTINGS_FIELDS[k];
            if (strcmp(g->option, f->option))
                break;
            textbuf_printf(&buf, k == i ? " %s=%s" : " [%s=%s]", g->group_key, g->value);
        }
        if (!f->group_key && f->value)
            textbuf_printf(&buf, " %s", f->value);
        if (strlen(left) >= USAGE_HELP_COLUMN - 1) {
            fprintf(out, "%s\n", left);
            left[0] = '\0';
        }
        /* The help, then a number's default from the row, wrapped at word boundaries into its
         * column. */
        char help_text[256];
        snprintf(help_text, sizeof help_text, "%s", f->help);
        if (shows_default(f))
            snprintf(help_text + strlen(help_text), sizeof help_text - strlen(help_text),
                     " (%lld)", (long long)f->fallback);
        const char *help = help_text;
        while (*help) {
            int take = (int)strlen(help);
            if (take > USAGE_HELP_WIDTH) {
                take = USAGE_HELP_WIDTH;
                while (take > 0 && help[take] != ' ')
                    take--;
            }
            fprintf(out, "%-*s %.*s\n", USAGE_HELP_COLUMN - 1, left, take, help);
            left[0] = '\0';
            help += take;
            while (*help == ' ')
                help++;
        }
    }
}
