// SPDX-License-Identifier: MIT
// Every double of every file kind a tool reads back (results, tuning and booktest files) reads
// back to the same bits: each is filled with random values of full 53-bit precision, written
// as the tools write it (output_write_json), read by the tool's own reader and compared bit for
// bit.
// cJSON's writer kept 15 digits whenever they read back within DBL_EPSILON: about 13% of such
// values came back different, and a resumed tuning run drifted.
#include "test_util.h"

#include "booktest_file.h"
#include "output.h"
#include "results_load.h"
#include "tune_file.h"

#include <cJSON.h>
#include <math.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"
#define ROUNDS 200 /* random files of each kind */

static char dir[256];

static int setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "exact_numbers");
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

/* A double in [low, high] with all 53 bits of its mantissa random. */
static double random_real(Rng *rng, double low, double high) {
    double unit = (double)(rng_next(rng) >> 11) * 0x1p-53;
    return low + (high - low) * unit;
}

static void assert_same_bits(double written, double read, const char *what, int round) {
    if (memcmp(&written, &read, sizeof written))
        fail_msg("round %d: %s written %.17g, read back %.17g", round, what, written, read);
}

/* json written as every tool writes a file (output_write_json) to DIR/name, whose path is
 * returned; json is released. */
static const char *written_file(cJSON *json, const char *name) {
    static char path[512];
    Error err;
    assert_non_null(json);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    OutputPlan plan;
    if (!output_plan_single(&plan, "-out", path, &err) ||
        !output_write_json(&plan, json, path, &err))
        fail_msg("%s", err.text);
    cJSON_Delete(json);
    return path;
}

static void tuning__random_theta_and_schedules_read_back(void **state) {
    (void)state;
    Rng rng = rng_seeded(40);
    char *arguments[] = {"-param", "x, float, 1, 0, 2, 1, 0.002", "-iterations", "9"};
    for (int round = 0; round < ROUNDS; round++) {
        TuneRecord written, read;
        Error err;
        tune_record_init(&written);
        tune_record_init(&read);
        assert_true(word_list_set(&written.arguments, 4, arguments, &err));
        written.count = 1 + (int)rng_below(&rng, 4);
        written.iterations = 9;
        for (int i = 0; i < written.count; i++) {
            SpsaParam *p = &written.params[i];
            snprintf(p->name, sizeof p->name, "p%d", i);
            p->type = SPSA_FLOAT;
            p->min = random_real(&rng, -1000, 0);
            p->max = random_real(&rng, 1, 1000);
            p->start = random_real(&rng, p->min, p->max);
            p->c_end = random_real(&rng, 1e-6, 100);
            p->r_end = random_real(&rng, 1e-9, 1);
        }
        int steps = (int)rng_below(&rng, 10);
        for (int k = 0; k < steps; k++) {
            TuneStep step;
            for (int i = 0; i < written.count; i++) {
                const SpsaParam *p = &written.params[i];
                step.c[i] = random_real(&rng, 1e-6, 100);
                step.a[i] = random_real(&rng, 1e-9, 10);
                step.delta[i] = rng_below(&rng, 2) ? 1 : -1;
                step.theta[i] = random_real(&rng, p->min, p->max);
            }
            step.score = (double)rng_below(&rng, 41) - 20;
            assert_true(tune_record_push(&written, &step, &err));
        }
        for (int i = 0; i < written.count; i++)
            written.params[i].value =
                steps ? written.steps[steps - 1].theta[i] : written.params[i].start;
        const char *path = written_file(tune_record_to_json(&written), "tune.json");
        if (!tune_record_load(path, &read, &err))
            fail_msg("round %d: %s", round, err.text);
        assert_int_equal(read.count, written.count);
        assert_int_equal(read.done, written.done);
        for (int i = 0; i < written.count; i++) {
            const SpsaParam *w = &written.params[i], *r = &read.params[i];
            assert_same_bits(w->min, r->min, "min", round);
            assert_same_bits(w->max, r->max, "max", round);
            assert_same_bits(w->start, r->start, "start", round);
            assert_same_bits(w->value, r->value, "value", round);
            assert_same_bits(w->c_end, r->c_end, "c_end", round);
            assert_same_bits(w->r_end, r->r_end, "r_end", round);
            for (int k = 0; k < steps; k++) {
                const TuneStep *ws = &written.steps[k], *rs = &read.steps[k];
                assert_same_bits(ws->c[i], rs->c[i], "c", round);
                assert_same_bits(ws->a[i], rs->a[i], "a", round);
                assert_same_bits(ws->delta[i], rs->delta[i], "delta", round);
                assert_same_bits(ws->theta[i], rs->theta[i], "theta", round);
                assert_same_bits(ws->score, rs->score, "score", round);
            }
        }
        tune_record_destroy(&written);
        tune_record_destroy(&read);
    }
}

/* The booktest reader recomputes every cell's figures from its counts and refuses a figure
 * that is not the same double: random counts that read back are figures that read back. */
static void booktest__random_cells_read_back(void **state) {
    (void)state;
    Rng rng = rng_seeded(41);
    char *arguments[] = {"-book", "b.txt", "-diff", "killers=off"};
    BooktestRecord *written = malloc(sizeof *written), *read = malloc(sizeof *read);
    assert_non_null(written);
    assert_non_null(read);
    for (int round = 0; round < ROUNDS; round++) {
        Error err;
        booktest_record_init(written);
        booktest_record_init(read);
        assert_true(word_list_set(&written->arguments, 4, arguments, &err));
        written->book_count = 1 + (int)rng_below(&rng, 3);
        written->diff_count = 1 + (int)rng_below(&rng, 3);
        written->pairs = 1 + (int)rng_below(&rng, 5000);
        for (int b = 0; b < written->book_count; b++) {
            snprintf(written->books[b].path, sizeof written->books[b].path, "book%d.txt", b);
            written->books[b].hash = rng_next(&rng);
            written->books[b].positions = written->pairs + (int)rng_below(&rng, 100);
        }
        for (int d = 0; d < written->diff_count; d++)
            snprintf(written->differences[d], sizeof written->differences[d], "futility=%d", d);
        written->done = (int)rng_below(&rng, (uint64_t)(written->book_count *
                                                        written->diff_count) + 1);
        for (int c = 0; c < written->done; c++) {
            BooktestCell *cell = &written->cells[c];
            uint64_t left = (uint64_t)written->pairs;
            uint64_t *counts[6] = {&cell->penta.ll, &cell->penta.ld, &cell->penta.wl,
                                   &cell->penta.dd, &cell->penta.wd, &cell->penta.ww};
            for (int i = 0; i < 5; i++) {
                *counts[i] = rng_below(&rng, left + 1);
                left -= *counts[i];
            }
            *counts[5] = left;
            cell->game_draws = (int64_t)rng_below(&rng, 2 * (uint64_t)written->pairs + 1);
            cell->plies = (int64_t)rng_below(&rng, 400 * (uint64_t)written->pairs);
            booktest_cell_finish(cell, written->pairs);
        }
        const char *path = written_file(booktest_record_to_json(written), "booktest.json");
        if (!booktest_record_load(path, read, &err))
            fail_msg("round %d: %s", round, err.text);
        assert_int_equal(read->done, written->done);
        for (int c = 0; c < written->done; c++) {
            const BooktestCell *w = &written->cells[c], *r = &read->cells[c];
            assert_same_bits(w->estimate.elo, r->estimate.elo, "elo", round);
            assert_same_bits(w->estimate.nelo_high, r->estimate.nelo_high, "nelo_high", round);
            assert_same_bits(w->plies_per_game, r->plies_per_game, "plies_per_game", round);
            assert_same_bits(w->expected_pairs, r->expected_pairs, "expected_pairs", round);
            assert_same_bits(w->pass_probability, r->pass_probability, "pass_probability",
                             round);
        }
        booktest_record_destroy(written);
        booktest_record_destroy(read);
    }
    free(written);
    free(read);
}

/* A real results file (a short SPRT match), its doubles replaced by random ones: the SPRT
 * trajectory, the overshoot correction's sums and the times. */
static void results__random_trajectory_sums_and_times_read_back(void **state) {
    (void)state;
    char command[2048], path[512], *out;
    snprintf(path, sizeof path, "%s/base.json", dir);
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b killers=off -each nodes=200 -rounds 12 "
                    "-ratinginterval 2 -sprt elo0=0 elo1=5 -openings file=" BOOK
                    " -concurrency 1 -quiet -out %s",
             path);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
    ResultsFile base;
    Error err;
    if (!results_load(path, &base, &err))
        fail_msg("%s", err.text);
    assert_true(base.totals.trajectory_count >= 6);
    assert_true(base.settings.sprt.overshoot);
    Rng rng = rng_seeded(42);
    for (int round = 0; round < ROUNDS; round++) {
        MatchTotals *t = &base.totals;
        for (int i = 0; i < t->trajectory_count; i++) {
            TrajectoryPoint *p = &t->trajectory[i];
            p->llr = random_real(&rng, -2.9, 2.9);
            p->elo = random_real(&rng, -500, 500);
            p->elo_low = p->elo - random_real(&rng, 0, 300);
            p->elo_high = p->elo + random_real(&rng, 0, 300);
        }
        double *sums[6] = {&t->overshoot.ref0, &t->overshoot.m0, &t->overshoot.sq0,
                           &t->overshoot.ref1, &t->overshoot.m1, &t->overshoot.sq1};
        /* As the reader allows them: a reference LLR; the drops' sum (at most 0) and the
         * rises' (at least 0); sums of squares. */
        t->overshoot.ref0 = random_real(&rng, -50, 50);
        t->overshoot.m0 = random_real(&rng, -50, 0);
        t->overshoot.sq0 = random_real(&rng, 0, 2500);
        t->overshoot.ref1 = random_real(&rng, -50, 50);
        t->overshoot.m1 = random_real(&rng, 0, 50);
        t->overshoot.sq1 = random_real(&rng, 0, 2500);
        /* Inactive, so that its margins (0) leave the decision the counts give: an active
         * state's random margins would move the bounds, and the reader refuses a decision
         * its counts and margins do not give (results_check.h). The sums still go both ways. */
        t->overshoot.active = false;
        t->seconds = random_real(&rng, 0, 1e6);
        const char *written = written_file(results_to_json(&base.settings, t, base.state,
                                                           base.book_hash, base.book_positions,
                                                           "abtest"),
                                           "results.json");
        ResultsFile read;
        if (!results_load(written, &read, &err))
            fail_msg("round %d: %s", round, err.text);
        assert_int_equal(read.totals.trajectory_count, t->trajectory_count);
        for (int i = 0; i < t->trajectory_count; i++) {
            const TrajectoryPoint *w = &t->trajectory[i], *r = &read.totals.trajectory[i];
            assert_same_bits(w->llr, r->llr, "llr", round);
            assert_same_bits(w->elo, r->elo, "elo", round);
            assert_same_bits(w->elo_low, r->elo_low, "elo_low", round);
            assert_same_bits(w->elo_high, r->elo_high, "elo_high", round);
        }
        const double *read_sums[6] = {&read.totals.overshoot.ref0, &read.totals.overshoot.m0,
                                      &read.totals.overshoot.sq0, &read.totals.overshoot.ref1,
                                      &read.totals.overshoot.m1, &read.totals.overshoot.sq1};
        for (int i = 0; i < 6; i++)
            assert_same_bits(*sums[i], *read_sums[i], RESULTS_OVERSHOOT_SUMS[i], round);
        assert_same_bits(t->seconds, read.totals.seconds, "seconds", round);
        totals_destroy(&read.totals);
    }
    totals_destroy(&base.totals);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tuning__random_theta_and_schedules_read_back),
        cmocka_unit_test(booktest__random_cells_read_back),
        cmocka_unit_test(results__random_trajectory_sums_and_times_read_back),
    };
    return tslab_run_tests_setup("exact_numbers", tests, sizeof tests / sizeof *tests, argc, argv,
                                 setup, teardown);
}
