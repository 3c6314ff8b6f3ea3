// SPDX-License-Identifier: MIT
// build/abtest tune end to end: the same trajectory whatever the number of threads, an exact
// resume (from a cut history and after kill -9), the tuning file's contents, an engine program
// tuned through setoption, and clear errors.
#include "test_util.h"

#include <cJSON.h>
#include <math.h>
#include <signal.h>
#include <sys/wait.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"
#define RUN                                                                                        \
    ABTEST " tune -param 'futility, int, 150, 0, 300, 10, 0.002' "                                 \
           "-param 'eval_mobility, int, 2, 0, 10, 1, 0.002' -iterations 6 -pairs 3 "               \
           "-each nodes=300 -openings file=" BOOK " -a-ratio 0.2"

static char dir[256];

static int setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "tune");
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

static int run(const char *arguments, char **out) {
    char command[2048];
    snprintf(command, sizeof command, "cd %s && timeout 120 %s 2>stderr.txt", dir, arguments);
    return test_run(command, out);
}

static cJSON *load(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = test_read_file(path);
    if (!text)
        fail_msg("%s missing", path);
    cJSON *json = cJSON_Parse(text);
    free(text);
    assert_non_null(json);
    return json;
}

static void assert_same_history(const char *a, const char *b) {
    cJSON *x = load(a), *y = load(b);
    char *hx = cJSON_PrintUnformatted(cJSON_GetObjectItem(x, "history"));
    char *hy = cJSON_PrintUnformatted(cJSON_GetObjectItem(y, "history"));
    assert_string_equal(hx, hy);
    free(hx);
    free(hy);
    cJSON_Delete(x);
    cJSON_Delete(y);
}

/* The file holds the inputs and one entry per iteration, k from 1, with c_k, a_k, delta and
 * theta per parameter; threads do not change a number. */
static void trajectory__same_for_any_concurrency(void **state) {
    (void)state;
    char *out;
    assert_int_equal(run(RUN " -concurrency 1 -out one.json", &out), 0);
    assert_non_null(strstr(out, "iteration 6/6"));
    assert_non_null(strstr(out, "engine: -engine name=tuned futility="));
    assert_non_null(strstr(out, "SPSA input (OpenBench, fishtest):\nfutility, int, "));
    free(out);
    assert_int_equal(run(RUN " -concurrency 2 -out two.json", &out), 0);
    free(out);
    assert_same_history("one.json", "two.json");

    cJSON *json = load("one.json");
    const cJSON *params = cJSON_GetObjectItem(json, "params");
    assert_int_equal(cJSON_GetArraySize(params), 2);
    const cJSON *first = cJSON_GetArrayItem(params, 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(first, "name")), "futility");
    assert_int_equal(cJSON_GetObjectItem(first, "c_end")->valuedouble, 10);
    const cJSON *history = cJSON_GetObjectItem(json, "history");
    assert_int_equal(cJSON_GetArraySize(history), 6);
    const cJSON *last = cJSON_GetArrayItem(history, 5);
    assert_int_equal(cJSON_GetObjectItem(last, "k")->valuedouble, 6);
    /* c_6 of futility is C_END at the last iteration; theta is the parameter's value. */
    assert_true(fabs(cJSON_GetArrayItem(cJSON_GetObjectItem(last, "c"), 0)->valuedouble - 10) <
                1e-9);
    assert_true(cJSON_GetArrayItem(cJSON_GetObjectItem(last, "theta"), 0)->valuedouble ==
                cJSON_GetObjectItem(first, "value")->valuedouble);
    double delta = cJSON_GetArrayItem(cJSON_GetObjectItem(last, "delta"), 1)->valuedouble;
    assert_true(delta == 1 || delta == -1);
    cJSON_Delete(json);
}

/* On a clock counted in nodes, time management is tuned as reproducibly as at fixed nodes (the
 * same history on 1 and 2 threads, and the parameter moved); on the wall clock the start line
 * says it is not reproducible. */
#define CLOCK_RUN                                                                                  \
    ABTEST " tune -param 'tm_soft, int, 60, 20, 200, 8, 0.02' -iterations 4 -pairs 2 "             \
           "-each tc=0.2+0.002 nodestime=300 -openings file=" BOOK
static void clock__tuned_on_nodestime_as_at_fixed_nodes(void **state) {
    (void)state;
    char *out;
    assert_int_equal(run(CLOCK_RUN " -concurrency 1 -out clock1.json", &out), 0);
    assert_null(strstr(out, "NOT reproducible"));
    free(out);
    assert_int_equal(run(CLOCK_RUN " -concurrency 2 -out clock2.json", &out), 0);
    free(out);
    assert_same_history("clock1.json", "clock2.json");
    cJSON *json = load("clock1.json");
    const cJSON *history = cJSON_GetObjectItem(json, "history");
    double moved = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, history) {
        moved += fabs(cJSON_GetArrayItem(cJSON_GetObjectItem(item, "theta"), 0)->valuedouble - 60);
    }
    assert_true(moved > 0); /* some iteration was decided by the time it managed */
    cJSON_Delete(json);
    assert_int_equal(run(ABTEST " tune -param 'tm_soft, int, 60, 20, 200, 8, 0.02' -iterations 1 "
                                "-pairs 1 -each tc=0.05+0.001 -openings file=" BOOK,
                         &out),
                     0);
    assert_non_null(strstr(out, "moves timed on the wall clock: the trajectory is NOT "
                                "reproducible"));
    free(out);
}

/* A history cut after 2 iterations resumes to the same 6; so does a run killed with -9. */
static void resume__continues_exactly(void **state) {
    (void)state;
    char *out;
    assert_int_equal(run(RUN " -concurrency 1 -out full.json", &out), 0);
    free(out);
    cJSON *json = load("full.json");
    cJSON *history = cJSON_GetObjectItem(json, "history");
    char *expected = cJSON_PrintUnformatted(history);
    while (cJSON_GetArraySize(history) > 2)
        cJSON_DeleteItemFromArray(history, 2);
    /* A copy of the run's file, still naming full.json as -out: the copy is the one resumed. */
    char *text = cJSON_Print(json);
    char path[512];
    snprintf(path, sizeof path, "%s/cut.json", dir);
    FILE *file = fopen(path, "w");
    fputs(text, file);
    fclose(file);
    free(text);
    cJSON_Delete(json);
    snprintf(path, sizeof path, "%s/full.json", dir);
    assert_int_equal(remove(path), 0);
    assert_int_equal(run(ABTEST " tune -resume cut.json", &out), 0);
    assert_non_null(strstr(out, "(resumed)"));
    assert_null(strstr(out, "iteration 2/6"));
    assert_non_null(strstr(out, "iteration 3/6"));
    free(out);
    assert_int_not_equal(access(path, F_OK), 0); /* the -out it names is left alone */
    json = load("cut.json");
    char *resumed = cJSON_PrintUnformatted(cJSON_GetObjectItem(json, "history"));
    assert_string_equal(resumed, expected);
    free(resumed);
    free(expected);
    cJSON_Delete(json);

    /* kill -9 once the first iteration is on disk, then resume. */
    char command[2048], killed[512];
    snprintf(killed, sizeof killed, "%s/killed.json", dir);
    snprintf(command, sizeof command,
             "cd %s && exec %s -concurrency 1 -iterations 40 -out killed.json >/dev/null 2>&1", dir,
             RUN);
    pid_t child = test_start_until(command, killed, 60);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    json = load("killed.json");
    int kept = cJSON_GetArraySize(cJSON_GetObjectItem(json, "history"));
    cJSON_Delete(json);
    if (kept < 1 || kept >= 40)
        fail_msg("the killed run had %d of 40 iterations on disk", kept);
    assert_int_equal(run(ABTEST " tune -resume killed.json", &out), 0);
    free(out);
    assert_int_equal(run(RUN " -concurrency 2 -iterations 40 -out whole.json", &out), 0);
    free(out);
    assert_same_history("whole.json", "killed.json");
}

/* An engine program (this build's engine) gets the values by setoption: the same games, so the
 * same trajectory as the configurations in process. */
static void program__tuned_through_setoption(void **state) {
    (void)state;
    const char *common = ABTEST " tune -param 'eval_mobility, int, 2, 0, 10, 1, 0.05' "
                                "-param 'eval_jumps, int, 20, 0, 80, 3, 0.01' -iterations 8 "
                                "-pairs 2 -openings file=" BOOK " -concurrency 2";
    char command[2048], *out;
    snprintf(command, sizeof command, "%s -each nodes=300 -out inproc.json", common);
    assert_int_equal(run(command, &out), 0);
    free(out);
    snprintf(command, sizeof command,
             "%s -each cmd=" TSLAB_BUILD_DIR "/engine nodes=300 -out program.json", common);
    assert_int_equal(run(command, &out), 0);
    free(out);
    assert_same_history("inproc.json", "program.json");
    cJSON *json = load("program.json");
    double moved = 0; /* the run must have moved, or the comparison says little */
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(json, "history")) {
        moved += fabs(cJSON_GetObjectItem(item, "score")->valuedouble);
    }
    cJSON_Delete(json);
    assert_true(moved > 0);
}

static void errors__name_what_is_wrong(void **state) {
    (void)state;
    const struct {
        const char *arguments, *message;
    } cases[] = {
        {"-iterations 5 -each nodes=300", "no parameter"},
        {"-param 'futility, int, 60, 0, 300, 10, 0.002' -each nodes=300", "-iterations N"},
        {"-param 'futilty, int, 60, 0, 300, 10, 0.002' -iterations 5 -each nodes=300",
         "-param: 'futilty' is not a search option"},
        {"-param 'futility, float, 60, 0, 300, 10, 0.002' -iterations 5 -each nodes=300",
         "futility is an integer option"},
        {"-param 'futility, int, 400, 0, 300, 10, 0.002' -iterations 5 -each nodes=300",
         "START 400 is outside"},
        {"-param 'killers, int, 1, 0, 1, 1, 0.002' -iterations 5 -each nodes=300", "on|off"},
        {"-param 'nodes, int, 1, 0, 1, 1, 0.002' -iterations 5 -each nodes=300", "a search limit"},
        {"-param 'lmr_depth, int, 3, 0, 8, 1, 0.002' -iterations 5 -each nodes=300",
         "goes beyond the values the option takes (2..64)"},
        {"-param 'futility, int, 60, 0, 300, 10, 0.002' -param 'futility, int, 60, 0, 300, 10, "
         "0.002' -iterations 5 -each nodes=300",
         "futility is given twice"},
        {"-param 'futility, int, 60, 0, 300, 10, 0.002' -iterations 5 -engine name=x",
         "-engine: abtest tune makes its two engines itself"},
        {"-params missing.txt -iterations 5", "-params: "},
        {"-resume missing.json", "-resume: "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char command[1024], *out;
        snprintf(command, sizeof command, ABTEST " tune %s", cases[i].arguments);
        assert_int_not_equal(run(command, &out), 0);
        free(out);
        char path[512];
        snprintf(path, sizeof path, "%s/stderr.txt", dir);
        char *errors = test_read_file(path);
        if (!strstr(errors, cases[i].message))
            fail_msg("%s: '%s' lacks '%s'", cases[i].arguments, errors, cases[i].message);
        free(errors);
    }
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trajectory__same_for_any_concurrency),
        cmocka_unit_test(clock__tuned_on_nodestime_as_at_fixed_nodes),
        cmocka_unit_test(resume__continues_exactly),
        cmocka_unit_test(program__tuned_through_setoption),
        cmocka_unit_test(errors__name_what_is_wrong),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
