// SPDX-License-Identifier: MIT
// Helpers shared by the cmocka suites: parsing fixtures and seeded random games.
#pragma once

#include "board.h"
#include "config.h"
#include "json_text.h"
#include "movegen.h"
#include "rng.h"

#include <cJSON.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

/* The configuration under the test matches that must end by SPRT. Such a match needs a real
 * strength difference between its engines (killers and the hint against neither); under the
 * 0.2 defaults that difference decides in a few hundred pairs, under 0.3's (history orders the
 * same quiet moves) the hardening match ran on past CI's limit. Naming the preset keeps these
 * matches, and their pinned pair counts, the same whatever the defaults become. */
#define TEST_MATCH_PRESET "preset=tslab-0.2"

/* Parses text or fails the test, naming the text and the parser's message. */
static inline Board parse_board(const char *text) {
    Board b = {0}; /* board_from_text leaves it untouched on failure */
    Error err = {{0}};
    if (!board_from_text(text, &b, &err))
        fail_msg("cannot parse '%s': %s", text, err.text);
    return b;
}

/* The defaults with every pruning option off, then the tokens: a search plain minimax must agree
 * with (test_search), or one pruning variant measured alone (test_variants). */
static inline SearchConfig config_without_pruning(const char *tokens) {
    SearchConfig config = config_default();
    assert_true(config_pruning_off(&config));
    Error err = {{0}};
    if (!config_apply_line(&config, tokens, &err))
        fail_msg("config '%s': %s", tokens, err.text);
    return config;
}

static inline Move parse_move(const char *text) {
    Move m;
    Error err = {{0}};
    if (!move_from_text(text, &m, &err))
        fail_msg("cannot parse move '%s': %s", text, err.text);
    return m;
}

/* Plays up to plies random legal moves from the start (stopping when the game ends by the
 * rules) and returns the position reached. Same rng state, same position. */
static inline Board random_position(Rng *rng, int plies) {
    Board b = board_start();
    for (int i = 0; i < plies && board_game_end(&b) == GAME_END_NONE; i++) {
        MoveList list;
        movegen_all(&b, &list);
        board_make(&b, list.moves[rng_below(rng, (uint64_t)list.count)]);
    }
    return b;
}

/* Writes json over path exactly as the tools write a file (json_text.h): a test's edit of a
 * results file. */
static inline void test_save_json(const char *path, const cJSON *json) {
    char *text = json_text(json);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
}

/* Writes text to dir/name (a test's fixture). */
static inline void test_write_file_in(const char *dir, const char *name, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A whole file, malloc'd and NUL-terminated, or NULL when it cannot be read. */
static inline char *test_read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t length = 0, capacity = 1 << 16;
    char *text = malloc(capacity);
    size_t got;
    while (text && (got = fread(text + length, 1, capacity - length - 1, f)) > 0) {
        length += got;
        if (length + 1 >= capacity)
            text = realloc(text, capacity *= 2);
    }
    if (text)
        text[length] = '\0';
    fclose(f);
    return text;
}

/* A JSON file, parsed, or the test fails naming it. */
static inline cJSON *test_load_json(const char *path) {
    char *text = test_read_file(path);
    if (!text)
        fail_msg("cannot read %s", path);
    cJSON *json = cJSON_Parse(text);
    free(text);
    if (!json)
        fail_msg("%s: not JSON", path);
    return json;
}

/* Copies the JSON file from to the file to with the member at a dotted path
 * ("tournament.pairings.1.decision": array items by index) replaced by value (JSON text). */
static inline void test_edit_json(const char *from, const char *to, const char *path,
                                  const char *value) {
    cJSON *json = test_load_json(from), *node = json;
    char copy[256], *saved;
    snprintf(copy, sizeof copy, "%s", path);
    char *key = strtok_r(copy, ".", &saved);
    for (char *next; node && (next = strtok_r(NULL, ".", &saved)); key = next)
        node = cJSON_IsArray(node) ? cJSON_GetArrayItem(node, atoi(key))
                                   : cJSON_GetObjectItem(node, key);
    if (!node || !cJSON_GetObjectItem(node, key))
        fail_msg("%s: no member %s", from, path);
    cJSON_ReplaceItemInObject(node, key, cJSON_Parse(value));
    test_save_json(to, json);
    cJSON_Delete(json);
}

/* Runs a shell command; returns its exit status and (when out is not NULL) what it printed,
 * malloc'd. stderr joins stdout unless the command redirects it itself. */
static inline int test_run(const char *command, char **out) {
    char full[8192];
    snprintf(full, sizeof full, strstr(command, "2>") ? "%s" : "%s 2>&1", command);
    FILE *pipe = popen(full, "r");
    if (!pipe)
        fail_msg("cannot run %s", command);
    size_t length = 0, capacity = 1 << 16;
    char *text = malloc(capacity);
    size_t got;
    while ((got = fread(text + length, 1, capacity - length - 1, pipe)) > 0) {
        length += got;
        if (length + 1 >= capacity)
            text = realloc(text, capacity *= 2);
    }
    text[length] = '\0';
    int status = pclose(pipe);
    if (out)
        *out = text;
    else
        free(text);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* An edit of a results file (a dotted path, its new value as JSON text) and what the resume
 * of the edited file must say. */
typedef struct {
    const char *path, *value, *message;
} TestEdit;

/* Each edit of dir/file, written to dir/edited.json, is refused on -resume: exit 2, its message
 * said. */
static inline void test_assert_edits_refused(const char *dir, const char *file,
                                             const TestEdit edits[], size_t count) {
    char from[512], to[512], command[1024], *out;
    snprintf(from, sizeof from, "%s/%s", dir, file);
    snprintf(to, sizeof to, "%s/edited.json", dir);
    for (size_t i = 0; i < count; i++) {
        test_edit_json(from, to, edits[i].path, edits[i].value);
        snprintf(command, sizeof command,
                 "cd %s && " TSLAB_BUILD_DIR "/abtest -resume edited.json -quiet 2>&1", dir);
        int status = test_run(command, &out);
        if (status != 2 || !strstr(out, edits[i].message))
            fail_msg("%s = %s: exit %d, wanted '%s':\n%s", edits[i].path, edits[i].value, status,
                     edits[i].message, out);
        free(out);
    }
}

/* Two JSON files hold the same values under each of keys (count of them), compared as the
 * tools write them: every number in its shortest exact text, so a difference in the last bit
 * of a double is a difference. */
static inline void test_assert_same_keys(const char *a_path, const char *b_path,
                                         const char *const *keys, size_t count) {
    cJSON *a = test_load_json(a_path), *b = test_load_json(b_path);
    for (size_t i = 0; i < count; i++) {
        const cJSON *ax = cJSON_GetObjectItem(a, keys[i]), *by = cJSON_GetObjectItem(b, keys[i]);
        char *x = ax ? json_text(ax) : NULL, *y = by ? json_text(by) : NULL;
        if (!x || !y || strcmp(x, y))
            fail_msg("%s differs between %s and %s:\n%.300s\n%.300s", keys[i], a_path, b_path,
                     x ? x : "(missing)", y ? y : "(missing)");
        free(x);
        free(y);
    }
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* The same for one key of two files in dir. */
static inline void test_assert_same_key_in(const char *dir, const char *a, const char *b,
                                           const char *key) {
    char a_path[512], b_path[512];
    snprintf(a_path, sizeof a_path, "%s/%s", dir, a);
    snprintf(b_path, sizeof b_path, "%s/%s", dir, b);
    const char *const keys[] = {key};
    test_assert_same_keys(a_path, b_path, keys, 1);
}

/* The keys that must agree between two runs of the same experiment (timing, the shape it ran
 * on and the number of discarded in-flight pairs may differ). */
static inline void test_assert_same_results(const char *a_path, const char *b_path) {
    static const char *const keys[] = {"pairs", "pentanomial", "pentanomial_detail", "wdl",
                                       "llr", "decision", "decision_pair", "elo", "elo_ci95",
                                       "nelo", "los", "engines", "first_as_tigers",
                                       "first_as_sheep", "end_reasons", "trajectory",
                                       "plies", "book", "overshoot", "sprt_elo",
                                       "sprt_elo_ci95", "sprt_los"};
    test_assert_same_keys(a_path, b_path, keys, sizeof keys / sizeof keys[0]);
}

/* Two files with the same bytes (game records). */
static inline void test_assert_same_file(const char *a_path, const char *b_path) {
    char *x = test_read_file(a_path), *y = test_read_file(b_path);
    if (!x || !y || strcmp(x, y))
        fail_msg("%s and %s differ", a_path, b_path);
    free(x);
    free(y);
}

/* DIR/NAME.json and DIR/NAME.pgn hold the same run as DIR/REFERENCE.json and .pgn. */
static inline void test_assert_same_run(const char *dir, const char *reference, const char *name) {
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/%s.json", dir, reference);
    snprintf(b, sizeof b, "%s/%s.json", dir, name);
    test_assert_same_results(a, b);
    snprintf(a, sizeof a, "%s/%s.pgn", dir, reference);
    snprintf(b, sizeof b, "%s/%s.pgn", dir, name);
    test_assert_same_file(a, b);
}

/* Starts a shell command in the background and returns its pid once path exists (a first
 * checkpoint, say), or after seconds without it (the caller checks). Looked for every 5 ms, so
 * that a short run is caught soon after its first checkpoint. */
static inline pid_t test_start_until(const char *command, const char *path, int seconds) {
    pid_t child = fork();
    if (child == 0) {
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 200 * seconds && access(path, F_OK) != 0; i++) {
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return child;
}

/* Starts command (an `exec abtest ...` that writes path at its first checkpoint), kills it with
 * SIGKILL once path exists, and fails the test when path never came within seconds, when the
 * process was gone before the kill, or when it had ended by itself first: what the caller then
 * resumes is a run cut short by kill -9. */
static inline void test_kill_9_after_checkpoint(const char *command, const char *path,
                                                int seconds) {
    pid_t child = test_start_until(command, path, seconds);
    if (access(path, F_OK) != 0)
        fail_msg("%s: no checkpoint within %d s", path, seconds);
    if (kill(child, SIGKILL) != 0)
        fail_msg("the run (pid %d) was gone before its kill", (int)child);
    int status;
    if (waitpid(child, &status, 0) != child)
        fail_msg("the run (pid %d) could not be waited for", (int)child);
    if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
        fail_msg("SIGKILL did not stop the run (status %d): it had ended first", status);
}

/* Runs build/abtest in dir on the small test book, one game at a time (so that each engine
 * program sees the same moves whatever the machine), writing run.json and run.pgn there, with
 * the given arguments; returns the exit status, stdout in *out and stderr in *errors (both
 * malloc'd). */
static inline int test_abtest_in(const char *dir, const char *arguments, char **out,
                                 char **errors) {
    char command[4096];
    snprintf(command, sizeof command,
             "cd %s && rm -f run.json run.pgn && timeout 120 " TSLAB_BUILD_DIR "/abtest "
             "-openings file=" TSLAB_SOURCE_DIR "/tests/data/book_small.txt -concurrency 1 "
             "-out run.json -pgnout file=run.pgn %s 2>stderr.txt",
             dir, arguments);
    int status = test_run(command, out);
    char path[512];
    snprintf(path, sizeof path, "%s/stderr.txt", dir);
    *errors = test_read_file(path);
    assert_non_null(*errors);
    return status;
}

/* Runs `build/abtest ARGUMENTS` in dir and requires what a refusal before any game is: exit 2,
 * the expected words in what it printed, and no refused.json (the arguments may name it with
 * -out) left in dir. */
static inline void test_assert_refused_in(const char *dir, const char *arguments,
                                          const char *expected) {
    char command[4096], path[512], *out;
    snprintf(command, sizeof command,
             "cd %s && rm -f refused.json && timeout 60 " TSLAB_BUILD_DIR "/abtest %s", dir,
             arguments);
    int status = test_run(command, &out);
    if (status != 2 || !strstr(out, expected))
        fail_msg("%s: exit %d\n%s\n(wanted '%s')", arguments, status, out, expected);
    snprintf(path, sizeof path, "%s/refused.json", dir);
    if (access(path, F_OK) == 0)
        fail_msg("%s: a results file was written", arguments);
    free(out);
}

/* mpirun for the tests of build/abtest-mpi. As root (CI, containers) OpenMPI needs
 * --allow-run-as-root, and with more ranks than cores --oversubscribe. One host: shared memory
 * only, without the single-copy mechanism that containers often forbid. A hung job is ended by
 * timeout rather than hanging the suite, and killed 10 s later if it is still there: on a loaded
 * machine mpirun was once seen to deadlock in its own handling of timeout's SIGTERM (all ranks
 * gone, mpirun waiting on a futex). */
#define TEST_MPIRUN                                                                                \
    "timeout -k 10 300 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader "          \
    "--mca btl_vader_single_copy_mechanism none"
#define TEST_ABTEST_MPI TSLAB_BUILD_DIR "/abtest-mpi"

/* Why the tests of build/abtest-mpi cannot run here (NULL: they can), for a group's setup,
 * which also keeps LeakSanitizer off the ranks under make sanitize: OpenMPI leaves allocations
 * of its plug-ins (unloaded at exit, so no suppression can name them), which would fail every
 * rank. Our code's leaks are found by the other suites. */
static inline const char *test_mpi_missing(void) {
    setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
    if (system("command -v mpirun >/dev/null 2>&1") != 0)
        return "mpirun is not installed (make deps installs openmpi-bin)";
    if (access(TEST_ABTEST_MPI, X_OK) != 0)
        return TEST_ABTEST_MPI " was not built (make builds it when mpicc is present)";
    return NULL;
}

/* A fresh scratch directory /tmp/tslab_NAME_PID into dir (made empty); 0 on success, as a
 * cmocka group fixture returns. test_remove_dir removes it. */
static inline int test_make_dir(char *dir, size_t size, const char *name) {
    char command[1024];
    snprintf(dir, size, "/tmp/tslab_%s_%d", name, (int)getpid());
    snprintf(command, sizeof command, "rm -rf %s && mkdir -p %s", dir, dir);
    return system(command) == 0 ? 0 : -1;
}

static inline int test_remove_dir(const char *dir) {
    char command[512];
    snprintf(command, sizeof command, "rm -rf %s", dir);
    return system(command) == 0 ? 0 : -1;
}

/* Whether the test itself runs under AddressSanitizer (which needs its own address space and
 * runs several times slower). */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef TEST_ADDRESS_SANITIZER
#define TEST_ADDRESS_SANITIZER 0
#endif

/* Runs a group; `-t PATTERN` runs only the tests whose name matches (cmocka's filter). */
static inline int tslab_run_tests(const char *group, const struct CMUnitTest *tests, size_t count,
                            int argc, char **argv) {
    if (argc > 2 && !strcmp(argv[1], "-t"))
        cmocka_set_test_filter(argv[2]);
    return _cmocka_run_group_tests(group, tests, count, NULL, NULL);
}
/* The same with a group fixture (setup and teardown run once around the whole group). */
static inline int tslab_run_tests_setup(const char *group, const struct CMUnitTest *tests,
                                        size_t count, int argc, char **argv,
                                        CMFixtureFunction setup, CMFixtureFunction teardown) {
    if (argc > 2 && !strcmp(argv[1], "-t"))
        cmocka_set_test_filter(argv[2]);
    return _cmocka_run_group_tests(group, tests, count, setup, teardown);
}

#define RUN_TESTS(group, tests) tslab_run_tests(group, tests, sizeof tests / sizeof tests[0], argc, argv)
