// SPDX-License-Identifier: MIT
#include "run_summary.h"

#include "blunders.h"
#include "config.h"
#include "sprt_keys.h"
#include "textbuf.h"
#include "textfile.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUMMARY_MAX_BYTES ((size_t)64 << 20) /* as results_load: the trajectory is the bulk */
#define UNBOUNDED_ROUNDS 1e12 /* SETTINGS_UNBOUNDED_ROUNDS: "until the SPRT decides" */
#define CONFIG_WORDS 64

static const cJSON *member(const cJSON *object, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

static bool text_at(const cJSON *object, const char *key, char *out, size_t size, Error *err) {
    const cJSON *item = member(object, key);
    if (!cJSON_IsString(item))
        return error_set(err, "\"%s\" is missing or not a string", key);
    snprintf(out, size, "%s", item->valuestring);
    return true;
}

static bool real_at(const cJSON *object, const char *key, double *out, Error *err) {
    *out = 0; /* defined on failure too (-O3's inlining warns at the callers otherwise) */
    const cJSON *item = member(object, key);
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
        return error_set(err, "\"%s\" is missing or not a finite number", key);
    *out = item->valuedouble;
    return true;
}

/* A whole number in 0..2^53, as a results file's counts are. */
static bool count_at(const cJSON *object, const char *key, double *out, Error *err) {
    if (!real_at(object, key, out, err))
        return false;
    if (*out < 0 || *out > 9007199254740992.0 || *out != floor(*out))
        return error_set(err, "\"%s\" is %g: not a count", key, *out);
    return true;
}

/* [low, high] into two numbers. */
static bool interval_at(const cJSON *object, const char *key, double *low, double *high,
                        Error *err) {
    const cJSON *item = member(object, key);
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 2 ||
        !cJSON_IsNumber(cJSON_GetArrayItem(item, 0)) ||
        !cJSON_IsNumber(cJSON_GetArrayItem(item, 1)))
        return error_set(err, "\"%s\" is not a pair of numbers", key);
    *low = cJSON_GetArrayItem(item, 0)->valuedouble;
    *high = cJSON_GetArrayItem(item, 1)->valuedouble;
    return true;
}

/* The words "key=value" of a configuration's text, split in place. */
static int config_words(char *text, char *words[CONFIG_WORDS]) {
    int count = 0;
    char *save = NULL;
    for (char *word = strtok_r(text, " ", &save); word && count < CONFIG_WORDS;
         word = strtok_r(NULL, " ", &save))
        words[count++] = word;
    return count;
}

static const char *value_of(char *const words[], int count, const char *key, size_t key_length) {
    for (int i = 0; i < count; i++)
        if (!strncmp(words[i], key, key_length) && words[i][key_length] == '=')
            return words[i] + key_length + 1;
    return NULL;
}

static bool is_limit(const char *word, size_t key_length) {
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)key_length, word);
    const OptionSpec *spec = config_find(key);
    return spec && spec->kind == OPTION_KIND_LIMIT;
}

/* The engine's clock as words "tc=0.2+0.002", "nodestime=8750" (none without a clock), after
 * the configuration's words, so that limits and clocks are compared alike. */
static int clock_words(const cJSON *engine, char *storage, size_t size, char *words[], int count) {
    static const char *const keys[] = {"tc", "st", "nodestime"};
    size_t used = 0;
    for (size_t k = 0; k < sizeof keys / sizeof *keys && count < CONFIG_WORDS; k++) {
        const cJSON *item = member(engine, keys[k]);
        int n = 0;
        if (cJSON_IsString(item) && item->valuestring[0])
            n = snprintf(storage + used, size - used, "%s=%s", keys[k], item->valuestring);
        else if (cJSON_IsNumber(item) && item->valuedouble > 0)
            n = snprintf(storage + used, size - used, "%s=%.0f", keys[k], item->valuedouble);
        if (n <= 0 || (size_t)n >= size - used)
            continue;
        words[count++] = storage + used;
        used += (size_t)n + 1;
    }
    return count;
}

/* A program by its bench (the one given, else the one measured when the run began), its
 * command when it has neither, and its options; "in-process" for an engine of abtest's own. */
static void program_name(const cJSON *program, char *out, size_t size) {
    if (!cJSON_IsObject(program)) {
        snprintf(out, size, "in-process");
        return;
    }
    const cJSON *bench = member(program, "bench"), *seen = member(member(program, "seen"), "bench");
    const cJSON *signature = member(member(program, "seen"), "signature");
    const cJSON *cmd = member(program, "cmd"), *options = member(program, "options");
    TextBuf buf = textbuf(out, size);
    /* The bench signature tells two builds apart (as docs/abtest.md says); a program that prints
     * none is told by its bench count. */
    if (cJSON_IsString(signature) && signature->valuestring[0])
        textbuf_printf(&buf, "signature %.16s", signature->valuestring);
    else if (cJSON_IsNumber(bench) && bench->valuedouble > 0)
        textbuf_printf(&buf, "bench %.0f", bench->valuedouble);
    else if (cJSON_IsNumber(seen) && seen->valuedouble > 0)
        textbuf_printf(&buf, "bench %.0f", seen->valuedouble);
    else
        textbuf_printf(&buf, "%s", cJSON_IsString(cmd) ? cmd->valuestring : "a program");
    if (cJSON_IsString(options) && options->valuestring[0])
        textbuf_printf(&buf, " (%s)", options->valuestring);
}

static bool is_clock_or_limit(const char *word, size_t key_length) {
    static const char *const clock_keys[] = {"tc", "st", "nodestime"};
    for (size_t k = 0; k < sizeof clock_keys / sizeof *clock_keys; k++)
        if (strlen(clock_keys[k]) == key_length && !strncmp(word, clock_keys[k], key_length))
            return true;
    return is_limit(word, key_length);
}

/* What differs between the two engines, and the limits. Limits and clock keys both engines
 * share go to limits; a key whose value differs is written "key=A vs B" (A the first engine's,
 * "-" for a key one engine does not have); engine programs are told apart by their bench
 * signatures, their search options being their own. */
static void describe_engines(const cJSON *settings_engines, RunSummary *s) {
    char texts[2][2048], clocks[2][256], *words[2][CONFIG_WORDS];
    int counts[2];
    const cJSON *programs[2];
    for (int e = 0; e < 2; e++) {
        const cJSON *engine = cJSON_GetArrayItem(settings_engines, e);
        const cJSON *config = member(engine, "config");
        snprintf(texts[e], sizeof texts[e], "%s",
                 cJSON_IsString(config) ? config->valuestring : "");
        counts[e] = config_words(texts[e], words[e]);
        counts[e] = clock_words(engine, clocks[e], sizeof clocks[e], words[e], counts[e]);
        programs[e] = member(engine, "program");
    }
    TextBuf difference = textbuf(s->difference, sizeof s->difference);
    TextBuf limits = textbuf(s->limits, sizeof s->limits);
    bool any_program = cJSON_IsObject(programs[0]) || cJSON_IsObject(programs[1]);
    if (any_program) {
        char names[2][RUN_SUMMARY_TEXT];
        for (int e = 0; e < 2; e++)
            program_name(programs[e], names[e], sizeof names[e]);
        textbuf_printf(&difference, "%s vs %s", names[0], names[1]);
    }
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < counts[side]; i++) {
            const char *word = words[side][i], *equals = strchr(word, '=');
            if (!equals)
                continue;
            size_t key_length = (size_t)(equals - word);
            const char *other = value_of(words[1 - side], counts[1 - side], word, key_length);
            if (side == 1 && other)
                continue; /* compared from the first engine's side */
            bool same = other && !strcmp(other, equals + 1);
            bool limit = is_clock_or_limit(word, key_length);
            if (same && limit && strcmp(equals + 1, "0"))
                textbuf_printf(&limits, "%s%s", limits.used ? " " : "", word);
            else if (!same && (!any_program || limit))
                textbuf_printf(&difference, "%s%.*s=%s vs %s", difference.used ? ", " : "",
                               (int)key_length, word, side ? "-" : equals + 1,
                               side    ? equals + 1
                               : other ? other
                                       : "-");
        }
    if (!difference.used)
        textbuf_printf(&difference, "(none)");
}

static bool ptnml_at(const cJSON *json, RunSummary *s, Error *err) {
    const cJSON *item = member(json, "pentanomial");
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 5)
        return error_set(err, "\"pentanomial\" is not a list of 5 counts");
    double total = 0;
    for (int i = 0; i < 5; i++) {
        const cJSON *count = cJSON_GetArrayItem(item, i);
        double value = cJSON_IsNumber(count) ? count->valuedouble : -1;
        if (value < 0 || value != floor(value) || value > 9007199254740992.0)
            return error_set(err, "\"pentanomial\" holds something other than counts");
        s->ptnml[i] = (uint64_t)value;
        total += value;
    }
    if (total != (double)s->pairs)
        return error_set(err, "the pentanomial counts %.0f pairs, \"pairs\" says %lld", total,
                         (long long)s->pairs);
    return true;
}

static bool state_from(const cJSON *json, RunSummary *s, Error *err) {
    char state[RUN_SUMMARY_SHORT], decision[RUN_SUMMARY_SHORT] = "";
    if (!text_at(json, "state", state, sizeof state, err))
        return false;
    const cJSON *item = member(json, "decision");
    if (cJSON_IsString(item))
        snprintf(decision, sizeof decision, "%s", item->valuestring);
    if (!strcmp(state, "sprt")) {
        if (strcmp(decision, "H0") && strcmp(decision, "H1"))
            return error_set(err, "\"state\" is sprt but \"decision\" is '%s'", decision);
        snprintf(s->state, sizeof s->state, "%s", decision);
    } else if (!strcmp(state, "rounds") || !strcmp(state, "interrupted") ||
               !strcmp(state, "running")) {
        snprintf(s->state, sizeof s->state, "%s", state);
    } else {
        return error_set(err, "\"state\" is '%s' (running, sprt, rounds or interrupted)", state);
    }
    return true;
}

static bool sprt_from(const cJSON *json, RunSummary *s, Error *err) {
    const cJSON *settings = member(json, "settings"), *sprt = member(settings, "sprt");
    s->has_sprt = cJSON_IsObject(sprt);
    if (!s->has_sprt)
        return true;
    Error inner;
    if (!sprt_params_from_json(sprt, &s->sprt, &inner) ||
        !real_at(json, "llr", &s->llr, &inner) ||
        !real_at(json, "lower_bound", &s->lower, &inner) ||
        !real_at(json, "upper_bound", &s->upper, &inner))
        return error_set(err, "SPRT: %s", inner.text);
    s->has_corrected =
        real_at(json, "sprt_elo", &s->sprt_elo, &inner) &&
        interval_at(json, "sprt_elo_ci95", &s->sprt_elo_low, &s->sprt_elo_high, &inner);
    return true;
}

/* An engine's "blunders" (results.c's blunders_json), when the run judged its moves. */
static bool blunders_from(const cJSON *blunders, RunSummary *s, int e, Error *err) {
    if (!blunders)
        return true;
    s->has_blunders = true;
    for (int phase = 0; phase < GAME_PHASES; phase++) {
        const cJSON *counts = member(blunders, GAME_PHASE_KEYS[phase]);
        s->blunders_judged[e][phase] = s->blunders_lost[e][phase] = 0;
        for (int v = TB_VERDICT_KEPT; v < TB_VERDICTS; v++) {
            double count;
            Error inner;
            if (!count_at(counts, TB_VERDICT_KEYS[v], &count, &inner))
                return error_set(err, "engine %d: blunders: %s", e + 1, inner.text);
            s->blunders_judged[e][phase] += count;
            if (v != TB_VERDICT_KEPT)
                s->blunders_lost[e][phase] += count;
        }
    }
    return true;
}

bool run_summary_from_json(const cJSON *json, RunSummary *s, Error *err) {
    const char *file = s->file;
    memset(s, 0, sizeof *s);
    s->file = file;
    const cJSON *tool = member(json, "tool");
    if (!cJSON_IsObject(json) || !cJSON_IsString(tool) || strcmp(tool->valuestring, "tslab abtest"))
        return error_set(err, "not an abtest results file (no \"tool\": \"tslab abtest\")");
    const cJSON *settings = member(json, "settings");
    const cJSON *engines = member(json, "engines");
    const cJSON *settings_engines = member(settings, "engines");
    if (!cJSON_IsArray(engines) || cJSON_GetArraySize(engines) != 2 ||
        !cJSON_IsArray(settings_engines) || cJSON_GetArraySize(settings_engines) != 2)
        return error_set(err, "\"engines\" is not a list of two engines");
    for (int e = 0; e < 2; e++) {
        const cJSON *engine = cJSON_GetArrayItem(engines, e);
        Error ignored;
        if (!text_at(engine, "name", s->engines[e], sizeof s->engines[e], err))
            return false;
        real_at(engine, "average_depth", &s->depth[e], &ignored);
        real_at(engine, "average_nodes_per_move", &s->nodes_per_move[e], &ignored);
        if (!blunders_from(member(engine, "blunders"), s, e, err))
            return false;
    }
    double pairs = 0, rounds = 0, seconds = 0;
    if (!state_from(json, s, err) || !count_at(json, "pairs", &pairs, err) ||
        !real_at(json, "elo", &s->elo, err) ||
        !interval_at(json, "elo_ci95", &s->elo_low, &s->elo_high, err) ||
        !real_at(json, "nelo", &s->nelo, err) ||
        !interval_at(json, "nelo_ci95", &s->nelo_low, &s->nelo_high, err) ||
        !text_at(json, "started", s->started, sizeof s->started, err) ||
        !real_at(json, "seconds", &seconds, err) || !sprt_from(json, s, err))
        return false;
    s->pairs = (int64_t)pairs;
    s->seconds = seconds;
    if (!ptnml_at(json, s, err))
        return false;
    Error ignored;
    if (count_at(settings, "rounds", &rounds, &ignored) && rounds < UNBOUNDED_ROUNDS)
        s->rounds = (int64_t)rounds;
    text_at(json, "updated", s->updated, sizeof s->updated, &ignored);
    text_at(json, "commit", s->commit, sizeof s->commit, &ignored);
    text_at(member(json, "build"), "source", s->source, sizeof s->source, &ignored);
    text_at(json, "version", s->version, sizeof s->version, &ignored);
    text_at(json, "command", s->command, sizeof s->command, &ignored);
    const cJSON *book = member(json, "book");
    if (!text_at(book, "path", s->book, sizeof s->book, &ignored))
        snprintf(s->book, sizeof s->book, "?");
    describe_engines(settings_engines, s);
    return true;
}

bool run_summary_load(const char *path, RunSummary *s, Error *err) {
    memset(s, 0, sizeof *s);
    s->file = path;
    char *text;
    size_t length;
    if (!textfile_read(path, SUMMARY_MAX_BYTES, true, &text, &length, err))
        return false;
    cJSON *json = cJSON_ParseWithLength(text, length);
    free(text);
    if (!json)
        return error_set(err, "not JSON");
    bool ok = run_summary_from_json(json, s, err);
    cJSON_Delete(json);
    return ok;
}

bool run_summary_is_tournament(const cJSON *json) {
    return cJSON_IsObject(member(json, "tournament"));
}

/* The rating list as the file holds it (rating.engines, strongest first). */
static bool rating_from(const cJSON *rating, TournamentSummary *t, Error *err) {
    t->rated = cJSON_IsObject(rating);
    if (!t->rated)
        return cJSON_IsNull(rating) ? true : error_set(err, "\"rating\" is not an object");
    Error inner;
    if (!text_at(rating, "anchor", t->anchor, sizeof t->anchor, &inner))
        return error_set(err, "rating: %s", inner.text);
    const cJSON *engines = member(rating, "engines");
    if (!cJSON_IsArray(engines) || cJSON_GetArraySize(engines) != t->engine_count)
        return error_set(err, "rating: \"engines\" is not a list of the %d engines",
                         t->engine_count);
    for (int i = 0; i < t->engine_count; i++) {
        const cJSON *item = cJSON_GetArrayItem(engines, i);
        RatedEngine *e = &t->rating[i];
        double pairs;
        if (!text_at(item, "name", e->name, sizeof e->name, &inner) ||
            !real_at(item, "elo", &e->elo, &inner) ||
            !real_at(item, "elo_low", &e->elo_low, &inner) ||
            !real_at(item, "elo_high", &e->elo_high, &inner) ||
            !real_at(item, "nelo", &e->nelo, &inner) || !count_at(item, "pairs", &pairs, &inner) ||
            !real_at(item, "score", &e->score, &inner) ||
            !real_at(item, "draw_ratio", &e->draw_ratio, &inner))
            return error_set(err, "rating, engine %d: %s", i + 1, inner.text);
        e->pairs = (int64_t)pairs;
        const double figures[] = {e->elo,  e->elo_low, e->elo_high,
                                  e->nelo, e->score,   e->draw_ratio};
        for (size_t k = 0; k < sizeof figures / sizeof figures[0]; k++)
            if (!run_summary_plausible(figures[k])) { /* no list is better than a wrong one */
                t->rated = false;
                snprintf(t->rating_failure, sizeof t->rating_failure,
                         "the file's rating holds a figure no run can have (%g, engine %s): "
                         "edited or damaged",
                         figures[k], e->name);
                return true;
            }
    }
    return true;
}

/* The run's own fields: the state ("decided": every candidate's SPRT ended), counts, times,
 * build, command, book; and the limits when every pairing has the same. */
static bool tournament_run_from(const cJSON *json, TournamentSummary *t, Error *err) {
    RunSummary *s = &t->run;
    char state[RUN_SUMMARY_SHORT];
    double pairs = 0;
    if (!text_at(json, "state", state, sizeof state, err) || !count_at(json, "pairs", &pairs, err) ||
        !text_at(json, "started", s->started, sizeof s->started, err) ||
        !real_at(json, "seconds", &s->seconds, err))
        return false;
    if (strcmp(state, "sprt") && strcmp(state, "rounds") && strcmp(state, "interrupted") &&
        strcmp(state, "running"))
        return error_set(err, "\"state\" is '%s' (running, sprt, rounds or interrupted)", state);
    snprintf(s->state, sizeof s->state, "%s", strcmp(state, "sprt") ? state : "decided");
    s->pairs = (int64_t)pairs;
    Error ignored;
    text_at(json, "updated", s->updated, sizeof s->updated, &ignored);
    text_at(json, "commit", s->commit, sizeof s->commit, &ignored);
    text_at(member(json, "build"), "source", s->source, sizeof s->source, &ignored);
    text_at(json, "version", s->version, sizeof s->version, &ignored);
    text_at(json, "command", s->command, sizeof s->command, &ignored);
    if (!text_at(member(json, "book"), "path", s->book, sizeof s->book, &ignored))
        snprintf(s->book, sizeof s->book, "?");
    snprintf(s->limits, sizeof s->limits, "%s", t->pairings[0].limits);
    for (int p = 1; p < t->pairing_count; p++)
        if (strcmp(t->pairings[p].limits, s->limits))
            snprintf(s->limits, sizeof s->limits, "per engine");
    return true;
}

/* A number, or NaN for null (a ladder step not played). */
bool run_summary_plausible(double value) { return isfinite(value) && fabs(value) < 1e9; }

/* A figure that may be null (NAN: a step not played, a slope not fitted). */
static bool number_or_null(const cJSON *object, const char *key, double *out, Error *err) {
    *out = NAN;
    return cJSON_IsNull(member(object, key)) || real_at(object, key, out, err);
}

/* An estimate and its interval that no run can have (an edited 1e308) are unknown together:
 * INFINITY, which every view shows as "?" and no chart draws. */
static void unknown_unless_plausible(double *estimate, double *low, double *high) {
    bool known = true;
    const double figures[] = {*estimate, *low, *high};
    for (int i = 0; i < 3; i++)
        known &= isnan(figures[i]) || run_summary_plausible(figures[i]);
    if (!known)
        *estimate = *low = *high = INFINITY;
}

/* One line of a ladder's "tournament.ladder": its steps' figures, slope and verdict. */
static bool ladder_line_from(const cJSON *line, TournamentSummary *t, LadderLine *out,
                             Error *err) {
    const cJSON *steps = member(line, "steps"), *slope = member(line, "slope");
    int count = cJSON_GetArraySize(steps);
    if (!cJSON_IsArray(steps) || count < 2 || count > RUN_SUMMARY_LADDER_STEPS ||
        !cJSON_IsObject(slope) || (t->ladder_steps && count != t->ladder_steps))
        return error_set(err, "\"tournament\": a ladder needs \"ladder\" with its steps and "
                              "slope");
    t->ladder_steps = count;
    for (int k = 0; k < count; k++) {
        const cJSON *step = cJSON_GetArrayItem(steps, k);
        if (!text_at(step, "limit", t->ladder_limit[k], sizeof t->ladder_limit[k], err) ||
            !real_at(step, "log2_size", &t->ladder_x[k], err) ||
            !number_or_null(step, "elo", &out->elo[k], err) ||
            !number_or_null(step, "elo_low", &out->low[k], err) ||
            !number_or_null(step, "elo_high", &out->high[k], err))
            return false;
        unknown_unless_plausible(&out->elo[k], &out->low[k], &out->high[k]);
    }
    if (!number_or_null(slope, "elo_per_doubling", &out->slope, err) ||
        !number_or_null(slope, "low", &out->slope_low, err) ||
        !number_or_null(slope, "high", &out->slope_high, err))
        return false;
    unknown_unless_plausible(&out->slope, &out->slope_low, &out->slope_high);
    out->has_slope = isfinite(out->slope);
    return text_at(line, "verdict", out->verdict, sizeof out->verdict, err);
}

/* A ladder engine's name as given: NAME of NAME.k. */
static void given_name(const char *name, char *out, size_t size) {
    const char *dot = strrchr(name, '.');
    snprintf(out, size, "%.*s", (int)(dot ? dot - name : (ptrdiff_t)strlen(name)), name);
}

/* A ladder's "tournament.ladder": a match's one line (its engines NAME.k: the first step's
 * two), or a gauntlet's "candidates", each with its engine and seed. */
static bool ladder_from(const cJSON *ladder, TournamentSummary *t, Error *err) {
    const cJSON *candidates = member(ladder, "candidates");
    if (!candidates) {
        LadderLine *line = &t->ladder_lines[0];
        t->ladder_line_count = 1;
        given_name(t->engines[0], line->first, sizeof line->first);
        given_name(t->engines[1], line->second, sizeof line->second);
        return ladder_line_from(ladder, t, line, err);
    }
    int count = cJSON_GetArraySize(candidates);
    if (!cJSON_IsArray(candidates) || count < 1 || count > RUN_SUMMARY_LADDER_LINES)
        return error_set(err, "\"tournament\": a gauntlet's ladder needs \"candidates\" (1 "
                              "to %d)",
                         RUN_SUMMARY_LADDER_LINES);
    t->ladder_gauntlet = true;
    t->ladder_line_count = count;
    for (int c = 0; c < count; c++) {
        const cJSON *item = cJSON_GetArrayItem(candidates, c);
        LadderLine *line = &t->ladder_lines[c];
        if (!text_at(item, "engine", line->first, sizeof line->first, err) ||
            !text_at(item, "seed", line->second, sizeof line->second, err) ||
            !ladder_line_from(item, t, line, err))
            return false;
    }
    return true;
}

bool tournament_summary_from_json(const cJSON *json, TournamentSummary *t, Error *err) {
    const char *file = t->run.file;
    memset(t, 0, sizeof *t);
    t->run.file = file;
    const cJSON *tool = member(json, "tool"), *tournament = member(json, "tournament");
    if (!cJSON_IsString(tool) || strcmp(tool->valuestring, "tslab abtest") ||
        !cJSON_IsObject(tournament))
        return error_set(err, "not an abtest tournament's results file");
    double seeds = 0;
    if (!text_at(tournament, "kind", t->kind, sizeof t->kind, err) ||
        !count_at(tournament, "seeds", &seeds, err))
        return false;
    t->seeds = (int)seeds;
    Error ignored;
    text_at(member(member(json, "settings"), "tournament"), "family", t->family, sizeof t->family,
            &ignored);
    const cJSON *engines = member(json, "engines");
    int count = cJSON_GetArraySize(engines);
    if (!cJSON_IsArray(engines) || count < 2 || count > RUN_SUMMARY_ENGINES)
        return error_set(err, "\"engines\" is not a list of 2 to %d engines", RUN_SUMMARY_ENGINES);
    t->engine_count = count;
    for (int e = 0; e < count; e++)
        if (!text_at(cJSON_GetArrayItem(engines, e), "name", t->engines[e], sizeof t->engines[e],
                     err))
            return false;
    const cJSON *pairings = member(tournament, "pairings");
    int pairing_count = cJSON_GetArraySize(pairings);
    if (!cJSON_IsArray(pairings) || pairing_count < 1 ||
        pairing_count > TOURNAMENT_PAIRINGS_MAX)
        return error_set(err, "\"pairings\" is not a list of pairings");
    if (!(t->pairings = calloc((size_t)pairing_count, sizeof *t->pairings)))
        return error_set(err, "out of memory");
    t->pairing_count = pairing_count;
    for (int p = 0; p < pairing_count; p++) {
        Error inner;
        t->pairings[p].file = file;
        if (!run_summary_from_json(cJSON_GetArrayItem(pairings, p), &t->pairings[p], &inner)) {
            tournament_summary_destroy(t);
            return error_set(err, "pairing %d: %s", p + 1, inner.text);
        }
    }
    const char *failure = cJSON_GetStringValue(member(tournament, "rating_failure"));
    snprintf(t->rating_failure, sizeof t->rating_failure, "%s", failure ? failure : "");
    if (!rating_from(member(tournament, "rating"), t, err) ||
        !tournament_run_from(json, t, err) ||
        (!strcmp(t->kind, "ladder") && !ladder_from(member(tournament, "ladder"), t, err))) {
        tournament_summary_destroy(t);
        return false;
    }
    return true;
}

void tournament_summary_destroy(TournamentSummary *t) {
    free(t->pairings);
    t->pairings = NULL;
    t->pairing_count = 0;
}
