// SPDX-License-Identifier: MIT
#include "results.h"

#include "report.h"
#include "sprt_report.h"
#include "version.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void totals_init(MatchTotals *t) {
    memset(t, 0, sizeof *t);
    t->sessions = 1;
}

void totals_free(MatchTotals *t) {
    free(t->trajectory);
    t->trajectory = NULL;
}

void totals_add_pair(MatchTotals *t, const PairRecord *pair) {
    t->pairs++;
    for (int g = 0; g < 2; g++) {
        const GameRecord *game = &pair->games[g];
        double score = match_first_score(game);
        Trinomial *side = &t->first_as[game->tigers_engine == 0];
        if (score == 1) {
            t->wdl.wins++;
            side->wins++;
        } else if (score == 0) {
            t->wdl.losses++;
            side->losses++;
        } else {
            t->wdl.draws++;
            side->draws++;
        }
        t->ends[game->end]++;
        t->plies += (uint64_t)game->plies;
        for (int e = 0; e < MATCH_ENGINES; e++) {
            t->engine[e].moves += game->engine[e].moves;
            t->engine[e].nodes += game->engine[e].nodes;
            t->engine[e].depth_sum += game->engine[e].depth_sum;
        }
    }
    double first = match_first_score(&pair->games[0]);
    switch (match_pair_half_points(pair)) {
    case 0: t->penta.ll++; break;
    case 1: t->penta.ld++; break;
    case 2: /* one point: a win and a loss, or two draws */
        if (first == 0.5)
            t->penta.dd++;
        else
            t->penta.wl++;
        break;
    case 3: t->penta.wd++; break;
    default: t->penta.ww++; break;
    }
}

SprtSample totals_sample(const MatchTotals *t) { return sprt_sample_pentanomial(&t->penta); }

static bool push_point(MatchTotals *t, TrajectoryPoint point) {
    if (t->trajectory_count == t->trajectory_capacity) {
        int capacity = t->trajectory_capacity ? 2 * t->trajectory_capacity : 64;
        TrajectoryPoint *grown = realloc(t->trajectory, sizeof *grown * (size_t)capacity);
        if (!grown)
            return false;
        t->trajectory = grown;
        t->trajectory_capacity = capacity;
    }
    t->trajectory[t->trajectory_count++] = point;
    return true;
}

bool totals_add_point(MatchTotals *t, const SprtParams *sprt, bool has_sprt) {
    SprtSample sample = totals_sample(t);
    SprtEstimate e = sprt_estimate(&sample);
    return push_point(t, (TrajectoryPoint){t->pairs, has_sprt ? sprt_llr(&sample, sprt) : 0,
                                           e.elo, e.elo_low, e.elo_high});
}

const char *results_state_name(RunState state) {
    static const char *const names[] = {"running", "sprt", "rounds", "interrupted"};
    return names[state];
}

static cJSON *wdl_json(const Trinomial *t) {
    cJSON *json = cJSON_CreateObject();
    cJSON_AddNumberToObject(json, "wins", (double)t->wins);
    cJSON_AddNumberToObject(json, "draws", (double)t->draws);
    cJSON_AddNumberToObject(json, "losses", (double)t->losses);
    return json;
}

cJSON *results_to_json(const MatchSettings *s, const MatchTotals *t, RunState state,
                       uint64_t book_hash, int book_positions, const char *command) {
    cJSON *json = cJSON_CreateObject();
    char now[CLI_UTC_TEXT_MAX], host[256];
    bool over = state == RUN_SPRT || state == RUN_ROUNDS;
    cJSON_AddStringToObject(json, "tool", "tslab abtest");
    cJSON_AddNumberToObject(json, "format", RESULTS_FORMAT);
    cJSON_AddStringToObject(json, "version", TSLAB_VERSION);
    cJSON_AddStringToObject(json, "commit", version_git_commit());
    cJSON_AddStringToObject(json, "host", cli_hostname(host, sizeof host));
    cJSON_AddStringToObject(json, "started", t->started);
    cJSON_AddStringToObject(json, "updated", cli_utc_now(now));
    if (over)
        cJSON_AddStringToObject(json, "ended", now);
    else
        cJSON_AddNullToObject(json, "ended");
    cJSON_AddStringToObject(json, "state", results_state_name(state));
    cJSON_AddNumberToObject(json, "pairs", (double)t->pairs);
    cJSON_AddNumberToObject(json, "games", 2.0 * (double)t->pairs);
    cJSON *penta = cJSON_AddArrayToObject(json, "pentanomial");
    const uint64_t cells[5] = {t->penta.ll, t->penta.ld, t->penta.wl + t->penta.dd, t->penta.wd,
                               t->penta.ww};
    for (int i = 0; i < 5; i++)
        cJSON_AddItemToArray(penta, cJSON_CreateNumber((double)cells[i]));
    cJSON *detail = cJSON_AddObjectToObject(json, "pentanomial_detail");
    cJSON_AddNumberToObject(detail, "LL", (double)t->penta.ll);
    cJSON_AddNumberToObject(detail, "LD", (double)t->penta.ld);
    cJSON_AddNumberToObject(detail, "WL", (double)t->penta.wl);
    cJSON_AddNumberToObject(detail, "DD", (double)t->penta.dd);
    cJSON_AddNumberToObject(detail, "WD", (double)t->penta.wd);
    cJSON_AddNumberToObject(detail, "WW", (double)t->penta.ww);
    cJSON_AddItemToObject(json, "wdl", wdl_json(&t->wdl));

    SprtSample sample = totals_sample(t);
    SprtParams params = s->has_sprt ? s->sprt : (SprtParams){0, 1, 0.05, 0.05, SPRT_MODEL_NORMALIZED};
    SprtReport report = sprt_report_make(&sample, &t->penta, &params);
    sprt_report_add_json(&report, json);
    if (!s->has_sprt) { /* no test: keep the estimates, drop the LLR */
        cJSON_ReplaceItemInObject(json, "llr", cJSON_CreateNull());
        cJSON_DeleteItemFromObject(json, "model");
    }
    /* The words of `abtest sprt -json`: "H0", "H1" or "continue"; null without an SPRT. */
    cJSON_ReplaceItemInObject(json, "decision",
                              s->has_sprt ? cJSON_CreateString(sprt_decision_name(t->decision))
                                          : cJSON_CreateNull());
    if (t->decision_pair)
        cJSON_AddNumberToObject(json, "decision_pair", (double)t->decision_pair);
    else
        cJSON_AddNullToObject(json, "decision_pair");
    cJSON_AddNumberToObject(json, "discarded_pairs", (double)t->discarded_pairs);
    cJSON_AddBoolToObject(json, "reproducible", settings_reproducible(s));
    cJSON_AddBoolToObject(json, "book_exhausted", t->book_exhausted);

    cJSON *engines = cJSON_AddArrayToObject(json, "engines");
    for (int e = 0; e < MATCH_ENGINES; e++) {
        const EngineMoveStats *m = &t->engine[e];
        char text[512];
        config_to_text(&s->engines[e].config, text, sizeof text);
        cJSON *engine = cJSON_CreateObject();
        cJSON_AddStringToObject(engine, "name", s->engines[e].name);
        cJSON_AddStringToObject(engine, "role", e ? "second" : "first");
        cJSON_AddStringToObject(engine, "config_text", text);
        char hash[17];
        snprintf(hash, sizeof hash, "%016" PRIx64, config_hash(&s->engines[e].config));
        cJSON_AddStringToObject(engine, "config_hash", hash);
        cJSON_AddItemToObject(engine, "config", report_config_json(&s->engines[e].config));
        cJSON_AddNumberToObject(engine, "moves", (double)m->moves);
        cJSON_AddNumberToObject(engine, "nodes", (double)m->nodes);
        cJSON_AddNumberToObject(engine, "depth_sum", (double)m->depth_sum);
        cJSON_AddNumberToObject(engine, "average_depth",
                                m->moves ? (double)m->depth_sum / (double)m->moves : 0);
        cJSON_AddNumberToObject(engine, "average_nodes_per_move",
                                m->moves ? (double)m->nodes / (double)m->moves : 0);
        cJSON_AddItemToArray(engines, engine);
    }
    cJSON_AddItemToObject(json, "first_as_tigers", wdl_json(&t->first_as[1]));
    cJSON_AddItemToObject(json, "first_as_sheep", wdl_json(&t->first_as[0]));
    cJSON *ends = cJSON_AddObjectToObject(json, "end_reasons");
    for (int r = GAME_END_CAPTURES; r < RESULTS_END_REASONS; r++)
        cJSON_AddNumberToObject(ends, game_end_name((GameEnd)r), (double)t->ends[r]);
    cJSON_AddNumberToObject(json, "plies", (double)t->plies);
    cJSON *trajectory = cJSON_AddArrayToObject(json, "trajectory");
    for (int i = 0; i < t->trajectory_count; i++) {
        const TrajectoryPoint *p = &t->trajectory[i];
        cJSON *point = cJSON_CreateObject();
        cJSON_AddNumberToObject(point, "pairs", (double)p->pairs);
        cJSON_AddNumberToObject(point, "llr", p->llr);
        cJSON_AddNumberToObject(point, "elo", p->elo);
        cJSON_AddNumberToObject(point, "elo_low", p->elo_low);
        cJSON_AddNumberToObject(point, "elo_high", p->elo_high);
        cJSON_AddItemToArray(trajectory, point);
    }
    cJSON_AddNumberToObject(json, "seconds", t->seconds);
    cJSON_AddNumberToObject(json, "sessions", t->sessions);
    cJSON *book = cJSON_AddObjectToObject(json, "book");
    char hex[17];
    snprintf(hex, sizeof hex, "%016" PRIx64, book_hash);
    cJSON_AddStringToObject(book, "path", s->book_path);
    cJSON_AddStringToObject(book, "hash", hex);
    cJSON_AddNumberToObject(book, "positions", book_positions);
    char seed[24]; /* text: a 64-bit seed does not survive a JSON number */
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)s->seed);
    cJSON_AddStringToObject(json, "seed", seed);
    cJSON_AddItemToObject(json, "settings", settings_to_json(s));
    cJSON_AddStringToObject(json, "command", command);
    cJSON *resume = cJSON_AddObjectToObject(json, "resume");
    cJSON_AddNumberToObject(resume, "next_pair", (double)t->pairs);
    cJSON_AddNumberToObject(resume, "pgn_bytes", (double)t->pgn_bytes);
    return json;
}

static bool number_at(const cJSON *json, const char *key, double *out, const char *path,
                      Error *err) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, key);
    if (!cJSON_IsNumber(item) || item->valuedouble < 0)
        return error_set(err, "%s: missing or bad number \"%s\"", path, key);
    *out = item->valuedouble;
    return true;
}

/* Any finite number (the trajectory's LLR and Elo can be negative). */
static bool signed_at(const cJSON *json, const char *key, double *out, const char *path,
                      Error *err) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, key);
    if (!cJSON_IsNumber(item))
        return error_set(err, "%s: trajectory: missing number \"%s\"", path, key);
    *out = item->valuedouble;
    return true;
}

static bool wdl_at(const cJSON *json, const char *key, Trinomial *out, const char *path,
                   Error *err) {
    const cJSON *object = cJSON_GetObjectItemCaseSensitive(json, key);
    double w = 0, d = 0, l = 0;
    if (!object || !number_at(object, "wins", &w, path, err) ||
        !number_at(object, "draws", &d, path, err) || !number_at(object, "losses", &l, path, err))
        return error_set(err, "%s: missing or bad \"%s\"", path, key);
    *out = (Trinomial){(uint64_t)w, (uint64_t)d, (uint64_t)l};
    return true;
}

static char *read_all(const char *path, Error *err) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        error_set(err, "%s: cannot open", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text) {
        size_t got = fread(text, 1, (size_t)size, f);
        text[got] = '\0';
    } else {
        error_set(err, "%s: out of memory", path);
    }
    fclose(f);
    return text;
}

bool results_load(const char *path, MatchSettings *s, MatchTotals *t, uint64_t *book_hash,
                  Error *err) {
    char *text = read_all(path, err);
    if (!text)
        return false;
    cJSON *json = cJSON_Parse(text);
    free(text);
    if (!json)
        return error_set(err, "%s: not valid JSON", path);
    totals_init(t);
    bool ok = false;
    double v = 0;
    const cJSON *detail = cJSON_GetObjectItemCaseSensitive(json, "pentanomial_detail");
    const cJSON *book = cJSON_GetObjectItemCaseSensitive(json, "book");
    const cJSON *resume = cJSON_GetObjectItemCaseSensitive(json, "resume");
    const cJSON *engines = cJSON_GetObjectItemCaseSensitive(json, "engines");
    const cJSON *ends = cJSON_GetObjectItemCaseSensitive(json, "end_reasons");
    const cJSON *settings = cJSON_GetObjectItemCaseSensitive(json, "settings");
    const char *hash = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(book, "hash"));
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(json, "format");
    if (!cJSON_IsNumber(format)) {
        error_set(err, "%s: not an abtest results file (no \"format\")", path);
        goto out;
    }
    if (format->valuedouble == 1) {
        error_set(err, "%s: results format 1, written by an older abtest that counted from the "
                       "second engine's side; this version counts from the first (the engine "
                       "under test, as fastchess does) and cannot resume it: start the "
                       "experiment again with the engine under test first", path);
        goto out;
    }
    if (format->valuedouble != RESULTS_FORMAT) {
        error_set(err, "%s: results format %g is not one this abtest reads (%d)", path,
                  format->valuedouble, RESULTS_FORMAT);
        goto out;
    }
    if (!detail || !book || !resume || !engines || !ends || !settings || !hash) {
        error_set(err, "%s: not an abtest results file (missing sections)", path);
        goto out;
    }
    if (!settings_from_json(settings, s, err))
        goto out;
    *book_hash = strtoull(hash, NULL, 16);
    uint64_t *cells[6] = {&t->penta.ll, &t->penta.ld, &t->penta.wl, &t->penta.dd, &t->penta.wd,
                          &t->penta.ww};
    static const char *const cell_names[6] = {"LL", "LD", "WL", "DD", "WD", "WW"};
    for (int i = 0; i < 6; i++) {
        if (!number_at(detail, cell_names[i], &v, path, err))
            goto out;
        *cells[i] = (uint64_t)v;
    }
    if (!number_at(json, "pairs", &v, path, err))
        goto out;
    t->pairs = (int64_t)v;
    if (!wdl_at(json, "wdl", &t->wdl, path, err) ||
        !wdl_at(json, "first_as_tigers", &t->first_as[1], path, err) ||
        !wdl_at(json, "first_as_sheep", &t->first_as[0], path, err))
        goto out;
    for (int r = GAME_END_CAPTURES; r < RESULTS_END_REASONS; r++) {
        if (!number_at(ends, game_end_name((GameEnd)r), &v, path, err))
            goto out;
        t->ends[r] = (uint64_t)v;
    }
    for (int e = 0; e < MATCH_ENGINES; e++) {
        const cJSON *engine = cJSON_GetArrayItem(engines, e);
        double moves = 0, nodes = 0, depth_sum = 0;
        if (!number_at(engine, "moves", &moves, path, err) ||
            !number_at(engine, "nodes", &nodes, path, err) ||
            !number_at(engine, "depth_sum", &depth_sum, path, err))
            goto out;
        t->engine[e] = (EngineMoveStats){(uint64_t)moves, (uint64_t)nodes, (uint64_t)depth_sum};
    }
    double pgn_bytes = 0, seconds = 0, sessions = 0, plies = 0;
    if (!number_at(json, "plies", &plies, path, err) ||
        !number_at(json, "seconds", &seconds, path, err) ||
        !number_at(json, "sessions", &sessions, path, err) ||
        !number_at(resume, "pgn_bytes", &pgn_bytes, path, err))
        goto out;
    t->plies = (uint64_t)plies;
    t->seconds = seconds;
    t->sessions = (int)sessions + 1;
    t->pgn_bytes = (uint64_t)pgn_bytes;
    const char *started = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "started"));
    snprintf(t->started, sizeof t->started, "%s", started ? started : "unknown");
    t->book_exhausted = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(json, "book_exhausted"));
    const cJSON *point;
    cJSON_ArrayForEach(point, cJSON_GetObjectItemCaseSensitive(json, "trajectory")) {
        TrajectoryPoint p;
        double pairs = 0;
        if (!number_at(point, "pairs", &pairs, path, err))
            goto out;
        p.pairs = (int64_t)pairs;
        if (!signed_at(point, "llr", &p.llr, path, err) ||
            !signed_at(point, "elo", &p.elo, path, err) ||
            !signed_at(point, "elo_low", &p.elo_low, path, err) ||
            !signed_at(point, "elo_high", &p.elo_high, path, err))
            goto out;
        if (!push_point(t, p)) {
            error_set(err, "%s: out of memory", path);
            goto out;
        }
    }
    ok = true;
out:
    cJSON_Delete(json);
    if (!ok)
        totals_free(t);
    return ok;
}
