// SPDX-License-Identifier: MIT
// The joint rating from pairs (lab/stats/rating.c): two engines give the match's own Elo,
// interval and nElo (sprt_estimate, checked against fishtest's figures in test_sprt); a gauntlet
// of one seed (a tree of pairings) gives each candidate its own match's figures; the fit solves
// the score equations (each engine's expected total is its actual one); a round robin of
// simulated pairs covers the true ratings in 95% of runs; bad pairings are refused, naming them.
#include "test_util.h"

#include "rating.h"
#include "rng.h"

#include <math.h>

static Pentanomial penta(uint64_t ll, uint64_t ld, uint64_t wl, uint64_t dd, uint64_t wd,
                         uint64_t ww) {
    return (Pentanomial){.ll = ll, .ld = ld, .wl = wl, .dd = dd, .wd = wd, .ww = ww};
}

static void assert_near(double a, double b, double tolerance, const char *what) {
    if (!(fabs(a - b) <= tolerance))
        fail_msg("%s: %.15g, wanted %.15g", what, a, b);
}

/* Two engines, either as the anchor: the match's estimate of the second from its side. */
static void two_engines__the_match_figures(void **state) {
    (void)state;
    const Pentanomial cases[] = {penta(20, 106, 200, 215, 154, 31), penta(37, 256, 200, 264, 220, 23),
                                 penta(0, 3, 0, 50, 9, 0), penta(5, 0, 0, 0, 0, 40)};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        SprtSample sample = sprt_sample_pentanomial(&cases[c]);
        SprtEstimate match = sprt_estimate(&sample);
        RatingPairing pairing = {.first = 1, .second = 0, .penta = cases[c]};
        RatingList list;
        Error err;
        assert_true(rating_fit(2, 0, NULL, &pairing, 1, &list, &err));
        const RatingEngine *r = &list.engines[1];
        assert_near(r->elo, match.elo, 1e-9, "Elo");
        assert_near(r->elo_low, match.elo_low, 1e-9, "Elo low");
        assert_near(r->elo_high, match.elo_high, 1e-9, "Elo high");
        assert_near(r->nelo, match.nelo, 1e-9, "nElo");
        assert_near(list.engines[0].elo, 0, 0, "the anchor");
        assert_int_equal(r->pairs, (int64_t)(cases[c].ll + cases[c].ld + cases[c].wl +
                                             cases[c].dd + cases[c].wd + cases[c].ww));
        assert_near(r->score + list.engines[0].score, 1, 1e-12, "the scores");
        /* The same pairs counted from the anchor's side. */
        const Pentanomial *p = &cases[c];
        RatingPairing mirrored = {.first = 0, .second = 1,
                                  .penta = penta(p->ww, p->wd, p->wl, p->dd, p->ld, p->ll)};
        assert_true(rating_fit(2, 0, NULL, &mirrored, 1, &list, &err));
        assert_near(list.engines[1].elo, match.elo, 1e-9, "Elo, mirrored");
        assert_near(list.engines[1].elo_high, match.elo_high, 1e-9, "Elo high, mirrored");
        assert_near(rating_los(&list, 1, 0), match.los, 0.02, "LOS");
    }
}

/* A gauntlet of one seed: every candidate's rating is its own match against the seed. */
static void gauntlet__each_candidate_its_own_match(void **state) {
    (void)state;
    RatingPairing pairings[3] = {
        {.first = 1, .second = 0, .penta = penta(10, 60, 40, 80, 70, 15)},
        {.first = 2, .second = 0, .penta = penta(25, 80, 30, 70, 50, 5)},
        {.first = 3, .second = 0, .penta = penta(12, 61, 35, 90, 62, 12)},
    };
    RatingList list;
    Error err;
    assert_true(rating_fit(4, 0, NULL, pairings, 3, &list, &err));
    for (int i = 0; i < 3; i++) {
        SprtSample sample = sprt_sample_pentanomial(&pairings[i].penta);
        SprtEstimate match = sprt_estimate(&sample);
        assert_near(list.engines[i + 1].elo, match.elo, 1e-9, "Elo");
        assert_near(list.engines[i + 1].elo_high, match.elo_high, 1e-9, "Elo high");
    }
    /* Candidates never met: their difference's variance is the sum of theirs. */
    assert_near(list.covariance[1][2], 0, 1e-9, "independent candidates");
}

/* A round robin with a cycle (A beats B beats C beats A, alike): all equal. And any round robin
 * meets its score equations: each engine's expected total over its pairs is its actual total. */
static void round_robin__score_equations(void **state) {
    (void)state;
    Pentanomial win = penta(5, 20, 10, 30, 30, 5);
    RatingPairing cycle[3] = {{0, 1, win}, {1, 2, win}, {2, 0, win}};
    RatingList list;
    Error err;
    assert_true(rating_fit(3, 0, NULL, cycle, 3, &list, &err));
    for (int e = 0; e < 3; e++)
        assert_near(list.engines[e].elo, 0, 1e-9, "a cycle's rating");
    RatingPairing mixed[6] = {
        {0, 1, penta(5, 20, 10, 30, 30, 5)}, {0, 2, penta(3, 10, 10, 20, 40, 17)},
        {0, 3, penta(1, 5, 6, 30, 40, 18)},  {1, 2, penta(8, 22, 15, 25, 25, 5)},
        {1, 3, penta(4, 15, 10, 30, 31, 10)}, {3, 2, penta(12, 30, 10, 28, 15, 5)},
    };
    assert_true(rating_fit(4, 0, NULL, mixed, 6, &list, &err));
    for (int e = 0; e < 4; e++) {
        double expected = 0, actual = 0;
        for (int p = 0; p < 6; p++) {
            int a = mixed[p].first, b = mixed[p].second;
            if (a != e && b != e)
                continue;
            SprtSample sample = sprt_sample_pentanomial(&mixed[p].penta);
            double n, mean, variance;
            sprt_sample_moments(&sample, &n, &mean, &variance);
            double d = (list.engines[a].elo - list.engines[b].elo) * log(10) / 400;
            double l = 1 / (1 + exp(-d));
            expected += n * (a == e ? l : 1 - l);
            actual += n * (a == e ? mean : 1 - mean);
        }
        assert_near(expected, actual, 1e-8, "an engine's total");
    }
    assert_true(list.iterations < 20);
    assert_true(rating_los(&list, 0, 2) > 0.5); /* 0 took more from 2 than 2 from anyone */
}

/* One game from the first's side at expected score mu and draw ratio draw: 0, 1 or 2 halves. */
static int game(Rng *rng, double mu, double draw) {
    double u = (double)(rng_next(rng) >> 11) / 9007199254740992.0;
    double win = mu - draw / 2;
    return u < win ? 2 : u < win + draw ? 1 : 0;
}

/* Coverage: 4 engines at true Elo 0, 15, 30, 45 in round robins of 150 pairs a pairing; over
 * 600 runs each engine's 95% interval holds its true rating in 95% of them (three binomial
 * errors: +/- 2.7%). */
static void round_robin__intervals_cover_the_truth(void **state) {
    (void)state;
    const double truth[4] = {0, 15, 30, 45};
    const int runs = 600, pairs = 150;
    int covered[4] = {0};
    for (int run = 0; run < runs; run++) {
        Rng rng = rng_for_index(20261203, run);
        RatingPairing pairings[6];
        int n = 0;
        for (int a = 0; a < 4; a++)
            for (int b = a + 1; b < 4; b++) {
                double mu = sprt_score_from_elo(truth[b] - truth[a]);
                Pentanomial t = {0};
                for (int k = 0; k < pairs; k++) {
                    int points = game(&rng, mu, 0.4) + game(&rng, mu, 0.4);
                    uint64_t *cells[5] = {&t.ll, &t.ld, &t.dd, &t.wd, &t.ww};
                    (*cells[points])++;
                }
                pairings[n++] = (RatingPairing){.first = b, .second = a, .penta = t};
            }
        RatingList list;
        Error err;
        assert_true(rating_fit(4, 0, NULL, pairings, n, &list, &err));
        for (int e = 1; e < 4; e++)
            covered[e] += list.engines[e].elo_low <= truth[e] && truth[e] <= list.engines[e].elo_high;
    }
    double error = 3 * sqrt(0.05 * 0.95 / runs);
    for (int e = 1; e < 4; e++) {
        double rate = (double)covered[e] / runs;
        if (fabs(rate - 0.95) > error)
            fail_msg("engine %d: covered in %.1f%% of %d runs", e, 100 * rate, runs);
    }
}

static void errors__named(void **state) {
    (void)state;
    RatingPairing pairings[2] = {{0, 1, penta(1, 2, 3, 4, 5, 6)}, {2, 2, penta(1, 1, 1, 1, 1, 1)}};
    RatingList list;
    Error err;
    assert_false(rating_fit(3, 0, NULL, pairings, 2, &list, &err));
    assert_string_equal(err.text, "pairing 2 joins engines 3 and 3 of 3");
    assert_false(rating_fit(3, 0, NULL, pairings, 1, &list, &err));
    assert_string_equal(err.text, "engine 3 has no pairs linking it to the anchor (engine 1)");
    assert_false(rating_fit(1, 0, NULL, pairings, 1, &list, &err));
    assert_string_equal(err.text, "a rating needs 2 to 64 engines, not 1");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_engines__the_match_figures),
        cmocka_unit_test(gauntlet__each_candidate_its_own_match),
        cmocka_unit_test(round_robin__score_equations),
        cmocka_unit_test(round_robin__intervals_cover_the_truth),
        cmocka_unit_test(errors__named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
