// SPDX-License-Identifier: MIT
// abtest booktest on a tiny book: one row per book and difference with numbers that agree with
// its pentanomial, the same cells for 1 and 2 threads, the comparison line, and options refused
// by name before any game.
#include "test_util.h"

#include "sprt.h"

#include <math.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"
#define RUN                                                                                        \
    ABTEST " booktest -book " BOOK " -book " TSLAB_SOURCE_DIR "/bench/positions.txt"             \
           " -diff killers=off -diff 'eval_mobility=6 eval_jumps=5' -pairs 12 -each nodes=300"

static char dir[256];

static int setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "booktest");
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

static cJSON *load(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return test_load_json(path);
}

/* Each cell's pentanomial holds its pairs, its Elo has the pentanomial's sign, and its
 * expected pairs are positive; 1 and 2 threads give the same cells. */
static void cells__consistent_and_the_same_for_any_threads(void **state) {
    (void)state;
    char command[4096], *out;
    snprintf(command, sizeof command, RUN " -concurrency 1 -json %s/one.json", dir);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "booktest: 2 book(s) x 2 difference(s), 12 pairs each"));
    assert_non_null(strstr(out, "book_small.txt       killers=off"));
    assert_non_null(strstr(out, "positions.txt        eval_mobility=6 eval_jumps=5"));
    assert_non_null(strstr(out, "against book_small.txt:\n  positions.txt"));
    free(out);
    snprintf(command, sizeof command, RUN " -concurrency 2 -json %s/two.json", dir);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
    cJSON *one = load("one.json"), *two = load("two.json");
    assert_true(cJSON_Compare(one, two, true));
    assert_int_equal(cJSON_GetArraySize(one), 4);
    const cJSON *cell;
    cJSON_ArrayForEach(cell, one) {
        const cJSON *ptnml = cJSON_GetObjectItem(cell, "ptnml");
        double pairs = 0, half_points = 0;
        for (int i = 0; i < 5; i++) {
            double count = cJSON_GetArrayItem(ptnml, i)->valuedouble;
            pairs += count;
            half_points += i * count;
        }
        assert_true(pairs == 12);
        double elo = cJSON_GetObjectItem(cell, "elo")->valuedouble;
        double margin = half_points - 2 * pairs; /* wins minus losses of the first engine */
        assert_true(margin == 0 ? fabs(elo) < 1e-9 : (elo > 0) == (margin > 0));
        double draws = cJSON_GetObjectItem(cell, "pair_draw_ratio")->valuedouble;
        assert_true(fabs(draws - cJSON_GetArrayItem(ptnml, 2)->valuedouble / pairs) < 1e-12);
        assert_true(cJSON_GetObjectItem(cell, "expected_pairs")->valuedouble > 0);
    }
    cJSON_Delete(one);
    cJSON_Delete(two);
}

/* A cell is the match abtest plays with the same engines, book, seed and rounds: the same
 * pentanomial and the same plies a game (abtest's results file counts them apart). */
static void cell__is_the_abtest_match(void **state) {
    (void)state;
    char command[4096], *out;
    snprintf(command, sizeof command,
             ABTEST " booktest -book " BOOK " -diff killers=off -pairs 12 -each nodes=300 -srand 5 "
                    "-json %s/cell.json",
             dir);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
    snprintf(command, sizeof command,
             ABTEST " -engine name=variant killers=off -engine name=base -each nodes=300 "
                    "-openings file=" BOOK " -rounds 12 -srand 5 -quiet -out %s/match.json",
             dir);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
    cJSON *cells = load("cell.json"), *match = load("match.json");
    const cJSON *cell = cJSON_GetArrayItem(cells, 0);
    assert_non_null(cell);
    assert_true(cJSON_Compare(cJSON_GetObjectItem(cell, "ptnml"),
                              cJSON_GetObjectItem(match, "pentanomial"), true));
    double plies = cJSON_GetObjectItem(match, "plies")->valuedouble;
    double games = cJSON_GetObjectItem(match, "games")->valuedouble;
    assert_true(games == 24 && plies > games);
    assert_float_equal(cJSON_GetObjectItem(cell, "plies_per_game")->valuedouble, plies / games,
                       1e-12);
    /* The expected pairs are the plan of the cell's nElo (abtest sprt -plan's formula in
     * pairs, tested in test_sprt). */
    SprtParams five = {0, 5, 0.05, 0.05, SPRT_MODEL_NORMALIZED, false};
    double pass, pairs;
    assert_true(
        sprt_plan_pairs(&five, cJSON_GetObjectItem(cell, "nelo")->valuedouble, &pass, &pairs));
    assert_float_equal(cJSON_GetObjectItem(cell, "expected_pairs")->valuedouble, pairs, 1e-9);
    cJSON_Delete(cells);
    cJSON_Delete(match);
}

static void errors__named_before_play(void **state) {
    (void)state;
    static const struct {
        const char *arguments, *message;
    } cases[] = {
        {" booktest -diff killers=off", "booktest: no book: give -book FILE"},
        {" booktest -book " BOOK, "booktest: no difference: give -diff"},
        {" booktest -book " BOOK " -diff killers=maybe -each nodes=100",
         "booktest: -diff \"killers=maybe\", -book " BOOK ": "},
        {" booktest -book /nonexistent.txt -diff killers=off -each nodes=100",
         "/nonexistent.txt"},
        {" booktest -book " BOOK " -diff killers=off -engine name=x", "booktest: -engine: abtest "
                                                                       "booktest makes its engines"},
        {" booktest -book " BOOK " -diff killers=off -pairs 0", "booktest: -pairs: "},
        {" booktest -book " BOOK " -diff killers=off", "has no limit"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char command[1024], *out;
        snprintf(command, sizeof command, ABTEST "%s 2>&1", cases[i].arguments);
        int status = test_run(command, &out);
        if (status != 2 || !strstr(out, cases[i].message) || strstr(out, "booktest: 1 book"))
            fail_msg("%s: exit %d, wanted '%s':\n%s", cases[i].arguments, status,
                     cases[i].message, out);
        free(out);
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cells__consistent_and_the_same_for_any_threads),
        cmocka_unit_test(cell__is_the_abtest_match),
        cmocka_unit_test(errors__named_before_play),
    };
    return tslab_run_tests_setup("booktest", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 setup, teardown);
}
