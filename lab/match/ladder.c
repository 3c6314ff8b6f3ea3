// SPDX-License-Identifier: MIT
#include "ladder.h"

#include "clock.h"
#include "parse.h"
#include "scaling.h"
#include "sprt_keys.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The limits a ladder climbs, each with its size on the doubling scale. */
typedef enum { STEP_NODES, STEP_TC, STEP_ST } StepKind;
static const char *const STEP_KEYS[] = {[STEP_NODES] = "nodes", [STEP_TC] = "tc", [STEP_ST] = "st"};

static bool step_size(const char *limit, StepKind *kind, double *size, Error *err) {
    char quoted[ERROR_EXCERPT_MAX];
    const char *equals = strchr(limit, '=');
    size_t length = equals ? (size_t)(equals - limit) : 0;
    for (int k = 0; k < (int)(sizeof STEP_KEYS / sizeof STEP_KEYS[0]) && equals; k++) {
        if (strlen(STEP_KEYS[k]) != length || strncmp(limit, STEP_KEYS[k], length))
            continue;
        *kind = (StepKind)k;
        Error inner;
        TimeControl tc;
        if (k == STEP_NODES) {
            int64_t nodes;
            if (!parse_int64(equals + 1, 1, INT64_C(1) << 40, &nodes, &inner))
                return error_set(err, "-ladder %s: %s", limit, inner.text);
            *size = (double)nodes;
            return true;
        }
        if (k == STEP_TC ? !clock_parse_tc(equals + 1, &tc, &inner)
                         : !clock_parse_st(equals + 1, &tc, &inner))
            return error_set(err, "-ladder %s: %s", limit, inner.text);
        *size = k == STEP_ST ? (double)tc.fixed_ms
                             : (double)tc.time_ms + LADDER_CLOCK_MOVES * (double)tc.increment_ms;
        if (tc.moves)
            return error_set(err,
                             "-ladder %s: a ladder's clock has no moves per period (give "
                             "SECONDS+INCREMENT)",
                             limit);
        if (*size <= 0)
            return error_set(err, "-ladder %s: a clock of no time", limit);
        return true;
    }
    return error_set(err,
                     "-ladder: '%s' is not a step (nodes=N, tc=SECONDS[+INCREMENT] or "
                     "st=SECONDS)",
                     error_excerpt(limit, quoted));
}

bool ladder_parse(char *const *words, int count, LadderSpec *ladder, Error *err) {
    memset(ladder, 0, sizeof *ladder);
    ladder->candidates = 1; /* a match a step, until a gauntlet makes it more (arguments.c) */
    if (count < 1)
        return error_set(err, "-ladder needs its steps: -ladder nodes=1000,nodes=4000 (or "
                              "tc=0.2+0.002,tc=1+0.01)");
    char quoted[ERROR_EXCERPT_MAX];
    for (int w = 1; w < count; w++) {
        if (!strcmp(words[w], "continue=on") || !strcmp(words[w], "continue=off")) {
            ladder->go_on = !strcmp(words[w], "continue=on");
            continue;
        }
        return error_set(err, "-ladder: '%s' is not continue=on|off",
                         error_excerpt(words[w], quoted));
    }
    const char *list = words[0];
    while (*list) {
        size_t length = strcspn(list, ",");
        if (ladder->count == LADDER_STEPS_MAX)
            return error_set(err, "-ladder: more than %d steps", LADDER_STEPS_MAX);
        char step[LADDER_STEP_TEXT + LADDER_PRESET_TEXT];
        if (length == 0 || length >= sizeof step)
            return error_set(err, "-ladder: an empty or overlong step in '%s'",
                             error_excerpt(words[0], quoted));
        memcpy(step, list, length);
        step[length] = '\0';
        char *colon = strchr(step, ':');
        if (colon) {
            *colon = '\0';
            if (strlen(colon + 1) >= LADDER_PRESET_TEXT)
                return error_set(err, "-ladder %s: no such preset", step);
            snprintf(ladder->preset[ladder->count], LADDER_PRESET_TEXT, "%s", colon + 1);
        }
        if (strlen(step) >= LADDER_STEP_TEXT)
            return error_set(err, "-ladder: the step '%s' is too long",
                             error_excerpt(step, quoted));
        memcpy(ladder->limit[ladder->count], step, strlen(step) + 1); /* fits: checked above */
        ladder->count++;
        list += length + (list[length] == ',');
    }
    return ladder_check(ladder, err);
}

bool ladder_check(const LadderSpec *ladder, Error *err) {
    if (ladder->count < 2)
        return error_set(err,
                         "-ladder: %d step: a ladder climbs from one limit to another (give "
                         "two or more, smallest first)",
                         ladder->count);
    if (ladder->count > LADDER_STEPS_MAX)
        return error_set(err, "-ladder: more than %d steps", LADDER_STEPS_MAX);
    StepKind first = STEP_NODES;
    double before = 0;
    for (int k = 0; k < ladder->count; k++) {
        StepKind kind;
        double size;
        if (!step_size(ladder->limit[k], &kind, &size, err))
            return false;
        if (k && kind != first)
            return error_set(err, "-ladder: %s after %s: a ladder climbs one kind of limit",
                             ladder->limit[k], ladder->limit[0]);
        if (k && size <= before)
            return error_set(err,
                             "-ladder: %s is not larger than %s: the steps rise, smallest "
                             "first",
                             ladder->limit[k], ladder->limit[k - 1]);
        first = kind;
        before = size;
        SprtParams ignored;
        if (ladder->preset[k][0] && !sprt_preset_apply(ladder->preset[k], &ignored, err))
            return false;
    }
    return true;
}

bool ladder_pairings(const LadderSpec *ladder, int engine_count, PairingList *out, Error *err) {
    out->count = 0;
    int width = ladder_width(ladder);
    if (ladder->candidates < 1 || engine_count != width * ladder->count)
        return error_set(err, "a ladder of %d steps of %d engines has %d engines, not %d",
                         ladder->count, width, width * ladder->count, engine_count);
    for (int k = 0; k < ladder->count; k++)
        for (int c = 0; c < ladder->candidates; c++) {
            /* A match: the first engine first. A gauntlet: the candidate first, the seed second:
             * its numbers are its own. */
            int first = ladder->gauntlet ? width * k + 1 + c : width * k;
            int second = ladder->gauntlet ? width * k : width * k + 1;
            out->pairings[out->count++] = (Pairing){(int8_t)first, (int8_t)second};
        }
    return true;
}

bool ladder_climbs(const LadderSpec *ladder, const MatchTotals totals[], int step, int candidate) {
    for (int k = 0; k < step && !ladder->go_on; k++)
        if (totals[k * ladder->candidates + candidate].decision == SPRT_H0)
            return false;
    return true;
}

bool ladder_pairing_open(const LadderSpec *ladder, const MatchTotals totals[], int64_t rounds,
                         int pairing) {
    const MatchTotals *t = &totals[pairing];
    return t->decision == SPRT_CONTINUE && t->pairs < rounds &&
           ladder_climbs(ladder, totals, ladder_step_of(ladder, pairing),
                         ladder_candidate_of(ladder, pairing));
}

int ladder_open_step(const LadderSpec *ladder, const MatchTotals totals[], int64_t rounds) {
    for (int p = 0; p < ladder->count * ladder->candidates; p++)
        if (ladder_pairing_open(ladder, totals, rounds, p))
            return ladder_step_of(ladder, p);
    return -1;
}

bool ladder_counts_agree(const LadderSpec *ladder, const MatchTotals totals[], int64_t rounds,
                         bool ended, Error *err) {
    int open = ladder_open_step(ladder, totals, rounds);
    for (int p = 0; p < ladder->count * ladder->candidates; p++) {
        int k = ladder_step_of(ladder, p), c = ladder_candidate_of(ladder, p);
        if (totals[p].pairs > rounds)
            return error_set(err, "ladder step %d has %" PRId64 " pairs, past -rounds %" PRId64,
                             k + 1, totals[p].pairs, rounds);
        if (!totals[p].pairs)
            continue;
        if (open >= 0 && k > open)
            return error_set(err, "ladder step %d has pairs while step %d is still open", k + 1,
                             open + 1);
        if (!ladder_climbs(ladder, totals, k, c))
            return error_set(err,
                             "ladder step %d: candidate %d has pairs after a step before "
                             "accepted H0 for it",
                             k + 1, c + 1);
    }
    if (ended && open >= 0)
        return error_set(err, "the ladder is recorded as ended with step %d still open", open + 1);
    return true;
}

void ladder_base_name(const char *name, char *out, size_t size) {
    snprintf(out, size, "%s", name);
    char *dot = strrchr(out, '.');
    if (dot)
        *dot = '\0';
}

bool ladder_step_sprt(const LadderSpec *ladder, int step, const SprtParams *run_sprt,
                      bool run_has_sprt, SprtParams *out) {
    *out = *run_sprt;
    if (!ladder->preset[step][0])
        return run_has_sprt;
    if (!run_has_sprt)
        *out = sprt_params_default();
    Error ignored; /* checked by ladder_check */
    sprt_preset_apply(ladder->preset[step], out, &ignored);
    out->overshoot = out->overshoot && !ladder->gauntlet;
    return true;
}

double ladder_step_x(const LadderSpec *ladder, int step) {
    StepKind kind;
    double size = 1;
    Error ignored; /* checked by ladder_check */
    step_size(ladder->limit[step], &kind, &size, &ignored);
    return log2(size);
}

void ladder_text(const LadderSpec *ladder, char *out, size_t size) {
    TextBuf buf = textbuf(out, size);
    for (int k = 0; k < ladder->count; k++)
        textbuf_printf(&buf, "%s%s%s%s", k ? "," : "", ladder->limit[k],
                       ladder->preset[k][0] ? ":" : "", ladder->preset[k]);
    if (ladder->go_on)
        textbuf_printf(&buf, " continue=on");
}

cJSON *ladder_to_json(const LadderSpec *ladder) {
    cJSON *json = cJSON_CreateObject();
    cJSON *steps = cJSON_AddArrayToObject(json, "steps");
    for (int k = 0; k < ladder->count; k++) {
        cJSON *step = cJSON_CreateObject();
        cJSON_AddStringToObject(step, "limit", ladder->limit[k]);
        cJSON_AddStringToObject(step, "preset", ladder->preset[k]);
        cJSON_AddItemToArray(steps, step);
    }
    cJSON_AddBoolToObject(json, "continue", ladder->go_on);
    if (ladder->gauntlet) { /* a match's ladder has neither key: as before gauntlets climbed */
        cJSON_AddBoolToObject(json, "gauntlet", true);
        cJSON_AddNumberToObject(json, "candidates", ladder->candidates);
    }
    return json;
}

bool ladder_from_json(const cJSON *json, LadderSpec *ladder, Error *err) {
    memset(ladder, 0, sizeof *ladder);
    const cJSON *steps = cJSON_GetObjectItemCaseSensitive(json, "steps");
    const cJSON *go_on = cJSON_GetObjectItemCaseSensitive(json, "continue");
    int count = cJSON_GetArraySize(steps);
    if (!cJSON_IsArray(steps) || count > LADDER_STEPS_MAX || !cJSON_IsBool(go_on))
        return error_set(err, "settings: \"ladder\" needs \"steps\" (up to %d) and \"continue\"",
                         LADDER_STEPS_MAX);
    ladder->count = count;
    ladder->go_on = cJSON_IsTrue(go_on);
    ladder->candidates = 1;
    const cJSON *gauntlet = cJSON_GetObjectItemCaseSensitive(json, "gauntlet");
    if (gauntlet) {
        const cJSON *candidates = cJSON_GetObjectItemCaseSensitive(json, "candidates");
        double value = cJSON_IsNumber(candidates) ? candidates->valuedouble : 0;
        if (!cJSON_IsTrue(gauntlet) || value != floor(value) || value < 1 ||
            value >= TOURNAMENT_RUN_ENGINES_MAX)
            return error_set(err, "settings: \"ladder\": a gauntlet's ladder needs "
                                  "\"gauntlet\": true and \"candidates\": 1..%d",
                             TOURNAMENT_RUN_ENGINES_MAX - 1);
        ladder->gauntlet = true;
        ladder->candidates = (int)value;
    }
    for (int k = 0; k < count; k++) {
        const cJSON *step = cJSON_GetArrayItem(steps, k);
        const char *limit = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(step, "limit"));
        const char *preset = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(step, "preset"));
        if (!limit || !preset || strlen(limit) >= LADDER_STEP_TEXT ||
            strlen(preset) >= LADDER_PRESET_TEXT)
            return error_set(err, "settings: \"ladder\" step %d needs \"limit\" and \"preset\"",
                             k + 1);
        snprintf(ladder->limit[k], LADDER_STEP_TEXT, "%s", limit);
        snprintf(ladder->preset[k], LADDER_PRESET_TEXT, "%s", preset);
    }
    Error inner;
    if (!ladder_check(ladder, &inner))
        return error_set(err, "settings: \"ladder\": %s", inner.text);
    return true;
}

/* What a step says: its SPRT's decision, or without one where its interval lies. */
static const char *step_word(SprtDecision decision, double low, double high, int64_t pairs) {
    if (!pairs)
        return "not played";
    if (decision == SPRT_H1)
        return "gains";
    if (decision == SPRT_H0)
        return high < 0 ? "loses" : "does not gain";
    return low > 0 ? "gains" : high < 0 ? "loses" : "no clear difference";
}

void ladder_summary(const LadderSpec *ladder, const MatchTotals all[], int candidate,
                    LadderSummary *out) {
    memset(out, 0, sizeof *out);
    out->count = ladder->count;
    double se[LADDER_STEPS_MAX];
    TextBuf buf = textbuf(out->verdict, sizeof out->verdict);
    const MatchTotals *totals[LADDER_STEPS_MAX];
    for (int k = 0; k < ladder->count; k++)
        totals[k] = &all[k * ladder->candidates + candidate];
    for (int k = 0; k < ladder->count; k++) {
        SprtSample sample = totals_sample(totals[k]);
        SprtEstimate e = sprt_estimate(&sample);
        out->pairs[k] = totals[k]->pairs;
        out->x[k] = ladder_step_x(ladder, k);
        out->decision[k] = totals[k]->decision;
        out->elo[k] = totals[k]->pairs ? e.elo : NAN;
        out->elo_low[k] = totals[k]->pairs ? e.elo_low : NAN;
        out->elo_high[k] = totals[k]->pairs ? e.elo_high : NAN;
        se[k] = totals[k]->pairs ? (e.elo_high - e.elo_low) / (2 * 1.959963984540054) : NAN;
        if (totals[k]->pairs)
            textbuf_printf(&buf, "%s%s at %s", buf.used ? ", " : "",
                           step_word(totals[k]->decision, e.elo_low, e.elo_high, totals[k]->pairs),
                           ladder->limit[k]);
    }
    double slope_se;
    out->has_slope = scaling_slope(out->x, out->elo, se, ladder->count, &out->slope, &slope_se);
    if (out->has_slope) {
        out->slope_low = out->slope - 1.959963984540054 * slope_se;
        out->slope_high = out->slope + 1.959963984540054 * slope_se;
    }
}

/* A number, or null when it is not one (a step without pairs). */
static void add_number(cJSON *json, const char *key, double value) {
    if (isfinite(value))
        cJSON_AddNumberToObject(json, key, value);
    else
        cJSON_AddNullToObject(json, key);
}

static cJSON *summary_json(const LadderSpec *ladder, const LadderSummary *summary) {
    cJSON *json = cJSON_CreateObject();
    cJSON *steps = cJSON_AddArrayToObject(json, "steps");
    for (int k = 0; k < summary->count; k++) {
        cJSON *step = cJSON_CreateObject();
        cJSON_AddStringToObject(step, "limit", ladder->limit[k]);
        cJSON_AddNumberToObject(step, "log2_size", summary->x[k]);
        cJSON_AddNumberToObject(step, "pairs", (double)summary->pairs[k]);
        add_number(step, "elo", summary->elo[k]);
        add_number(step, "elo_low", summary->elo_low[k]);
        add_number(step, "elo_high", summary->elo_high[k]);
        cJSON_AddStringToObject(step, "decision",
                                summary->decision[k] == SPRT_H1   ? "H1"
                                : summary->decision[k] == SPRT_H0 ? "H0"
                                                                  : "none");
        cJSON_AddItemToArray(steps, step);
    }
    cJSON *slope = cJSON_AddObjectToObject(json, "slope");
    add_number(slope, "elo_per_doubling", summary->has_slope ? summary->slope : NAN);
    add_number(slope, "low", summary->has_slope ? summary->slope_low : NAN);
    add_number(slope, "high", summary->has_slope ? summary->slope_high : NAN);
    cJSON_AddStringToObject(json, "verdict", summary->verdict);
    return json;
}

cJSON *ladder_results_json(const LadderSpec *ladder, const MatchTotals totals[],
                           const EngineSpec engines[]) {
    LadderSummary summary;
    if (!ladder->gauntlet) {
        ladder_summary(ladder, totals, 0, &summary);
        return summary_json(ladder, &summary);
    }
    cJSON *json = cJSON_CreateObject();
    cJSON *candidates = cJSON_AddArrayToObject(json, "candidates");
    char name[MATCH_NAME_MAX];
    for (int c = 0; c < ladder->candidates; c++) {
        ladder_summary(ladder, totals, c, &summary);
        cJSON *item = summary_json(ladder, &summary);
        ladder_base_name(engines[1 + c].name, name, sizeof name);
        cJSON_AddStringToObject(item, "engine", name);
        ladder_base_name(engines[0].name, name, sizeof name);
        cJSON_AddStringToObject(item, "seed", name);
        cJSON_AddItemToArray(candidates, item);
    }
    return json;
}
