// SPDX-License-Identifier: MIT
#include "results.h"

#include "calibrate.h"
#include "ladder.h"

#include "describe.h"
#include "fnv.h"
#include "json_read.h"
#include "settings_json.h"
#include "sprt_overshoot.h"
#include "sprt_report.h"
#include "textbuf.h"
#include "version.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ranks of this session: how many, where, how much each delivered and how fast. */
static cJSON *session_json(const SessionRanks *session) {
    cJSON *json = cJSON_CreateObject();
    cJSON_AddNumberToObject(json, "count", session->count);
    if (session->fingerprint[0])
        cJSON_AddStringToObject(json, "fingerprint", session->fingerprint);
    else
        cJSON_AddNullToObject(json, "fingerprint");
    cJSON_AddNumberToObject(json, "session_seconds", session->seconds);
    cJSON_AddNumberToObject(json, "messages", (double)session->messages);
    cJSON_AddNumberToObject(json, "coordinator_busy_seconds", session->coordinator_seconds);
    cJSON *list = cJSON_AddArrayToObject(json, "ranks");
    for (int i = 0; i < session->count; i++) {
        const RankRecord *rank = &session->ranks[i];
        cJSON *item = cJSON_CreateObject();
        cJSON_AddNumberToObject(item, "rank", i);
        cJSON_AddStringToObject(item, "host", rank->host);
        cJSON_AddNumberToObject(item, "threads", rank->threads);
        cJSON_AddNumberToObject(item, "pairs", (double)rank->pairs);
        cJSON_AddNumberToObject(item, "pairs_per_second",
                                session->seconds > 0 ? (double)rank->pairs / session->seconds : 0);
        cJSON_AddItemToArray(list, item);
    }
    return json;
}

const char *const RESULTS_OVERSHOOT_SUMS[6] = {"ref0", "m0", "sq0", "ref1", "m1", "sq1"};

const char *results_forfeit_key(GameEnd end) {
    static const char *const keys[TOTALS_END_REASONS] = {
        [GAME_END_TIME_FORFEIT] = "time_losses",
        [GAME_END_DISCONNECT] = "disconnects",
        [GAME_END_STALL] = "stalls",
        [GAME_END_ILLEGAL_MOVE] = "illegal_moves",
    };
    return (unsigned)end < TOTALS_END_REASONS ? keys[end] : NULL;
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

/* An engine's configuration: config_text, config_hash and config. An in-process engine's is the
 * whole option table; a program's is what it was sent, its setoption words and its go's limits
 * (tslab's defaults, which the program does not have, would read as its settings). */
static void add_config(cJSON *engine, const EngineSpec *spec) {
    char text[PROGRAM_OPTIONS_MAX + 96], hash[17];
    if (!engine_is_program(spec)) {
        config_to_text(&spec->config, text, sizeof text);
        snprintf(hash, sizeof hash, "%016" PRIx64, config_hash(&spec->config));
        cJSON_AddStringToObject(engine, "config_text", text);
        cJSON_AddStringToObject(engine, "config_hash", hash);
        cJSON_AddItemToObject(engine, "config", describe_config_json(&spec->config));
        return;
    }
    TextBuf buf = textbuf(text, sizeof text);
    textbuf_printf(&buf, "%s", spec->program.options);
    const struct {
        const char *key;
        int64_t value;
    } limits[] = {{"depth", spec->config.depth},
                  {"nodes", spec->config.nodes},
                  {"movetime", spec->config.movetime}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (limits[i].value)
            textbuf_printf(&buf, "%s%s=%" PRId64, buf.used ? " " : "", limits[i].key,
                           limits[i].value);
    snprintf(hash, sizeof hash, "%016" PRIx64, fnv_bytes(FNV_OFFSET_BASIS, text, strlen(text)));
    cJSON_AddStringToObject(engine, "config_text", text);
    cJSON_AddStringToObject(engine, "config_hash", hash);
    cJSON *words = cJSON_AddObjectToObject(engine, "config");
    char copy[sizeof text];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *save, *word = strtok_r(copy, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
        char *equals = strchr(word, '=');
        if (!equals)
            continue;
        *equals = '\0';
        cJSON_DeleteItemFromObjectCaseSensitive(words, word); /* the last one sent counts */
        cJSON_AddStringToObject(words, word, equals + 1);
    }
}

/* What opens every results file: the tool, the build, the times, the state, the pairs. */
static cJSON *header_json(const MatchTotals *t, RunState state) {
    cJSON *json = cJSON_CreateObject();
    char now[CLI_UTC_TEXT_MAX], host[256];
    bool over = state == RUN_SPRT || state == RUN_ROUNDS;
    cJSON_AddStringToObject(json, "tool", "tslab abtest");
    cJSON_AddNumberToObject(json, "format", RESULTS_FORMAT);
    cJSON_AddStringToObject(json, "version", TSLAB_VERSION);
    cJSON_AddStringToObject(json, "commit", version_git_commit());
    cJSON_AddItemToObject(json, "build", provenance_build_to_json(&t->build));
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
    return json;
}

/* An engine's entry: its name, role, configuration and signature (its counts are the
 * caller's). */
static cJSON *engine_json(const EngineSpec *spec, const char *role,
                          const EngineSignature *signature) {
    cJSON *engine = cJSON_CreateObject();
    cJSON_AddStringToObject(engine, "name", spec->name);
    cJSON_AddStringToObject(engine, "role", role);
    add_config(engine, spec);
    cJSON_AddItemToObject(engine, "signature", provenance_signature_to_json(signature));
    return engine;
}

/* What closes every results file: time and sessions, the ranks, the book, the settings, the
 * command, and where a resume goes on. */
static void add_footer(cJSON *json, const MatchSettings *s, const MatchTotals *t,
                       uint64_t book_hash, int book_positions, const char *command) {
    cJSON_AddNumberToObject(json, "seconds", t->seconds);
    cJSON_AddNumberToObject(json, "sessions", t->sessions);
    cJSON_AddItemToObject(json, "ranks", session_json(&t->session));
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
    cJSON_AddItemToObject(json, "accepted_changes", json_lines(t->accepted_changes));
    cJSON *resume = cJSON_AddObjectToObject(json, "resume");
    cJSON_AddNumberToObject(resume, "next_pair", (double)t->pairs);
    cJSON_AddNumberToObject(resume, "pgn_bytes", (double)t->pgn_bytes);
}

/* -blunders: the layers judged, a fact of the run (a tournament's pairings leave it to the run's
 * own object). */
static void add_blunders_in_hand(cJSON *json, const MatchSettings *s, const MatchTotals *t) {
    if (s->blunders_dir[0] && t->blunders_in_hand >= 0)
        cJSON_AddNumberToObject(json, "blunders_in_hand", t->blunders_in_hand);
}

/* -blunders: an engine's moves judged against perfect play, per phase by verdict, and its games
 * by their number of blunders. */
static cJSON *blunders_json(const BlunderTotals *b, int e) {
    cJSON *json = cJSON_CreateObject();
    for (int phase = 0; phase < GAME_PHASES; phase++) {
        cJSON *counts = cJSON_AddObjectToObject(json, GAME_PHASE_KEYS[phase]);
        for (int v = 0; v < TB_VERDICTS; v++)
            if (TB_VERDICT_KEYS[v])
                cJSON_AddNumberToObject(counts, TB_VERDICT_KEYS[v],
                                        (double)b->phase[e][phase].verdicts[v]);
    }
    cJSON *games = cJSON_AddObjectToObject(json, "games_by_blunders");
    for (int bin = 0; bin < BLUNDER_GAME_BINS; bin++)
        cJSON_AddNumberToObject(games, BLUNDER_GAME_KEYS[bin], (double)b->games[e][bin]);
    return json;
}

cJSON *results_to_json(const MatchSettings *s, const MatchTotals *t, RunState state,
                       uint64_t book_hash, int book_positions, const char *command) {
    cJSON *json = header_json(t, state);
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
    SprtParams params = settings_report_sprt(s);
    SprtReport report = sprt_report_make(&sample, &t->penta, &params);
    sprt_report_add_json(&report, json);
    if (!s->has_sprt) { /* no test: keep the estimates, drop the LLR and the corrected Elo */
        cJSON_ReplaceItemInObject(json, "llr", cJSON_CreateNull());
        cJSON_ReplaceItemInObject(json, "sprt_elo", cJSON_CreateNull());
        cJSON_ReplaceItemInObject(json, "sprt_elo_ci95", cJSON_CreateNull());
        cJSON_ReplaceItemInObject(json, "sprt_los", cJSON_CreateNull());
        cJSON_DeleteItemFromObject(json, "model");
    }
    /* nodestime=auto: the speed ratio the run used, its interval, and how much Elo an error
     * within it is worth (calibrate.h), beside the Elo. */
    SpeedRatio ratio = calibrate_speed_ratio(&s->engines[0].timing, &s->engines[1].timing);
    if (ratio.known) {
        cJSON *speed = cJSON_AddObjectToObject(json, "speed_ratio");
        cJSON_AddNumberToObject(speed, "ratio", ratio.ratio);
        const double interval[2] = {ratio.low, ratio.high};
        cJSON_AddItemToObject(speed, "ci", cJSON_CreateDoubleArray(interval, 2));
        cJSON_AddNumberToObject(speed, "elo_worth", calibrate_elo_worth(&ratio));
    }
    /* The words of `abtest sprt -json`: "H0", "H1" or "continue"; null without an SPRT. */
    cJSON_ReplaceItemInObject(json, "decision",
                              s->has_sprt ? cJSON_CreateString(sprt_decision_name(t->decision))
                                          : cJSON_CreateNull());
    if (s->has_sprt && s->sprt.overshoot) {
        const SprtOvershoot *o = &t->overshoot;
        double o0, o1;
        sprt_overshoot_margins(o, &o0, &o1);
        cJSON *ladder = cJSON_AddObjectToObject(json, "overshoot");
        cJSON_AddBoolToObject(ladder, "active", o->active);
        cJSON_AddNumberToObject(ladder, "last_update", (double)o->last_update);
        cJSON_AddNumberToObject(ladder, "skipped_updates", (double)o->skipped_updates);
        /* The sums go on growing after a resume, so they are kept to the last bit: as text
         * with 17 significant digits (cJSON's numbers round-trip only to about 15). */
        const double sums[] = {o->ref0, o->m0, o->sq0, o->ref1, o->m1, o->sq1};
        for (int i = 0; i < 6; i++) {
            char exact[40];
            snprintf(exact, sizeof exact, "%.17g", sums[i]);
            cJSON_AddStringToObject(ladder, RESULTS_OVERSHOOT_SUMS[i], exact);
        }
        cJSON_AddNumberToObject(ladder, "o0", o0);
        cJSON_AddNumberToObject(ladder, "o1", o1);
    }
    if (t->decision_pair)
        cJSON_AddNumberToObject(json, "decision_pair", (double)t->decision_pair);
    else
        cJSON_AddNullToObject(json, "decision_pair");
    cJSON_AddNumberToObject(json, "discarded_pairs", (double)t->discarded_pairs);
    cJSON_AddBoolToObject(json, "reproducible", settings_reproducible(s));
    cJSON_AddBoolToObject(json, "book_exhausted", t->book_exhausted);

    add_blunders_in_hand(json, s, t);
    cJSON *engines = cJSON_AddArrayToObject(json, "engines");
    for (int e = 0; e < MATCH_ENGINES; e++) {
        const EngineMoveStats *m = &t->engine[e];
        cJSON *engine = engine_json(&s->engines[e], e ? "second" : "first", &t->signatures[e]);
        cJSON_AddNumberToObject(engine, "moves", (double)m->moves);
        cJSON_AddNumberToObject(engine, "nodes", (double)m->nodes);
        cJSON_AddNumberToObject(engine, "depth_sum", (double)m->depth_sum);
        cJSON_AddNumberToObject(engine, "average_depth",
                                m->moves ? (double)m->depth_sum / (double)m->moves : 0);
        cJSON_AddNumberToObject(engine, "average_nodes_per_move",
                                m->moves ? (double)m->nodes / (double)m->moves : 0);
        cJSON_AddNumberToObject(engine, "time_used_us", (double)m->time_us);
        cJSON_AddNumberToObject(engine, "time_given_us", (double)m->given_us);
        cJSON_AddNumberToObject(engine, "mean_time_per_move_ms",
                                m->moves ? (double)m->time_us / 1000.0 / (double)m->moves : 0);
        char tc[CLOCK_TEXT_MAX] = "";
        if (engine_has_clock(&s->engines[e]))
            clock_text(&s->engines[e].timing.tc, tc);
        cJSON_AddStringToObject(engine, "tc", tc);
        cJSON_AddNumberToObject(engine, "nodestime", (double)s->engines[e].timing.nodestime);
        for (int r = GAME_END_TIME_FORFEIT; r < TOTALS_END_REASONS; r++)
            cJSON_AddNumberToObject(engine, results_forfeit_key((GameEnd)r),
                                    (double)t->forfeits[e][r]);
        if (s->blunders_dir[0])
            cJSON_AddItemToObject(engine, "blunders", blunders_json(&t->blunders, e));
        cJSON_AddItemToArray(engines, engine);
    }
    cJSON_AddItemToObject(json, "first_as_tigers", wdl_json(&t->first_as[1]));
    cJSON_AddItemToObject(json, "first_as_sheep", wdl_json(&t->first_as[0]));
    cJSON *ends = cJSON_AddObjectToObject(json, "end_reasons");
    for (int r = GAME_END_CAPTURES; r < TOTALS_END_REASONS; r++)
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
    add_footer(json, s, t, book_hash, book_positions, command);
    return json;
}

cJSON *results_rating_json(const MatchSettings *s, const RatingList *list) {
    cJSON *json = cJSON_CreateObject();
    cJSON_AddStringToObject(json, "anchor", s->engines[list->anchor].name);
    cJSON_AddStringToObject(json, "model", "pair scores, quasi-likelihood; sandwich 95% intervals");
    cJSON_AddNumberToObject(json, "pooled_sigma", list->pooled_sigma);
    int order[RATING_ENGINES_MAX];
    tournament_rating_order(list, order);
    cJSON *engines = cJSON_AddArrayToObject(json, "engines");
    for (int rank = 0; rank < list->count; rank++) {
        const RatingEngine *e = &list->engines[order[rank]];
        cJSON *item = cJSON_CreateObject();
        cJSON_AddNumberToObject(item, "rank", rank + 1);
        cJSON_AddStringToObject(item, "name", s->engines[order[rank]].name);
        cJSON_AddNumberToObject(item, "elo", e->elo);
        cJSON_AddNumberToObject(item, "elo_low", e->elo_low);
        cJSON_AddNumberToObject(item, "elo_high", e->elo_high);
        cJSON_AddNumberToObject(item, "nelo", e->nelo);
        cJSON_AddNumberToObject(item, "nelo_low", e->nelo_low);
        cJSON_AddNumberToObject(item, "nelo_high", e->nelo_high);
        cJSON_AddNumberToObject(item, "pairs", (double)e->pairs);
        cJSON_AddNumberToObject(item, "score", e->score);
        cJSON_AddNumberToObject(item, "draw_ratio", e->draw_ratio);
        cJSON *los = cJSON_AddObjectToObject(item, "los");
        for (int other = 0; other < list->count; other++)
            if (other != order[rank])
                cJSON_AddNumberToObject(los, s->engines[other].name,
                                        rating_los(list, order[rank], other));
        cJSON_AddItemToArray(engines, item);
    }
    return json;
}

cJSON *results_tournament_to_json(const MatchSettings *s, const MatchTotals *t,
                                  TournamentTotals *pairings, const RatingList *rating,
                                  RunState state, uint64_t book_hash, int book_positions,
                                  const char *command) {
    cJSON *json = header_json(t, state);
    cJSON *tournament = cJSON_AddObjectToObject(json, "tournament");
    cJSON_AddStringToObject(tournament, "kind", tournament_kind_name(s->tournament));
    cJSON_AddNumberToObject(tournament, "seeds", s->seeds);
    cJSON_AddItemToObject(tournament, "rating",
                          rating ? results_rating_json(s, rating) : cJSON_CreateNull());
    Error why; /* a null rating of pairs enough: the fit's reason beside it */
    if (!rating && s->tournament != TOURNAMENT_LADDER &&
        tournament_totals_rating_failure(pairings, s->engine_count, &why))
        cJSON_AddStringToObject(tournament, "rating_failure", why.text);
    if (s->tournament == TOURNAMENT_LADDER) /* each step's figures, the slope, the verdict */
        cJSON_AddItemToObject(tournament, "ladder",
                              ladder_results_json(&s->ladder, pairings->totals, s->engines));
    cJSON *list = cJSON_AddArrayToObject(tournament, "pairings");
    tournament_totals_sync(pairings, t);
    for (int p = 0; p < pairings->pairings.count; p++) {
        const MatchTotals *pt = &pairings->totals[p];
        /* A pairing undecided when the run ended, or at its rounds (a ladder's step, the run
         * going on with the next), ended by its rounds. */
        bool ended = state == RUN_SPRT || state == RUN_ROUNDS || pt->pairs >= s->rounds;
        RunState own = pt->decision != SPRT_CONTINUE ? RUN_SPRT : ended ? RUN_ROUNDS : state;
        cJSON_AddItemToArray(list, results_to_json(&pairings->settings[p], pt, own, book_hash,
                                                   book_positions, command));
    }
    cJSON *engines = cJSON_AddArrayToObject(json, "engines");
    for (int e = 0; e < s->engine_count; e++) {
        const char *role = s->tournament == TOURNAMENT_GAUNTLET
                               ? (e < s->seeds ? "seed" : "candidate")
                               : (e == 0 ? "anchor" : "engine");
        cJSON_AddItemToArray(engines, engine_json(&s->engines[e], role, &t->signatures[e]));
    }
    cJSON *ends = cJSON_AddObjectToObject(json, "end_reasons");
    for (int r = GAME_END_CAPTURES; r < TOTALS_END_REASONS; r++)
        cJSON_AddNumberToObject(ends, game_end_name((GameEnd)r), (double)t->ends[r]);
    cJSON_AddNumberToObject(json, "plies", (double)t->plies);
    cJSON_AddNumberToObject(json, "discarded_pairs", (double)t->discarded_pairs);
    cJSON_AddBoolToObject(json, "reproducible", settings_reproducible(s));
    cJSON_AddBoolToObject(json, "book_exhausted", t->book_exhausted);
    add_blunders_in_hand(json, s, t);
    add_footer(json, s, t, book_hash, book_positions, command);
    return json;
}
