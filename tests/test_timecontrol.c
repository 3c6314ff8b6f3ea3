// SPDX-License-Identifier: MIT
// abtest on a clock (fastchess's tc=, st=, timemargin=, and fishtest's nodestime=): the grammar's
// errors as the command line gives them, time losses at the margin's boundary for a program that
// sleeps, the go line a program gets, the records (TimeControl tag, move comments, the results
// file's clock figures), and under nodestime the same games for any concurrency and after a
// resume. Every run is bounded to seconds.
#include "test_util.h"

#include <unistd.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define MOCK TSLAB_BUILD_DIR "/tests/mock_engine"
#define ENGINE TSLAB_BUILD_DIR "/engine"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"

static char dir[256];

static int setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "timecontrol");
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

static int run_abtest(const char *arguments, char **out, char **errors) {
    return test_abtest_in(dir, arguments, out, errors);
}

static char *read_scratch(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = test_read_file(path);
    assert_non_null(text);
    return text;
}

/* Each mistake is refused before anything runs, with exit 2 and what is wrong. */
static void grammar__refused_with_the_reason(void **state) {
    (void)state;
    static const struct {
        const char *arguments, *message;
    } rows[] = {
        {"-each tc=10+ -rounds 1", "-each: tc=10+: the increment is empty"},
        {"-each tc=1/2/3 -rounds 1", "tc=1/2/3: the time '2/3' is not a number of seconds"},
        {"-each tc=0.0001 -rounds 1", "tc=0.0001: the time '0.0001' is finer than a millisecond"},
        {"-each tc=0 -rounds 1", "tc=0: no time at all (SECONDS or INCREMENT must be above zero)"},
        {"-each st=0 -rounds 1", "st=0: the time per move must be above zero"},
        {"-each tc=1 st=0.1 -rounds 1", "st=0.1: the engine already has tc= (one clock per "
                                        "engine"},
        {"-each tc=1 movetime=100 -rounds 1", "-engine a: movetime=100 and tc=1 are two limits "
                                              "on time"},
        {"-each nodes=100 nodestime=100 -rounds 1", "-engine a: nodestime=100 counts a clock in "
                                                    "nodes: give tc= or st= with it"},
        {"-each tc=1 timemargin=-5 -rounds 1", "timemargin=-5: "},
        {"-each tc=1 nodestime=x -rounds 1", "nodestime=x: "},
        {"-each tcc=1 -rounds 1", "unknown key 'tcc' (did you mean 'tc'?)"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char arguments[512], *out, *errors;
        snprintf(arguments, sizeof arguments, "-engine name=a -engine name=b %s",
                 rows[i].arguments);
        int status = run_abtest(arguments, &out, &errors);
        if (status != 2 || !strstr(errors, rows[i].message))
            fail_msg("%s: exit %d, stderr:\n%s\n(wanted '%s')", rows[i].arguments, status, errors,
                     rows[i].message);
        free(out);
        free(errors);
    }
}

/* A program that sleeps 300 ms a move on tc=1+0.01 (1010 ms, then 10 ms a move): 720 left,
 * then 430, then 140; its fourth move passes 140 + timemargin 50 and loses on time in each
 * game of the pair, as its per-game line, the summary, the results file and the PGN say. Its first
 * go carries both clocks as fastchess sends them. */
static void program__sleeps_past_its_clock_and_loses_on_time(void **state) {
    (void)state;
    char *out, *errors;
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " 'args=sleep 300' -engine "
                                "name=int -each tc=1+0.01 timemargin=50 -rounds 1",
                                &out, &errors),
                     0);
    assert_non_null(strstr(errors, "mock: go wtime 1010 btime 1010 winc 10 binc 10\n"));
    assert_non_null(strstr(errors, "warning: engine mock loses a game on time in "));
    assert_non_null(strstr(out, " lose on time}\n"));
    assert_non_null(strstr(out, "Clock of mock: "));
    assert_non_null(strstr(out, "Forfeits of mock: lost on the clock 2, ")); /* both games */
    char *pgn = read_scratch("run.pgn");
    assert_non_null(strstr(pgn, "[Termination \"time forfeit\"]\n"));
    assert_non_null(strstr(pgn, "\"]\n[TimeControl \"1+0.01\"]\n[Variant \"bagh-chal\"]\n"));
    free(pgn);
    char path[512];
    snprintf(path, sizeof path, "%s/run.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *mock = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), 0);
    assert_int_equal((int)cJSON_GetObjectItem(mock, "time_losses")->valuedouble, 2);
    assert_string_equal(cJSON_GetObjectItem(mock, "tc")->valuestring, "1+0.01");
    const cJSON *settings = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(json, "settings"), "engines"), 0);
    assert_string_equal(cJSON_GetObjectItem(settings, "tc")->valuestring, "1+0.01");
    assert_int_equal((int)cJSON_GetObjectItem(settings, "timemargin")->valuedouble, 50);
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(json, "reproducible")));
    cJSON_Delete(json);
    free(out);
    free(errors);
}

/* A program that sleeps 2600 ms on st=0.1: it loses each game on its first move, and its late
 * bestmove does not come within the 2000 ms it is given after 'stop', so it is restarted, and
 * the warning says so (it restarted silently before). */
static void program__restart_after_a_time_loss_is_said(void **state) {
    (void)state;
    char *out, *errors;
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " 'args=sleep 2600' -engine "
                                "name=int -each st=0.1 timemargin=50 -rounds 1",
                                &out, &errors),
                     0);
    const char *said = "warning: engine mock gave no bestmove and readyok within 2000 ms of "
                       "'stop' after its time loss; restarting it\n";
    const char *first = strstr(errors, said);
    if (!first || !strstr(first + 1, said)) /* once a game */
        fail_msg("stderr:\n%s", errors);
    assert_non_null(strstr(out, "Forfeits of mock: lost on the clock 2, "));
    free(out);
    free(errors);
}

/* tc=3/10: three moves in 10 s, given again: the program's go lines count the moves to go of
 * its own period down and start again, and its clock gets the period's time again. */
static void program__periods_counted_in_movestogo(void **state) {
    (void)state;
    char *out, *errors;
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " 'args=sleep 0' tc=3/10 -engine "
                                "name=int nodes=300 -rounds 1",
                                &out, &errors),
                     0);
    const char *first = strstr(errors, "mock: go wtime 10000 ");
    assert_non_null(first);
    assert_non_null(strstr(first, " movestogo 3\n"));
    const char *last = strstr(first, " movestogo 1\n");
    assert_non_null(last);
    assert_non_null(strstr(last, " movestogo 3\n")); /* the next period */
    assert_null(strstr(errors, "on time"));
    free(out);
    free(errors);
}

/* st=0.02: a move of 30 ms is 10 ms over: within timemargin=400 (no loss, with room for a loaded
 * machine), past timemargin=5 (lost on time). The exact boundary is test_clock's. The time
 * given is counted per move. */
static void program__within_timemargin_does_not_lose(void **state) {
    (void)state;
    char *out, *errors;
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " 'args=sleep 30' st=0.02 "
                                "timemargin=400 -engine name=int nodes=300 -rounds 1",
                                &out, &errors),
                     0);
    assert_non_null(strstr(errors, "mock: go movetime 20\n"));
    assert_null(strstr(errors, "on time"));
    assert_non_null(strstr(out, "lost on the clock 0\n"));
    /* The time given is 20 ms for each move made, not one more per game. */
    assert_non_null(strstr(out, " ms a move used of 20.00 ms given ("));
    char path[512];
    snprintf(path, sizeof path, "%s/run.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *mock = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), 0);
    assert_true(cJSON_GetObjectItem(mock, "moves")->valuedouble > 0);
    assert_true(cJSON_GetObjectItem(mock, "time_given_us")->valuedouble ==
                20000 * cJSON_GetObjectItem(mock, "moves")->valuedouble);
    cJSON_Delete(json);
    free(out);
    free(errors);
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " 'args=sleep 30' st=0.02 "
                                "timemargin=5 -engine name=int nodes=300 -rounds 1",
                                &out, &errors),
                     0);
    assert_non_null(strstr(errors, "warning: engine mock loses a game on time in "));
    free(out);
    free(errors);
}

/* Under nodestime two in-process engines on a clock (with time odds) play the same games at
 * -concurrency 1 and 3 and after an interrupted, resumed run: the same records byte for byte
 * (time comments included) and the same counts. */
static void nodestime__same_games_for_any_concurrency_and_resume(void **state) {
    (void)state;
    char command[4096];
    const char *common =
        "-engine name=new tc=0.3+0.003 -engine name=old preset=tslab-0.2 "
        "tc=0.2+0.002 -each nodestime=150 -rounds 6 -openings file=" BOOK " -quiet";
    snprintf(command, sizeof command,
             "cd %s && %s %s -concurrency 1 -out one.json -pgnout file=one.pgn >/dev/null && "
             "%s %s -concurrency 3 -out three.json -pgnout file=three.pgn >/dev/null && "
             "%s %s -concurrency 2 -out cut.json -pgnout file=cut.pgn -debug-stopafter 2 "
             ">/dev/null 2>&1; %s -resume cut.json -quiet >/dev/null",
             dir, ABTEST, common, ABTEST, common, ABTEST, common, ABTEST);
    assert_int_equal(test_run(command, NULL), 0);
    static const char *const keys[] = {"pairs",       "pentanomial", "wdl",
                                       "end_reasons", "plies",       "engines"};
    char a[512], b[512];
    const char *others[] = {"three", "cut"};
    for (int i = 0; i < 2; i++) {
        snprintf(a, sizeof a, "%s/one.pgn", dir);
        snprintf(b, sizeof b, "%s/%s.pgn", dir, others[i]);
        test_assert_same_file(a, b);
        snprintf(a, sizeof a, "%s/one.json", dir);
        snprintf(b, sizeof b, "%s/%s.json", dir, others[i]);
        test_assert_same_keys(a, b, keys, sizeof keys / sizeof keys[0]);
    }
    char *pgn = read_scratch("one.pgn");
    assert_non_null(strstr(pgn, "[SheepTimeControl \"0.2+0.002\"]\n[Termination "));
    assert_non_null(strstr(pgn, "[TigersTimeControl \"0.3+0.003\"]\n[Variant "));
    assert_non_null(strstr(pgn, "s} "));
    free(pgn);
    snprintf(a, sizeof a, "%s/one.json", dir);
    cJSON *json = test_load_json(a);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(json, "reproducible")));
    const cJSON *old = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), 1);
    assert_int_equal((int)cJSON_GetObjectItem(old, "nodestime")->valuedouble, 150);
    assert_true(cJSON_GetObjectItem(old, "time_used_us")->valuedouble > 0);
    assert_true(cJSON_GetObjectItem(old, "time_used_us")->valuedouble <=
                cJSON_GetObjectItem(old, "time_given_us")->valuedouble);
    cJSON_Delete(json);
}

/* build/engine under nodestime (sent as setoption at start-up, with go wtime/btime from
 * abtest's clocks) plays the same games, move comments and times included, as the same
 * configuration in-process. */
static void nodestime__program_plays_as_in_process(void **state) {
    (void)state;
    char command[4096];
    const char *common =
        "-each tc=0.2+0.002 nodestime=100 -rounds 3 -openings file=" BOOK " -concurrency 2 -quiet";
    snprintf(command, sizeof command,
             "cd %s && %s -engine name=first cmd=%s option.killers=false -engine name=second "
             "%s -out ext.json -pgnout file=ext.pgn >/dev/null && %s -engine name=first "
             "killers=off -engine name=second %s -out int.json -pgnout file=int.pgn >/dev/null",
             dir, ABTEST, ENGINE, common, ABTEST, common);
    assert_int_equal(test_run(command, NULL), 0);
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/int.pgn", dir);
    snprintf(b, sizeof b, "%s/ext.pgn", dir);
    test_assert_same_file(a, b);
}

/* A wall-clock match says it is not reproducible, and warns when more games than cores would
 * share the machine (one more game than this machine's cores, as abtest counts them). */
static void wall_clock__said_and_overload_warned(void **state) {
    (void)state;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    char arguments[256], warning[64], *out, *errors;
    snprintf(arguments, sizeof arguments,
             "-engine name=a -engine name=b -each tc=0.1+0.001 -rounds 1 -concurrency %ld",
             cores + 1);
    assert_int_equal(run_abtest(arguments, &out, &errors), 0);
    assert_non_null(strstr(out, "results are NOT reproducible"));
    snprintf(warning, sizeof warning, "warning: %ld games at once on %ld cores ", cores + 1, cores);
    assert_non_null(strstr(out, warning));
    assert_non_null(strstr(out, "clock a: 0.1+0.001, timemargin 100 ms, on the wall clock\n"));
    free(out);
    free(errors);
}

/* A clock of 864000 s with an increment of as much, on nodestime a billion: accepted, and the
 * games' arithmetic saturates (UBSan, under make sanitize, stops the test on an overflow). */
static void clock__largest_values_play(void **state) {
    (void)state;
    char command[4096], *out;
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b -each tc=1/864000+864000 "
                    "nodestime=1000000000 nodes=300 -rounds 1 -openings file=" BOOK " -quiet "
                    "2>&1");
    int status = test_run(command, &out);
    if (status != 0 || !strstr(out, "Finished match"))
        fail_msg("exit %d:\n%s", status, out);
    free(out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grammar__refused_with_the_reason),
        cmocka_unit_test(program__sleeps_past_its_clock_and_loses_on_time),
        cmocka_unit_test(program__restart_after_a_time_loss_is_said),
        cmocka_unit_test(program__periods_counted_in_movestogo),
        cmocka_unit_test(program__within_timemargin_does_not_lose),
        cmocka_unit_test(nodestime__same_games_for_any_concurrency_and_resume),
        cmocka_unit_test(nodestime__program_plays_as_in_process),
        cmocka_unit_test(wall_clock__said_and_overload_warned),
        cmocka_unit_test(clock__largest_values_play),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
