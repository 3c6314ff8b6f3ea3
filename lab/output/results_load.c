// SPDX-License-Identifier: MIT
// Reading a results file back: every value is checked as the command line checks it, and the
// counts must agree with each other, so a hand-edited or damaged file is refused with the reason
// instead of crashing the run or resuming it with wrong numbers.
#include "results_load.h"

#include "ladder.h"
#include "results_check.h"

#include "json_read.h"
#include "settings_json.h"
#include "sprt_overshoot.h"
#include "textfile.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Counts above 2^53 do not survive a JSON number (a double); abtest's own saturate there. */
#define COUNT_MAX ((double)MATCH_COUNT_MAX)
/* A results file is small (the trajectory is the bulk: ~100 bytes a point). */
#define RESULTS_MAX_BYTES ((size_t)64 << 20)

static const char *const STATE_NAMES[] = {"running", "sprt", "rounds", "interrupted"};

/* A whole number in 0..2^53. */
static bool count_at(const cJSON *object, const char *key, uint64_t *out, Error *err) {
    *out = 0; /* defined on failure too: -O3's inlining otherwise warns at every caller */
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsNumber(item))
        return error_set(err, "\"%s\" is missing or not a number", key);
    double value = item->valuedouble;
    if (!isfinite(value) || value < 0 || value > COUNT_MAX || value != floor(value))
        return error_set(err, "\"%s\" is %g: a count must be a whole number >= 0", key, value);
    *out = (uint64_t)value;
    return true;
}

static bool real_at(const cJSON *object, const char *key, double *out, Error *err) {
    *out = 0; /* as in count_at */
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
        return error_set(err, "\"%s\" is missing or not a finite number", key);
    *out = item->valuedouble;
    return true;
}

static const cJSON *object_at(const cJSON *object, const char *key, Error *err) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsObject(item))
        error_set(err, "\"%s\" is missing or not an object", key);
    return cJSON_IsObject(item) ? item : NULL;
}

static bool wdl_at(const cJSON *json, const char *key, Trinomial *out, Error *err) {
    const cJSON *object = object_at(json, key, err);
    uint64_t w, d, l;
    Error inner;
    if (!object)
        return false;
    if (!count_at(object, "wins", &w, &inner) || !count_at(object, "draws", &d, &inner) ||
        !count_at(object, "losses", &l, &inner))
        return error_set(err, "%s: %s", key, inner.text);
    *out = (Trinomial){w, d, l};
    return true;
}

static bool same_wdl(const Trinomial *a, const Trinomial *b) {
    return a->wins == b->wins && a->draws == b->draws && a->losses == b->losses;
}

/* The counts agree with each other and with the settings. */
static bool totals_agree(const MatchTotals *t, const MatchSettings *s, Error *err) {
    const Pentanomial *p = &t->penta;
    if (p->ll + p->ld + p->wl + p->dd + p->wd + p->ww != (uint64_t)t->pairs)
        return error_set(err, "the pentanomial counts %" PRIu64 " pairs, \"pairs\" says %" PRId64,
                         p->ll + p->ld + p->wl + p->dd + p->wd + p->ww, t->pairs);
    Trinomial implied = sprt_pentanomial_wdl(p);
    if (!same_wdl(&implied, &t->wdl))
        return error_set(err, "\"wdl\" disagrees with the pentanomial (which implies W %" PRIu64
                              " D %" PRIu64 " L %" PRIu64 ")",
                         implied.wins, implied.draws, implied.losses);
    Trinomial sides = {t->first_as[0].wins + t->first_as[1].wins,
                       t->first_as[0].draws + t->first_as[1].draws,
                       t->first_as[0].losses + t->first_as[1].losses};
    if (!same_wdl(&sides, &t->wdl))
        return error_set(err, "\"first_as_tigers\" and \"first_as_sheep\" do not add up to "
                              "\"wdl\"");
    uint64_t ends = 0;
    for (int r = GAME_END_CAPTURES; r < TOTALS_END_REASONS; r++)
        ends += t->ends[r];
    if (ends != 2 * (uint64_t)t->pairs)
        return error_set(err, "\"end_reasons\" count %" PRIu64 " games, not %" PRId64, ends,
                         2 * t->pairs);
    for (int r = GAME_END_TIME_FORFEIT; r < TOTALS_END_REASONS; r++)
        if (t->forfeits[0][r] + t->forfeits[1][r] != t->ends[r])
            return error_set(err, "the engines' \"%s\" do not add up to \"end_reasons\"",
                             results_forfeit_key((GameEnd)r));
    if (t->engine[0].moves + t->engine[1].moves != t->plies)
        return error_set(err, "the engines' moves do not add up to \"plies\"");
    if (t->plies > 2 * (uint64_t)t->pairs * (uint64_t)s->max_plies)
        return error_set(err, "\"plies\" is more than %" PRId64 " games of at most %d plies hold",
                         2 * t->pairs, s->max_plies);
    if (t->pairs > s->rounds)
        return error_set(err, "\"pairs\" (%" PRId64 ") is more than -rounds (%" PRId64 ")",
                         t->pairs, s->rounds);
    int64_t previous = 0;
    for (int i = 0; i < t->trajectory_count; i++) {
        if (t->trajectory[i].pairs < previous || t->trajectory[i].pairs > t->pairs)
            return error_set(err, "\"trajectory\" point %d is out of order", i + 1);
        previous = t->trajectory[i].pairs;
    }
    return true;
}

/* The overshoot correction's state (with -sprt overshoot=on): fed once per counted pair, so it
 * was last updated at the pair count; the ladders' sums have their signs. */
static bool overshoot_from_json(const cJSON *json, const MatchSettings *s, MatchTotals *t,
                                Error *err) {
    sprt_overshoot_init(&t->overshoot);
    if (!s->has_sprt || !s->sprt.overshoot)
        return true;
    const cJSON *state = object_at(json, "overshoot", err);
    if (!state)
        return false;
    SprtOvershoot *o = &t->overshoot;
    const cJSON *active = cJSON_GetObjectItemCaseSensitive(state, "active");
    uint64_t last, skipped;
    Error inner;
    if (!cJSON_IsBool(active) || !count_at(state, "last_update", &last, &inner) ||
        !count_at(state, "skipped_updates", &skipped, &inner))
        return error_set(err, "overshoot: %s", cJSON_IsBool(active) ? inner.text
                                                                     : "\"active\" must be true "
                                                                       "or false");
    double *sums[] = {&o->ref0, &o->m0, &o->sq0, &o->ref1, &o->m1, &o->sq1};
    for (int i = 0; i < 6; i++) {
        const char *key = RESULTS_OVERSHOOT_SUMS[i];
        const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(state, key));
        char *end = NULL;
        *sums[i] = text ? strtod(text, &end) : 0;
        if (!text || !*text || *end || !isfinite(*sums[i]))
            return error_set(err, "overshoot: \"%s\" must be a finite number written as text",
                             key);
    }
    o->active = cJSON_IsTrue(active);
    o->last_update = (int64_t)last;
    o->skipped_updates = (int64_t)skipped;
    if (o->active && o->last_update != t->pairs)
        return error_set(err, "overshoot: updated at %" PRId64 " pairs, the file counts %" PRId64,
                         o->last_update, t->pairs);
    if (o->m0 > 0 || o->sq0 < 0 || o->m1 < 0 || o->sq1 < 0)
        return error_set(err, "overshoot: m0 must be <= 0 and m1, sq0, sq1 >= 0");
    return true;
}

static bool state_from_json(const cJSON *json, RunState *out, Error *err) {
    const char *state = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "state"));
    for (int i = 0; state && i < 4; i++)
        if (!strcmp(state, STATE_NAMES[i])) {
            *out = (RunState)i;
            return true;
        }
    return error_set(err, "\"state\" must be running, sprt, rounds or interrupted");
}

/* The decision and the state agree with each other and with the counts. */
static bool decision_agrees(const cJSON *json, const MatchSettings *s, ResultsFile *file,
                            Error *err) {
    MatchTotals *t = &file->totals;
    if (!state_from_json(json, &file->state, err))
        return false;
    const cJSON *decision = cJSON_GetObjectItemCaseSensitive(json, "decision");
    const char *word = cJSON_GetStringValue(decision);
    if (!s->has_sprt) {
        if (!cJSON_IsNull(decision))
            return error_set(err, "\"decision\" must be null in a run without -sprt");
        t->decision = SPRT_CONTINUE;
    } else if (word && !strcmp(word, "H0")) {
        t->decision = SPRT_H0;
    } else if (word && !strcmp(word, "H1")) {
        t->decision = SPRT_H1;
    } else if (word && !strcmp(word, "continue")) {
        t->decision = SPRT_CONTINUE;
    } else {
        return error_set(err, "\"decision\" must be H0, H1 or continue");
    }
    const cJSON *pair = cJSON_GetObjectItemCaseSensitive(json, "decision_pair");
    uint64_t decided_at = 0;
    if (t->decision != SPRT_CONTINUE) {
        Error inner;
        if (!count_at(json, "decision_pair", &decided_at, &inner))
            return error_set(err, "%s", inner.text);
        /* Nothing is counted after a decision. */
        if (decided_at != (uint64_t)t->pairs || file->state != RUN_SPRT)
            return error_set(err, "the decision (at pair %" PRIu64 ", state %s) disagrees with "
                                  "%" PRId64 " pairs counted",
                             decided_at, STATE_NAMES[file->state], t->pairs);
    } else if (!cJSON_IsNull(pair) || file->state == RUN_SPRT) {
        return error_set(err, "\"decision_pair\" or \"state\" says the SPRT decided, "
                              "\"decision\" says it did not");
    }
    t->decision_pair = (int64_t)decided_at;
    if (!overshoot_from_json(json, s, t, err))
        return false;
    if (file->state == RUN_ROUNDS && t->pairs != s->rounds)
        return error_set(err, "state \"rounds\" with %" PRId64 " of %" PRId64 " pairs",
                         t->pairs, s->rounds);
    return true;
}

static bool trajectory_from_json(const cJSON *json, MatchTotals *t, Error *err) {
    const cJSON *points = cJSON_GetObjectItemCaseSensitive(json, "trajectory");
    if (!cJSON_IsArray(points))
        return error_set(err, "\"trajectory\" is missing or not an array");
    const cJSON *point;
    int index = 0;
    cJSON_ArrayForEach(point, points) {
        TrajectoryPoint p;
        uint64_t pairs;
        Error inner;
        index++;
        if (!count_at(point, "pairs", &pairs, &inner) || !real_at(point, "llr", &p.llr, &inner) ||
            !real_at(point, "elo", &p.elo, &inner) ||
            !real_at(point, "elo_low", &p.elo_low, &inner) ||
            !real_at(point, "elo_high", &p.elo_high, &inner))
            return error_set(err, "trajectory point %d: %s", index, inner.text);
        p.pairs = (int64_t)pairs;
        if (!totals_push_point(t, p))
            return error_set(err, "out of memory");
    }
    return true;
}

/* What every results file counts of its run: pairs, plies, sessions, time, discarded pairs, end
 * reasons, the book's exhaustion, the start, where a resume goes on. */
static bool run_counts_from_json(const cJSON *json, MatchTotals *t, Error *err) {
    Error inner;
    /* -blunders: the layers the run judged (absent: not judging, or a tournament's pairing). */
    const cJSON *in_hand = cJSON_GetObjectItemCaseSensitive(json, "blunders_in_hand");
    if (in_hand && (!cJSON_IsNumber(in_hand) || !(in_hand->valuedouble >= 0) ||
                    in_hand->valuedouble > SHEEP_TOTAL ||
                    in_hand->valuedouble != (int)in_hand->valuedouble))
        return error_set(err, "\"blunders_in_hand\" must be a whole number 0..%d", SHEEP_TOTAL);
    t->blunders_in_hand = in_hand ? (int)in_hand->valuedouble : -1;

    const cJSON *ends = object_at(json, "end_reasons", err);
    if (!ends)
        return false;
    uint64_t pairs, sessions;
    if (!count_at(json, "pairs", &pairs, err) || !count_at(json, "plies", &t->plies, err) ||
        !count_at(json, "sessions", &sessions, err) ||
        !count_at(json, "discarded_pairs", (uint64_t *)&t->discarded_pairs, err) ||
        !real_at(json, "seconds", &t->seconds, err))
        return false;
    if (pairs > (uint64_t)SETTINGS_UNBOUNDED_ROUNDS || sessions < 1 || sessions > 1000000 ||
        t->seconds < 0)
        return error_set(err, "\"pairs\", \"sessions\" or \"seconds\" is out of range");
    t->pairs = (int64_t)pairs;
    t->sessions = (int)sessions + 1; /* this session */
    /* Files written before engines ran as processes have no forfeits, and those written before
     * the tablebase no tablebase adjudications: absent counts as 0. */
    for (int r = GAME_END_CAPTURES; r < TOTALS_END_REASONS; r++)
        if ((!(game_end_is_forfeit((GameEnd)r) || r == GAME_END_TABLEBASE) ||
             cJSON_GetObjectItemCaseSensitive(ends, game_end_name((GameEnd)r))) &&
            !count_at(ends, game_end_name((GameEnd)r), &t->ends[r], &inner))
            return error_set(err, "end_reasons: %s", inner.text);
    t->book_exhausted = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(json, "book_exhausted"));
    const char *started = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "started"));
    snprintf(t->started, sizeof t->started, "%s", started ? started : "unknown");
    const cJSON *resume = object_at(json, "resume", err);
    uint64_t next_pair;
    if (!resume || !count_at(resume, "next_pair", &next_pair, err) ||
        !count_at(resume, "pgn_bytes", &t->pgn_bytes, err))
        return false;
    if (next_pair != pairs)
        return error_set(err, "resume.next_pair (%" PRIu64 ") is not \"pairs\" (%" PRIu64 ")",
                         next_pair, pairs);
    return true;
}

/* -blunders: an engine's counts (blunders_json in results.c); a file without them judged none. */
static bool blunders_from_json(const cJSON *engine, BlunderTotals *b, int e, Error *err) {
    const cJSON *json = cJSON_GetObjectItemCaseSensitive(engine, "blunders");
    if (!json)
        return true;
    Error inner;
    for (int phase = 0; phase < GAME_PHASES; phase++) {
        const cJSON *counts = object_at(json, GAME_PHASE_KEYS[phase], err);
        if (!counts)
            return false;
        for (int v = 0; v < TB_VERDICTS; v++)
            if (TB_VERDICT_KEYS[v] &&
                !count_at(counts, TB_VERDICT_KEYS[v], &b->phase[e][phase].verdicts[v],
                          &inner))
                return error_set(err, "blunders: %s: %s", GAME_PHASE_KEYS[phase], inner.text);
    }
    const cJSON *games = object_at(json, "games_by_blunders", err);
    if (!games)
        return false;
    for (int bin = 0; bin < BLUNDER_GAME_BINS; bin++)
        if (!count_at(games, BLUNDER_GAME_KEYS[bin], &b->games[e][bin], &inner))
            return error_set(err, "blunders: games_by_blunders: %s", inner.text);
    return true;
}

/* A match's counts from its first engine's side: the pentanomial, W/D/L, the sides, each
 * engine's moves, nodes, times and forfeits, the trajectory. */
static bool counts_from_json(const cJSON *json, MatchTotals *t, Error *err) {
    Error inner;
    const cJSON *detail = object_at(json, "pentanomial_detail", err);
    const cJSON *engines = cJSON_GetObjectItemCaseSensitive(json, "engines");
    if (!detail || !run_counts_from_json(json, t, err))
        return false;
    uint64_t *cells[6] = {&t->penta.ll, &t->penta.ld, &t->penta.wl,
                          &t->penta.dd, &t->penta.wd, &t->penta.ww};
    static const char *const CELL_NAMES[6] = {"LL", "LD", "WL", "DD", "WD", "WW"};
    for (int i = 0; i < 6; i++)
        if (!count_at(detail, CELL_NAMES[i], cells[i], &inner))
            return error_set(err, "pentanomial_detail: %s", inner.text);
    if (!wdl_at(json, "wdl", &t->wdl, err) ||
        !wdl_at(json, "first_as_tigers", &t->first_as[1], err) ||
        !wdl_at(json, "first_as_sheep", &t->first_as[0], err))
        return false;
    if (!cJSON_IsArray(engines) || cJSON_GetArraySize(engines) != MATCH_ENGINES)
        return error_set(err, "\"engines\" must list two engines");
    for (int e = 0; e < MATCH_ENGINES; e++) {
        const cJSON *engine = cJSON_GetArrayItem(engines, e);
        EngineMoveStats *m = &t->engine[e];
        if (!count_at(engine, "moves", &m->moves, &inner) ||
            !count_at(engine, "nodes", &m->nodes, &inner) ||
            !count_at(engine, "depth_sum", &m->depth_sum, &inner))
            return error_set(err, "engine %d: %s", e + 1, inner.text);
        /* Files written before clocks have no times: none used. */
        if ((cJSON_GetObjectItemCaseSensitive(engine, "time_used_us") &&
             !count_at(engine, "time_used_us", &m->time_us, &inner)) ||
            (cJSON_GetObjectItemCaseSensitive(engine, "time_given_us") &&
             !count_at(engine, "time_given_us", &m->given_us, &inner)))
            return error_set(err, "engine %d: %s", e + 1, inner.text);
        for (int r = GAME_END_TIME_FORFEIT; r < TOTALS_END_REASONS; r++) {
            const char *key = results_forfeit_key((GameEnd)r);
            if (cJSON_GetObjectItemCaseSensitive(engine, key) &&
                !count_at(engine, key, &t->forfeits[e][r], &inner))
                return error_set(err, "engine %d: %s", e + 1, inner.text);
        }
        if (!blunders_from_json(engine, &t->blunders, e, &inner))
            return error_set(err, "engine %d: %s", e + 1, inner.text);
    }
    return trajectory_from_json(json, t, err);
}

/* The build, each engine's signature and the changes accepted on resume; a file written before
 * they were kept reads as an unknown build, nothing signed, nothing accepted. */
static bool provenance_from_json(const cJSON *json, int engine_count, MatchTotals *t,
                                 Error *err) {
    if (!provenance_build_from_json(cJSON_GetObjectItemCaseSensitive(json, "build"), &t->build,
                                    err))
        return false;
    const cJSON *engines = cJSON_GetObjectItemCaseSensitive(json, "engines");
    if (!cJSON_IsArray(engines) || cJSON_GetArraySize(engines) != engine_count)
        return error_set(err, "\"engines\" must list the %d engines of the settings",
                         engine_count);
    for (int e = 0; e < engine_count; e++) {
        Error inner;
        const cJSON *signature =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(engines, e), "signature");
        if (!provenance_signature_from_json(signature, &t->signatures[e], &inner))
            return error_set(err, "engine %d: %s", e + 1, inner.text);
    }
    return json_read_lines(json, "accepted_changes", t->accepted_changes,
                           sizeof t->accepted_changes, err);
}

static bool format_check(const cJSON *json, Error *err) {
    const char *tool = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "tool"));
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(json, "format");
    if (!tool || strcmp(tool, "tslab abtest") || !cJSON_IsNumber(format))
        return error_set(err, "not an abtest results file (no \"tool\" or \"format\")");
    if (format->valuedouble == 1)
        return error_set(err, "results format 1, written by an older abtest that counted from "
                              "the second engine's side; this version counts from the first "
                              "(the engine under test, as fastchess does) and cannot resume "
                              "it: start the experiment again with the engine under test first");
    if (format->valuedouble != RESULTS_FORMAT)
        return error_set(err, "results format %g is not one this abtest reads (%d)",
                         format->valuedouble, RESULTS_FORMAT);
    return true;
}

static bool book_from_json(const cJSON *json, ResultsFile *file, Error *err) {
    const cJSON *book = object_at(json, "book", err);
    if (!book)
        return false;
    const char *hash = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(book, "hash"));
    uint64_t positions;
    char *end = NULL;
    if (!hash || strlen(hash) != 16 || (file->book_hash = strtoull(hash, &end, 16), *end))
        return error_set(err, "book.hash must be 16 hexadecimal digits");
    if (!count_at(book, "positions", &positions, err) || positions < 1 || positions > INT32_MAX)
        return error_set(err, "book.positions must be a count of positions");
    file->book_positions = (int)positions;
    return true;
}

/* The counts of a match's file (its settings read). */
static bool match_from_json(const cJSON *json, ResultsFile *file, Error *err) {
    return book_from_json(json, file, err) && counts_from_json(json, &file->totals, err) &&
           provenance_from_json(json, MATCH_ENGINES, &file->totals, err) &&
           decision_agrees(json, &file->settings, file, err) &&
           totals_agree(&file->totals, &file->settings, err);
}

static bool same_signature(const EngineSignature *a, const EngineSignature *b) {
    return a->measured == b->measured && a->hash == b->hash && a->nodes == b->nodes;
}

/* Each engine entry of a pairing is its engine: the name of the pairing's engine in that
 * place, and the signature the run recorded for that engine (entries swapped would credit one
 * engine's moves, nodes and depth to the other). */
static bool pairing_engines_bound(const cJSON *json, const ResultsFile *file, int p,
                                  const MatchTotals *pairing, Error *err) {
    const TournamentTotals *t = &file->tournament;
    const Pairing engines = t->pairings.pairings[p];
    const int index[MATCH_ENGINES] = {engines.first, engines.second};
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(json, "engines");
    for (int e = 0; e < MATCH_ENGINES; e++) {
        const char *expected = t->settings[p].engines[e].name;
        const char *name = cJSON_GetStringValue(
            cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(list, e), "name"));
        if (!name || strcmp(name, expected))
            return error_set(err,
                             "pairing %d: engines[%d] is \"%.40s\", but the pairing's %s "
                             "engine is \"%s\"",
                             p + 1, e, name ? name : "(none)", e ? "second" : "first", expected);
        if (!same_signature(&pairing->signatures[e], &file->totals.signatures[index[e]]))
            return error_set(err,
                             "pairing %d: engines[%d] (%s) has another signature than the "
                             "run's engine %s: its counts are not that engine's",
                             p + 1, e, name, expected);
    }
    return true;
}

/* Pairing p of a tournament file, read as the match it is, into the tournament's totals: its
 * settings those of its two engines under the run's, its book the run's, its engine entries
 * bound to the run's engines. */
static bool pairing_from_json(const cJSON *json, ResultsFile *file, int p, ResultsFile *scratch,
                              Error *err) {
    TournamentTotals *t = &file->tournament;
    Error inner;
    memset(scratch, 0, sizeof *scratch);
    totals_init(&scratch->totals);
    /* Its settings first: a match's (no tournament inside a tournament), its two engines'. */
    bool ok = settings_from_json(cJSON_GetObjectItemCaseSensitive(json, "settings"),
                                 &scratch->settings, scratch->defaulted, &inner) ||
              error_set(err, "pairing %d: %s", p + 1, inner.text);
    ok = ok && (settings_same_experiment(&t->settings[p], &scratch->settings, &inner) ||
                error_set(err, "pairing %d: %s", p + 1, inner.text));
    ok = ok && (match_from_json(json, scratch, &inner) ||
                error_set(err, "pairing %d: %s", p + 1, inner.text));
    ok = ok && (scratch->book_hash == file->book_hash ||
                error_set(err, "pairing %d: its book is not the run's", p + 1));
    ok = ok && pairing_engines_bound(json, file, p, &scratch->totals, err);
    if (!ok) {
        totals_destroy(&scratch->totals);
        return false;
    }
    totals_destroy(&t->totals[p]);
    t->totals[p] = scratch->totals; /* owned by the tournament now */
    totals_init(&scratch->totals);
    return true;
}

/* The pairings' ends add up to the run's. */
static bool ends_agree(const uint64_t ends[], const MatchTotals *run, Error *err) {
    for (int r = 0; r < TOTALS_END_REASONS; r++)
        if (ends[r] != run->ends[r])
            return error_set(err, "the pairings' \"%s\" do not add up to the run's",
                             game_end_name((GameEnd)r));
    return true;
}

/* The run's counts are its pairings': pairs, plies and ends add up, and the pairs went round
 * the open pairings in turn (a pairing decided by its SPRT closed at the end of a round). */
static bool pairings_agree(const ResultsFile *file, Error *err) {
    const TournamentTotals *t = &file->tournament;
    const MatchTotals *run = &file->totals;
    int count = t->pairings.count, open = 0;
    int64_t pairs = 0, counts[TOURNAMENT_PAIRINGS_MAX];
    bool closed[TOURNAMENT_PAIRINGS_MAX];
    uint64_t plies = 0, ends[TOTALS_END_REASONS] = {0};
    for (int p = 0; p < count; p++) {
        const MatchTotals *pt = &t->totals[p];
        counts[p] = pt->pairs;
        closed[p] = pt->decision != SPRT_CONTINUE;
        open += !closed[p];
        pairs += pt->pairs;
        plies += pt->plies;
        for (int r = 0; r < TOTALS_END_REASONS; r++)
            ends[r] += pt->ends[r];
    }
    if (pairs != run->pairs || plies != run->plies)
        return error_set(err, "the pairings' pairs or plies do not add up to the run's");
    if (file->settings.tournament == TOURNAMENT_LADDER) /* its steps in turn, not in rounds */
        return ladder_counts_agree(&file->settings.ladder, t->totals, file->settings.rounds,
                                   file->state == RUN_SPRT || file->state == RUN_ROUNDS, err) &&
               ends_agree(ends, run, err);
    PairingSegment segment;
    Error inner;
    if (open > 0 && !tournament_segment_from_counts(count, counts, closed, &segment, &inner))
        return error_set(err, "the pairings' counts are not the schedule's: %s", inner.text);
    if ((open == 0) != (file->state == RUN_SPRT))
        return error_set(err, "state \"%s\" with %d of %d pairings open",
                         STATE_NAMES[file->state], open, count);
    for (int p = 0; p < count; p++)
        if (counts[p] > file->settings.rounds ||
            (file->state == RUN_ROUNDS && !closed[p] && counts[p] != file->settings.rounds))
            return error_set(err, "state \"%s\" with %" PRId64 " pairs of pairing %d (-rounds "
                                  "%" PRId64 ")",
                             STATE_NAMES[file->state], counts[p], p + 1, file->settings.rounds);
    return ends_agree(ends, run, err);
}

static bool tournament_from_json(const cJSON *json, ResultsFile *file, Error *err) {
    const MatchSettings *s = &file->settings;
    Error inner;
    if (!book_from_json(json, file, err) || !run_counts_from_json(json, &file->totals, err) ||
        !provenance_from_json(json, s->engine_count, &file->totals, err) ||
        !state_from_json(json, &file->state, err))
        return false;
    if (!tournament_totals_init(&file->tournament, s, &inner))
        return error_set(err, "settings: %s", inner.text);
    const cJSON *tournament = object_at(json, "tournament", err);
    const cJSON *list = tournament ? cJSON_GetObjectItemCaseSensitive(tournament, "pairings")
                                   : NULL;
    if (!tournament)
        return false;
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) != file->tournament.pairings.count)
        return error_set(err, "tournament: \"pairings\" must list its %d pairings",
                         file->tournament.pairings.count);
    ResultsFile *scratch = calloc(1, sizeof *scratch);
    if (!scratch)
        return error_set(err, "out of memory");
    bool ok = true;
    for (int p = 0; ok && p < file->tournament.pairings.count; p++)
        ok = pairing_from_json(cJSON_GetArrayItem(list, p), file, p, scratch, err);
    free(scratch);
    return ok && pairings_agree(file, err);
}

void results_file_destroy(ResultsFile *file) {
    totals_destroy(&file->totals);
    tournament_totals_destroy(&file->tournament);
}

bool results_load(const char *path, ResultsFile *file, Error *err) {
    char *text;
    size_t length;
    memset(file, 0, sizeof *file);
    totals_init(&file->totals);
    if (!textfile_read(path, RESULTS_MAX_BYTES, true, &text, &length, err))
        return false;
    bool ok = results_parse(text, length, path, file, err);
    free(text);
    return ok;
}

bool results_parse(const char *text, size_t length, const char *path, ResultsFile *file,
                   Error *err) {
    memset(file, 0, sizeof *file);
    totals_init(&file->totals);
    cJSON *json = cJSON_ParseWithLength(text, length);
    Error inner;
    bool ok = json != NULL;
    if (!ok)
        error_set(&inner, "not valid JSON");
    ok = ok && format_check(json, &inner);
    ok = ok && results_from_json(json, file, &inner);
    cJSON_Delete(json);
    if (!ok) {
        results_file_destroy(file);
        return error_set(err, "%s: %s", path, inner.text);
    }
    return true;
}

bool results_from_json(const cJSON *json, ResultsFile *file, Error *err) {
    memset(file, 0, sizeof *file);
    totals_init(&file->totals);
    bool ok = settings_from_json(cJSON_GetObjectItemCaseSensitive(json, "settings"),
                                 &file->settings, file->defaulted, err);
    if (ok)
        ok = file->settings.tournament != TOURNAMENT_MATCH ? tournament_from_json(json, file, err)
                                                           : match_from_json(json, file, err);
    /* Then every figure the counts give, recomputed (results_check.h). */
    if (ok)
        ok = results_check_derived(json, file, err);
    if (!ok)
        results_file_destroy(file);
    return ok;
}
