// SPDX-License-Identifier: MIT
#include "results_check.h"

#include "calibrate.h"
#include "family.h"
#include "ladder.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A figure recomputed from the counts matches the recorded one to this relative precision. The
 * same build writes and reads it back to the bit (json_text.h); another compiler or machine may
 * round the rating's fit differently in the last digits. An edit is far larger. */
#define RELATIVE_TOLERANCE 1e-9

/* The figures of a match's file (and of each pairing's) that come from its counts alone. Its
 * decision is checked apart: it is a history, not a function of the final counts alone. */
static const char *const MATCH_DERIVED[] = {
    "pentanomial", "games",      "llr",         "lower_bound", "upper_bound", "elo",
    "elo_ci95",    "nelo",       "nelo_ci95",   "los",         "sprt_elo",    "sprt_elo_ci95",
    "sprt_los",    "draw_ratio", "pairs_ratio", "speed_ratio", "overshoot",
};

static const char *const ENGINE_DERIVED[] = {"average_depth", "average_nodes_per_move",
                                             "mean_time_per_move_ms"};

/* The tournament's own: the joint rating and a ladder's steps, slope and verdict; and the
 * run's games. */
static const char *const TOURNAMENT_DERIVED[] = {"rating", "rating_failure", "ladder"};
static const char *const RUN_DERIVED[] = {"games"};

#define COUNT(array) (sizeof array / sizeof array[0])

static bool same_number(double a, double b) {
    double scale = fmax(1.0, fmax(fabs(a), fabs(b)));
    return a == b || fabs(a - b) <= RELATIVE_TOLERANCE * scale;
}

/* A value as a message quotes it: at most 60 characters. */
static void value_text(const cJSON *value, char *out, size_t size) {
    if (!value) {
        snprintf(out, size, "absent");
        return;
    }
    if (cJSON_IsNumber(value)) {
        snprintf(out, size, "%.17g", value->valuedouble);
        return;
    }
    char *text = cJSON_PrintUnformatted(value);
    snprintf(out, size, "%.60s%s", text ? text : "?", text && strlen(text) > 60 ? "..." : "");
    free(text);
}

/* recorded against computed at path: numbers to RELATIVE_TOLERANCE, objects key by key, arrays
 * item by item, anything else as text. */
static bool same_value(const cJSON *recorded, const cJSON *computed, const char *path, Error *err) {
    bool same;
    if (cJSON_IsNumber(recorded) && cJSON_IsNumber(computed)) {
        same = same_number(recorded->valuedouble, computed->valuedouble);
    } else if ((cJSON_IsObject(recorded) && cJSON_IsObject(computed)) ||
               (cJSON_IsArray(recorded) && cJSON_IsArray(computed))) {
        bool object = cJSON_IsObject(recorded);
        if (cJSON_GetArraySize(recorded) != cJSON_GetArraySize(computed))
            return error_set(err, "\"%s\" has %d entries, its counts give %d", path,
                             cJSON_GetArraySize(recorded), cJSON_GetArraySize(computed));
        const cJSON *a = recorded->child, *b = computed->child;
        for (int i = 0; a && b; a = a->next, b = b->next, i++) {
            char inner[256];
            const cJSON *match = object ? cJSON_GetObjectItemCaseSensitive(computed, a->string) : b;
            if (object)
                snprintf(inner, sizeof inner, "%s.%s", path, a->string ? a->string : "?");
            else
                snprintf(inner, sizeof inner, "%s[%d]", path, i);
            if (!match) {
                char what[80];
                value_text(a, what, sizeof what);
                return error_set(err, "\"%s\" is %s, which its counts do not give", inner, what);
            }
            if (!same_value(a, match, inner, err))
                return false;
        }
        return true;
    } else {
        char *x = cJSON_PrintUnformatted(recorded), *y = cJSON_PrintUnformatted(computed);
        same = x && y && !strcmp(x, y);
        free(x);
        free(y);
    }
    if (same)
        return true;
    char was[80], is[80];
    value_text(recorded, was, sizeof was);
    value_text(computed, is, sizeof is);
    return error_set(err, "\"%s\" is %s, but its counts give %s", path, was, is);
}

/* Each key of keys that the recorded object holds, against the computed one's (a key a file
 * from before it existed lacks is not there to check). */
static bool same_keys(const cJSON *recorded, const cJSON *computed, const char *prefix,
                      const char *const keys[], size_t count, Error *err) {
    for (size_t i = 0; i < count; i++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(recorded, keys[i]);
        if (!a)
            continue;
        char path[256];
        snprintf(path, sizeof path, "%s%s", prefix, keys[i]);
        if (!same_value(a, cJSON_GetObjectItemCaseSensitive(computed, keys[i]), path, err))
            return false;
    }
    return true;
}

/* A match's figures and its engines'. */
static bool match_figures_agree(const cJSON *recorded, const cJSON *computed, const char *prefix,
                                Error *err) {
    if (!same_keys(recorded, computed, prefix, MATCH_DERIVED, COUNT(MATCH_DERIVED), err))
        return false;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(recorded, "engines");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(computed, "engines");
    for (int e = 0; e < cJSON_GetArraySize(a) && e < cJSON_GetArraySize(b); e++) {
        char path[160];
        snprintf(path, sizeof path, "%sengines[%d].", prefix, e);
        if (!same_keys(cJSON_GetArrayItem(a, e), cJSON_GetArrayItem(b, e), path, ENGINE_DERIVED,
                       COUNT(ENGINE_DERIVED), err))
            return false;
    }
    return true;
}

/* A match's SPRT (a run's, or a ladder step's of two engines) is checked after every pair, so
 * its decision is the one its LLR and bounds give at its count: H0 or H1 when it crossed one,
 * continue when it did not. */
static bool match_decision_agrees(const MatchTotals *t, const MatchSettings *s, const char *where,
                                  Error *err) {
    if (!s->has_sprt)
        return true;
    SprtSample sample = totals_sample(t);
    double llr = sprt_llr(&sample, &s->sprt);
    SprtDecision expected = s->sprt.overshoot ? sprt_decide_corrected(llr, &s->sprt, &t->overshoot)
                                              : sprt_decide(llr, &s->sprt);
    if (expected == t->decision)
        return true;
    return error_set(err,
                     "%s\"decision\" is %s, but its counts give LLR %.4f against the bounds "
                     "[%.4f, %.4f]: %s",
                     where, sprt_decision_name(t->decision), llr, sprt_lower_bound(&s->sprt),
                     sprt_upper_bound(&s->sprt), sprt_decision_name(expected));
}

typedef struct {
    int pairing;
    double llr;
} Test;

static int by_llr_down(const void *x, const void *y) {
    double a = ((const Test *)x)->llr, b = ((const Test *)y)->llr;
    return (a < b) - (a > b);
}

static int by_llr_up(const void *x, const void *y) { return by_llr_down(y, x); }

/* The decisions of one side at a look (H1s highest LLR first, or H0s lowest first) each past
 * the bound of its level in the family's step-down. */
static bool side_reaches_its_levels(const Family *family, const Test decided[], int count, bool h1,
                                    int64_t pairs, FamilyControl control, Error *err) {
    for (int i = 0; i < count; i++) {
        double bound =
            h1 ? family_upper(family, family->h1 + i) : family_lower(family, family->h0 + i);
        if (h1 ? decided[i].llr >= bound : decided[i].llr <= bound)
            continue;
        return error_set(err,
                         "pairing %d: \"decision\" is %s at %" PRId64 " pairs, but its counts "
                         "give LLR %.4f, %s the bound %.4f of its level (%s)",
                         decided[i].pairing + 1, h1 ? "H1" : "H0", pairs, decided[i].llr,
                         h1 ? "below" : "above", bound, family_control_name(control));
    }
    return true;
}

/* A family of SPRTs (a gauntlet's, or a ladder step's gauntlet) replayed from its counts. Its
 * looks come at the ends of rounds, and a pairing decided at a look holds the pairs of that
 * round: so the looks are the decisions' pair counts, in order. At each, the H1s, highest LLR
 * first, must each reach the level the step-down gave it, and the H0s, lowest first, fall to
 * theirs; the decisions before it set the levels. Once every open test has played the same
 * rounds, a look has seen them all, and none may be past its bound. */
static bool family_agrees(const ResultsFile *file, const int pairings[], int count,
                          FamilyControl control, Error *err) {
    const TournamentTotals *tour = &file->tournament;
    const SprtParams *sprt = &tour->settings[pairings[0]].sprt;
    Family family;
    Test tests[FAMILY_TESTS_MAX];
    if (!family_init(&family, control, count, sprt->alpha, sprt->beta, err))
        return false;
    for (int i = 0; i < count; i++) {
        SprtSample sample = totals_sample(&tour->totals[pairings[i]]);
        tests[i] = (Test){pairings[i], sprt_llr(&sample, &tour->settings[pairings[i]].sprt)};
    }
    for (int64_t look = 0;;) {
        int64_t next = INT64_MAX;
        for (int i = 0; i < count; i++) {
            const MatchTotals *t = &tour->totals[tests[i].pairing];
            if (t->decision != SPRT_CONTINUE && t->decision_pair > look && t->decision_pair < next)
                next = t->decision_pair;
        }
        if (next == INT64_MAX)
            break;
        Test h1[FAMILY_TESTS_MAX], h0[FAMILY_TESTS_MAX];
        int n1 = 0, n0 = 0;
        for (int i = 0; i < count; i++) {
            const MatchTotals *t = &tour->totals[tests[i].pairing];
            if (t->decision != SPRT_CONTINUE && t->decision_pair == next)
                *(t->decision == SPRT_H1 ? &h1[n1++] : &h0[n0++]) = tests[i];
        }
        qsort(h1, (size_t)n1, sizeof *h1, by_llr_down);
        qsort(h0, (size_t)n0, sizeof *h0, by_llr_up);
        if (!side_reaches_its_levels(&family, h1, n1, true, next, control, err) ||
            !side_reaches_its_levels(&family, h0, n0, false, next, control, err))
            return false;
        family.h1 += n1;
        family.h0 += n0;
        look = next;
    }
    int64_t rounds = -1;
    bool level = true;
    for (int i = 0; i < count; i++) {
        const MatchTotals *t = &tour->totals[tests[i].pairing];
        if (t->decision == SPRT_CONTINUE) {
            level = level && (rounds < 0 || rounds == t->pairs);
            rounds = t->pairs;
        }
    }
    for (int i = 0; level && rounds > 0 && i < count; i++) {
        const MatchTotals *t = &tour->totals[tests[i].pairing];
        double upper = family_upper(&family, family.h1), lower = family_lower(&family, family.h0);
        if (t->decision == SPRT_CONTINUE && !(tests[i].llr < upper && tests[i].llr > lower))
            return error_set(err,
                             "pairing %d: \"decision\" is continue, but its counts give "
                             "LLR %.4f, past the bounds [%.4f, %.4f] the last look held it "
                             "to",
                             tests[i].pairing + 1, tests[i].llr, lower, upper);
    }
    return true;
}

/* Every decision of a tournament's pairings: a gauntlet's family, a ladder's steps (each a
 * family of the candidates that climbed to it, or a match's SPRT). */
static bool tournament_decisions_agree(const ResultsFile *file, Error *err) {
    const MatchSettings *s = &file->settings;
    const TournamentTotals *tour = &file->tournament;
    int pairings[FAMILY_TESTS_MAX];
    if (s->tournament != TOURNAMENT_LADDER) {
        if (!s->has_sprt) /* a round robin's pairings say null: results_load checks it */
            return true;
        for (int p = 0; p < tour->pairings.count; p++)
            pairings[p] = p;
        return family_agrees(file, pairings, tour->pairings.count, s->family, err);
    }
    const LadderSpec *ladder = &s->ladder;
    for (int step = 0; step < ladder->count; step++) {
        int first = step * ladder->candidates, tests = 0;
        for (int c = 0; c < ladder->candidates; c++) {
            const MatchSettings *match = &tour->settings[first + c];
            char where[64];
            snprintf(where, sizeof where, "pairing %d: ", first + c + 1);
            if (!ladder->gauntlet &&
                !match_decision_agrees(&tour->totals[first + c], match, where, err))
                return false;
            if (ladder->gauntlet && match->has_sprt && ladder_climbs(ladder, tour->totals, step, c))
                pairings[tests++] = first + c;
        }
        if (tests && !family_agrees(file, pairings, tests, s->family, err))
            return false;
    }
    return true;
}

/* The file written again from what was read, as the run would write it now. */
static cJSON *recomputed(ResultsFile *file, const char *command) {
    MatchSettings *s = &file->settings;
    if (s->tournament == TOURNAMENT_MATCH)
        return results_to_json(s, &file->totals, file->state, file->book_hash, file->book_positions,
                               command);
    RatingList rating;
    Error unused; /* no fit: the rating is null, as the run writes it */
    bool rated = s->tournament != TOURNAMENT_LADDER &&
                 tournament_totals_rating(&file->tournament, s->engine_count, &rating, &unused);
    return results_tournament_to_json(s, &file->totals, &file->tournament, rated ? &rating : NULL,
                                      file->state, file->book_hash, file->book_positions, command);
}

bool results_check_derived(const cJSON *json, ResultsFile *file, Error *err) {
    const MatchSettings *s = &file->settings;
    for (int e = 0; e < s->engine_count; e++)
        if (!calibrate_recorded_agrees(&s->engines[e], err))
            return false;
    if (s->tournament == TOURNAMENT_MATCH ? !match_decision_agrees(&file->totals, s, "", err)
                                          : !tournament_decisions_agree(file, err))
        return false;
    const char *command = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "command"));
    cJSON *computed = recomputed(file, command ? command : "");
    if (!computed)
        return error_set(err, "out of memory");
    bool ok = true;
    if (s->tournament == TOURNAMENT_MATCH) {
        ok = match_figures_agree(json, computed, "", err);
    } else {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(json, "tournament");
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(computed, "tournament");
        ok = same_keys(json, computed, "", RUN_DERIVED, COUNT(RUN_DERIVED), err) &&
             same_keys(a, b, "tournament.", TOURNAMENT_DERIVED, COUNT(TOURNAMENT_DERIVED), err);
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(a, "pairings");
        const cJSON *y = cJSON_GetObjectItemCaseSensitive(b, "pairings");
        for (int p = 0; ok && p < cJSON_GetArraySize(x) && p < cJSON_GetArraySize(y); p++) {
            char prefix[64];
            snprintf(prefix, sizeof prefix, "tournament.pairings[%d].", p);
            ok = match_figures_agree(cJSON_GetArrayItem(x, p), cJSON_GetArrayItem(y, p), prefix,
                                     err);
        }
    }
    cJSON_Delete(computed);
    return ok;
}
