// SPDX-License-Identifier: MIT
// build/abtest end to end: identical results for any concurrency, interrupt and resume (in
// process, SIGINT and kill -9) ending exactly as an uninterrupted run, self-play at Elo 0, and
// clear errors for bad books and options.
#include "test_util.h"

#include "json_text.h"

#include "sprt.h"

#include <cJSON.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"
/* A fast match: 1000-node searches, decided by SPRT in a few hundred pairs. The engine under test
 * (full search) comes first, the baseline (no killers, no hint) second. */
#define MATCH ABTEST " -engine name=cand -engine name=base killers=off hint=off" \
                     " -each " TEST_MATCH_PRESET " nodes=1000" \
                     " -openings file=" BOOK " -sprt elo0=0 elo1=10 -quiet"

static char dir[64];

static int setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "abtest");
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
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
    char command[4096], a[512];
    snprintf(command, sizeof command,
             MATCH " -concurrency 3 -out %s/three.json -pgnout file=%s/three.pgn", dir, dir);
    assert_int_equal(test_run(command, NULL), 0);
    test_assert_same_run(dir, "one", "three");
    /* The run decided, and its file says so in the required keys. The first engine (the full
     * search) is the stronger: every number is from its side, so H1 and a positive Elo. */
    snprintf(a, sizeof a, "%s/one.json", dir);
    cJSON *json = test_load_json(a);
    const char *decision = cJSON_GetStringValue(cJSON_GetObjectItem(json, "decision"));
    assert_string_equal(decision, "H1");
    assert_true(cJSON_GetObjectItem(json, "elo")->valuedouble > 0);
    const cJSON *wdl = cJSON_GetObjectItem(json, "wdl");
    assert_true(cJSON_GetObjectItem(wdl, "wins")->valuedouble >
                cJSON_GetObjectItem(wdl, "losses")->valuedouble);
    assert_int_equal(cJSON_GetObjectItem(json, "format")->valueint, 2);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(
                            cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), 0), "name")),
                        "cand");
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
    assert_non_null(strstr(out, "resume with: " ABTEST " -resume"));
    free(out);
    snprintf(command, sizeof command, ABTEST " -resume %s/cut.json -quiet -debug-stopafter 41", dir);
    assert_int_equal(test_run(command, NULL), 130);
    snprintf(command, sizeof command, ABTEST " -resume %s/cut.json -quiet -concurrency 3", dir);
    assert_int_equal(test_run(command, NULL), 0);
    snprintf(a, sizeof a, "%s/one.json", dir);
    snprintf(b, sizeof b, "%s/cut.json", dir);
    test_assert_same_results(a, b);
    cJSON *json = test_load_json(b);
    assert_int_equal(cJSON_GetObjectItem(json, "sessions")->valueint, 3);
    cJSON_Delete(json);
    snprintf(a, sizeof a, "%s/one.pgn", dir);
    snprintf(b, sizeof b, "%s/cut.pgn", dir);
    test_assert_same_file(a, b);
}

/* Starts a run in the background, lets it checkpoint, signals it by the pid the test started
 * (exec: the shell becomes abtest), checks the signal stopped it, then resumes it to the
 * uninterrupted run in two sessions. */
static void interrupt_with_signal(int sig, const char *name) {
    reference_run();
    char command[4096], json_path[512];
    snprintf(json_path, sizeof json_path, "%s/%s.json", dir, name);
    snprintf(command, sizeof command,
             "exec " MATCH " -concurrency 2 -out %s -pgnout file=%s/%s.pgn >/dev/null",
             json_path, dir, name);
    /* Wait (at most 20 s) until a checkpoint exists, then stop it mid-run. */
    pid_t child = test_start_until(command, json_path, 20);
    if (access(json_path, F_OK) != 0)
        fail_msg("the run wrote no checkpoint within 20 s");
    if (kill(child, sig) != 0)
        fail_msg("abtest (pid %d) was gone before signal %d", (int)child, sig);
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    bool stopped = sig == SIGKILL ? WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL
                                  : WIFEXITED(status) && WEXITSTATUS(status) == 128 + sig;
    if (!stopped)
        fail_msg("signal %d did not stop the run (status %d): it had ended first", sig, status);
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", json_path);
    char *out;
    int resumed = test_run(command, &out);
    if (resumed != 0)
        fail_msg("resume after signal %d: exit %d:\n%s", sig, resumed, out);
    free(out);
    test_assert_same_run(dir, "one", name);
    cJSON *json = test_load_json(json_path);
    assert_int_equal(cJSON_GetObjectItem(json, "sessions")->valueint, 2);
    cJSON_Delete(json);
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
    cJSON *json = test_load_json(path);
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
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -pair 3",
     "unknown option '-pair' (see -help)", "no option near: no guess (it was '-each')"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -pairs 3",
     "a round is a pair here (an opening played both ways): -rounds N plays N pairs",
     "pairs are rounds"},
    {"-engine name=a -engine name=b -each nodes=10 -sprt elo0=5 elo1=0",
     "elo0 (5) must be less than elo1 (0)", "bounds swapped"},
    {"-engine name=a -engine name=b -each nodes=10 -sprt elo0=0 elo1=5 alpha=0.5 beta=0.5",
     "alpha + beta (1) must be less than 1", "alpha + beta"},
    {"-engine name=a -each nodes=10 -rounds 2", "exactly two engines", "one engine"},
    {"-engine name=a -engine name=b -rounds 2", "engine a has no limit: give tc=, st=, depth=",
     "no limit"},
    {"-engine name=a kilers=off -engine name=b -each nodes=10 -rounds 2",
     "unknown option 'kilers' (did you mean 'killers'?)", "engine option typo"},
    {"-engine name=a -engine name=a -each nodes=10 -rounds 2", "different names", "same names"},
    {"-engine name=a -engine name=b -each nodes=10", "give -rounds N, -sprt", "no end"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -openings file=x order=shuffle",
     "order: 'shuffle' is not allowed", "bad order"},
    /* fastchess habits get pointers to what abtest does instead. */
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -log file=x",
     "-log is a fastchess option abtest does not take: engine traffic is not logged",
     "-log"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -draw movenumber=40",
     "score adjudication is not implemented", "-draw"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -resign movecount=3",
     "score adjudication is not implemented", "-resign"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -wait 5",
     "-wait is a fastchess option abtest does not take: games start at once", "-wait"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -config file=x.json",
     "use -resume F.json", "-config"},
    {"-engine name=a -engine name=b -each tc=10+0.1x -rounds 2",
     "-each: tc=10+0.1x: the increment '0.1x' is not a number of seconds", "tc= misspelt"},
    {"-engine name=a -engine name=b -each st=0.1 movetime=50 -rounds 2",
     "-engine a: movetime=50 and st=0.1 are two limits on time", "st= with movetime="},
    {"-engine name=a cmd=./sf -engine name=b -each nodes=10 -rounds 2",
     "engine a (./sf) exited before answering 'uci' (could not be run: not found or not "
     "executable", "cmd= of a missing program"},
    {"-engine name=a -engine name=b -each nodes=10 option.Hash=16 -rounds 2",
     "option.NAME=VALUE is for engine programs (cmd=)", "option. for an in-process engine"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -games 1",
     "abtest always plays pairs", "-games 1"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -openings file=x format=pgn",
     "format: 'pgn' is not supported", "pgn book"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -openings",
     "-openings needs file=F", "-openings without a file"},
    {"-engine \"name=a b\" -engine name=b -each nodes=10 -rounds 2",
     "use letters, digits and . _ + - only", "a space in a name"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -out -quiet",
     "looks like an option, not a file name", "-out followed by an option"},
    {"-engine name=a -engine name=b -each nodes=10 -rounds 2 -out /etc/passwd/x.json",
     "-out /etc/passwd/x.json: /etc/passwd is not a directory", "-out under a file"},
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
             ABTEST " -engine name=cand -engine name=base -each nodes=999 -openings file=" BOOK
                    " -sprt elo0=0 elo1=10 -resume %s/one.json", dir);
    assert_int_not_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "the run differs from the results file in: engine cand options"));
    free(out);
}

/* A quick bounded match into dir/NAME.{json,pgn}; returns the exit status and the output. */
static int quick_run(const char *name, const char *extra, char **out) {
    char command[4096];
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b killers=off -each nodes=300 -openings file="
                    BOOK " -rounds 6 -quiet -out %s/%s.json -pgnout file=%s/%s.pgn %s",
             dir, name, dir, name, extra);
    return test_run(command, out);
}

static bool exists(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

static void outputs__finished_runs_move_aside_and_unfinished_are_refused(void **state) {
    (void)state;
    char *out, expected[1024];
    assert_int_equal(quick_run("again", "", NULL), 0);
    /* The same command again: the finished files are moved aside, and the output says so. */
    assert_int_equal(quick_run("again", "", &out), 0);
    snprintf(expected, sizeof expected, "note: %s/again.json existed (an earlier run): moved to "
                                        "%s/again.1.json", dir, dir);
    if (!strstr(out, expected))
        fail_msg("'%s' not in:\n%s", expected, out);
    free(out);
    assert_true(exists("again.json") && exists("again.pgn"));
    assert_true(exists("again.1.json") && exists("again.1.pgn"));
    /* Once more: the next number. */
    assert_int_equal(quick_run("again", "", NULL), 0);
    assert_true(exists("again.2.json") && exists("again.2.pgn"));

    /* An interrupted run is not replaced: it says how to resume it. */
    assert_int_equal(quick_run("cut_short", "-debug-stopafter 2", NULL), 130);
    assert_int_equal(quick_run("cut_short", "", &out), 2);
    snprintf(expected, sizeof expected, "-out %s/cut_short.json holds an unfinished run (2 pairs): "
                                        "continue it with `" ABTEST " -resume %s/cut_short.json`",
             dir, dir);
    if (!strstr(out, expected))
        fail_msg("'%s' not in:\n%s", expected, out);
    free(out);
    assert_false(exists("cut_short.1.json"));

    /* An output that cannot be written fails before the first game. */
    char command[1024];
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b -each nodes=300 -openings file=" BOOK
                    " -rounds 2 -pgnout file=%s/again.json/x.pgn", dir);
    assert_int_equal(test_run(command, &out), 2);
    assert_non_null(strstr(out, "is not a directory"));
    assert_null(strstr(out, "Started game"));
    free(out);
    /* Output directories are created as needed. */
    assert_int_equal(quick_run("new/deeper/run", "", NULL), 0);
    assert_true(exists("new/deeper/run.json") && exists("new/deeper/run.pgn"));
}

/* An interrupted run of in-process engines records its build and each engine's signature; a
 * resume by other code (another source identity, or a search that plays differently) is
 * refused naming what changed, -allow-engine-change resumes it and records the change, and a
 * file from before builds were recorded resumes unchecked. */
static void provenance__another_build_refused_unless_allowed(void **state) {
    (void)state;
    assert_int_equal(quick_run("built", "-debug-stopafter 2", NULL), 130);
    char path[512], copy[512], command[1024], *out;
    snprintf(path, sizeof path, "%s/built.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *build = cJSON_GetObjectItem(json, "build");
    assert_int_equal(strlen(cJSON_GetStringValue(cJSON_GetObjectItem(build, "source"))), 16);
    const cJSON *signature =
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), 1), "signature");
    assert_true(cJSON_GetObjectItem(signature, "nodes")->valuedouble > 0);
    /* Another source identity. */
    cJSON *other = cJSON_Duplicate(json, true);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(other, "build"), "source",
                              cJSON_CreateString("0123456789abcdef"));
    snprintf(copy, sizeof copy, "%s/rebuilt.json", dir);
    test_save_json(copy, other);
    cJSON_Delete(other);
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", copy);
    assert_int_equal(test_run(command, &out), 2);
    if (!strstr(out, "engine a is not the build the run began with: the build's source "
                     "0123456789abcdef -> "))
        fail_msg("%s", out);
    free(out);
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet -allow-engine-change", copy);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "resumed as -allow-engine-change asks"));
    free(out);
    cJSON *resumed = test_load_json(copy);
    const cJSON *changes = cJSON_GetObjectItem(resumed, "accepted_changes");
    assert_int_equal(cJSON_GetArraySize(changes), 2); /* both engines run on the build */
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetArrayItem(changes, 0)),
                           "pair 3: engine a: the build's source 0123456789abcdef -> "));
    assert_int_equal(cJSON_GetObjectItem(resumed, "pairs")->valueint, 6);
    cJSON_Delete(resumed);
    /* An engine whose search plays otherwise. */
    other = cJSON_Duplicate(json, true);
    cJSON_ReplaceItemInObject(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(other, "engines"), 1),
                            "signature"),
        "hash", cJSON_CreateString("00000000000000ff"));
    snprintf(copy, sizeof copy, "%s/otherplay.json", dir);
    test_save_json(copy, other);
    cJSON_Delete(other);
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", copy);
    assert_int_equal(test_run(command, &out), 2);
    if (!strstr(out, "engine b is not the build the run began with: signature "
                     "00000000000000ff/") ||
        !strstr(out, "(its search plays differently)") || strstr(out, "engine a is not"))
        fail_msg("%s", out);
    free(out);
    /* A file from before builds were recorded. */
    cJSON_DeleteItemFromObject(json, "build");
    for (int e = 0; e < 2; e++)
        cJSON_DeleteItemFromObject(cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), e),
                                   "signature");
    snprintf(copy, sizeof copy, "%s/older.json", dir);
    test_save_json(copy, json);
    cJSON_Delete(json);
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", copy);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
    /* The same build resumes. */
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", path);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
}

static void results__format_1_is_not_resumed_with_the_wrong_perspective(void **state) {
    (void)state;
    assert_int_equal(quick_run("old_format", "", NULL), 0);
    char path[512], command[1024], *out;
    snprintf(path, sizeof path, "%s/old_format.json", dir);
    cJSON *json = test_load_json(path);
    cJSON_ReplaceItemInObject(json, "format", cJSON_CreateNumber(1));
    cJSON_ReplaceItemInObject(json, "state", cJSON_CreateString("interrupted"));
    char *text = json_text(json);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    cJSON_Delete(json);
    snprintf(command, sizeof command, ABTEST " -resume %s", path);
    assert_int_equal(test_run(command, &out), 2);
    assert_non_null(strstr(out, "results format 1, written by an older abtest that counted from "
                                "the second engine's side"));
    free(out);
}

static void habits__fastchess_forms_that_mean_what_abtest_does(void **state) {
    (void)state;
    /* -repeat and -games 2 are accepted; -openings takes a bare file name; a second -each adds
     * to the first. */
    char command[4096], path[512], *out;
    snprintf(path, sizeof path, "%s/habits.json", dir);
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b -each nodes=300 -each killers=off -repeat "
                    "-games 2 -openings " BOOK " -rounds 3 -quiet -out %s", path);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
    cJSON *json = test_load_json(path);
    const cJSON *engine;
    cJSON_ArrayForEach(engine, cJSON_GetObjectItem(json, "engines")) {
        const char *config = cJSON_GetStringValue(cJSON_GetObjectItem(engine, "config_text"));
        assert_non_null(strstr(config, "killers=off"));
        assert_non_null(strstr(config, "nodes=300"));
    }
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(json, "book"),
                                                                 "path")),
                        BOOK);
    cJSON_Delete(json);
}

static void plot__a_run_too_short_to_plot_says_so(void **state) {
    (void)state;
    char extra[512], *out;
    snprintf(extra, sizeof extra, "-plot file=%s/short.png", dir);
    assert_int_equal(quick_run("short", extra, &out), 0);
    assert_non_null(strstr(out, "plot: not drawn: the run is too short to plot (1 point"));
    free(out);
    assert_false(exists("short.png"));
}

static void metadata__version_commit_host_and_times_recorded(void **state) {
    (void)state;
    reference_run();
    char path[512];
    snprintf(path, sizeof path, "%s/one.json", dir);
    cJSON *json = test_load_json(path);
    static const char *const keys[] = {"version", "commit", "host", "started", "updated", "ended"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!cJSON_GetStringValue(cJSON_GetObjectItem(json, keys[i])))
            fail_msg("no \"%s\" in the results file", keys[i]);
    const char *started = cJSON_GetStringValue(cJSON_GetObjectItem(json, "started"));
    assert_int_equal(strlen(started), 20); /* 2026-11-29T23:41:12Z */
    assert_int_equal(started[10], 'T');
    assert_int_equal(started[19], 'Z');
    cJSON_Delete(json);
}

/* What used to pass in silence: a run without -out, a ratio without losing pairs, a book that
 * found nothing. */
static void quiet_cases__are_said(void **state) {
    (void)state;
    char *out, command[1024];
    assert_int_equal(test_run(MATCH " -rounds 1 -concurrency 1 -quiet", &out), 0);
    assert_non_null(strstr(out, "note: no -out file: nothing is saved"));
    free(out);
    /* Winning pairs and no losing one: no ratio (fastchess would print inf). */
    assert_int_equal(test_run(ABTEST " sprt -penta 0,0,3,4,5 -sprt elo0=0 elo1=5", &out), 0);
    assert_non_null(strstr(out, "PairsRatio: -\n"));
    assert_null(strstr(out, "inf"));
    free(out);
    /* A book no position fits fails with the reason and leaves neither file nor temporary. */
    const char *book = "/tmp/tslab_test_abtest_empty_book.txt";
    snprintf(command, sizeof command,
             ABTEST " book -out %s -positions 3 -plies 1 -depth 6 -margin 0", book);
    assert_int_equal(test_run(command, &out), 2);
    assert_non_null(strstr(out, "no position scored within -margin 0"));
    free(out);
    assert_int_equal(access(book, F_OK), -1);
    snprintf(command, sizeof command, "%s.tmp", book);
    assert_int_equal(access(command, F_OK), -1);
}

/* The number after "key" in text (the first occurrence at or after from), or NAN. */
static double number_after(const char *from, const char *key) {
    const char *at = strstr(from, key);
    return at ? strtod(at + strlen(key), NULL) : NAN;
}

static bool matches(const char *text, const char *pattern) {
    regex_t re;
    assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE | REG_NOSUB), 0);
    bool found = regexec(&re, text, 0, NULL, 0) == 0;
    regfree(&re);
    return found;
}

/* Logs that are not a terminal: a plain progress line after every rating interval's block,
 * with the SPRT's pairs left from -plan at the block's LLR and nElo; "Started game N" without
 * "of M" when the run has no bound; the elapsed time at the end. */
static void log__progress_lines_and_unbounded_game_numbers(void **state) {
    (void)state;
    char *out;
    assert_int_equal(test_run(ABTEST " -engine name=a -engine name=b killers=off -each nodes=300 "
                                     "-openings file=" BOOK " -sprt elo0=0 elo1=5 -ratinginterval "
                                     "10 -debug-stopafter 20 -concurrency 1",
                              &out),
                     130);
    assert_non_null(strstr(out, "\nStarted game 1 (a vs b)\n"));
    assert_null(strstr(out, " of 2000000000000"));
    const char *hms = "[0-9]+:[0-5][0-9]:[0-5][0-9]";
    char pattern[512];
    snprintf(pattern, sizeof pattern,
             "^Progress: 10 pairs, [0-9]+\\.[0-9]{2} pairs/s, elapsed %s; SPRT: about [0-9]+ "
             "pairs left at the current estimate \\(-plan\\), H1 [0-9]+%%, ETA %s$",
             hms, hms);
    assert_true(matches(out, pattern));
    assert_true(matches(out, "^Elapsed: [0-9]+:[0-5][0-9]:[0-5][0-9] \\([0-9.]+ s\\), [0-9.]+ "
                             "pairs/s$"));
    /* The pairs left are the plan from the block printed just before the line. */
    const char *progress = strstr(out, "Progress: 10 pairs");
    const char *block = progress;
    while (block > out && strncmp(block, "Results of", 10))
        block--;
    double llr = number_after(block, "LLR: "), nelo = number_after(block, "nElo: ");
    double left = number_after(progress, "SPRT: about ");
    SprtParams five = {.elo0 = 0,
                       .elo1 = 5,
                       .alpha = 0.05,
                       .beta = 0.05,
                       .model = SPRT_MODEL_NORMALIZED,
                       .overshoot = true};
    double pass, plan;
    assert_true(sprt_plan_left(&five, llr, 0, 0, nelo, &pass, &plan));
    if (fabs(left - plan) > 0.02 * plan + 1) /* the block rounds LLR and nElo to 0.01 */
        fail_msg("%.0f pairs left, the plan at LLR %.2f nElo %.2f says %.1f", left, llr, nelo,
                 plan);
    free(out);
    assert_int_equal(test_run(ABTEST " -engine name=a -engine name=b killers=off -each nodes=300 "
                                     "-openings file=" BOOK " -rounds 20 -ratinginterval 10",
                              &out),
                     0);
    assert_non_null(strstr(out, "\nStarted game 1 of 40 (a vs b)\n"));
    snprintf(pattern, sizeof pattern,
             "^Progress: 10 of 20 pairs, [0-9]+\\.[0-9]{2} pairs/s, elapsed %s, ETA %s$", hms, hms);
    assert_true(matches(out, pattern));
    free(out);
}

/* Two identical engines: every pair is drawn 1-1, so the normalized bounds [0, 5] mean a tiny
 * fraction of one logistic Elo; after 100 pairs the run says so, once (a run resumed past them
 * in its start banner). Logistic bounds say nothing of the kind. */
static void sprt__bounds_under_one_elo_are_said(void **state) {
    (void)state;
    char *out;
    assert_int_equal(test_run(ABTEST " -engine name=a -engine name=b -each nodes=50 -sprt elo0=0 "
                                     "elo1=5 -rounds 150 -ratinginterval 50 -concurrency 2",
                              &out),
                     0);
    const char *note = "note: at this run's pairs (100.0% drawn), the bounds [0, 5] nElo are "
                       "[0.00, 0.";
    const char *at = strstr(out, note);
    if (!at || strstr(at + 1, "note: at this run's pairs") ||
        !strstr(at, "logistic Elo: the test resolves differences under one Elo\n"))
        fail_msg("%s", out);
    free(out);
    assert_int_equal(test_run(ABTEST " -engine name=a -engine name=b -each nodes=50 -sprt elo0=0 "
                                     "elo1=5 model=logistic -rounds 150 -ratinginterval 50",
                              &out),
                     0);
    assert_null(strstr(out, "nElo are"));
    free(out);
    /* Resumed past 100 pairs, the run knows its draw ratio at once: the banner says it, before
     * any game, and no status block says it again. */
    char command[1024];
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b -each nodes=50 -sprt elo0=0 elo1=5 "
                    "-rounds 200 -ratinginterval 50 -out %s/bounds.json -debug-stopafter 120 "
                    ">/dev/null 2>&1; " ABTEST " -resume %s/bounds.json",
             dir, dir);
    assert_int_equal(test_run(command, &out), 0);
    at = strstr(out, note);
    const char *resumed = strstr(out, "resuming at pair "), *game = strstr(out, "Started game");
    if (!at || !resumed || !game || at < resumed || at > game ||
        strstr(at + 1, "note: at this run's pairs"))
        fail_msg("%s", out);
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
        cmocka_unit_test(outputs__finished_runs_move_aside_and_unfinished_are_refused),
        cmocka_unit_test(provenance__another_build_refused_unless_allowed),
        cmocka_unit_test(results__format_1_is_not_resumed_with_the_wrong_perspective),
        cmocka_unit_test(habits__fastchess_forms_that_mean_what_abtest_does),
        cmocka_unit_test(plot__a_run_too_short_to_plot_says_so),
        cmocka_unit_test(metadata__version_commit_host_and_times_recorded),
        cmocka_unit_test(quiet_cases__are_said),
        cmocka_unit_test(log__progress_lines_and_unbounded_game_numbers),
        cmocka_unit_test(sprt__bounds_under_one_elo_are_said),
    };
    return tslab_run_tests_setup("abtest", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 setup, teardown);
}
