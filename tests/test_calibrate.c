// SPDX-License-Identifier: MIT
// nodestime=auto (lab/match/calibrate.c): a measured run is the run of its numbers typed in,
// resumed after SIGKILL without measuring again; a busy machine measures lower and says so; an
// engine that cannot be measured is refused before any game.
#include "calibrate.h"
#include "json_text.h"
#include "test_util.h"

#include <math.h>
#include <signal.h>
#include <sys/wait.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define MOCK TSLAB_BUILD_DIR "/tests/mock_engine"

static char dir[256];

/* Two engines that differ, on a short clock counted in nodes, %s their nodestime keys. */
#define PAIR_ARGS                                                                                  \
    " -engine name=a %s -engine name=b nullmove=on %s -each tc=0.05+0.001 -rounds 8 -sprt "        \
    "preset=gain-stc -ratinginterval 2 -srand 7 -openings file=" TSLAB_SOURCE_DIR                  \
    "/tests/data/book_small.txt"

/* The nodestime a results file records for engine e. */
static int64_t recorded_nodestime(const char *path, int e, double *cpu_share) {
    cJSON *json = test_load_json(path);
    const cJSON *engines = cJSON_GetObjectItem(cJSON_GetObjectItem(json, "settings"), "engines");
    const cJSON *engine = cJSON_GetArrayItem(engines, e);
    const cJSON *measured = cJSON_GetObjectItem(engine, "nodestime_auto");
    int64_t nodestime = (int64_t)cJSON_GetObjectItem(engine, "nodestime")->valuedouble;
    if (cpu_share)
        *cpu_share = measured ? cJSON_GetObjectItem(measured, "cpu_share")->valuedouble : -1;
    cJSON_Delete(json);
    return nodestime;
}

/* A run with nodestime=auto killed with SIGKILL after its first checkpoint and resumed: it
 * keeps its measurement, and its games are those of the same run with the measured numbers
 * typed in, played without a stop. */
static void auto__resumed_after_kill_9_is_the_typed_in_run(void **state) {
    (void)state;
    char command[4096], path[512], args[1024], *out;
    snprintf(args, sizeof args, PAIR_ARGS, "nodestime=auto", "nodestime=auto");
    snprintf(path, sizeof path, "%s/killed.json", dir);
    snprintf(command, sizeof command,
             "cd %s && exec " ABTEST "%s -concurrency 1 -out killed.json -pgnout killed.pgn "
             ">killed.txt 2>&1",
             dir, args);
    test_kill_9_after_checkpoint(command, path, 60);
    /* Its measured speed edited: the samples give the figure, so the resume is refused. */
    static const TestEdit forged[] = {{"settings.engines.0.nodestime", "5",
                                       "engine a: \"nodestime\" is 5, but its recorded "
                                       "calibration samples give"}};
    test_assert_edits_refused(dir, "killed.json", forged, 1);
    snprintf(command, sizeof command, "cd %s && " ABTEST " -resume killed.json -quiet", dir);
    if (test_run(command, &out) != 0)
        fail_msg("resume: %s", out);
    assert_non_null(strstr(out, "a resumed run keeps it"));
    assert_null(strstr(out, "measured in")); /* no second measurement */
    free(out);

    int64_t a = recorded_nodestime(path, 0, NULL), b = recorded_nodestime(path, 1, NULL);
    assert_true(a > 0 && b > 0);
    cJSON *json = test_load_json(path); /* the speed ratio the run used, beside its Elo */
    const cJSON *speed = cJSON_GetObjectItem(json, "speed_ratio");
    assert_float_equal(cJSON_GetObjectItem(speed, "ratio")->valuedouble, (double)a / (double)b,
                       1e-12);
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(speed, "elo_worth")));
    cJSON_Delete(json);
    char typed_a[64], typed_b[64];
    snprintf(typed_a, sizeof typed_a, "nodestime=%lld", (long long)a);
    snprintf(typed_b, sizeof typed_b, "nodestime=%lld", (long long)b);
    snprintf(args, sizeof args, PAIR_ARGS, typed_a, typed_b);
    snprintf(command, sizeof command,
             "cd %s && " ABTEST "%s -concurrency 2 -quiet -out typed.json -pgnout typed.pgn", dir,
             args);
    if (test_run(command, &out) != 0)
        fail_msg("typed: %s", out);
    free(out);
    test_assert_same_run(dir, "typed", "killed");
}

/* The same measurement on a machine kept busy by this test's own processes (three a core,
 * killed by pid after) and without them: lower and said to be busy, then higher. */
static void auto__busy_machine_measures_lower_and_says_so(void **state) {
    (void)state;
    if (TEST_ADDRESS_SANITIZER) { /* it measures the machine, not memory: CI's time is short */
        printf("skipped under ASan: the plain and clang runs of make test measure it\n");
        skip();
    }
    int hogs = 3 * (int)sysconf(_SC_NPROCESSORS_ONLN);
    pid_t pids[256];
    if (hogs > 256)
        hogs = 256;
    for (int i = 0; i < hogs; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0)
            for (volatile unsigned long spin = 0;; spin++)
                ;
    }
    char command[4096], *busy_out, *idle_out;
#define BUSY_RUN                                                                                   \
    "cd %s && " ABTEST " -engine name=a tc=0.05+0.001 nodestime=auto -engine name=b "              \
    "tc=0.05+0.001 nodestime=1000 -rounds 1 -concurrency 1 -quiet -openings "                      \
    "file=" TSLAB_SOURCE_DIR "/tests/data/book_small.txt -out %s"
    snprintf(command, sizeof command, BUSY_RUN, dir, "busy.json");
    int busy_status = test_run(command, &busy_out);
    for (int i = 0; i < hogs; i++) {
        kill(pids[i], SIGKILL);
        waitpid(pids[i], NULL, 0);
    }
    if (busy_status != 0)
        fail_msg("busy: %s", busy_out);
    snprintf(command, sizeof command, BUSY_RUN, dir, "idle.json");
    if (test_run(command, &idle_out) != 0)
        fail_msg("idle: %s", idle_out);
    char path[512];
    double busy_share, idle_share;
    snprintf(path, sizeof path, "%s/busy.json", dir);
    int64_t busy = recorded_nodestime(path, 0, &busy_share);
    snprintf(path, sizeof path, "%s/idle.json", dir);
    int64_t idle = recorded_nodestime(path, 0, &idle_share);
    if (!(busy_share < CALIBRATE_BUSY_SHARE && idle_share > busy_share && idle > busy * 5 / 4))
        fail_msg("busy %lld nodes/ms at %.2f of a core, idle %lld at %.2f:\n%s\n%s",
                 (long long)busy, busy_share, (long long)idle, idle_share, busy_out, idle_out);
    assert_non_null(strstr(busy_out, "the machine was busy"));
    free(busy_out);
    free(idle_out);
}

/* The speed ratio's interval: from the rounds' paired ratios when both engines were measured,
 * from the measured one's interval otherwise; none when neither was. */
static void speed_ratio__paired_or_from_one_interval(void **state) {
    (void)state;
    EngineTiming a = {0}, b = {0};
    a.measured.on = b.measured.on = true;
    a.measured.samples = b.measured.samples = CALIBRATE_ROUNDS;
    for (int i = 0; i < CALIBRATE_ROUNDS; i++) { /* b is a's speed x 0.8, whatever the load */
        a.measured.sample[i] = 1000 + 100 * i;
        b.measured.sample[i] = 0.8 * a.measured.sample[i];
    }
    a.nodestime = 1400;
    b.nodestime = 1120;
    SpeedRatio r = calibrate_speed_ratio(&a, &b);
    assert_true(r.known);
    assert_float_equal(r.ratio, 1.25, 1e-12);
    assert_float_equal(r.low, 1.25, 1e-12); /* paired: the common load cancels */
    assert_float_equal(r.high, 1.25, 1e-12);
    assert_float_equal(calibrate_elo_worth(&r), 0, 1e-12);

    b.measured.on = false; /* b typed in: a's own interval */
    a.measured.low = 1100;
    a.measured.high = 1700;
    r = calibrate_speed_ratio(&a, &b);
    assert_true(r.known);
    assert_float_equal(r.low, 1.25 * 1100 / 1400, 1e-12);
    assert_float_equal(r.high, 1.25 * 1700 / 1400, 1e-12);
    assert_float_equal(calibrate_elo_worth(&r), CALIBRATE_DOUBLING_ELO * log2(1400.0 / 1100), 1e-9);
    a.measured.on = false;
    assert_false(calibrate_speed_ratio(&a, &b).known);
}

/* Refused before any game, no results file written: an engine program that never finishes its
 * calibration search; auto without a clock; auto where a number is required. */
static void auto__bad_input_refused_before_any_game(void **state) {
    (void)state;
    static const struct {
        const char *arguments, *expected;
    } rows[] = {
        {"-engine name=m cmd=" MOCK " args=\"stall 1\" bench=off tc=1+0.01 nodestime=auto "
         "-engine name=b tc=1+0.01 -rounds 1 -out refused.json",
         "nodestime=auto: engine m did not finish its calibration search (go movetime 25) "
         "within 125 ms"},
        {"-engine name=a nodestime=auto -engine name=b -each nodes=100 -rounds 1 -out refused.json",
         "-engine a: nodestime=auto measures the engine's speed to count a clock in nodes: give "
         "tc= or st= with it"},
        {"-engine name=a -engine name=b -each tc=1+0.01 nodestime=aut -rounds 1 -out refused.json",
         "nodestime=aut: 'aut' is not an integer (nodes per ms, or auto"},
        {"booktest -each tc=1+0.01 nodestime=auto -diff nullmove=on",
         "-each nodestime=auto: only a match measures an engine's speed before its first game"},
        {"tune -each tc=1+0.01 nodestime=auto -param cache_depth,int,2,1,8,1,0.002",
         "-each nodestime=auto: only a match measures an engine's speed before its first game"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        test_assert_refused_in(dir, rows[i].arguments, rows[i].expected);
}

static int group_setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "calibrate");
}

static int group_teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(speed_ratio__paired_or_from_one_interval),
        cmocka_unit_test(auto__bad_input_refused_before_any_game),
        cmocka_unit_test(auto__resumed_after_kill_9_is_the_typed_in_run),
        cmocka_unit_test(auto__busy_machine_measures_lower_and_says_so),
    };
    return tslab_run_tests_setup("calibrate", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 group_setup, group_teardown);
}
