// SPDX-License-Identifier: MIT
// abtest booktest on a tiny book: one row per book and difference with numbers that agree with
// its pentanomial, the same cells for 1 and 2 threads, the comparison line, and options refused
// by name before any game.
#include "test_util.h"

#include "booktest_file.h"

#include "json_text.h"

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
    assert_true(cJSON_Compare(cJSON_GetObjectItem(one, "cells"), cJSON_GetObjectItem(two, "cells"),
                              true));
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(one, "state")), "finished");
    const cJSON *cells = cJSON_GetObjectItem(one, "cells"), *cell;
    assert_int_equal(cJSON_GetArraySize(cells), 4);
    cJSON_ArrayForEach(cell, cells) {
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
    const cJSON *cell = cJSON_GetArrayItem(cJSON_GetObjectItem(cells, "cells"), 0);
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
    SprtParams five = {.elo0 = 0,
                       .elo1 = 5,
                       .alpha = 0.05,
                       .beta = 0.05,
                       .model = SPRT_MODEL_NORMALIZED,
                       .overshoot = false};
    double pass, pairs;
    assert_true(
        sprt_plan_pairs(&five, cJSON_GetObjectItem(cell, "nelo")->valuedouble, &pass, &pairs));
    assert_float_equal(cJSON_GetObjectItem(cell, "expected_pairs")->valuedouble, pairs, 1e-9);
    cJSON_Delete(cells);
    cJSON_Delete(match);
}

static void save_text(const char *name, const char *text) {
    test_write_file_in(dir, name, text);
}

/* name's booktest file as it stood after keep cells, as to. */
static void cut_cells(const char *name, const char *to, int keep) {
    cJSON *json = load(name);
    cJSON *cells = cJSON_GetObjectItem(json, "cells");
    while (cJSON_GetArraySize(cells) > keep)
        cJSON_DeleteItemFromArray(cells, keep);
    cJSON_ReplaceItemInObject(json, "state", cJSON_CreateString("running"));
    char *text = json_text(json);
    save_text(to, text);
    free(text);
    cJSON_Delete(json);
}

static void assert_same_cells(const char *a, const char *b) {
    test_assert_same_key_in(dir, a, b, "cells");
}

static int run_in_dir(const char *arguments, char **out) {
    char command[4096];
    snprintf(command, sizeof command, "cd %s && " ABTEST " %s 2>&1", dir, arguments);
    return test_run(command, out);
}

/* A booktest file cut after any cell resumes to the same cells, bit for bit; a fresh run over
 * an unfinished file is refused with its resume command; an edited cell, a changed book or
 * another build is refused on resume. */
static void resume__cut_at_any_cell_continues_to_the_same_cells(void **state) {
    (void)state;
    char *out;
    char *book = test_read_file(BOOK);
    save_text("b1.txt", book);
    free(book);
    const char *arguments = " booktest -book b1.txt -book " TSLAB_SOURCE_DIR "/bench/positions.txt"
                            " -diff killers=off -diff eval_mobility=6 -pairs 8 -each nodes=200";
    char command[2048];
    snprintf(command, sizeof command, "%s -json all.json", arguments);
    assert_int_equal(run_in_dir(command, &out), 0);
    free(out);
    for (int keep = 0; keep < 4; keep++) {
        char name[64];
        snprintf(name, sizeof name, "cut%d.json", keep);
        cut_cells("all.json", name, keep);
        snprintf(command, sizeof command, " booktest -resume %s", name);
        assert_int_equal(run_in_dir(command, &out), 0);
        assert_non_null(strstr(out, keep ? "(resumed)" : "pairs each"));
        assert_non_null(strstr(out, "against b1.txt:"));
        free(out);
        assert_same_cells("all.json", name);
    }
    cut_cells("all.json", "half.json", 2);
    snprintf(command, sizeof command, "%s -json half.json", arguments);
    assert_int_equal(run_in_dir(command, &out), 2);
    assert_non_null(strstr(out, "-json half.json holds an unfinished run (2 of 4 cells): continue "
                                "it with `"));
    free(out);
    /* An edited figure. */
    cJSON *json = load("half.json");
    cJSON *cell = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "cells"), 1);
    cJSON_ReplaceItemInObject(cell, "elo", cJSON_CreateNumber(99.5));
    char *text = json_text(json);
    save_text("edited.json", text);
    free(text);
    cJSON_Delete(json);
    assert_int_equal(run_in_dir(" booktest -resume edited.json", &out), 2);
    assert_non_null(strstr(out, "cell 2: \"elo\" is 99.5 where its counts give"));
    free(out);
    /* Another compiler's last bits read (clang's Elo of a gcc cell is 6e-15 off, relative); a
     * millionth more does not. */
    json = load("half.json");
    cell = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "cells"), 1);
    double elo = cJSON_GetObjectItem(cell, "elo")->valuedouble;
    const double moves[2] = {6e-15, 1e-6};
    for (int m = 0; m < 2; m++) {
        cJSON_ReplaceItemInObject(cell, "elo", cJSON_CreateNumber(elo * (1 + moves[m])));
        text = json_text(json);
        BooktestRecord *record = malloc(sizeof *record);
        assert_non_null(record);
        booktest_record_init(record);
        Error err;
        bool read = booktest_record_parse(text, strlen(text), "bits.json", record, &err);
        assert_true(m == 0 ? read : !read && strstr(err.text, "the cell was edited"));
        booktest_record_destroy(record);
        free(record);
        free(text);
    }
    cJSON_Delete(json);
    /* The book changed between sessions. */
    char *edited_book = test_read_file(BOOK);
    save_text("b1.txt", edited_book);
    free(edited_book);
    snprintf(command, sizeof command, "echo '# edited' >> %s/b1.txt", dir);
    assert_int_equal(system(command), 0);
    assert_int_equal(run_in_dir(" booktest -resume half.json", &out), 2);
    assert_non_null(strstr(out, "-resume: -book b1.txt has changed since the run started"));
    free(out);
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
        {" booktest -book /nonexistent.txt -diff killers=off -each nodes=100", "/nonexistent.txt"},
        {" booktest -book " BOOK " -diff killers=off -engine name=x",
         "booktest: -engine: not taken here, as abtest "
         "booktest makes its engines"},
        {" booktest -book " BOOK " -diff killers=off -pairs 0", "booktest: -pairs: "},
        {" booktest -book " BOOK " -diff killers=off -each nodes=100 -ratinginterval 5",
         "booktest: -ratinginterval: not taken here"},
        {" booktest -book " BOOK " -diff killers=off -each nodes=100 -tb",
         "booktest: -tb: not taken here"},
        {" booktest -book " BOOK " -diff killers=off", "has no limit"},
        {" booktest -book " BOOK " -diff 'killers=off -openings file=x.txt' -each nodes=100",
         "booktest: -diff \"killers=off -openings file=x.txt\": '-openings' is not an engine "
         "option"},
        {" booktest -book " BOOK " -diff 'killers=off -pgnout' -each nodes=100",
         "'-pgnout' is not an engine option"},
        {" booktest -book " BOOK " -diff 'name=x' -each nodes=100", "name= is booktest's"},
        {" booktest -book " TSLAB_SOURCE_DIR "/bench/positions.txt -diff killers=off -pairs 1000 "
         "-each nodes=100",
         "-pairs 1000 would replay openings, and replayed pairs are not independent"},
        {" booktest -book " BOOK " -diff killers=off -each nodes=100 -json " BOOK,
         "-json " BOOK " is also -book: writing it would destroy the input"},
        {" booktest -book " BOOK " -diff killers=off -each nodes=100 -json /dev/null",
         "is not a regular file (a character device)"},
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
        cmocka_unit_test(resume__cut_at_any_cell_continues_to_the_same_cells),
        cmocka_unit_test(errors__named_before_play),
    };
    return tslab_run_tests_setup("booktest", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 setup, teardown);
}
