// SPDX-License-Identifier: MIT
// A family of SPRTs decided together (lab/stats/family.c) and the tournament simulator
// (lab/stats/simulate_tournament.c): the Holm, Bonferroni and uncorrected ladders' bounds; a
// look decides down the ladder and stops at the first test that fails its level; simulated
// gauntlets of null candidates accept one in at most alpha of runs under Holm's step-down and
// Bonferroni, and in about 1 - (1 - alpha)^K without a correction; a round robin's intervals
// cover; the numbers do not depend on the threads.
#include "test_util.h"

#include "family.h"
#include "simulate.h"
#include "simulate_tournament.h"

#include <math.h>

static void assert_near(double a, double b, double tolerance, const char *what) {
    if (!(fabs(a - b) <= tolerance))
        fail_msg("%s: %.15g, wanted %.15g", what, a, b);
}

/* K = 5, alpha = beta = 0.05: Holm climbs 0.01, 0.0125, 1/60, 0.025, 0.05. */
static void ladders__bounds_of_each_control(void **state) {
    (void)state;
    Family holm, bonferroni, none;
    Error err;
    assert_true(family_init(&holm, FAMILY_HOLM, 5, 0.05, 0.05, &err));
    assert_true(family_init(&bonferroni, FAMILY_BONFERRONI, 5, 0.05, 0.05, &err));
    assert_true(family_init(&none, FAMILY_NONE, 5, 0.05, 0.05, &err));
    const double levels[5] = {0.01, 0.0125, 1.0 / 60, 0.025, 0.05};
    for (int j = 0; j < 5; j++) {
        double a = levels[j];
        assert_near(family_upper(&holm, j), log((1 - a) / a), 1e-12, "Holm's upper");
        assert_near(family_lower(&holm, j), log(a / (1 - a)), 1e-12, "Holm's lower");
        assert_near(family_upper(&bonferroni, j), log(0.99 / 0.01), 1e-12, "Bonferroni's");
        assert_near(family_upper(&none, j), log(0.95 / 0.05), 1e-12, "none's");
    }
    FamilyControl control;
    assert_true(family_control_from_name("holm", &control) && control == FAMILY_HOLM);
    assert_false(family_control_from_name("sidak", &control));
    assert_false(family_init(&holm, FAMILY_HOLM, 0, 0.05, 0.05, &err));
    assert_string_equal(err.text, "a family of 0 tests: 1 to 64");
}

/* A look takes H1s from the top while each passes the next level, H0s from the bottom. */
static void look__down_the_ladder(void **state) {
    (void)state;
    Family f;
    Error err;
    assert_true(family_init(&f, FAMILY_HOLM, 5, 0.05, 0.05, &err));
    double llr[5] = {4.0, 5.0, 3.0, -1.0, -4.7};
    /* 5.0 >= log 99 = 4.595: H1; 4.0 < log 79 = 4.369: stop. -4.7 <= -4.595: H0; -1: stop. */
    assert_int_equal(family_look(&f, llr), 2);
    assert_int_equal(f.decision[1], FAMILY_H1);
    assert_int_equal(f.decision[4], FAMILY_H0);
    assert_int_equal(f.decision[0], FAMILY_OPEN);
    llr[0] = 4.4; /* now >= log 79: H1, and 3.0 < log 59 = 4.078 stops the climb */
    assert_int_equal(family_look(&f, llr), 1);
    assert_int_equal(f.decision[0], FAMILY_H1);
    assert_int_equal(f.decision[2], FAMILY_OPEN);
    assert_int_equal(f.h1, 2);
    assert_int_equal(f.h0, 1);
}

static TournamentSetup gauntlet_of(int candidates, const double nelo[], FamilyControl control,
                                   int threads) {
    TournamentSetup s = {.count = candidates + 1,
                         .draws = 0.5,
                         .params = {.elo0 = 0,
                                    .elo1 = 20,
                                    .alpha = 0.05,
                                    .beta = 0.05,
                                    .model = SPRT_MODEL_NORMALIZED},
                         .control = control,
                         .max_pairs = 100000,
                         .batch = 4, /* a look every 4 pairs: 4 times fewer LLRs */
                         .runs = 400,
                         .seed = 42,
                         .threads = threads};
    for (int e = 1; e <= candidates; e++) {
        s.nelo[e] = nelo[e - 1];
        s.elo[e] = simulate_elo_of_nelo(nelo[e - 1], s.draws);
    }
    return s;
}

/* Five null candidates at [0, 20]: any accepted in at most alpha + 3 binomial errors of the
 * 400 runs with Holm or Bonferroni; without a correction in about 1 - 0.95^5 = 22.6% (seen:
 * 3.5%, 3.7% and 22.2% over 600 runs, Holm in 5,969 pairs a run, Bonferroni 6,974). */
static void gauntlet__family_wise_error(void **state) {
    (void)state;
    const double nulls[5] = {0, 0, 0, 0, 0};
    double error = 3 * sqrt(0.05 * 0.95 / 400);
    TournamentResult holm, bonferroni, none, holm_one_thread;
    Error err;
    TournamentSetup s = gauntlet_of(5, nulls, FAMILY_HOLM, 2);
    assert_true(simulate_gauntlet(&s, &holm, &err));
    s.threads = 1;
    assert_true(simulate_gauntlet(&s, &holm_one_thread, &err));
    assert_memory_equal(&holm, &holm_one_thread, sizeof holm);
    s = gauntlet_of(5, nulls, FAMILY_BONFERRONI, 2);
    assert_true(simulate_gauntlet(&s, &bonferroni, &err));
    s = gauntlet_of(5, nulls, FAMILY_NONE, 2);
    assert_true(simulate_gauntlet(&s, &none, &err));
    double rate_holm = (double)holm.null_accepted / 400,
           rate_bonferroni = (double)bonferroni.null_accepted / 400,
           rate_none = (double)none.null_accepted / 400;
    if (rate_holm > 0.05 + error || rate_bonferroni > 0.05 + error || rate_none < 0.12)
        fail_msg("any null accepted: Holm %.3f, Bonferroni %.3f, none %.3f", rate_holm,
                 rate_bonferroni, rate_none);
    for (int e = 1; e <= 5; e++)
        assert_int_equal(holm.open[e], 0);
}

/* One real candidate (+30 nElo, above elo1) among four nulls: Holm accepts it at least as
 * often as Bonferroni and with no more pairs on average. */
static void gauntlet__holm_no_worse_than_bonferroni(void **state) {
    (void)state;
    const double nelo[5] = {30, 0, 0, 0, 0};
    TournamentResult holm, bonferroni;
    Error err;
    TournamentSetup s = gauntlet_of(5, nelo, FAMILY_HOLM, 2);
    assert_true(simulate_gauntlet(&s, &holm, &err));
    s.control = FAMILY_BONFERRONI;
    assert_true(simulate_gauntlet(&s, &bonferroni, &err));
    assert_true(holm.h1[1] >= bonferroni.h1[1]);
    assert_true(holm.mean_total_pairs <= bonferroni.mean_total_pairs);
    assert_true((double)holm.h1[1] / 400 > 0.9);
}

/* Six engines at true nElo 0, 10, ..., 50 in round robins of 200 pairs a pairing: each
 * engine's interval covers its true Elo in 95% of 600 runs, within three binomial errors. */
static void round_robin__coverage(void **state) {
    (void)state;
    TournamentSetup s = {.count = 6, .draws = 0.5, .pairs = 200, .runs = 600, .seed = 7,
                         .threads = 2, .batch = 1};
    for (int e = 0; e < 6; e++) {
        s.nelo[e] = 10.0 * e;
        s.elo[e] = simulate_elo_of_nelo(s.nelo[e], s.draws);
    }
    TournamentResult r;
    Error err;
    assert_true(simulate_round_robin(&s, &r, &err));
    double error = 3 * sqrt(0.05 * 0.95 / 600);
    for (int e = 1; e < 6; e++) {
        double rate = (double)r.covered[e] / 600;
        if (fabs(rate - 0.95) > error)
            fail_msg("engine %d: covered in %.1f%%", e + 1, 100 * rate);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ladders__bounds_of_each_control),
        cmocka_unit_test(look__down_the_ladder),
        cmocka_unit_test(gauntlet__family_wise_error),
        cmocka_unit_test(gauntlet__holm_no_worse_than_bonferroni),
        cmocka_unit_test(round_robin__coverage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
