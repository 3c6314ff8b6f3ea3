// SPDX-License-Identifier: MIT
// SPRT statistics against fishtest's own vectors (every fishtest vector of the shared file),
// degenerate counts, parameter validation, and the calculator's text and JSON.
#include "sprt.h"
#include "sprt_elo.h"
#include "sprt_keys.h"
#include "sprt_overshoot.h"

#include "test_util.h"

#include <inttypes.h>

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define RELATIVE_TOLERANCE 1e-6
#define ABSOLUTE_TOLERANCE 1e-9 /* for values near zero */

/* A shared reference file beside the repository (the environment variable env overrides), else
 * the copy in tests/data. */
static cJSON *load_reference(const char *env, const char *name, const char **path_out) {
    char shared[512], copy[512];
    snprintf(shared, sizeof shared, "%s/../shared/reference/%s", TSLAB_SOURCE_DIR, name);
    snprintf(copy, sizeof copy, "%s/tests/data/%s", TSLAB_SOURCE_DIR, name);
    const char *candidates[] = {getenv(env), shared, copy};
    static char found[512];
    for (size_t i = 0; i < 3; i++) {
        char *text = candidates[i] ? test_read_file(candidates[i]) : NULL;
        if (!text)
            continue;
        cJSON *json = cJSON_Parse(text);
        free(text);
        snprintf(found, sizeof found, "%s", candidates[i]);
        *path_out = found;
        return json;
    }
    fail_msg("no %s found", name);
    return NULL;
}

static cJSON *load_vectors(const char **path_out) {
    return load_reference("TSLAB_SPRT_FILE", "sprt-vectors.json", path_out);
}

/* A vector's SPRT: bounds, error rates and model. */
/* Bounds at fishtest's usual alpha = beta = 0.05, without the overshoot correction. */
static SprtParams bounds_at(double elo0, double elo1, SprtModel model) {
    return (SprtParams){.elo0 = elo0,
                        .elo1 = elo1,
                        .alpha = 0.05,
                        .beta = 0.05,
                        .model = model,
                        .overshoot = false};
}

static SprtParams vector_params(const cJSON *v) {
    SprtParams params = {.elo0 = cJSON_GetObjectItem(v, "elo0")->valuedouble,
                         .elo1 = cJSON_GetObjectItem(v, "elo1")->valuedouble,
                         .alpha = cJSON_GetObjectItem(v, "alpha")->valuedouble,
                         .beta = cJSON_GetObjectItem(v, "beta")->valuedouble};
    assert_true(sprt_model_from_name(cJSON_GetStringValue(cJSON_GetObjectItem(v, "elo_model")),
                                     &params.model));
    return params;
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

/* fishtest's update_SPRT replayed batch by batch (sprt-notes §6): each row's cumulative
 * pentanomial, then the LLR, the ladder sums, the expected overshoots and the state as fishtest
 * printed them (6 decimals). Batches of 16 pairs. */
typedef struct {
    int step;
    uint64_t counts[5];
    double llr, m0, sq0, m1, sq1, o0, o1;
    SprtDecision state;
} TraceRow;

static const TraceRow TRACE_1[] = {
    {1, {0, 4, 7, 4, 1}, 0.125074, 0.000000, 0.000000, 0.125074, 0.015643, 0.000000, 0.062537, SPRT_CONTINUE},
    {2, {0, 8, 13, 9, 2}, 0.321364, 0.000000, 0.000000, 0.321364, 0.054173, 0.000000, 0.084287, SPRT_CONTINUE},
    {3, {1, 12, 21, 11, 3}, 0.116229, 0.000000, 0.000000, 0.321364, 0.054173, 0.000000, 0.084287, SPRT_CONTINUE},
    {4, {1, 15, 28, 17, 3}, 0.324469, 0.000000, 0.000000, 0.324469, 0.054183, 0.000000, 0.083495, SPRT_CONTINUE},
    {5, {1, 17, 37, 22, 3}, 0.570255, 0.000000, 0.000000, 0.570255, 0.114594, 0.000000, 0.100476, SPRT_CONTINUE},
    {6, {1, 21, 45, 26, 3}, 0.554935, 0.000000, 0.000000, 0.570255, 0.114594, 0.000000, 0.100476, SPRT_CONTINUE},
    {7, {1, 23, 56, 28, 4}, 0.721656, 0.000000, 0.000000, 0.721656, 0.137516, 0.000000, 0.095278, SPRT_CONTINUE},
    {8, {2, 28, 62, 32, 4}, 0.381164, 0.000000, 0.000000, 0.721656, 0.137516, 0.000000, 0.095278, SPRT_CONTINUE},
    {9, {2, 34, 69, 34, 5}, 0.161539, 0.000000, 0.000000, 0.721656, 0.137516, 0.000000, 0.095278, SPRT_CONTINUE},
    {10, {3, 35, 78, 38, 6}, 0.373967, 0.000000, 0.000000, 0.721656, 0.137516, 0.000000, 0.095278, SPRT_CONTINUE},
    {11, {3, 37, 90, 39, 7}, 0.435090, 0.000000, 0.000000, 0.721656, 0.137516, 0.000000, 0.095278, SPRT_CONTINUE},
    {12, {3, 40, 99, 43, 7}, 0.496459, 0.000000, 0.000000, 0.721656, 0.137516, 0.000000, 0.095278, SPRT_CONTINUE},
    {13, {4, 43, 103, 50, 8}, 0.771772, 0.000000, 0.000000, 0.771772, 0.140028, 0.000000, 0.090718, SPRT_CONTINUE},
    {14, {5, 46, 108, 56, 9}, 0.949088, 0.000000, 0.000000, 0.949088, 0.171469, 0.000000, 0.090333, SPRT_CONTINUE},
    {15, {6, 48, 119, 58, 9}, 0.759285, 0.000000, 0.000000, 0.949088, 0.171469, 0.000000, 0.090333, SPRT_CONTINUE},
    {16, {6, 50, 128, 61, 11}, 1.130577, 0.000000, 0.000000, 1.130577, 0.204407, 0.000000, 0.090399, SPRT_CONTINUE},
    {17, {7, 51, 135, 68, 11}, 1.411808, 0.000000, 0.000000, 1.411808, 0.283498, 0.000000, 0.100403, SPRT_CONTINUE},
    {18, {7, 55, 142, 72, 12}, 1.535920, 0.000000, 0.000000, 1.535920, 0.298902, 0.000000, 0.097304, SPRT_CONTINUE},
    {19, {7, 58, 148, 78, 13}, 1.895694, 0.000000, 0.000000, 1.895694, 0.428340, 0.000000, 0.112977, SPRT_CONTINUE},
    {20, {7, 62, 155, 83, 13}, 1.960060, 0.000000, 0.000000, 1.960060, 0.432482, 0.000000, 0.110324, SPRT_CONTINUE},
    {21, {7, 66, 163, 87, 13}, 1.949304, 0.000000, 0.000000, 1.960060, 0.432482, 0.000000, 0.110324, SPRT_CONTINUE},
    {22, {7, 68, 174, 88, 15}, 2.170997, 0.000000, 0.000000, 2.170997, 0.476977, 0.000000, 0.109852, SPRT_CONTINUE},
    {23, {7, 69, 184, 92, 16}, 2.577021, 0.000000, 0.000000, 2.577021, 0.641833, 0.000000, 0.124530, SPRT_CONTINUE},
    {24, {8, 72, 193, 95, 16}, 2.369412, 0.000000, 0.000000, 2.577021, 0.641833, 0.000000, 0.124530, SPRT_CONTINUE},
    {25, {9, 76, 200, 97, 18}, 2.273371, 0.000000, 0.000000, 2.577021, 0.641833, 0.000000, 0.124530, SPRT_CONTINUE},
    {26, {9, 78, 208, 102, 19}, 2.654071, 0.000000, 0.000000, 2.654071, 0.647770, 0.000000, 0.122033, SPRT_CONTINUE},
    {27, {9, 82, 216, 106, 19}, 2.644002, 0.000000, 0.000000, 2.654071, 0.647770, 0.000000, 0.122033, SPRT_CONTINUE},
    {28, {9, 85, 222, 109, 23}, 3.184394, 0.000000, 0.000000, 3.184394, 0.929012, 0.000000, 0.145870, SPRT_H1},
};

static const TraceRow TRACE_2[] = {
    {1, {1, 7, 7, 1, 0}, -0.337222, -0.337222, 0.113719, 0.000000, 0.000000, 0.168611, 0.000000, SPRT_CONTINUE},
    {2, {2, 10, 15, 4, 1}, -0.374597, -0.374597, 0.115116, 0.000000, 0.000000, 0.153653, 0.000000, SPRT_CONTINUE},
    {3, {2, 14, 25, 6, 1}, -0.521663, -0.521663, 0.136744, 0.000000, 0.000000, 0.131065, 0.000000, SPRT_CONTINUE},
    {4, {3, 16, 34, 9, 2}, -0.483008, -0.521663, 0.136744, 0.000000, 0.000000, 0.131065, 0.000000, SPRT_CONTINUE},
    {65, {59, 262, 439, 220, 60}, -2.555624, -2.816705, 0.582478, 0.000000, 0.000000, 0.103397, 0.000000, SPRT_CONTINUE},
    {66, {59, 265, 446, 224, 62}, -2.357336, -2.816705, 0.582478, 0.000000, 0.000000, 0.103397, 0.000000, SPRT_CONTINUE},
    {67, {62, 267, 453, 227, 63}, -2.492526, -2.816705, 0.582478, 0.000000, 0.000000, 0.103397, 0.000000, SPRT_CONTINUE},
    {68, {64, 273, 460, 228, 63}, -2.884779, -2.884779, 0.587112, 0.000000, 0.000000, 0.101760, 0.000000, SPRT_H0},
};

#define TRACE_BATCH 16
#define TRACE_TOLERANCE 5e-7 /* the tables' last digit */

static void check_trace_row(const TraceRow *row, const SprtParams *params, SprtOvershoot *o) {
    Pentanomial p = {.ll = row->counts[0], .ld = row->counts[1], .dd = row->counts[2],
                     .wd = row->counts[3], .ww = row->counts[4]};
    SprtSample sample = sprt_sample_pentanomial(&p);
    double llr = sprt_llr(&sample, params), o0, o1;
    int64_t pairs = (int64_t)(p.ll + p.ld + p.dd + p.wd + p.ww);
    sprt_overshoot_update(o, pairs, TRACE_BATCH, llr);
    sprt_overshoot_margins(o, &o0, &o1);
    const double got[] = {llr, o->m0, o->sq0, o->m1, o->sq1, o0, o1};
    const double want[] = {row->llr, row->m0, row->sq0, row->m1, row->sq1, row->o0, row->o1};
    static const char *const names[] = {"LLR", "m0", "sq0", "m1", "sq1", "o0", "o1"};
    for (int i = 0; i < 7; i++)
        if (fabs(got[i] - want[i]) > TRACE_TOLERANCE)
            fail_msg("trace step %d: %s %.7f, fishtest %.6f", row->step, names[i], got[i],
                     want[i]);
    SprtDecision decision = sprt_decide_corrected(llr, params, o);
    if (decision != row->state)
        fail_msg("trace step %d: %s, fishtest %s", row->step, sprt_decision_name(decision),
                 sprt_decision_name(row->state));
}

/* Trace 1, logistic {0, 10}: all 28 batches; H1 at LLR 3.184 > B - o1 = 2.799. Trace 2,
 * normalized <0, 10>: the notes give batches 1-4 and 65-68, so the first four are replayed from
 * the start and the last four from the state at batch 65 (the ladder from 0 has its minimum at
 * m0 and no maximum); H0 at LLR -2.885, above A but below A + o0. Without the correction
 * neither test would have stopped there. */
static void overshoot__fishtest_traces_reproduced(void **state) {
    (void)state;
    SprtParams logistic = bounds_at(0, 10, SPRT_MODEL_LOGISTIC);
    SprtOvershoot o;
    sprt_overshoot_init(&o);
    for (size_t i = 0; i < sizeof TRACE_1 / sizeof TRACE_1[0]; i++)
        check_trace_row(&TRACE_1[i], &logistic, &o);
    assert_int_equal(sprt_decide(TRACE_1[27].llr, &logistic), SPRT_H1); /* 3.18 > 2.94 too */
    assert_true(TRACE_1[26].llr < sprt_upper_bound(&logistic));
    SprtParams normalized = bounds_at(0, 10, SPRT_MODEL_NORMALIZED);
    sprt_overshoot_init(&o);
    for (size_t i = 0; i < 4; i++)
        check_trace_row(&TRACE_2[i], &normalized, &o);
    const TraceRow *at65 = &TRACE_2[4];
    sprt_overshoot_init(&o);
    o.last_update = (int64_t)at65->step * TRACE_BATCH;
    o.ref0 = o.m0 = at65->m0;
    o.sq0 = at65->sq0;
    for (size_t i = 5; i < 8; i++)
        check_trace_row(&TRACE_2[i], &normalized, &o);
    assert_int_equal(sprt_decide(TRACE_2[7].llr, &normalized), SPRT_CONTINUE);
}

/* abtest sprt -trace replays a cumulative trace and prints fishtest's table and decision. */
static void overshoot__calculator_replays_a_trace(void **state) {
    (void)state;
    char path[128], command[512], *out;
    snprintf(path, sizeof path, "/tmp/tslab_trace_%d.txt", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < sizeof TRACE_1 / sizeof TRACE_1[0]; i++)
        fprintf(f, "[%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 "]\n",
                TRACE_1[i].counts[0], TRACE_1[i].counts[1], TRACE_1[i].counts[2],
                TRACE_1[i].counts[3], TRACE_1[i].counts[4]);
    fclose(f);
    snprintf(command, sizeof command,
             ABTEST " sprt -trace %s -sprt elo0=0 elo1=10 model=logistic", path);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "   28 [9, 85, 222, 109, 23]          3.184394   0.000000  "
                                "0.000000   3.184394  0.929012  0.000000  0.145870 accepted\n"));
    assert_non_null(strstr(out, "Decision with overshoot correction (batches of 16 pairs): H1 "
                                "accepted after 28 batches\n"));
    free(out);
    snprintf(command, sizeof command,
             ABTEST " sprt -trace %s -batch 5 -sprt elo0=0 elo1=10 model=logistic", path);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "(correction dropped)")); /* 16 pairs: not a multiple of 5 */
    free(out);
    unlink(path);
}

/* The rules beyond the traces: the same count changes nothing; a skipped batch restarts the
 * ladders; fewer samples or a count off the batch drops the correction for good. */
static void overshoot__update_rules(void **state) {
    (void)state;
    SprtOvershoot o;
    sprt_overshoot_init(&o);
    sprt_overshoot_update(&o, 16, 16, -0.5);
    sprt_overshoot_update(&o, 16, 16, -0.9); /* the same count again: ignored */
    assert_float_equal(o.m0, -0.5, 1e-15);
    sprt_overshoot_update(&o, 48, 16, -0.2); /* a batch was missed: restart at -0.2 */
    assert_float_equal(o.ref0, -0.2, 1e-15);
    assert_float_equal(o.ref1, -0.2, 1e-15);
    assert_int_equal(o.skipped_updates, 31);
    sprt_overshoot_update(&o, 64, 16, -0.4);
    assert_float_equal(o.m0, -0.7, 1e-15);
    double o0, o1;
    sprt_overshoot_margins(&o, &o0, &o1);
    assert_float_equal(o0, (0.25 + 0.04) / 0.7 / 2, 1e-15);
    sprt_overshoot_update(&o, 60, 16, -0.4); /* fewer samples: dropped for good */
    assert_false(o.active);
    sprt_overshoot_update(&o, 80, 16, -3.0);
    sprt_overshoot_margins(&o, &o0, &o1);
    assert_true(o0 == 0 && o1 == 0);
    sprt_overshoot_init(&o);
    sprt_overshoot_update(&o, 17, 16, 0.1); /* off the batch */
    assert_false(o.active);
}

/* fishtest's SPRT-corrected Elo (stat_util.SPRT_elo): the shared file's 196 values, pentanomial
 * and trinomial, logistic, normalized and BayesElo bounds (the file beside the repository, or
 * the copy in tests/data; TSLAB_SPRT_ELO_FILE overrides). */
static void sprt_elo_vectors__reproduced(void **state) {
    (void)state;
    const char *path = "";
    cJSON *vectors = load_reference("TSLAB_SPRT_ELO_FILE", "sprt-elo-vectors.json", &path);
    int checked = 0;
    Worst worst = {0, -1, ""};
    const cJSON *v;
    cJSON_ArrayForEach(v, vectors) {
        int id = (int)cJSON_GetObjectItem(v, "id")->valuedouble;
        SprtParams params = vector_params(v);
        const cJSON *counts = cJSON_GetObjectItem(v, "counts");
        SprtSample sample;
        uint64_t c[5] = {0};
        for (int i = 0; i < cJSON_GetArraySize(counts) && i < 5; i++)
            c[i] = (uint64_t)cJSON_GetArrayItem(counts, i)->valuedouble;
        if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(v, "model")), "pentanomial")) {
            Pentanomial p = {.ll = c[0], .ld = c[1], .dd = c[2], .wd = c[3], .ww = c[4]};
            sample = sprt_sample_pentanomial(&p);
            sample.has_wdl = false; /* fishtest was given {"pentanomial": counts} alone */
        } else {
            Trinomial t = {.losses = c[0], .draws = c[1], .wins = c[2]};
            sample = sprt_sample_trinomial(&t);
        }
        SprtCorrectedElo e = sprt_corrected_elo(&sample, &params);
        const cJSON *want = cJSON_GetObjectItem(v, "sprt_elo");
        const cJSON *ci = cJSON_GetObjectItem(want, "ci95");
        compare("sprt_elo", id, e.elo, cJSON_GetObjectItem(want, "elo")->valuedouble, &worst);
        compare("sprt_elo ci95[0]", id, e.ci_low, cJSON_GetArrayItem(ci, 0)->valuedouble, &worst);
        compare("sprt_elo ci95[1]", id, e.ci_high, cJSON_GetArrayItem(ci, 1)->valuedouble, &worst);
        compare("sprt_los", id, e.los, cJSON_GetObjectItem(want, "los")->valuedouble, &worst);
        checked++;
    }
    cJSON_Delete(vectors);
    print_message("sprt_elo: %d fishtest values from %s reproduced; largest relative error %.3g "
                  "(vector %d, %s)\n",
                  checked, path, worst.worst, worst.id, worst.field);
    assert_true(checked >= 196);
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
        SprtParams params = vector_params(v);
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
                SprtParams params = bounds_at(bounds[b][0], bounds[b][1], models[m]);
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
    SprtParams params = bounds_at(0, 2, SPRT_MODEL_NORMALIZED);
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
    {{0, 2, 0.05, 0.05, SPRT_MODEL_NORMALIZED, false}, NULL, "typical"},
    {{2, 2, 0.05, 0.05, SPRT_MODEL_NORMALIZED, false}, "elo0 (2) must be less than elo1 (2)", "equal"},
    {{3, 2, 0.05, 0.05, SPRT_MODEL_NORMALIZED, false}, "must be less than elo1", "swapped"},
    {{0, 2, 0, 0.05, SPRT_MODEL_NORMALIZED, false}, "alpha (0) must lie strictly between 0 and 1", "alpha 0"},
    {{0, 2, 1, 0.05, SPRT_MODEL_NORMALIZED, false}, "alpha (1) must lie", "alpha 1"},
    {{0, 2, 0.05, -0.1, SPRT_MODEL_NORMALIZED, false}, "beta (-0.1) must lie", "beta negative"},
    {{0, 2, 0.5, 0.5, SPRT_MODEL_NORMALIZED, false}, "alpha + beta (1) must be less than 1", "sum 1"},
    {{0, 2, 0.49, 0.5, SPRT_MODEL_NORMALIZED, false}, NULL, "sum just below 1"},
    {{-1000, 1000, 0.05, 0.05, SPRT_MODEL_LOGISTIC, false}, NULL, "Elo range limit"},
    {{-1001, 0, 0.05, 0.05, SPRT_MODEL_LOGISTIC, false}, "within -1000..1000", "past the limit"},
    {{0, SPRT_MIN_GAP, 0.05, 0.05, SPRT_MODEL_NORMALIZED, false}, NULL, "the narrowest bounds"},
    {{0, 0.0099, 0.05, 0.05, SPRT_MODEL_LOGISTIC, false}, "cannot be resolved", "just narrower"},
    {{0, 1e-9, 0.05, 0.05, SPRT_MODEL_NORMALIZED, false}, "elo1 - elo0 is 1e-09", "1e-9 apart"},
    {{5, 5 + 4e-7, 0.05, 0.05, SPRT_MODEL_BAYESELO, false}, "widen them", "overflowed a window"},
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
    SprtParams p = bounds_at(0, 2, SPRT_MODEL_NORMALIZED);
    assert_float_equal(sprt_upper_bound(&p), log(19), 1e-15);
    assert_float_equal(sprt_lower_bound(&p), -log(19), 1e-15);
    SprtParams q = {.elo0 = 0,
                    .elo1 = 2,
                    .alpha = 0.05,
                    .beta = 0.10,
                    .model = SPRT_MODEL_NORMALIZED,
                    .overshoot = false};
    assert_float_equal(sprt_lower_bound(&q), -2.251291798606495, 1e-15);
    assert_float_equal(sprt_upper_bound(&q), 2.8903717578961645, 1e-15);
}

/* Bounds closer than SPRT_MIN_GAP are refused everywhere, but the corrected Elo itself must end
 * on any bounds: its window grew by an int that overflowed on bounds under 5e-7 apart and spun
 * for ever (the match hung in its checkpoint). Each call here returns, with finite values. */
static void corrected_elo__ends_on_any_bounds(void **state) {
    (void)state;
    Pentanomial penta = {1, 2, 3, 0, 4, 5};
    SprtSample sample = sprt_sample_pentanomial(&penta);
    const double gaps[] = {1e-9, 4.7e-7, 1e-300, 0, SPRT_MIN_GAP, 2000};
    for (size_t i = 0; i < sizeof gaps / sizeof gaps[0]; i++)
        for (int model = SPRT_MODEL_NORMALIZED; model <= SPRT_MODEL_BAYESELO; model++) {
            SprtParams params = bounds_at(-1000 + (i == 5 ? 0 : 1000), 0, (SprtModel)model);
            params.elo1 = params.elo0 + gaps[i];
            SprtCorrectedElo e = sprt_corrected_elo(&sample, &params);
            if (!isfinite(e.elo) || !isfinite(e.ci_low) || !isfinite(e.ci_high))
                fail_msg("gap %g, %s: %g [%g, %g]", gaps[i], sprt_model_name(params.model), e.elo,
                         e.ci_low, e.ci_high);
        }
}

/* Bounds too close to resolve are refused up front by every command that takes them, with the
 * reason, instead of hanging: the calculator, the simulator and a match. (A resumed run reads
 * its bounds through the same check: test_hardening.c.) */
static void close_bounds__refused_by_every_command(void **state) {
    (void)state;
    static const char *const commands[] = {
        "timeout 20 " ABTEST " sprt -penta 1,2,3,4,5 -sprt elo0=0 elo1=1e-9",
        "timeout 20 " ABTEST " sprt -sprt elo0=0 elo1=1e-9 -plan 0.6",
        "timeout 20 " ABTEST " simulate -sprt elo0=0 elo1=1e-9 -nelo 0 -runs 2",
        "timeout 20 " ABTEST " -engine name=a -engine name=b -each nodes=50 -rounds 2 -sprt "
        "elo0=0 elo1=0.005",
    };
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char *out;
        int status = test_run(commands[i], &out);
        if (status != 2 || !strstr(out, "cannot be resolved"))
            fail_msg("'%s': exit %d (124: hung), '%s'", commands[i], status, out);
        free(out);
    }
}

/* The -sprt group is one table read by the match, the calculator and the simulator: each says
 * the same thing about the same mistake, and each takes the same defaults. */
static void sprt_keys__one_table_for_every_command(void **state) {
    (void)state;
    static const char *const prefixes[] = {
        ABTEST " sprt -wdl 10,20,30 -sprt",
        ABTEST " simulate -nelo 0 -runs 2 -sprt",
        ABTEST " -engine name=a -engine name=b -each nodes=50 -rounds 2 -sprt",
    };
    static const char *const mistakes[][2] = {
        {"elo0=0 elo1=5 pentanomial=on", "-sprt: unknown key in 'pentanomial=on' (elo0, elo1, "
                                         "alpha, beta, model, overshoot, preset)"},
        {"elo0=0", "-sprt needs elo0= and elo1=, or preset=NAME"},
        {"preset=gain", "-sprt preset=gain: no such preset (gain-stc, gain-ltc, nonreg, "
                        "fishtest-stc, fishtest-ltc, fishtest-nonreg"},
        {"preset=nonreg preset=gain-stc", "-sprt: preset= is given twice"},
        {"elo1=-5 preset=gain-stc", "elo0 (0) must be less than elo1 (-5)"},
        {"elo0=0 elo1=5 model=bayes", "-sprt model: 'bayes' is not allowed "
                                      "(normalized|logistic|bayeselo)"},
        {"elo0=0 elo1=5 overshoot=yes", "-sprt overshoot: 'yes' is not allowed (on|off)"},
        {"elo0=0 elo1=x", "-sprt elo1: 'x' is not a number"},
        {"elo0=0 elo1", "-sprt: 'elo1' is not key=value"},
    };
    for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++)
        for (size_t m = 0; m < sizeof mistakes / sizeof mistakes[0]; m++) {
            char command[512], *out;
            snprintf(command, sizeof command, "timeout 20 %s %s", prefixes[p], mistakes[m][0]);
            int status = test_run(command, &out);
            if (status != 2 || !strstr(out, mistakes[m][1]))
                fail_msg("'%s': exit %d, '%s' (wanted '%s')", command, status, out,
                         mistakes[m][1]);
            free(out);
        }
    /* The rows' defaults, read from their text. */
    SprtParams defaults = sprt_params_default();
    assert_true(defaults.elo0 == 0 && defaults.elo1 == 0 && defaults.alpha == 0.05 &&
                defaults.beta == 0.05 && defaults.model == SPRT_MODEL_NORMALIZED &&
                defaults.overshoot);
    /* The defaults the match echoes are the ones the calculator applies. */
    char *out;
    assert_int_equal(test_run(ABTEST " -engine name=a -engine name=b -each nodes=20 -sprt elo0=0 "
                                     "elo1=5 -debug-stopafter 1 -quiet -concurrency 1",
                              &out),
                     130);
    assert_non_null(strstr(out, "-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized "
                                "overshoot=on"));
    free(out);
}

/* A preset sets elo0, elo1, alpha, beta and the model; a key beside it, before or after, wins;
 * the match records the keys it stands for. */
static void presets__set_the_test_and_yield_to_keys(void **state) {
    (void)state;
    static const struct {
        const char *tokens;
        double elo0, elo1, alpha;
    } rows[] = {
        {"preset=gain-stc", 0, 5, 0.05},
        {"preset=gain-ltc", 1, 6, 0.05},
        {"preset=nonreg", -4, 1, 0.05},
        {"preset=fishtest-stc", 0, 2, 0.05},
        {"preset=fishtest-ltc", 0.5, 2.5, 0.05},
        {"preset=fishtest-nonreg", -1.75, 0.25, 0.05},
        {"elo1=3 preset=gain-stc alpha=0.1", 0, 3, 0.1},
        {"preset=gain-ltc elo0=2", 2, 6, 0.05},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char copy[128], *words[8];
        int count = 0;
        snprintf(copy, sizeof copy, "%s", rows[i].tokens);
        for (char *w = strtok(copy, " "); w && count < 8; w = strtok(NULL, " "))
            words[count++] = w;
        SprtParams p;
        Error err;
        if (!sprt_params_parse(words, count, &p, &err))
            fail_msg("%s: %s", rows[i].tokens, err.text);
        assert_true(p.elo0 == rows[i].elo0 && p.elo1 == rows[i].elo1 &&
                    p.alpha == rows[i].alpha && p.beta == 0.05 &&
                    p.model == SPRT_MODEL_NORMALIZED && p.overshoot);
    }
    char *out;
    assert_int_equal(test_run(ABTEST " -engine name=a -engine name=b -each nodes=20 -sprt "
                                     "preset=nonreg model=logistic -debug-stopafter 1 -quiet "
                                     "-concurrency 1",
                              &out),
                     130);
    assert_non_null(strstr(out, "-sprt elo0=-4 elo1=1 alpha=0.05 beta=0.05 model=logistic "
                                "overshoot=on"));
    free(out);
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
        SprtParams params = bounds_at(r->elo0, r->elo1, r->model);
        double pass, games;
        assert_true(sprt_plan(&params, r->draw_ratio, r->true_elo, &pass, &games));
        if (fabs(pass - r->pass) > 1e-4 || fabs(games - r->games) > 1)
            fail_msg("row %zu: P %.4f E %.0f, expected %.4f %.0f", i, pass, games, r->pass,
                     r->games);
    }
    SprtParams bayes = bounds_at(0, 5, SPRT_MODEL_BAYESELO);
    double pass, games;
    assert_false(sprt_plan(&bayes, 0.5, 0, &pass, &games));
}

/* The pair plan from a nElo: with games independent within pairs, a pair's nElo is the game's
 * (the calculator's t at the bound's deviation) and the plan must be the calculator's, halved.
 * The same rows again, plus the midpoint of [0, 5], where E[N] = -a b / w^2 in closed form. */
static void plan__pairs_from_nelo_agree_with_the_calculator(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof plan_rows / sizeof plan_rows[0]; i++) {
        const PlanRow *r = &plan_rows[i];
        if (r->model != SPRT_MODEL_NORMALIZED)
            continue;
        SprtParams params = bounds_at(r->elo0, r->elo1, r->model);
        double nelo = SPRT_NELO_PER_T * (sprt_score_from_elo(r->true_elo) - 0.5) /
                      sqrt((1 - r->draw_ratio) / 4);
        double pass, pairs;
        assert_true(sprt_plan_pairs(&params, nelo, &pass, &pairs));
        if (fabs(pass - r->pass) > 1e-4 || fabs(pairs - r->games / 2) > 1)
            fail_msg("row %zu: P %.4f E %.0f pairs, expected %.4f %.0f", i, pass, pairs, r->pass,
                     r->games / 2);
    }
    SprtParams five = bounds_at(0, 5, SPRT_MODEL_NORMALIZED);
    double pass, pairs, bound = log(0.95 / 0.05), t1 = 5 * sqrt(2.0) / SPRT_NELO_PER_T;
    assert_true(sprt_plan_pairs(&five, 2.5, &pass, &pairs));
    assert_float_equal(pass, 0.5, 1e-9);
    assert_float_equal(pairs, bound * bound / (t1 * t1), 1e-6);
    assert_float_equal(pairs, 20931, 1); /* (ln 19)^2 / t1^2 = 8.66972 / 4.14212e-4 */
    SprtParams logistic = bounds_at(0, 5, SPRT_MODEL_LOGISTIC);
    assert_false(sprt_plan_pairs(&logistic, 10, &pass, &pairs));
    assert_false(sprt_plan_pairs(&five, NAN, &pass, &pairs));
    assert_true(pass == 0 && pairs == 0);
}

/* From an LLR reached: at 0 the plans above (per pair), at a bound nothing left, in between
 * the closed form at h = 0, and finite for the extreme estimates of a test's first pairs. */
static void plan__left_from_the_llr_reached(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof plan_rows / sizeof plan_rows[0]; i++) {
        const PlanRow *r = &plan_rows[i];
        SprtParams params = bounds_at(r->elo0, r->elo1, r->model);
        double nelo = SPRT_NELO_PER_T * (sprt_score_from_elo(r->true_elo) - 0.5) /
                      sqrt((1 - r->draw_ratio) / 4);
        double pass, pairs;
        assert_true(sprt_plan_left(&params, 0, r->draw_ratio, r->true_elo, nelo, &pass, &pairs));
        if (fabs(pass - r->pass) > 1e-4 || fabs(pairs - r->games / 2) > 1)
            fail_msg("row %zu: P %.4f E %.0f pairs, expected %.4f %.0f", i, pass, pairs, r->pass,
                     r->games / 2);
    }
    SprtParams five = bounds_at(0, 5, SPRT_MODEL_NORMALIZED);
    double pass, pairs, b = log(0.95 / 0.05), t1 = 5 * sqrt(2.0) / SPRT_NELO_PER_T;
    assert_true(sprt_plan_left(&five, b, 0.5, 0, 2.5, &pass, &pairs));
    assert_float_equal(pass, 1, 1e-12);
    assert_float_equal(pairs, 0, 1e-9);
    assert_true(sprt_plan_left(&five, 1.0, 0.5, 0, 2.5, &pass, &pairs));
    assert_float_equal(pass, (1.0 + b) / (2 * b), 1e-9);
    assert_float_equal(pairs, (1.0 + b) * (b - 1.0) / (t1 * t1), 1e-6);
    for (double nelo = -2000; nelo <= 2000; nelo += 500) {
        assert_true(sprt_plan_left(&five, -1.5, 0.5, 0, nelo, &pass, &pairs));
        if (!isfinite(pass) || !isfinite(pairs) || pass < 0 || pass > 1 || pairs < 0)
            fail_msg("nElo %.0f: P %g, %g pairs left", nelo, pass, pairs);
    }
    SprtParams bayes = bounds_at(0, 5, SPRT_MODEL_BAYESELO);
    assert_false(sprt_plan_left(&bayes, 0, 0.5, 0, 0, &pass, &pairs));
}

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
    /* The SPRT-corrected line: fishtest's SPRT_elo for these counts is 7.3211 [0.8777, 13.6765],
     * LOS 98.69 % (the shared file's vector 168). */
    assert_non_null(strstr(out, "SPRT-corrected Elo: 7.32 [0.88, 13.68], LOS: 98.69 %"));
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
    /* The corrected estimate under the keys fishtest's results use. */
    Pentanomial won = {.ww = 1000};
    SprtSample all_won = sprt_sample_pentanomial(&won);
    SprtParams bounds = bounds_at(0, 2, SPRT_MODEL_NORMALIZED);
    SprtCorrectedElo corrected = sprt_corrected_elo(&all_won, &bounds);
    assert_float_equal(cJSON_GetObjectItem(json, "sprt_elo")->valuedouble, corrected.elo, 1e-9);
    const cJSON *interval = cJSON_GetObjectItem(json, "sprt_elo_ci95");
    assert_int_equal(cJSON_GetArraySize(interval), 2);
    assert_float_equal(cJSON_GetArrayItem(interval, 0)->valuedouble, corrected.ci_low, 1e-9);
    assert_float_equal(cJSON_GetArrayItem(interval, 1)->valuedouble, corrected.ci_high, 1e-9);
    assert_float_equal(cJSON_GetObjectItem(json, "sprt_los")->valuedouble, corrected.los, 1e-12);
    cJSON_Delete(json);
    static const char *const errors[][2] = {
        {ABTEST " sprt -penta 1,2,3 -sprt elo0=0 elo1=2", "expected 5 counts (or 6), found 3"},
        {ABTEST " sprt -penta 1,2,3,4,5 -sprt elo0=2 elo1=0", "elo0 (2) must be less than elo1"},
        {ABTEST " sprt -wdl 1,2,3 -sprt elo0=0 elo1=2 alpha=0.6 beta=0.5", "alpha + beta"},
        {ABTEST " sprt -wdl 1,2,3 -sprt elo0=0 elo1=2 model=bayes", "'bayes' is not allowed"},
        {ABTEST " sprt -penta 1,2,3,4,5 -sprt elo0=0 elo1=2 model=bayeselo", "estimates drawelo"},
        {ABTEST " sprt -wdl 1,x,3 -sprt elo0=0 elo1=2", "count 2: 'x' is not an integer"},
        {ABTEST " sprt -wdl 1,2,3", "-sprt elo0= elo1= (or preset=NAME) is required"},
        {ABTEST " sprt -trace x -penta 1,2,3,4,5 -sprt elo0=0 elo1=2", "give it without -penta"},
        {ABTEST " sprt -penta 1,2,3,4,5 -batch 16 -sprt elo0=0 elo1=2", "-batch belongs to -trace"},
        {ABTEST " sprt -trace /nonexistent -sprt elo0=0 elo1=2", "-trace /nonexistent"},
        {ABTEST " sprt -wdl 1,2,3 -sprt elo0=0 elo1=2 alpha=1e-320",
         "alpha: 1e-320 is too close to 0 to be represented"},
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
        cmocka_unit_test(sprt_elo_vectors__reproduced),
        cmocka_unit_test(overshoot__fishtest_traces_reproduced),
        cmocka_unit_test(overshoot__update_rules),
        cmocka_unit_test(overshoot__calculator_replays_a_trace),
        cmocka_unit_test(degenerate_counts__finite_and_sensible),
        cmocka_unit_test(parameters__validated),
        cmocka_unit_test(corrected_elo__ends_on_any_bounds),
        cmocka_unit_test(close_bounds__refused_by_every_command),
        cmocka_unit_test(sprt_keys__one_table_for_every_command),
        cmocka_unit_test(presets__set_the_test_and_yield_to_keys),
        cmocka_unit_test(plan__matches_fishtest_calculator),
        cmocka_unit_test(plan__pairs_from_nelo_agree_with_the_calculator),
        cmocka_unit_test(plan__left_from_the_llr_reached),
        cmocka_unit_test(calculator__text_json_and_errors),
    };
    return RUN_TESTS("sprt", tests);
}
