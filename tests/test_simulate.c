// SPDX-License-Identifier: MIT
// The SPRT simulator: its pair distributions, seeded runs that check the realised error rates
// against the design (a fixed seed makes every figure deterministic, so the bounds cannot
// flake), independence from the thread count, and the command line.
#include "test_util.h"

#include "simulate.h"

#include <math.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"

static void distribution__pairs_of_independent_games(void **state) {
    (void)state;
    double p[5];
    assert_true(simulate_pentanomial_from_elo(0, 0.5, p));
    assert_float_equal(p[0], 0.0625, 1e-15); /* a loss twice: 0.25^2 */
    assert_float_equal(p[2], 2 * 0.25 * 0.25 + 0.25, 1e-15);
    assert_float_equal(p[0], p[4], 1e-15);
    assert_true(simulate_pentanomial_from_elo(30, 0.4, p));
    double total = 0;
    for (int i = 0; i < 5; i++)
        total += p[i];
    assert_float_equal(total, 1, 1e-12);
    assert_float_equal(simulate_elo_of(p), 30, 1e-9);
    assert_false(simulate_pentanomial_from_elo(600, 0.9, p)); /* no room for so many wins */
}

static SimulateResult simulate_batches(double elo, bool overshoot, int threads, int64_t batch) {
    SimulateSetup s = {{0, 20, 0.05, 0.05, SPRT_MODEL_LOGISTIC, overshoot},
                       {0},
                       0,
                       300,
                       100000,
                       batch,
                       42,
                       threads};
    assert_true(simulate_pentanomial_from_elo(elo, 0.5, s.probabilities));
    s.true_elo = elo;
    SimulateResult r;
    Error err;
    assert_true(simulate_run(&s, &r, &err));
    return r;
}

static SimulateResult simulate(double elo, bool overshoot, int threads) {
    return simulate_batches(elo, overshoot, threads, 1);
}

/* Logistic {0, 20}, 300 runs a point: at elo0 H1 is a false positive (design alpha 0.05), at
 * elo1 H0 a false negative (beta 0.05). The bound is the design rate plus four standard errors
 * of 300 runs (0.05): generous, and fixed by the seed. */
static void error_rates__within_the_design(void **state) {
    (void)state;
    for (int overshoot = 0; overshoot < 2; overshoot++) {
        SimulateResult at0 = simulate(0, overshoot, 2), at1 = simulate(20, overshoot, 2);
        assert_int_equal(at0.runs, 300);
        assert_int_equal(at0.undecided + at1.undecided, 0);
        double alpha = (double)at0.h1 / 300, beta = (double)at1.h0 / 300;
        print_message("simulate {0, 20} logistic, overshoot %s: alpha %.4f, beta %.4f, mean "
                      "pairs %.0f / %.0f\n",
                      overshoot ? "on" : "off", alpha, beta, at0.mean_pairs, at1.mean_pairs);
        assert_true(alpha <= 0.05 + 4 * sqrt(0.05 * 0.95 / 300));
        assert_true(beta <= 0.05 + 4 * sqrt(0.05 * 0.95 / 300));
        assert_true(at0.median_pairs <= at0.p90_pairs && at0.p90_pairs <= at0.p99_pairs);
        /* The plain estimate's coverage suffers from the stop, the corrected one's less. */
        assert_true(at0.corrected_coverage >= 0.85);
    }
}

static void threads__same_numbers_for_any_count(void **state) {
    (void)state;
    SimulateResult one = simulate(10, true, 1), three = simulate(10, true, 3);
    assert_int_equal(one.h1, three.h1);
    assert_int_equal(one.median_pairs, three.median_pairs);
    assert_int_equal(one.p99_pairs, three.p99_pairs);
    assert_true(one.mean_pairs == three.mean_pairs);
    assert_true(one.corrected_bias == three.corrected_bias);
    assert_true(one.plain_coverage == three.plain_coverage);
}

/* Looking every 16 pairs: every decision falls on a batch's end, and the correction (bounds moved
 * in by the expected overshoot) ends each run no later than the plain test on the same draws. */
static void batches__decide_at_batch_ends_and_correction_stops_sooner(void **state) {
    (void)state;
    SimulateResult on = simulate_batches(5, true, 2, 16), off = simulate_batches(5, false, 2, 16);
    assert_int_equal(on.undecided + off.undecided, 0);
    assert_int_equal(on.median_pairs % 16, 0);
    assert_int_equal(on.p99_pairs % 16, 0);
    assert_int_equal(off.p90_pairs % 16, 0);
    print_message("simulate {0, 20} logistic at 5, every 16 pairs: mean pairs %.1f corrected, "
                  "%.1f plain\n",
                  on.mean_pairs, off.mean_pairs);
    assert_true(on.mean_pairs < off.mean_pairs);
    SimulateResult single = simulate(5, true, 2);
    assert_true(single.mean_pairs < on.mean_pairs); /* looking less often costs pairs */
}

static void command__report_json_and_errors(void **state) {
    (void)state;
    char *out;
    assert_int_equal(test_run(ABTEST " simulate -sprt elo0=0 elo1=20 model=logistic -elo 0 "
                                     "-runs 50 -seed 7 -json - 2>/dev/null",
                              &out),
                     0);
    cJSON *json = cJSON_Parse(out);
    free(out);
    assert_non_null(json);
    assert_int_equal((int)cJSON_GetObjectItem(json, "runs")->valuedouble, 50);
    assert_non_null(cJSON_GetObjectItem(json, "corrected_coverage"));
    assert_non_null(cJSON_GetObjectItem(json, "p99_pairs"));
    cJSON_Delete(json);
    assert_int_equal(test_run(ABTEST " simulate -sprt elo0=0 elo1=20 model=logistic -elo 0 "
                                     "-runs 50 -seed 7",
                              &out),
                     0);
    assert_non_null(strstr(out, "P(H1): "));
    assert_non_null(strstr(out, "(-plan: P(H1) "));
    assert_non_null(strstr(out, "  SPRT-corrected "));
    free(out);
    static const char *const errors[][2] = {
        {ABTEST " simulate -elo 0", "-sprt elo0= elo1= (or preset=NAME) is required"},
        {ABTEST " simulate -sprt elo0=0 elo1=5", "give exactly one of -elo, -nelo and -penta"},
        {ABTEST " simulate -sprt elo0=0 elo1=5 -elo 0 -nelo 0", "exactly one"},
        {ABTEST " simulate -sprt elo0=0 elo1=5 model=bayeselo -elo 0", "needs W/D/L"},
        {ABTEST " simulate -sprt elo0=0 elo1=5 -penta 1,2,3", "5 comma-separated"},
        {ABTEST " simulate -sprt elo0=0 elo1=5 -elo 0 -runs 0", "-runs"},
        {ABTEST " simulate -sprt elo0=0 elo1=5 -elo 0 -batch 0", "-batch"},
        {ABTEST " simulate -sprt elo0=0 elo1=5 -oc 5 -elo 0", "-oc sweeps the strength itself"},
        {ABTEST " simulate -sprt elo0=0 elo1=5 -elo 0 -plot file=x.png", "-plot draws the -oc"},
    };
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        int status = test_run(errors[i][0], &out);
        if (status == 0 || !strstr(out, errors[i][1]))
            fail_msg("'%s': exit %d, '%s', expected '%s'", errors[i][0], status, out, errors[i][1]);
        free(out);
    }
}

/* abtest simulate -tournament: the report's rows, the JSON, the same numbers on 1 and 2 threads,
 * and every mistake named. */
static void tournament__command_report_json_and_errors(void **state) {
    (void)state;
    char *out, *again;
    const char *gauntlet = ABTEST " simulate -tournament gauntlet -nelo 0,0,0,30 -sprt elo0=0 "
                                  "elo1=20 -runs 60 -batch 8 -seed 3";
    char command[1024];
    snprintf(command, sizeof command, "%s -threads 2 -json - 2>/dev/null", gauntlet);
    assert_int_equal(test_run(command, &out), 0);
    snprintf(command, sizeof command, "%s -threads 1 -json - 2>/dev/null", gauntlet);
    assert_int_equal(test_run(command, &again), 0);
    assert_string_equal(out, again);
    free(again);
    cJSON *json = cJSON_Parse(out);
    free(out);
    assert_non_null(json);
    assert_string_equal(cJSON_GetObjectItem(json, "family")->valuestring, "holm");
    const cJSON *candidates = cJSON_GetObjectItem(json, "candidates");
    assert_int_equal(cJSON_GetArraySize(candidates), 3);
    double strong = cJSON_GetObjectItem(cJSON_GetArrayItem(candidates, 2), "p_h1")->valuedouble;
    assert_true(strong > 0.8); /* +30 against [0, 20] */
    cJSON_Delete(json);
    assert_int_equal(test_run(gauntlet, &out), 0);
    assert_non_null(strstr(out, "family-wise control holm"));
    assert_non_null(strstr(out, "family: a candidate at or below elo0 accepted in "));
    free(out);
    assert_int_equal(test_run(ABTEST " simulate -tournament roundrobin -nelo 0,10,20 -pairs 100 "
                                     "-runs 40",
                              &out),
                     0);
    assert_non_null(strstr(out, "Simulated round robin: 3 engines, 100 pairs a pairing"));
    free(out);
    static const char *const errors[][2] = {
        {ABTEST " simulate -tournament swiss -nelo 0,1", "'swiss' is not gauntlet or roundrobin"},
        {ABTEST " simulate -tournament gauntlet -nelo 0", "a tournament needs 2 engines or more"},
        {ABTEST " simulate -tournament gauntlet -nelo 0,x", "engine 2 is not a number"},
        {ABTEST " simulate -tournament gauntlet -nelo 0,5", "a gauntlet needs -sprt"},
        {ABTEST " simulate -tournament roundrobin -nelo 0,5 -sprt elo0=0 elo1=5",
         "a round robin is rated, not tested"},
        {ABTEST " simulate -tournament gauntlet -nelo 0,5 -sprt elo0=0 elo1=5 -family sidak",
         "'sidak' is not holm, bonferroni or none"},
        {ABTEST " simulate -tournament gauntlet -sprt elo0=0 elo1=5", "-nelo N0,N1,... is required"},
    };
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        int status = test_run(errors[i][0], &out);
        if (status == 0 || !strstr(out, errors[i][1]))
            fail_msg("'%s': exit %d, '%s', expected '%s'", errors[i][0], status, out, errors[i][1]);
        free(out);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(distribution__pairs_of_independent_games),
        cmocka_unit_test(error_rates__within_the_design),
        cmocka_unit_test(threads__same_numbers_for_any_count),
        cmocka_unit_test(batches__decide_at_batch_ends_and_correction_stops_sooner),
        cmocka_unit_test(command__report_json_and_errors),
        cmocka_unit_test(tournament__command_report_json_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
