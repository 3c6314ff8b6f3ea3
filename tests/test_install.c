// SPDX-License-Identifier: MIT
// An install that runs anywhere: tools/install.sh (what `make install` runs) into a temporary
// prefix, then the installed tools started from a directory outside any checkout find their
// defaults beside themselves, create their output directories, name themselves as installed,
// run the main job (interrupted after its first checkpoint, then resumed) and bench check.
#include "test_util.h"

#include <cJSON.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char prefix[256], work[300];

static int setup(void **state) {
    (void)state;
    const char *tmp = getenv("TMPDIR");
    snprintf(prefix, sizeof prefix, "%s/tslab_install_%d", tmp && *tmp ? tmp : "/tmp",
             (int)getpid());
    snprintf(work, sizeof work, "%s/elsewhere", prefix);
    char command[1024];
    snprintf(command, sizeof command,
             "rm -rf %s && sh " TSLAB_SOURCE_DIR "/tools/install.sh %s/usr " TSLAB_BUILD_DIR
             " >/dev/null && mkdir -p %s",
             prefix, prefix, work);
    return system(command) == 0 ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char command[512];
    snprintf(command, sizeof command, "rm -rf %s", prefix);
    return system(command) == 0 ? 0 : -1;
}

/* Runs an installed tool in the work directory (outside any checkout). */
static int run_installed(const char *tool_and_arguments, char **out) {
    char command[2048];
    snprintf(command, sizeof command, "cd %s && env -u TSLAB_DATA %s/usr/bin/%s", work, prefix,
             tool_and_arguments);
    return test_run(command, out);
}

static void install__help_says_where_the_defaults_come_from(void **state) {
    (void)state;
    char *out, expected[512];
    assert_int_equal(run_installed("tslab-bench -help", &out), 0);
    snprintf(expected, sizeof expected, "defaults: %s/usr/share/tslab (installed beside the "
                                        "program", prefix);
    if (!strstr(out, expected))
        fail_msg("'%s' not in:\n%s", expected, out);
    free(out);
    assert_int_equal(run_installed("tslab-abtest -help", &out), 0);
    assert_non_null(strstr(out, expected));
    free(out);
    /* abtest-mpi is installed beside them when it was built (MPI present). */
    char path[1024];
    snprintf(path, sizeof path, "%s/usr/bin/tslab-abtest-mpi", prefix);
    assert_int_equal(access(TSLAB_BUILD_DIR "/abtest-mpi", X_OK) == 0, access(path, X_OK) == 0);
    /* The engine finds its bench suite beside it too, on the protocol and on the command line. */
    char engine_command[1024];
    snprintf(engine_command, sizeof engine_command,
             "cd %s && printf 'bench 16 1 2\\n' | env -u TSLAB_DATA %s/usr/bin/tslab-engine", work,
             prefix);
    assert_int_equal(test_run(engine_command, &out), 0);
    assert_non_null(strstr(out, "info string bench: 67 positions from "));
    assert_non_null(strstr(out, "/bench/positions.txt, depth 2, signature "));
    free(out);
    assert_int_equal(run_installed("tslab-engine bench 16 1 2", &out), 0);
    assert_non_null(strstr(out, "Nodes searched  : "));
    free(out);
    /* TSLAB_DATA overrides, and a wrong one is named in the error. */
    char command[1024];
    snprintf(command, sizeof command,
             "cd %s && TSLAB_DATA=/nonexistent %s/usr/bin/tslab-bench -depth 2", work, prefix);
    assert_int_equal(test_run(command, &out), 2);
    assert_non_null(strstr(out, "missing from /nonexistent (from TSLAB_DATA)"));
    free(out);
}

static void install__main_job_from_elsewhere_checkpoints_and_resumes(void **state) {
    (void)state;
    char results[512], command[2048];
    snprintf(results, sizeof results, "%s/results/killers.json", work);
    snprintf(command, sizeof command,
             "cd %s && exec env -u TSLAB_DATA %s/usr/bin/tslab-abtest > main.out 2>&1", work,
             prefix);
    /* The first checkpoint (10 pairs) proves the book was found and results/ created. */
    pid_t child = test_start_until(command, results, 60);
    kill(child, SIGINT);
    int status;
    waitpid(child, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
    char path[512], expected[1024];
    snprintf(path, sizeof path, "%s/main.out", work);
    char *out = test_read_file(path);
    assert_non_null(out);
    snprintf(expected, sizeof expected, "book: %s/usr/share/tslab/openings/default.txt", prefix);
    assert_non_null(strstr(out, expected));
    snprintf(expected, sizeof expected,
             "resume with: %s/usr/bin/tslab-abtest -resume results/killers.json", prefix);
    if (!strstr(out, expected))
        fail_msg("'%s' not in:\n%s", expected, out);
    free(out);
    /* The resume finds the recorded book from here too, and ends as the main job does in the
     * checkout (docs/abtest.md): H1 after 726 pairs. */
    if (TEST_ADDRESS_SANITIZER) { /* several times slower: the job stops early */
        assert_int_equal(run_installed("tslab-abtest -resume results/killers.json -quiet "
                                       "-debug-stopafter 4",
                                       &out),
                         130);
        assert_non_null(strstr(out, "resuming at pair"));
        free(out);
        return;
    }
    assert_int_equal(run_installed("tslab-abtest -resume results/killers.json -quiet", &out), 0);
    assert_non_null(strstr(out, "resuming at pair"));
    assert_non_null(strstr(out, "SPRT ([0.00, 10.00]) completed - H1 was accepted"));
    free(out);
    cJSON *json = test_load_json(results);
    assert_int_equal(cJSON_GetObjectItem(json, "decision_pair")->valueint, 726);
    assert_int_equal(cJSON_GetObjectItem(json, "sessions")->valueint, 2);
    cJSON_Delete(json);
}

static void install__bench_check_from_elsewhere_is_identical(void **state) {
    (void)state;
    char *out;
    int status = run_installed("tslab-bench check -threads 2", &out);
    if (status != 0 || !strstr(out, "IDENTICAL"))
        fail_msg("exit %d:\n%s", status, out);
    free(out);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(install__help_says_where_the_defaults_come_from),
        cmocka_unit_test(install__main_job_from_elsewhere_checkpoints_and_resumes),
        cmocka_unit_test(install__bench_check_from_elsewhere_is_identical),
    };
    return tslab_run_tests_setup("install", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 setup, teardown);
}
