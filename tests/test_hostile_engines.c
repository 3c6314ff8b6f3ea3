// SPDX-License-Identifier: MIT
// Engine programs that misbehave in the ways an attack on abtest found, each played by a small
// script of tests/engines/: one that stops reading its input (a stall with a deadline, and a
// Ctrl-C that saves while abtest waits on it), one that floods lines, ones that leave processes
// behind (a child, a parent that exits while a child holds its output, one that ignores
// SIGTERM, one that closes its output), absurd node counts and bench totals, spaces before
// bestmove, values that would inject a command, a results file pointed at another program, and
// a program rebuilt between two sessions of a run.
// Every run is bounded.
#include "test_util.h"

#include "json_text.h"

#include "match.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define ENGINE TSLAB_BUILD_DIR "/engine"
#define MOCK TSLAB_BUILD_DIR "/tests/mock_engine"
#define SCRIPTS TSLAB_SOURCE_DIR "/tests/engines"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"
/* Every run: the small book, one game at a time, a short in-process opponent. */
#define RUN "timeout 120 " ABTEST " -openings file=" BOOK " -concurrency 1 -quiet"
#define OPPONENT " -engine name=inproc -each nodes=100"

static char dir[96];

static int setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "hostile");
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

static double now_seconds(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* Runs `cd dir && command`; fails unless it exits with status and its output (stdout and
 * stderr) holds every expected text. Returns the output (malloc'd). */
static char *expect_run(const char *command, int status, const char *const *expected) {
    char full[4096], *out;
    snprintf(full, sizeof full, "cd %s && %s", dir, command);
    int got = test_run(full, &out);
    bool ok = got == status;
    for (size_t i = 0; ok && expected && expected[i]; i++)
        ok = strstr(out, expected[i]) != NULL;
    if (!ok)
        fail_msg("%s\nexit %d (expected %d), output:\n%.3000s", command, got, status, out);
    return out;
}

/* The results file's "state" and "pairs". */
static void results_state(const char *name, char *state, size_t size, double *pairs) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cJSON *json = test_load_json(path);
    snprintf(state, size, "%s", cJSON_GetStringValue(cJSON_GetObjectItem(json, "state")));
    *pairs = cJSON_GetObjectItem(json, "pairs")->valuedouble;
    cJSON_Delete(json);
}

/* No process whose command line holds marker (a `sleep 3000.PID` of a script) is left. */
static void assert_nothing_left(const char *marker) {
    char command[256], *out;
    /* [p]: the pattern does not match the shell that runs pgrep. */
    snprintf(command, sizeof command, "pgrep -f 'slee[p] %s' || true", marker);
    test_run(command, &out);
    if (out[0])
        fail_msg("processes left behind by the engine (sleep %s): %s", marker, out);
    free(out);
}

/* An engine that never reads: once its input pipe is full, abtest's next write cannot go
 * through. That write has the move's deadline (stall=), after which the engine counts as
 * stalled and the run stops, saved; it used to block for ever, and only kill -9 ended it. */
static void deaf_engine__stall_after_the_deadline_run_saved(void **state) {
    (void)state;
    double started = now_seconds();
    const char *expected[] = {"engine deaf stopped answering", "it stopped reading its input",
                              "the run stops here", NULL};
    free(expect_run(RUN " -engine name=deaf cmd=" SCRIPTS
                        "/deaf.py stall=1000" OPPONENT
                        " -rounds 5000 -out deaf.json 2>&1 | grep -v 'illegal move'",
                    0, expected)); /* grep's status: the lines are there */
    char state_name[32];
    double pairs;
    results_state("deaf.json", state_name, sizeof state_name, &pairs);
    assert_string_equal(state_name, "interrupted");
    assert_true(pairs > 100); /* ~350 pairs of illegal moves fill a 64 KB pipe */
    assert_true(now_seconds() - started < 60);
}

/* A program that answers go with an endless flood of info lines: past the deadline the pipe is
 * read once more and no longer, so the flood cannot keep the wait going. */
static void flooding_engine__stall_at_the_deadline(void **state) {
    (void)state;
    double started = now_seconds();
    free(expect_run(RUN " -engine name=flood cmd=" SCRIPTS "/flood.sh stall=1000" OPPONENT
                        " -rounds 2",
                    2, (const char *[]){"engine flood stopped answering", "no bestmove after 1",
                                        NULL}));
    assert_true(now_seconds() - started < 20);
}

/* Ctrl-C while abtest waits on that write (stall at its 60 s default): saved and exited within
 * seconds, as from any other wait. */
static void deaf_engine__interrupt_while_blocked_saves(void **state) {
    (void)state;
    char command[1024], marker[256];
    snprintf(marker, sizeof marker, "%s/pipe_full", dir);
    snprintf(command, sizeof command,
             "cd %s && exec " RUN " -engine name=deaf cmd=" SCRIPTS "/deaf.py args=%s" OPPONENT
             " -rounds 5000 -out blocked.json >/dev/null 2>&1",
             dir, marker);
    pid_t child = test_start_until(command, marker, 60);
    assert_int_equal(access(marker, F_OK), 0);
    struct timespec pause = {0, 300 * 1000 * 1000}; /* the write is waiting by now */
    nanosleep(&pause, NULL);
    double signalled = now_seconds();
    kill(child, SIGINT);
    int status;
    waitpid(child, &status, 0);
    double took = now_seconds() - signalled;
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
    if (took > 5)
        fail_msg("abtest took %.1f s to stop after SIGINT", took);
    char state_name[32];
    double pairs;
    results_state("blocked.json", state_name, sizeof state_name, &pairs);
    assert_string_equal(state_name, "interrupted");
    assert_true(pairs > 0);
}

/* Programs that leave processes behind: each is stopped by killing its process group, so
 * nothing of it outlives the run; one whose process exits while a child keeps its output open
 * is reported as having exited (with its status), not as hung. */
/* One program that leaves processes behind: its script, whether it also runs the real engine,
 * abtest's options after it, the exit status and what the output must say. */
typedef struct {
    const char *script;
    bool runs_engine; /* the script plays through the mock (tests/mock_engine.c) */
    const char *options;
    int status;
    const char *says[3];
    const char *why;
} LeftBehind;

static const LeftBehind LEFT_BEHIND[] = {
    {"spawner.sh", true, " -rounds 2", 0, {"Finished match"}, "a background child"},
    {"stubborn.sh", true, " -rounds 2", 0, {"Finished match"},
     "ignores SIGTERM, keeps a child, stays after quit"},
    {"parent_exits.sh", false, " -rounds 2", 2,
     {"engine parent_exits.sh disconnected in ",
      "it exited before its bestmove (exit status 4; a process it started held its output open)"},
     "exits at its first go while its child holds its output (an exit, not a 60 s stall)"},
    {"closes_output.sh", false, " -rounds 2 -recover", 0,
     {"it closed its output before its bestmove (the process still ran: stopped)",
      "the game is lost, the engine restarted"},
     "closes its output and goes on running"},
};

static void process_groups__nothing_left_behind(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof LEFT_BEHIND / sizeof LEFT_BEHIND[0]; i++) {
        const LeftBehind *row = &LEFT_BEHIND[i];
        char command[1024], marker[32];
        snprintf(marker, sizeof marker, "3000.%d%zu", (int)getpid() % 100000, i);
        snprintf(command, sizeof command,
                 RUN " -engine name=%s cmd=" SCRIPTS "/%s \"args=%s%s\"" OPPONENT "%s", row->script,
                 row->script, marker, row->runs_engine ? " " MOCK : "", row->options);
        double started = now_seconds();
        free(expect_run(command, row->status, row->says));
        if (now_seconds() - started > 30)
            fail_msg("row %zu (%s): %.0f s", i, row->why, now_seconds() - started);
        assert_nothing_left(marker);
    }
}

/* Node counts beyond belief (2^64 - 1) are not counted, sums saturate where a results file
 * can hold them, and an interrupted run resumes from the file abtest wrote. */
static void node_counts__absurd_ones_not_believed_sums_saturate(void **state) {
    (void)state;
    char command[1024];
    snprintf(command, sizeof command,
             RUN " -engine name=huge cmd=" SCRIPTS "/rewrite.sh \"args=" MOCK
                 " huge-nodes\"" OPPONENT " -rounds 4 -out huge.json -debug-stopafter 2");
    free(expect_run(command, 130, NULL));
    free(expect_run(RUN " -resume huge.json", 0, (const char *[]){"Finished match", NULL}));
    char path[256];
    snprintf(path, sizeof path, "%s/huge.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *engine = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), 0);
    assert_true(cJSON_GetObjectItem(engine, "moves")->valuedouble > 0);
    assert_true(cJSON_GetObjectItem(engine, "nodes")->valuedouble == 0);
    cJSON_Delete(json);
    /* The sums: saturating at 2^53, never wrapping. */
    assert_true(match_count_add(MATCH_COUNT_MAX - 1, 1) == MATCH_COUNT_MAX);
    assert_true(match_count_add(MATCH_COUNT_MAX - 1, 5) == MATCH_COUNT_MAX);
    assert_true(match_count_add(UINT64_MAX, UINT64_MAX) == MATCH_COUNT_MAX);
    assert_true(match_count_add(MATCH_COUNT_MAX, 0) == MATCH_COUNT_MAX);
    assert_true(match_count_add(5, 7) == 12);
}

/* What a program says is read as UCI allows: spaces before bestmove are no stall. Its bench
 * total must be plain digits within bounds; one that exits during bench is named with its
 * status. */
static void replies__spaces_tolerated_bench_totals_checked(void **state) {
    (void)state;
    free(expect_run(RUN " -engine name=spaced cmd=" SCRIPTS "/rewrite.sh \"args=" MOCK
                        " spaced-bestmove\"" OPPONENT " -rounds 2",
                    0, (const char *[]){"Finished match", NULL}));
    static const char *const totals[][2] = {
        {"-5", "unreadable bench total 'Nodes searched  : -5'"},
        {"1e23", "unreadable bench total 'Nodes searched  : 1e23'"},
        {"18446744073709551616", "a count of 0..1099511627776 nodes expected"},
        {"exit", "it exited before the end of 'bench' (exit status 3)"},
    };
    for (size_t i = 0; i < sizeof totals / sizeof totals[0]; i++) {
        char command[1024];
        snprintf(command, sizeof command,
                 RUN " -engine name=bencher cmd=" SCRIPTS "/bench_says.sh args=%s" OPPONENT
                     " -rounds 1",
                 totals[i][0]);
        free(expect_run(
            command, 2,
            (const char *[]){"engine bencher (" SCRIPTS "/bench_says.sh)", totals[i][1], NULL}));
    }
}

/* Values that would reach the engine as commands of their own are refused, as are more words
 * of args= than a program gets, and every -engine error names its engine wherever name= is. */
static void arguments__control_characters_refused_engine_named(void **state) {
    (void)state;
    static const char *const rows[][2] = {
        {"-engine name=a cmd=" ENGINE " option.killers=\"$(printf 'false\\nquit')\"",
         "-engine a: option.killers: control character 0x0a"},
        {"-engine name=a cmd=" ENGINE " \"option.$(printf 'x\\ty')=1\"", "control character 0x09"},
        {"-engine name=a cmd=\"$(printf '" ENGINE "\\r')\"",
         "-engine a: cmd: control character 0x0d"},
        {"-engine name=a cmd=" ENGINE " dir=\"$(printf '/tmp\\033')\"", "control character 0x1b"},
        {"-engine name=a cmd=" ENGINE " \"args=$(seq -s ' ' 1 65)\"",
         "-engine a: args=: more than 64 words"},
        {"-engine bench=-5 name=a cmd=" ENGINE, "-engine a: bench=-5: -5 is out of range"},
        {"-engine bench=1099511627777 name=a cmd=" ENGINE, "out of range 1..1099511627776"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char command[2048];
        snprintf(command, sizeof command, RUN " %s" OPPONENT " -rounds 1", rows[i][0]);
        free(expect_run(command, 2, (const char *[]){rows[i][1], NULL}));
    }
    /* 64 words are passed whole (build/engine refuses them as a command line of its own). */
    free(expect_run(
        RUN " -engine name=a cmd=" ENGINE " \"args=$(seq -s ' ' 1 64)\"" OPPONENT " -rounds 1", 2,
        (const char *[]){"engine a (" ENGINE ") exited before answering 'uci'", NULL}));
}

/* A results file edited to play another program is refused on resume: its games would be
 * mixed with the first program's. The run starts with the mock behind rewrite.sh, whose bench
 * says 4343 nodes; the file is then pointed at the mock itself, whose bench says 4242. */
static void resume__another_program_refused(void **state) {
    (void)state;
    free(expect_run(RUN " -engine name=prog cmd=" SCRIPTS "/rewrite.sh \"args=" MOCK
                        " other-bench\"" OPPONENT " -rounds 4 -out prog.json -debug-stopafter 1",
                    130, NULL));
    char path[256];
    snprintf(path, sizeof path, "%s/prog.json", dir);
    cJSON *json = test_load_json(path);
    cJSON *program = cJSON_GetObjectItem(
        cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(json, "settings"), "engines"),
                           0),
        "program");
    assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(program, "seen"), "bench")->valuedouble ==
                4343);
    cJSON_ReplaceItemInObject(program, "cmd", cJSON_CreateString(MOCK));
    cJSON_ReplaceItemInObject(program, "args", cJSON_CreateString(""));
    char *text = json_text(json);
    cJSON_Delete(json);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
    free(expect_run(RUN " -resume prog.json", 2,
                    (const char *[]){"is not the program the run began with: bench 4343 -> 4242 "
                                     "nodes, file " SCRIPTS "/rewrite.sh -> ",
                                     NULL}));
}

/* Writes dir/prog.sh, a program that runs `exec LINE`. */
static void write_program(const char *line) {
    char path[256];
    snprintf(path, sizeof path, "%s/prog.sh", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\nexec %s\n", line);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
}

/* The same path rebuilt between two sessions: a resume with the same build goes on; after the
 * rebuild (another bench, another size and time) it is refused with both benches named, and
 * -allow-engine-change resumes, saying what changed, and records the new build. */
static void resume__rebuilt_program_refused_same_build_resumes(void **state) {
    (void)state;
    write_program(MOCK " \"$@\"");
    free(expect_run(RUN " -engine name=prog cmd=./prog.sh" OPPONENT
                        " -rounds 6 -out rebuilt.json -debug-stopafter 1",
                    130, (const char *[]){"engine prog (./prog.sh): bench 4242 nodes", NULL}));
    char path[256];
    snprintf(path, sizeof path, "%s/rebuilt.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *seen = cJSON_GetObjectItem(
        cJSON_GetObjectItem(
            cJSON_GetArrayItem(
                cJSON_GetObjectItem(cJSON_GetObjectItem(json, "settings"), "engines"), 0),
            "program"),
        "seen");
    char program[256];
    snprintf(program, sizeof program, "%s/prog.sh", dir);
    struct stat st;
    assert_int_equal(stat(program, &st), 0);
    assert_true(cJSON_GetObjectItem(seen, "bench")->valuedouble == 4242);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(seen, "path")), program);
    assert_true(cJSON_GetObjectItem(seen, "size")->valuedouble == (double)st.st_size);
    assert_int_equal(strlen(cJSON_GetStringValue(cJSON_GetObjectItem(seen, "mtime"))), 30);
    cJSON_Delete(json);

    free(expect_run(RUN " -resume rebuilt.json -debug-stopafter 2", 130, NULL));
    write_program(SCRIPTS "/rewrite.sh " MOCK " other-bench");
    free(expect_run(RUN " -resume rebuilt.json", 2,
                    (const char *[]){"engine prog (./prog.sh) is not the program the run began "
                                     "with: bench 4242 -> 4343 nodes, size ",
                                     "give -allow-engine-change if the change is meant", NULL}));
    free(expect_run(RUN " -resume rebuilt.json -allow-engine-change", 0,
                    (const char *[]){"note: engine prog (./prog.sh) changed since the run began "
                                     "(bench 4242 -> 4343 nodes",
                                     NULL}));
    json = test_load_json(path);
    seen = cJSON_GetObjectItem(
        cJSON_GetObjectItem(
            cJSON_GetArrayItem(
                cJSON_GetObjectItem(cJSON_GetObjectItem(json, "settings"), "engines"), 0),
            "program"),
        "seen");
    assert_true(cJSON_GetObjectItem(seen, "bench")->valuedouble == 4343);
    cJSON_Delete(json);
}

/* cmd=sh args=script.sh: the recorded file is the interpreter, and the script, a file args=
 * names, is part of the program's identity: an edit to it alone (same bench) refuses the resume,
 * naming it, where before only a changed bench would have been noticed. */
static void resume__edited_script_of_args_refused(void **state) {
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/script.sh", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "exec %s \"$@\"\n", MOCK);
    fclose(f);
    free(expect_run(RUN " -engine name=prog cmd=sh args=script.sh" OPPONENT
                        " -rounds 6 -out script.json -debug-stopafter 1",
                    130, NULL));
    f = fopen(path, "a");
    assert_non_null(f);
    fprintf(f, "# an edit that keeps the bench\n");
    fclose(f);
    free(expect_run(RUN " -resume script.json", 2,
                    (const char *[]){"engine prog (sh) is not the program the run began with: "
                                     "args= files script.sh (bytes hashed ",
                                     NULL}));
}

/* A run written before an option existed (its recorded options lack history=): the resume is
 * refused, naming the option at today's default and -allow-engine-change, which resumes it so
 * and records it in the results file. */
static void resume__run_older_than_an_option(void **state) {
    (void)state;
    free(expect_run(RUN " -engine name=a -engine name=b killers=off -each nodes=100 -rounds 4 "
                        "-out older.json -debug-stopafter 1",
                    130, NULL));
    char path[256];
    snprintf(path, sizeof path, "%s/older.json", dir);
    cJSON *json = test_load_json(path);
    cJSON *engines = cJSON_GetObjectItem(cJSON_GetObjectItem(json, "settings"), "engines");
    for (int e = 0; e < 2; e++) { /* as a version without the option wrote it */
        cJSON *engine = cJSON_GetArrayItem(engines, e);
        char config[2048], *at;
        snprintf(config, sizeof config, "%s", cJSON_GetObjectItem(engine, "config")->valuestring);
        assert_non_null(at = strstr(config, " history=off"));
        memmove(at, at + strlen(" history=off"), strlen(at + strlen(" history=off")) + 1);
        cJSON_ReplaceItemInObject(engine, "config", cJSON_CreateString(config));
    }
    char *text = cJSON_Print(json);
    cJSON_Delete(json);
    test_write_file_in(dir, "older.json", text);
    free(text);
    free(expect_run(RUN " -resume older.json", 2,
                    (const char *[]){"the run was written before some options existed; resuming "
                                     "gives them this version's default (engine a: history=off; "
                                     "engine b: history=off)",
                                     "Give -allow-engine-change", NULL}));
    free(expect_run(RUN " -resume older.json -allow-engine-change", 0,
                    (const char *[]){"note: options the run did not know take this version's "
                                     "default (engine a: history=off",
                                     NULL}));
    json = test_load_json(path);
    char *changes = cJSON_PrintUnformatted(cJSON_GetObjectItem(json, "accepted_changes"));
    assert_non_null(strstr(changes, "options at this version's default: engine a: history=off"));
    free(changes);
    cJSON_Delete(json);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(deaf_engine__stall_after_the_deadline_run_saved),
        cmocka_unit_test(deaf_engine__interrupt_while_blocked_saves),
        cmocka_unit_test(flooding_engine__stall_at_the_deadline),
        cmocka_unit_test(process_groups__nothing_left_behind),
        cmocka_unit_test(node_counts__absurd_ones_not_believed_sums_saturate),
        cmocka_unit_test(replies__spaces_tolerated_bench_totals_checked),
        cmocka_unit_test(arguments__control_characters_refused_engine_named),
        cmocka_unit_test(resume__another_program_refused),
        cmocka_unit_test(resume__rebuilt_program_refused_same_build_resumes),
        cmocka_unit_test(resume__edited_script_of_args_refused),
        cmocka_unit_test(resume__run_older_than_an_option),
    };
    return tslab_run_tests_setup("hostile_engines", tests, sizeof tests / sizeof tests[0], argc,
                                 argv, setup, teardown);
}
