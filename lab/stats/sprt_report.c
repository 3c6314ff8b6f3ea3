// SPDX-License-Identifier: MIT
#include "sprt_report.h"

#include "sprt_keys.h"

#include <math.h>

SprtReport sprt_report_make(const SprtSample *sample, const Pentanomial *penta,
                            const SprtParams *params) {
    SprtReport r = {.params = *params, .sample = *sample, .has_penta = penta != NULL};
    if (penta)
        r.penta = *penta;
    r.llr = sprt_llr(sample, params);
    r.lower = sprt_lower_bound(params);
    r.upper = sprt_upper_bound(params);
    r.decision = sprt_decide(r.llr, params);
    r.estimate = sprt_estimate(sample);
    r.corrected = sprt_corrected_elo(sample, params);
    return r;
}

const char *sprt_model_brackets(SprtModel model) {
    return model == SPRT_MODEL_NORMALIZED ? "<>" : model == SPRT_MODEL_LOGISTIC ? "{}" : "[]";
}

void sprt_report_llr_line(const SprtReport *r, FILE *out) {
    double percent = 100 * (r->llr >= 0 ? r->llr / r->upper : -r->llr / r->lower);
    /* fastchess's shape, square brackets included, so its parsers work; the model follows. */
    fprintf(out, "LLR: %.2f (%.1f%%) (%.2f, %.2f) [%.2f, %.2f] %s\n", r->llr, percent, r->lower,
            r->upper, r->params.elo0, r->params.elo1, sprt_model_name(r->params.model));
}

void sprt_report_elo_lines(const SprtReport *r, FILE *out) {
    const SprtEstimate *e = &r->estimate;
    fprintf(out, "Elo: %.2f +/- %.2f, nElo: %.2f +/- %.2f\n", e->elo,
            (e->elo_high - e->elo_low) / 2, e->nelo, (e->nelo_high - e->nelo_low) / 2);
    fprintf(out, "LOS: %.2f %%", 100 * e->los);
    if (r->has_penta) {
        double ratio = sprt_pairs_ratio(&r->penta);
        fprintf(out, ", DrawRatio: %.2f %%, PairsRatio: ", 100 * sprt_pair_draw_ratio(&r->penta));
        if (isinf(ratio)) /* winning pairs and no losing one yet: no ratio to give */
            fprintf(out, "-\n");
        else
            fprintf(out, "%.2f\n", ratio);
    } else {
        const Trinomial *t = &r->sample.wdl;
        uint64_t games = t->wins + t->draws + t->losses;
        fprintf(out, ", DrawRatio: %.2f %%\n", games ? 100.0 * (double)t->draws / (double)games : 0);
    }
}

void sprt_report_corrected_line(const SprtReport *r, FILE *out) {
    fprintf(out, "SPRT-corrected Elo: %.2f [%.2f, %.2f], LOS: %.2f %%\n", r->corrected.elo,
            r->corrected.ci_low, r->corrected.ci_high, 100 * r->corrected.los);
}

static void add_number(cJSON *json, const char *key, double value) {
    if (isfinite(value))
        cJSON_AddNumberToObject(json, key, value);
    else
        cJSON_AddNullToObject(json, key);
}

static void add_interval(cJSON *json, const char *key, double low, double high) {
    cJSON *pair = cJSON_AddArrayToObject(json, key);
    cJSON_AddItemToArray(pair, isfinite(low) ? cJSON_CreateNumber(low) : cJSON_CreateNull());
    cJSON_AddItemToArray(pair, isfinite(high) ? cJSON_CreateNumber(high) : cJSON_CreateNull());
}

void sprt_report_add_json(const SprtReport *r, cJSON *json) {
    add_number(json, "llr", r->llr);
    add_number(json, "lower_bound", r->lower);
    add_number(json, "upper_bound", r->upper);
    cJSON_AddStringToObject(json, "decision", sprt_decision_name(r->decision));
    add_number(json, "elo", r->estimate.elo);
    add_interval(json, "elo_ci95", r->estimate.elo_low, r->estimate.elo_high);
    add_number(json, "nelo", r->estimate.nelo);
    add_interval(json, "nelo_ci95", r->estimate.nelo_low, r->estimate.nelo_high);
    add_number(json, "los", r->estimate.los);
    add_number(json, "sprt_elo", r->corrected.elo);
    add_interval(json, "sprt_elo_ci95", r->corrected.ci_low, r->corrected.ci_high);
    add_number(json, "sprt_los", r->corrected.los);
    cJSON_AddStringToObject(json, "model", sprt_model_name(r->params.model));
    sprt_params_add_numbers(&r->params, json);
    if (r->has_penta) {
        add_number(json, "draw_ratio", sprt_pair_draw_ratio(&r->penta));
        add_number(json, "pairs_ratio", sprt_pairs_ratio(&r->penta));
    }
}
