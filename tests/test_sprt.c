// SPDX-License-Identifier: MIT
// SPRT statistics against fishtest's own vectors (every fishtest vector of the shared file),
// degenerate counts, parameter validation, and the calculator's text and JSON.
#include "sprt.h"

#include "test_util.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#define RELATIVE_TOLERANCE 1e-6
#define ABSOLUTE_TOLERANCE 1e-9 /* for values near zero */

/* The shared reference beside the repository (TSLAB_SPRT_FILE overrides), else the copy here. */
static cJSON *load_vectors(const char **path_out) {
    const char *candidates[] = {getenv("TSLAB_SPRT_FILE"),
                                TSLAB_SOURCE_DIR "/../shared/reference/sprt-vectors.json",
                                TSLAB_SOURCE_DIR "/tests/data/sprt-vectors.json"};
    for (size_t i = 0; i < 3; i++) {
        char *text = candidates[i] ? test_read_file(candidates[i]) : NULL;
        if (!text)
            continue;
        cJSON *json = cJSON_Parse(text);
        free(text);
        *path_out = candidates[i];
        return json;
    }
    fail_msg("no SPRT vector file found");
    return NULL;
}

/* A number in the file; "nan", "inf", "-inf" are stored as strings. */
static bool vector_number(const cJSON *item, double *out) {
    *out = 0;
    if (cJSON_IsNumber(item)) {
        *out = item->valuedouble;
        return true;
    }
    const char *text = cJSON_GetStringValue(item);
    if (!text)
        return false;
    *out = !strcmp(text, "inf") ? INFINITY : !strcmp(text, "-inf") ? -INFINITY : NAN;
    return true;
}

typedef struct {
    double worst;
    int id;
    const char *field;
} Worst;

static void compare(const char *field, int id, double got, double want, Worst *worst) {
    if (isnan(want) || isinf(want)) {
        if (!(isnan(want) ? isnan(got) : got == want))
            fail_msg("vector %d %s: %g, fishtest %g", id, field, got, want);
        return;
    }
    double error = fabs(got - want);
    double relative = fabs(want) > ABSOLUTE_TOLERANCE ? error / fabs(want) : 0;
    if (error > ABSOLUTE_TOLERANCE && relative > RELATIVE_TOLERANCE)
        fail_msg("vector %d %s: %.12g, fishtest %.12g (relative error %.3g)", id, field, got, want,
                 relative);
    if (relative > worst->worst) {
        worst->worst = relative;
        worst->id = id;
        worst->field = field;
    }
}

static void fishtest_vectors__reproduced(void **state) {
    (void)state;
    const char *path = "";
    cJSON *vectors = load_vectors(&path);
    int checked = 0;
    Worst worst = {0, -1, ""};
    const cJSON *v;
    cJSON_ArrayForEach(v, vectors) {
        const char *implementation = cJSON_GetStringValue(cJSON_GetObjectItem(v, "implementation"));
        if (strcmp(implementation, "fishtest"))
            continue;
        int id = (int)cJSON_GetObjectItem(v, "id")->valuedouble;
        const char *model = cJSON_GetStringValue(cJSON_GetObjectItem(v, "model"));
        SprtParams params = {.elo0 = cJSON_GetObjectItem(v, "elo0")->valuedouble,
                             .elo1 = cJSON_GetObjectItem(v, "elo1")->valuedouble,
                             .alpha = cJSON_GetObjectItem(v, "alpha")->valuedouble,
                             .beta = cJSON_GetObjectItem(v, "beta")->valuedouble};
        assert_true(sprt_model_from_name(
            cJSON_GetStringValue(cJSON_GetObjectItem(v, "elo_model")), &params.model));
        const cJSON *counts = cJSON_GetObjectItem(v, "counts");
        SprtSample sample;
        if (!strcmp(model, "pentanomial")) {
            Pentanomial p = {.ll = (uint64_t)cJSON_GetArrayItem(counts, 0)->valuedouble,
                             .ld = (uint64_t)cJSON_GetArrayItem(counts, 1)->valuedouble,
                             .dd = (uint64_t)cJSON_GetArrayItem(counts, 2)->valuedouble,
                             .wd = (uint64_t)cJSON_GetArrayItem(counts, 3)->valuedouble,
                             .ww = (uint64_t)cJSON_GetArrayItem(counts, 4)->valuedouble};
            sample = sprt_sample_pentanomial(&p);
            if (params.model == SPRT_MODEL_BAYESELO)
                fail_msg("vector %d: pentanomial BayesElo vectors need W/D/L", id);
        } else {
            Trinomial t = {.losses = (uint64_t)cJSON_GetArrayItem(counts, 0)->valuedouble,
                           .draws = (uint64_t)cJSON_GetArrayItem(counts, 1)->valuedouble,
                           .wins = (uint64_t)cJSON_GetArrayItem(counts, 2)->valuedouble};
            sample = sprt_sample_trinomial(&t);
        }
        double want;
        double llr = sprt_llr(&sample, &params);
        assert_true(isfinite(llr));
        assert_true(vector_number(cJSON_GetObjectItem(v, "llr"), &want));
        compare("llr", id, llr, want, &worst);
        assert_true(vector_number(cJSON_GetObjectItem(v, "lower_bound"), &want));
        compare("lower_bound", id, sprt_lower_bound(&params), want, &worst);
        assert_true(vector_number(cJSON_GetObjectItem(v, "upper_bound"), &want));
        compare("upper_bound", id, sprt_upper_bound(&params), want, &worst);
        const char *state_text = cJSON_GetStringValue(cJSON_GetObjectItem(v, "state"));
        SprtDecision expected = !strcmp(state_text, "accepted")   ? SPRT_H1
                                : !strcmp(state_text, "rejected") ? SPRT_H0
                                                                  : SPRT_CONTINUE;
        if (sprt_decide(llr, &params) != expected)
            fail_msg("vector %d: decision %s, fishtest state '%s'", id,
                     sprt_decision_name(sprt_decide(llr, &params)), state_text);
        SprtEstimate e = sprt_estimate(&sample);
        if (vector_number(cJSON_GetObjectItem(v, "elo"), &want))
            compare("elo", id, e.elo, want, &worst);
        const cJSON *ci = cJSON_GetObjectItem(v, "elo_ci95");
        if (ci && vector_number(cJSON_GetArrayItem(ci, 0), &want)) {
            compare("elo_ci95[0]", id, e.elo_low, want, &worst);
            assert_true(vector_number(cJSON_GetArrayItem(ci, 1), &want));
            compare("elo_ci95[1]", id, e.elo_high, want, &worst);
        }
        if (vector_number(cJSON_GetObjectItem(v, "los"), &want))
            compare("los", id, e.los, want, &worst);
        if (vector_number(cJSON_GetObjectItem(v, "nelo"), &want))
            compare("nelo", id, e.nelo, want, &worst);
        const cJSON *nci = cJSON_GetObjectItem(v, "nelo_ci95");
        if (nci && vector_number(cJSON_GetArrayItem(nci, 0), &want)) {
            compare("nelo_ci95[0]", id, e.nelo_low, want, &worst);
            assert_true(vector_number(cJSON_GetArrayItem(nci, 1), &want));
            compare("nelo_ci95[1]", id, e.nelo_high, want, &worst);
        }
        checked++;
    }
    cJSON_Delete(vectors);
    print_message("sprt: %d fishtest vectors from %s reproduced; largest relative error %.3g "
                  "(vector %d, %s)\n",
                  checked, path, worst.worst, worst.id, worst.field);
    assert_true(checked >= 100);
}

typedef struct {
    Pentanomial penta;
    const char *why;
} DegenerateRow;

static const DegenerateRow degenerate[] = {
    {{0, 0, 0, 0, 0, 0}, "empty"},
    {{0, 0, 0, 0, 0, 1000}, "all pairs won"},
    {{1000, 0, 0, 0, 0, 0}, "all pairs lost"},
    {{0, 0, 0, 1000, 0, 0}, "all pairs drawn"},
    {{0, 0, 0, 0, 0, 1}, "a single pair"},
    {{0, 0, 1, 0, 0, 0}, "a single split pair"},
    {{0, 0, 0, 0, 5550, 5550}, "5550 straight wins"},
};

static void degenerate_counts__finite_and_sensible(void **state) {
    (void)state;
    const SprtModel models[] = {SPRT_MODEL_NORMALIZED, SPRT_MODEL_LOGISTIC, SPRT_MODEL_BAYESELO};
    const double bounds[][2] = {{0, 2}, {-1.75, 0.25}, {0, 10}, {-1000, -500}, {500, 1000}};
    for (size_t i = 0; i < sizeof degenerate / sizeof degenerate[0]; i++)
        for (size_t m = 0; m < 3; m++)
            for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
                SprtParams params = {bounds[b][0], bounds[b][1], 0.05, 0.05, models[m]};
                SprtSample sample = sprt_sample_pentanomial(&degenerate[i].penta);
                double llr = sprt_llr(&sample, &params);
                if (!isfinite(llr))
                    fail_msg("%s, %s <%g, %g>: LLR %g", degenerate[i].why,
                             sprt_model_name(models[m]), bounds[b][0], bounds[b][1], llr);
                SprtEstimate e = sprt_estimate(&sample);
                assert_true(isfinite(e.elo) && isfinite(e.elo_low) && isfinite(e.elo_high));
                assert_true(isfinite(e.nelo) && isfinite(e.los));
                assert_true(e.elo >= -1200 && e.elo <= 1200);
            }
    /* All wins points to H1 for small bounds; all losses to H0. */
    SprtParams params = {0, 2, 0.05, 0.05, SPRT_MODEL_NORMALIZED};
    SprtSample won = sprt_sample_pentanomial(&degenerate[1].penta);
    SprtSample lost = sprt_sample_pentanomial(&degenerate[2].penta);
    assert_int_equal(sprt_decide(sprt_llr(&won, &params), &params), SPRT_H1);
    assert_int_equal(sprt_decide(sprt_llr(&lost, &params), &params), SPRT_H0);
    assert_true(sprt_estimate(&won).elo > 1000);
    assert_true(sprt_estimate(&won).los > 0.999);
    /* The empty sample: Elo 0, LOS one half, and no decision. */
    SprtSample empty = sprt_sample_pentanomial(&degenerate[0].penta);
    assert_float_equal(sprt_estimate(&empty).elo, 0, 1e-12);
    assert_float_equal(sprt_estimate(&empty).los, 0.5, 1e-12);
    assert_int_equal(sprt_decide(sprt_llr(&empty, &params), &params), SPRT_CONTINUE);
    /* Ratios never divide by zero. */
    assert_true(isinf(sprt_pairs_ratio(&degenerate[1].penta)));
    assert_float_equal(sprt_pairs_ratio(&degenerate[0].penta), 1.0, 0);
    assert_float_equal(sprt_pair_draw_ratio(&degenerate[0].penta), 0.0, 0);
}

typedef struct {
    SprtParams params;
    const char *error;
    const char *why;
} ParamRow;

static const ParamRow param_rows[] = {
    {{0, 2, 0.05, 0.05, SPRT_MODEL_NORMALIZED}, NULL, "typical"},
    {{2, 2, 0.05, 0.05, SPRT_MODEL_NORMALIZED}, "elo0 (2) must be less than elo1 (2)", "equal"},
    {{3, 2, 0.05, 0.05, SPRT_MODEL_NORMALIZED}, "must be less than elo1", "swapped"},
    {{0, 2, 0, 0.05, SPRT_MODEL_NORMALIZED}, "alpha (0) must lie strictly between 0 and 1", "alpha 0"},
    {{0, 2, 1, 0.05, SPRT_MODEL_NORMALIZED}, "alpha (1) must lie", "alpha 1"},
    {{0, 2, 0.05, -0.1, SPRT_MODEL_NORMALIZED}, "beta (-0.1) must lie", "beta negative"},
    {{0, 2, 0.5, 0.5, SPRT_MODEL_NORMALIZED}, "alpha + beta (1) must be less than 1", "sum 1"},
    {{0, 2, 0.49, 0.5, SPRT_MODEL_NORMALIZED}, NULL, "sum just below 1"},
    {{-1000, 1000, 0.05, 0.05, SPRT_MODEL_LOGISTIC}, NULL, "Elo range limit"},
    {{-1001, 0, 0.05, 0.05, SPRT_MODEL_LOGISTIC}, "within -1000..1000", "past the limit"},
};

static void parameters__validated(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof param_rows / sizeof param_rows[0]; i++) {
        Error err = {{0}};
        bool ok = sprt_params_check(&param_rows[i].params, &err);
        if (!param_rows[i].error && !ok)
            fail_msg("row %zu (%s): rejected: %s", i, param_rows[i].why, err.text);
        if (param_rows[i].error && (ok || !strstr(err.text, param_rows[i].error)))
            fail_msg("row %zu (%s): '%s', expected '%s'", i, param_rows[i].why,
                     ok ? "accepted" : err.text, param_rows[i].error);
    }
    SprtParams p = {0, 2, 0.05, 0.05, SPRT_MODEL_NORMALIZED};
    assert_float_equal(sprt_upper_bound(&p), log(19), 1e-15);
    assert_float_equal(sprt_lower_bound(&p), -log(19), 1e-15);
    SprtParams q = {0, 2, 0.05, 0.10, SPRT_MODEL_NORMALIZED};
    assert_float_equal(sprt_lower_bound(&q), -2.251291798606495, 1e-15);
    assert_float_equal(sprt_upper_bound(&q), 2.8903717578961645, 1e-15);
}

/* Design figures: the table of shared/reference/sprt-notes.md section 7 (fishtest's sprt.js
 * formulas), P(pass) to 1e-4 and expected games to the unit. */
typedef struct {
    SprtModel model;
    double elo0, elo1, draw_ratio, true_elo, pass, games;
} PlanRow;

static const PlanRow plan_rows[] = {
    {SPRT_MODEL_NORMALIZED, 0, 2, 0.6, -1, 0.0005, 68782},
    {SPRT_MODEL_NORMALIZED, 0, 2, 0.6, 0, 0.0500, 159942},
    {SPRT_MODEL_NORMALIZED, 0, 2, 0.6, 0.5, 0.3505, 253646},
    {SPRT_MODEL_NORMALIZED, 0, 2, 0.6, 1, 0.8470, 212217},
    {SPRT_MODEL_NORMALIZED, 0, 2, 0.6, 2, 0.9983, 81908},
    {SPRT_MODEL_NORMALIZED, 0.5, 2.5, 0.8, 0, 0.0119, 115649},
    {SPRT_MODEL_NORMALIZED, 0.5, 2.5, 0.8, 1, 0.8973, 191834},
    {SPRT_MODEL_NORMALIZED, -1.75, 0.25, 0.6, 0, 0.9010, 190033},
    {SPRT_MODEL_LOGISTIC, 0, 5, 0.4, 2.5, 0.5000, 25120},
    {SPRT_MODEL_LOGISTIC, 0, 10, 0.4, 10, 0.9500, 3841},
};

static void plan__matches_fishtest_calculator(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof plan_rows / sizeof plan_rows[0]; i++) {
        const PlanRow *r = &plan_rows[i];
        SprtParams params = {r->elo0, r->elo1, 0.05, 0.05, r->model};
        double pass, games;
        assert_true(sprt_plan(&params, r->draw_ratio, r->true_elo, &pass, &games));
        if (fabs(pass - r->pass) > 1e-4 || fabs(games - r->games) > 1)
            fail_msg("row %zu: P %.4f E %.0f, expected %.4f %.0f", i, pass, games, r->pass,
                     r->games);
    }
    SprtParams bayes = {0, 5, 0.05, 0.05, SPRT_MODEL_BAYESELO};
    double pass, games;
    assert_false(sprt_plan(&bayes, 0.5, 0, &pass, &games));
}

#define ABTEST TSLAB_BUILD_DIR "/abtest"

static void calculator__text_json_and_errors(void **state) {
    (void)state;
    char *out;
    /* Fishtest vector 168 (cutechess unit test 1 counts), logistic {0, 5}. */
    assert_int_equal(
        test_run(ABTEST " sprt -wdl 1477,2942,1351 -sprt elo0=0 elo1=5 model=logistic", &out), 0);
    assert_non_null(strstr(out, "Games: 5770, Wins: 1477, Losses: 1351, Draws: 2942"));
    assert_non_null(strstr(out, "LLR: 2.48 (84.3%) (-2.94, 2.94) [0.00, 5.00] logistic"));
    assert_non_null(strstr(out, "Elo: 7.59 +/- 6.28, nElo: 10.84 +/- 8.97"));
    assert_non_null(strstr(out, "LOS: 99.11 %"));
    free(out);
    assert_int_equal(
        test_run(ABTEST " sprt -penta 0,0,0,0,1000 -sprt elo0=0 elo1=2 -json - 2>/dev/null", &out),
        0);
    cJSON *json = cJSON_Parse(out);
    free(out);
    assert_non_null(json);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(json, "decision")), "H1");
    assert_true(cJSON_GetObjectItem(json, "llr")->valuedouble > 2.944);
    assert_true(cJSON_IsArray(cJSON_GetObjectItem(json, "elo_ci95")));
    assert_true(cJSON_IsArray(cJSON_GetObjectItem(json, "nelo_ci95")));
    assert_non_null(cJSON_GetObjectItem(json, "los"));
    assert_non_null(cJSON_GetObjectItem(json, "lower_bound"));
    assert_non_null(cJSON_GetObjectItem(json, "upper_bound"));
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(json, "model")), "normalized");
    cJSON_Delete(json);
    static const char *const errors[][2] = {
        {ABTEST " sprt -penta 1,2,3 -sprt elo0=0 elo1=2", "expected 5 counts (or 6), found 3"},
        {ABTEST " sprt -penta 1,2,3,4,5 -sprt elo0=2 elo1=0", "elo0 (2) must be less than elo1"},
        {ABTEST " sprt -wdl 1,2,3 -sprt elo0=0 elo1=2 alpha=0.6 beta=0.5", "alpha + beta"},
        {ABTEST " sprt -wdl 1,2,3 -sprt elo0=0 elo1=2 model=bayes", "'bayes' is not allowed"},
        {ABTEST " sprt -penta 1,2,3,4,5 -sprt elo0=0 elo1=2 model=bayeselo", "estimates drawelo"},
        {ABTEST " sprt -wdl 1,x,3 -sprt elo0=0 elo1=2", "count 2: 'x' is not an integer"},
        {ABTEST " sprt -wdl 1,2,3", "-sprt elo0= elo1= is required"},
    };
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        int status = test_run(errors[i][0], &out);
        if (status == 0 || !strstr(out, errors[i][1]))
            fail_msg("'%s': exit %d, '%s', expected '%s'", errors[i][0], status, out, errors[i][1]);
        free(out);
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fishtest_vectors__reproduced),
        cmocka_unit_test(degenerate_counts__finite_and_sensible),
        cmocka_unit_test(parameters__validated),
        cmocka_unit_test(plan__matches_fishtest_calculator),
        cmocka_unit_test(calculator__text_json_and_errors),
    };
    return RUN_TESTS("sprt", tests);
}
