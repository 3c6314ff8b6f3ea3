// SPDX-License-Identifier: MIT
// build/abtest end to end: identical results for any concurrency, interrupt and resume (in
// process, SIGINT and kill -9) ending exactly as an uninterrupted run, self-play at Elo 0, and
// clear errors for bad books and options.
#include "test_util.h"

#include <cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"
/* A fast match: 2000-node searches, decided by SPRT in a few hundred pairs. */
#define MATCH ABTEST " -engine name=base killers=off hint=off -engine name=cand -each nodes=1000" \
                     " -openings file=" BOOK " -sprt elo0=0 elo1=10 -quiet"

static char dir[64];

static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/tslab_abtest_%d", (int)getpid());
    char command[512];
    snprintf(command, sizeof command, "rm -rf %s && mkdir -p %s", dir, dir);
    return system(command) == 0 ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char command[512];
    snprintf(command, sizeof command, "rm -rf %s", dir);
    return system(command) == 0 ? 0 : -1;
}

static char *slurp(const char *path) {
    char *text = test_read_file(path);
    if (!text)
        fail_msg("cannot read %s", path);
    return text;
}

static cJSON *load(const char *path) {
    char *text = slurp(path);
    cJSON *json = cJSON_Parse(text);
    free(text);
    if (!json)
        fail_msg("%s: not JSON", path);
    return json;
}

/* The keys that must agree between two runs of the same experiment (timing and the number of
 * discarded in-flight pairs may differ). */
static void assert_same_results(const char *a_path, const char *b_path) {
    static const char *const keys[] = {"pairs", "pentanomial", "pentanomial_detail", "wdl",
                                       "llr", "decision", "decision_pair", "elo", "elo_ci95",
                                       "nelo", "los", "engines", "candidate_as_tigers",
                                       "candidate_as_sheep", "end_reasons", "trajectory",
                                       "plies", "book"};
    cJSON *a = load(a_path), *b = load(b_path);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char *x = cJSON_PrintUnformatted(cJSON_GetObjectItem(a, keys[i]));
        char *y = cJSON_PrintUnformatted(cJSON_GetObjectItem(b, keys[i]));
        if (!x || !y || strcmp(x, y))
            fail_msg("%s differs between %s and %s:\n%.300s\n%.300s", keys[i], a_path, b_path,
                     x ? x : "(missing)", y ? y : "(missing)");
        free(x);
        free(y);
    }
    cJSON_Delete(a);
    cJSON_Delete(b);
}

static void assert_same_file(const char *a_path, const char *b_path) {
    char *x = slurp(a_path), *y = slurp(b_path);
    if (strcmp(x, y))
        fail_msg("%s and %s differ", a_path, b_path);
    free(x);
    free(y);
}

/* The reference: one uninterrupted run on one worker. */
static void reference_run(void) {
    char command[4096], path[512];
    snprintf(path, sizeof path, "%s/one.json", dir);
    if (access(path, F_OK) == 0)
        return;
    snprintf(command, sizeof command, MATCH " -concurrency 1 -out %s/one.json -pgnout file=%s/one.pgn",
             dir, dir);
    assert_int_equal(test_run(command, NULL), 0);
}

static void concurrency__one_and_three_give_identical_results_and_records(void **state) {
    (void)state;
    reference_run();
    char command[4096], a[512], b[512];
    snprintf(command, sizeof command,
             MATCH " -concurrency 3 -out %s/three.json -pgnout file=%s/three.pgn", dir, dir);
    assert_int_equal(test_run(command, NULL), 0);
    snprintf(a, sizeof a, "%s/one.json", dir);
    snprintf(b, sizeof b, "%s/three.json", dir);
    assert_same_results(a, b);
    snprintf(a, sizeof a, "%s/one.pgn", dir);
    snprintf(b, sizeof b, "%s/three.pgn", dir);
    assert_same_file(a, b);
    /* The run decided, and its file says so in the required keys. */
    snprintf(a, sizeof a, "%s/one.json", dir);
    cJSON *json = load(a);
    const char *decision = cJSON_GetStringValue(cJSON_GetObjectItem(json, "decision"));
    assert_true(!strcmp(decision, "H0") || !strcmp(decision, "H1"));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(json, "pentanomial")), 5);
    assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(json, "wdl"), "wins"));
    assert_true(cJSON_IsArray(cJSON_GetObjectItem(json, "elo_ci95")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(json, "reproducible")));
    cJSON_Delete(json);
}

static void interrupt__in_process_then_resume_twice_matches(void **state) {
    (void)state;
    reference_run();
    char command[4096], a[512], b[512];
    snprintf(command, sizeof command,
             MATCH " -concurrency 2 -out %s/cut.json -pgnout file=%s/cut.pgn -debug-stopafter 37",
             dir, dir);
    char *out;
    assert_int_equal(test_run(command, &out), 130);
    assert_non_null(strstr(out, "resume with: build/abtest -resume"));
    free(out);
    snprintf(command, sizeof command, ABTEST " -resume %s/cut.json -quiet -debug-stopafter 41", dir);
    assert_int_equal(test_run(command, NULL), 130);
    snprintf(command, sizeof command, ABTEST " -resume %s/cut.json -quiet -concurrency 3", dir);
    assert_int_equal(test_run(command, NULL), 0);
    snprintf(a, sizeof a, "%s/one.json", dir);
    snprintf(b, sizeof b, "%s/cut.json", dir);
    assert_same_results(a, b);
    cJSON *json = load(b);
    assert_int_equal(cJSON_GetObjectItem(json, "sessions")->valueint, 3);
    cJSON_Delete(json);
    snprintf(a, sizeof a, "%s/one.pgn", dir);
    snprintf(b, sizeof b, "%s/cut.pgn", dir);
    assert_same_file(a, b);
}

/* Starts a run in the background, lets it checkpoint, kills it with sig, then resumes it. */
static void interrupt_with_signal(int sig, const char *name) {
    reference_run();
    char command[4096], json_path[512], a[512], b[512];
    snprintf(json_path, sizeof json_path, "%s/%s.json", dir, name);
    snprintf(command, sizeof command,
             MATCH " -concurrency 2 -out %s -pgnout file=%s/%s.pgn >/dev/null",
             json_path, dir, name);
    pid_t child = fork();
    if (child == 0) {
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    /* Wait (at most 20 s) until a checkpoint exists, then stop it mid-run. */
    for (int i = 0; i < 400 && access(json_path, F_OK) != 0; i++) {
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "pkill -%d -f 'out %s'", sig, json_path);
    if (system(pattern) != 0) { /* it may have finished already: resume must then be a no-op */
    }
    int status;
    waitpid(child, &status, 0);
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", json_path);
    assert_int_equal(test_run(command, NULL), 0);
    snprintf(a, sizeof a, "%s/one.json", dir);
    assert_same_results(a, json_path);
    snprintf(a, sizeof a, "%s/one.pgn", dir);
    snprintf(b, sizeof b, "%s/%s.pgn", dir, name);
    assert_same_file(a, b);
}

static void interrupt__sigint_then_resume_matches(void **state) {
    (void)state;
    interrupt_with_signal(SIGINT, "sigint");
}

static void interrupt__kill_9_then_resume_matches(void **state) {
    (void)state;
    interrupt_with_signal(SIGKILL, "kill9");
}

static void self_play__elo_zero_and_never_h1(void **state) {
    (void)state;
    char command[4096], path[512];
    snprintf(path, sizeof path, "%s/self.json", dir);
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b -each nodes=1000 -openings file=" BOOK
                    " -sprt elo0=0 elo1=10 -quiet -rounds 400 -out %s", path);
    assert_int_equal(test_run(command, NULL), 0);
    cJSON *json = load(path);
    /* Equal deterministic engines replay game 1 with the names swapped in game 2: every pair
     * scores exactly 1, so Elo is 0 and the test can only reject. */
    assert_float_equal(cJSON_GetObjectItem(json, "elo")->valuedouble, 0, 1e-9);
    assert_string_not_equal(cJSON_GetStringValue(cJSON_GetObjectItem(json, "decision")), "H1");
    const cJSON *penta = cJSON_GetObjectItem(json, "pentanomial");
    assert_int_equal(cJSON_GetArrayItem(penta, 0)->valueint, 0);
    assert_int_equal(cJSON_GetArrayItem(penta, 4)->valueint, 0);
    cJSON_Delete(json);
}

typedef struct {
    const char *arguments;
    const char *message;
    const char *why;
} ErrorRow;

static const ErrorRow error_rows[] = {
    {"-engine name=a -engine name=b -each nodes=10 -openings file=/nonexistent.txt -rounds 2",
     "/nonexistent.txt: cannot open", "missing book"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -concurency 2",
     "unknown option '-concurency' (did you mean '-concurrency'?)", "typo"},
    {"-engine name=a -engine name=b -each nodes=10 -sprt elo0=5 elo1=0",
     "elo0 (5) must be less than elo1 (0)", "bounds swapped"},
    {"-engine name=a -engine name=b -each nodes=10 -sprt elo0=0 elo1=5 alpha=0.5 beta=0.5",
     "alpha + beta (1) must be less than 1", "alpha + beta"},
    {"-engine name=a -each nodes=10 -rounds 2", "exactly two engines", "one engine"},
    {"-engine name=a -engine name=b -rounds 2", "engine a has no limit", "no limit"},
    {"-engine name=a kilers=off -engine name=b -each nodes=10 -rounds 2",
     "unknown option 'kilers' (did you mean 'killers'?)", "engine option typo"},
    {"-engine name=a -engine name=a -each nodes=10 -rounds 2", "different names", "same names"},
    {"-engine name=a -engine name=b -each nodes=10", "give -rounds N, -sprt", "no end"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -openings file=x order=shuffle",
     "order: 'shuffle' is not allowed", "bad order"},
};

static void errors__books_and_options(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof error_rows / sizeof error_rows[0]; i++) {
        char command[4096], *out;
        snprintf(command, sizeof command, ABTEST " %s", error_rows[i].arguments);
        int status = test_run(command, &out);
        if (status == 0 || !strstr(out, error_rows[i].message))
            fail_msg("row %zu (%s): exit %d, '%s', expected '%s'", i, error_rows[i].why, status,
                     out, error_rows[i].message);
        free(out);
    }
    /* A malformed book line names file and line; a finished game is not an opening. */
    char book[512], command[1024], *out;
    snprintf(book, sizeof book, "%s/bad_book.txt", dir);
    FILE *f = fopen(book, "w");
    fputs("T3T/5/5/5/T3T s 20 0 ; ok\nT3T/5/5/5/T3T s 15 5 ; over\n", f);
    fclose(f);
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b -each nodes=10 -rounds 2 -openings file=%s", book);
    assert_int_not_equal(test_run(command, &out), 0);
    char expected[1024];
    snprintf(expected, sizeof expected, "%s:2: col 1: the game is already over", book);
    if (!strstr(out, expected))
        fail_msg("'%s', expected '%s'", out, expected);
    free(out);
    /* Resuming with a different experiment says what differs. */
    reference_run();
    snprintf(command, sizeof command,
             ABTEST " -engine name=base -engine name=cand -each nodes=999 -openings file=" BOOK
                    " -sprt elo0=0 elo1=10 -resume %s/one.json", dir);
    assert_int_not_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "the run differs from the results file in: engine base options"));
    free(out);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(concurrency__one_and_three_give_identical_results_and_records),
        cmocka_unit_test(interrupt__in_process_then_resume_twice_matches),
        cmocka_unit_test(interrupt__sigint_then_resume_matches),
        cmocka_unit_test(interrupt__kill_9_then_resume_matches),
        cmocka_unit_test(self_play__elo_zero_and_never_h1),
        cmocka_unit_test(errors__books_and_options),
    };
    return tslab_run_tests_setup("abtest", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 setup, teardown);
}
