// SPDX-License-Identifier: MIT
// SPSA's arithmetic (lab/stats/spsa.c) against values worked out from the formulas OpenBench
// and fishtest publish, the input line format and its errors, and a synthetic objective with a
// known optimum that the update must reach.
#include "spsa.h"

#include "options_cmd.h"
#include "test_util.h"
#include "tuning.h"

#include <math.h>

/* |actual - expected| <= tolerance, with both printed when not. */
#define assert_double_equal(actual, expected, tolerance)                                           \
    assert_near((actual), (expected), (tolerance), #actual, __LINE__)

static void assert_near(double actual, double expected, double tolerance, const char *what,
                        int line) {
    if (!(fabs(actual - expected) <= tolerance))
        fail_msg("line %d: %s = %.17g, expected %.17g (+-%g)", line, what, actual, expected,
                 tolerance);
}

static SpsaParam parse_ok(const char *line) {
    SpsaParam p;
    Error err = {{0}};
    if (!spsa_parse_line(line, &p, &err))
        fail_msg("%s: %s", line, err.text);
    return p;
}

/* N = 1000, alpha 0.602, gamma 0.101, A = 100, C_END 10, R_END 0.002:
 * c = 10 * 1000^0.101, a = 0.002 * 10^2 * 1100^0.602 (computed apart, in Python's floats). */
static void schedule__matches_the_published_formulas(void **state) {
    (void)state;
    SpsaParam p = parse_ok("futility, int, 60, 0, 200, 10, 0.002");
    SpsaSchedule s = spsa_schedule_default(1000);
    assert_double_equal(spsa_big_a(&s), 100.0, 1e-12);
    assert_double_equal(spsa_c(&p, &s), 20.09092812608728, 1e-10);
    assert_double_equal(spsa_a(&p, &s), 13.550283827094189, 1e-10);
    const struct {
        int64_t k;
        double c_k, a_k, r_k;
    } expected[] = {
        {1, 20.09092812608728, 0.8420675373028179, 0.0020861566909309405},
        {2, 18.732509884737453, 0.8370879470809465, 0.0023854985002293625},
        {500, 10.725166168179424, 0.2880721934133956, 0.0025043399425713608},
        {1000, 10.0, 0.2, 0.002}, /* the last iteration: C_END and R_END exactly */
    };
    for (size_t i = 0; i < sizeof expected / sizeof *expected; i++) {
        assert_double_equal(spsa_c_k(&p, &s, expected[i].k), expected[i].c_k, 1e-10);
        assert_double_equal(spsa_a_k(&p, &s, expected[i].k), expected[i].a_k, 1e-12);
        assert_double_equal(spsa_r_k(&p, &s, expected[i].k), expected[i].r_k, 1e-14);
    }
}

/* An integer's perturbation stays at half a step or more; a float's may go below. */
static void schedule__integer_perturbation_floor(void **state) {
    (void)state;
    SpsaSchedule s = spsa_schedule_default(1000);
    SpsaParam i = parse_ok("lmr_moves, int, 3, 1, 10, 0.3, 0.002");
    SpsaParam f = parse_ok("x, float, 3, 1, 10, 0.3, 0.002");
    assert_double_equal(spsa_c_k(&i, &s, 1), 0.6027278437826185, 1e-12);
    assert_double_equal(spsa_c_k(&i, &s, 1000), SPSA_INT_C_MIN, 0);
    assert_double_equal(spsa_c_k(&f, &s, 1000), 0.3, 1e-12);
}

/* Played values: clipped to [MIN, MAX], integers rounded as floor(x + u). */
static void played__clipped_and_rounded_stochastically(void **state) {
    (void)state;
    SpsaParam p = parse_ok("futility, int, 60, 0, 200, 10, 0.002");
    assert_double_equal(spsa_played(&p, 7.25, +1, 0.0), 67, 0);  /* 67.25 */
    assert_double_equal(spsa_played(&p, 7.25, +1, 0.75), 68, 0); /* 68.0 */
    assert_double_equal(spsa_played(&p, 7.25, -1, 0.5), 53, 0);  /* 52.75 + 0.5 */
    p.value = 195;
    assert_double_equal(spsa_played(&p, 7.25, +1, 0.99), 200, 0);
    p.value = 3;
    assert_double_equal(spsa_played(&p, 7.25, -1, 0.99), 0, 0);
    SpsaParam f = parse_ok("w, float, 1.5, -2, 2, 0.25, 0.01");
    assert_double_equal(spsa_played(&f, 0.25, -1, 0.99), 1.25, 0);
}

/* value += r_k * c_k * result * flip, kept within [MIN, MAX]. */
static void update__moves_toward_the_winner_within_bounds(void **state) {
    (void)state;
    SpsaParam p = parse_ok("futility, int, 60, 0, 200, 10, 0.002");
    assert_double_equal(spsa_update(&p, 20.0, 0.002, +1, 10), 60.4, 1e-12);
    assert_double_equal(spsa_update(&p, 20.0, 0.002, -1, 10), 60.0, 1e-12);
    assert_double_equal(spsa_update(&p, 20.0, 0.5, -1, 100), 0, 0);
    assert_double_equal(spsa_update(&p, 20.0, 0.5, +1, 1000), 200, 0);
}

/* A fake match with a known optimum: a game is drawn with probability 0.4, and the engine nearer
 * to 37 wins more of the rest (0.004 a point of distance, at most 0.2). SPSA from 120 must end
 * within 3 of 37 (seeds 1 to 20 ended between 36.61 and 38.23). */
static double fake_result(double plus, double minus, int games, Rng *rng) {
    double edge = 0.004 * (fabs(minus - 37) - fabs(plus - 37));
    double p_win = 0.3 + (edge > 0.2 ? 0.2 : edge < -0.2 ? -0.2 : edge);
    double p_loss = 0.6 - p_win;
    double result = 0;
    for (int g = 0; g < games; g++) {
        double u = (double)rng_below(rng, 1u << 30) / (double)(1u << 30);
        result += u < p_win ? 1 : u < p_win + p_loss ? -1 : 0;
    }
    return result;
}

static void synthetic_objective__converges_to_the_optimum(void **state) {
    (void)state;
    SpsaParam p = parse_ok("futility, int, 120, 0, 200, 8, 0.002");
    SpsaSchedule s = spsa_schedule_default(2000);
    Rng rng = rng_seeded(5);
    for (int64_t k = 1; k <= s.iterations; k++) {
        double c_k = spsa_c_k(&p, &s, k), r_k = spsa_r_k(&p, &s, k);
        int flip = rng_below(&rng, 2) ? 1 : -1;
        double u = (double)rng_below(&rng, 1u << 30) / (double)(1u << 30);
        double plus = spsa_played(&p, c_k, flip, u), minus = spsa_played(&p, c_k, -flip, u);
        spsa_update(&p, c_k, r_k, flip, fake_result(plus, minus, 16, &rng));
    }
    if (fabs(p.value - 37) > 3)
        fail_msg("ended at %.2f, not within 3 of 37", p.value);
}

static void parse__errors_name_the_field(void **state) {
    (void)state;
    const struct {
        const char *line, *message;
    } cases[] = {
        {"futility, int, 60, 0, 200, 10", "6 field(s), expected 7"},
        {"futility, int, 60, 0, 200, 10, 0.002, 9", "more than 7 fields"},
        {", int, 60, 0, 200, 10, 0.002", "NAME is empty"},
        {"futility, double, 60, 0, 200, 10, 0.002", "type 'double' is not int or float"},
        {"futility, int, 6x, 0, 200, 10, 0.002", "futility: START: "},
        {"futility, int, 60.5, 0, 200, 10, 0.002", "START 60.5 is not an integer"},
        {"futility, int, 60, 200, 0, 10, 0.002", "MIN 200 is not below MAX 0"},
        {"futility, int, 300, 0, 200, 10, 0.002", "START 300 is outside [MIN, MAX]"},
        {"futility, int, 60, 0, 200, 0, 0.002", "C_END 0 is not positive"},
        {"futility, int, 60, 0, 200, -1, 0.002", "C_END -1 is not positive"},
        {"futility, int, 60, 0, 200, 10, 0", "R_END 0 is not positive"},
        {"futility, float, 60, 0, 200, 10, nan", "futility: R_END: "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        SpsaParam p;
        Error err = {{0}};
        assert_false(spsa_parse_line(cases[i].line, &p, &err));
        if (!strstr(err.text, cases[i].message))
            fail_msg("'%s': '%s' lacks '%s'", cases[i].line, err.text, cases[i].message);
    }
    SpsaSchedule s = spsa_schedule_default(0);
    Error err = {{0}};
    assert_false(spsa_schedule_check(&s, &err));
    assert_non_null(strstr(err.text, "iterations"));
}

/* The output line reads back as the same parameter, with the current value as START. */
static void format__reads_back(void **state) {
    (void)state;
    SpsaParam p = parse_ok("  eval_jumps ,int,20,0,60,4,0.002 ");
    assert_string_equal(p.name, "eval_jumps");
    p.value = 23.6;
    char line[256];
    spsa_format_line(&p, line, sizeof line);
    assert_string_equal(line, "eval_jumps, int, 24, 0, 60, 4, 0.002");
    SpsaParam again = parse_ok(line);
    assert_double_equal(again.start, 24, 0);
    SpsaParam f = parse_ok("w, float, 0.5, -1, 1, 0.125, 0.01");
    f.value = 0.25;
    spsa_format_line(&f, line, sizeof line);
    assert_string_equal(line, "w, float, 0.25, -1, 1, 0.125, 0.01");
}

/* Every tuning row is an integer option that can be tuned; its range lies within the values the
 * option accepts and holds its default; and `bench options -spsa` prints lines that parse back
 * as the rows. */
static void tuning__rows_are_valid_spsa_input(void **state) {
    (void)state;
    SearchConfig defaults = config_default();
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    FILE *notes = fopen("/dev/null", "w");
    bench_print_options_spsa(&defaults, out, notes);
    fclose(out);
    fclose(notes);
    char *line = strtok(text, "\n");
    size_t tuned = 0;
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        const OptionSpec *spec = &CONFIG_OPTIONS[i];
        const OptionTuning *range = &spec->tuning;
        if (range->c_end == 0)
            continue;
        tuned++;
        Error err = {{0}};
        if (!tuning_option_check(spec->name, &err))
            fail_msg("%s", err.text);
        int value = *(const int *)((const char *)&defaults + spec->offset);
        assert_true(range->min >= spec->min && range->max <= spec->max);
        assert_true(value >= range->min && value <= range->max);
        assert_true(range->c_end > 0 && range->c_end <= (range->max - range->min) / 4.0);
        assert_non_null(line);
        SpsaParam p = parse_ok(line);
        assert_string_equal(p.name, spec->name);
        assert_double_equal(p.start, value, 0);
        assert_double_equal(p.min, range->min, 0);
        assert_double_equal(p.max, range->max, 0);
        assert_double_equal(p.c_end, range->c_end, 0);
        assert_double_equal(p.r_end, TUNING_R_END, 0);
        line = strtok(NULL, "\n");
    }
    assert_true(tuned >= 13); /* the ledger's parameters, weights and clock shares */
    assert_null(line);
    free(text);
    const struct {
        const char *name, *message;
    } refused[] = {
        {"nodes", "a search limit"}, {"depth", "a search limit"},
        {"killers", "on|off"},       {"cache", "a choice"},
        {"tt_bits", "memory"},       {"futilty", "not a search option"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        Error err = {{0}};
        assert_false(tuning_option_check(refused[i].name, &err));
        if (!strstr(err.text, refused[i].message))
            fail_msg("%s: '%s' lacks '%s'", refused[i].name, err.text, refused[i].message);
    }
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(schedule__matches_the_published_formulas),
        cmocka_unit_test(schedule__integer_perturbation_floor),
        cmocka_unit_test(played__clipped_and_rounded_stochastically),
        cmocka_unit_test(update__moves_toward_the_winner_within_bounds),
        cmocka_unit_test(synthetic_objective__converges_to_the_optimum),
        cmocka_unit_test(parse__errors_name_the_field),
        cmocka_unit_test(format__reads_back),
        cmocka_unit_test(tuning__rows_are_valid_spsa_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
