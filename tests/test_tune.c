// SPDX-License-Identifier: MIT
// build/abtest tune end to end: the same trajectory whatever the number of threads, an exact
// resume (from a cut history and after kill -9), the tuning file's contents, an engine program
// tuned through setoption, and clear errors.
#include "test_util.h"

#include "json_text.h"

#include <cJSON.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
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

/* The histories of two tuning files, compared as exact text (every number to the bit). */
static void assert_same_history(const char *a, const char *b) {
    test_assert_same_key_in(dir, a, b, "history");
}

/* The file holds the inputs and one entry per iteration, k from 1, with c_k, a_k, delta and
 * theta per parameter; threads do not change a number. */
static void trajectory__same_for_any_concurrency(void **state) {
    (void)state;
    char *out;
    assert_int_equal(run(RUN " -concurrency 1 -out one.json", &out), 0);
    assert_non_null(strstr(out, "iteration 6/6"));
    /* The engine line carries the -each configuration it was tuned under, and every parameter
     * (eval_mobility too, whose value is the default). */
    assert_non_null(strstr(out, "engine: -engine name=tuned nodes=300 futility="));
    assert_non_null(strstr(strstr(out, "engine: -engine"), " eval_mobility="));
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

/* from's tuning file as it stood after keep iterations, as to: the history cut, "done" and
 * each parameter's value (theta then) set to match. */
static void cut_history(const char *from, const char *to, int keep) {
    cJSON *json = load(from);
    cJSON *history = cJSON_GetObjectItem(json, "history");
    while (cJSON_GetArraySize(history) > keep)
        cJSON_DeleteItemFromArray(history, keep);
    cJSON_ReplaceItemInObject(json, "done", cJSON_CreateNumber(keep));
    const cJSON *param;
    int i = 0;
    cJSON_ArrayForEach(param, cJSON_GetObjectItem(json, "params")) {
        double value =
            keep ? cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(history, keep - 1),
                                                          "theta"),
                                      i)
                       ->valuedouble
                 : cJSON_GetObjectItem(param, "start")->valuedouble;
        cJSON_ReplaceItemInObject((cJSON *)param, "value", cJSON_CreateNumber(value));
        i++;
    }
    char *text = json_text(json), path[512];
    snprintf(path, sizeof path, "%s/%s", dir, to);
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    fputs(text, file);
    fclose(file);
    free(text);
    cJSON_Delete(json);
}

/* A history cut after any iteration resumes to the same 6, bit for bit; so does a run killed
 * with -9. */
static void resume__continues_exactly(void **state) {
    (void)state;
    char *out;
    assert_int_equal(run(RUN " -concurrency 1 -out full.json", &out), 0);
    free(out);
    for (int keep = 0; keep < 6; keep++) {
        char command[1024], name[64], expected[64];
        snprintf(name, sizeof name, "cut%d.json", keep);
        cut_history("full.json", name, keep);
        snprintf(command, sizeof command, ABTEST " tune -resume %s", name);
        assert_int_equal(run(command, &out), 0);
        snprintf(expected, sizeof expected, "iteration %d/6", keep + 1);
        assert_non_null(strstr(out, expected));
        snprintf(expected, sizeof expected, "iteration %d/6", keep);
        if (keep)
            assert_null(strstr(out, expected));
        free(out);
        assert_same_history("full.json", name);
    }

    /* kill -9 once the first iteration is on disk, then resume. */
    char command[2048], killed[512];
    snprintf(killed, sizeof killed, "%s/killed.json", dir);
    snprintf(command, sizeof command,
             "cd %s && exec %s -concurrency 1 -iterations 40 -out killed.json >/dev/null 2>&1", dir,
             RUN);
    pid_t child = test_start_until(command, killed, 60);
    /* The file exists from the start (0 iterations): wait for one on disk. */
    for (int i = 0; i < 600; i++) {
        cJSON *json = load("killed.json");
        int done = cJSON_GetArraySize(cJSON_GetObjectItem(json, "history"));
        cJSON_Delete(json);
        if (done > 0)
            break;
        nanosleep(&(struct timespec){0, 50000000L}, NULL);
    }
    assert_int_equal(kill(child, SIGKILL), 0);
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
        fail_msg("the run was not killed by the signal (status %d): it ended first", status);
    cJSON *json = load("killed.json");
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


static void write_file_at(const char *name, const char *text) {
    test_write_file_in(dir, name, text);
}

static char *read_at(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return test_read_file(path);
}

/* What the command printed on stderr (run() puts it in stderr.txt). */
static void assert_error(const char *expected) {
    char *errors = read_at("stderr.txt");
    if (!errors || !strstr(errors, expected))
        fail_msg("stderr '%s' lacks '%s'", errors ? errors : "(none)", expected);
    free(errors);
}

#define SHORT ABTEST " tune -param 'futility, int, 150, 0, 300, 10, 0.002' -iterations 2 -pairs 2 " \
                     "-each nodes=200 -openings file=" BOOK

/* The output discipline: an earlier file is moved aside (said), an unfinished tuning file is
 * refused with its resume command, an input is never an output, outputs are distinct, a file
 * that cannot be written fails before the first game, and a second run on a file is refused. */
static void outputs__never_replace_an_input_or_an_unfinished_run(void **state) {
    (void)state;
    char *out;
    write_file_at("mine.txt", "an unrelated file\n");
    assert_int_equal(run(SHORT " -out mine.txt", &out), 0);
    assert_non_null(strstr(out, "mine.txt existed (an earlier run): moved to"));
    free(out);
    char *kept = read_at("mine.1.txt");
    assert_string_equal(kept, "an unrelated file\n");
    free(kept);
    /* An unfinished run: 1 of 2 iterations. */
    cut_history("mine.txt", "half.json", 1);
    assert_int_not_equal(run(SHORT " -out half.json", &out), 0);
    free(out);
    assert_error("-out half.json holds an unfinished run (1 of 2 iterations): continue it with "
                 "`");
    assert_error("tune -resume half.json`");
    /* A comment may follow a line, as docs/tuning.md says '#' starts one. */
    write_file_at("p.txt", "# the margin\nfutility, int, 150, 0, 300, 10, 0.002  # was 60\n");
    const struct {
        const char *arguments, *message;
    } refused[] = {
        {ABTEST " tune -params p.txt -iterations 2 -each nodes=200 -openings file=" BOOK
                " -out p.txt",
         "-out p.txt is also -params: writing it would destroy the input"},
        {SHORT " -out book.json -openings file=book.json", "is also -openings file"},
        {SHORT " -out t.json -plot t.json", "-out and -plot are the same file"},
        {SHORT " -out .", "-out .: . is a directory"},
        {SHORT " -out /dev/null", "is not a regular file (a character device)"},
        {SHORT " -out /proc/version/x.json", "-out /proc/version/x.json"},
    };
    write_file_at("book.json", "T3T/5/5/5/T3T s 20 0 ; o1\n");
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        assert_int_equal(run(refused[i].arguments, &out), 2);
        if (strstr(out, "iteration 1/"))
            fail_msg("%s played before refusing: %s", refused[i].arguments, out);
        free(out);
        assert_error(refused[i].message);
    }
    char *params = read_at("p.txt");
    assert_string_equal(params, "# the margin\nfutility, int, 150, 0, 300, 10, 0.002  # was 60\n");
    free(params);
    /* A second run on the file of a live one. */
    char command[2048], path[512];
    snprintf(path, sizeof path, "%s/live.json", dir);
    snprintf(command, sizeof command, "cd %s && exec %s -concurrency 1 -iterations 100000 -out "
                                      "live.json >/dev/null 2>&1",
             dir, RUN);
    pid_t child = test_start_until(command, path, 60);
    assert_int_equal(access(path, F_OK), 0);
    assert_int_equal(run(ABTEST " tune -resume live.json", &out), 2);
    free(out);
    assert_error("-resume live.json is in use by another abtest tune (process");
    assert_int_equal(kill(child, SIGKILL), 0);
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* A resume checks what it reads: the -params file and the book by their bytes, the arguments
 * by their hash, every step of the history by replaying it, the build by its identity. */
static void resume__refuses_changed_inputs_and_edited_history(void **state) {
    (void)state;
    char *out;
    write_file_at("q.txt", "futility, int, 150, 0, 300, 10, 0.002\n");
    char *book = test_read_file(BOOK);
    assert_non_null(book);
    write_file_at("b.txt", book);
    const char *base = ABTEST " tune -params q.txt -iterations 3 -pairs 2 -each nodes=200 "
                              "-openings file=b.txt";
    char command[1024];
    snprintf(command, sizeof command, "%s -out checked.json", base);
    assert_int_equal(run(command, &out), 0);
    free(out);
    cut_history("checked.json", "c1.json", 1);
    /* The params file edited between sessions. */
    write_file_at("q.txt", "futility, int, 150, 0, 300, 10, 0.002\n# edited\n");
    assert_int_equal(run(ABTEST " tune -resume c1.json", &out), 2);
    free(out);
    assert_error("-params q.txt has changed since the run started");
    write_file_at("q.txt", "futility, int, 150, 0, 300, 10, 0.002\n");
    /* The book edited. */
    write_file_at("b.txt", "T3T/5/5/5/T3T s 20 0 ; o1\n");
    assert_int_equal(run(ABTEST " tune -resume c1.json", &out), 2);
    free(out);
    assert_error("-openings file b.txt has changed since the run started");
    write_file_at("b.txt", book);
    free(book);
    /* theta edited within [MIN, MAX]. */
    cJSON *json = load("c1.json");
    cJSON *theta = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(json, "history"), 0),
                                       "theta");
    double edited = cJSON_GetArrayItem(theta, 0)->valuedouble + 1;
    cJSON_ReplaceItemInArray(theta, 0, cJSON_CreateNumber(edited));
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(json, "params"), 0), "value",
                              cJSON_CreateNumber(edited));
    char *text = json_text(json);
    write_file_at("edited.json", text);
    free(text);
    /* The arguments edited: their hash no longer matches. */
    cJSON_ReplaceItemInArray(cJSON_GetObjectItem(json, "arguments"), 3, cJSON_CreateString("9"));
    text = json_text(json);
    write_file_at("args.json", text);
    free(text);
    cJSON_Delete(json);
    assert_int_equal(run(ABTEST " tune -resume edited.json", &out), 2);
    free(out);
    assert_error("history entry 1: theta of futility is");
    assert_error("where the run's seed and scores give");
    assert_int_equal(run(ABTEST " tune -resume args.json", &out), 2);
    free(out);
    assert_error("the run's arguments were edited in the file");
    /* Another build: refused, then accepted on request and recorded. */
    json = load("c1.json");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(json, "build"), "source",
                              cJSON_CreateString("0123456789abcdef"));
    text = json_text(json);
    write_file_at("rebuilt.json", text);
    free(text);
    cJSON_Delete(json);
    assert_int_equal(run(ABTEST " tune -resume rebuilt.json", &out), 2);
    free(out);
    assert_error("the engine is not the build the run began with: the build's source "
                 "0123456789abcdef -> ");
    assert_int_equal(run(ABTEST " tune -resume rebuilt.json -allow-engine-change", &out), 0);
    assert_non_null(strstr(out, "resumed as -allow-engine-change asks"));
    free(out);
    json = load("rebuilt.json");
    const cJSON *changes = cJSON_GetObjectItem(json, "accepted_changes");
    assert_int_equal(cJSON_GetArraySize(changes), 1);
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetArrayItem(changes, 0)),
                           "iteration 2: the build's source 0123456789abcdef"));
    cJSON_Delete(json);
    /* Unchanged, it resumes to the uninterrupted history. */
    assert_int_equal(run(ABTEST " tune -resume c1.json", &out), 0);
    free(out);
    assert_same_history("checked.json", "c1.json");
}

/* gnuplot's chart replaces the earlier one only when whole: on a write that fails (a file-size
 * limit standing in for a full disk) the earlier chart stays and the run says so. */
static void plot__failed_drawing_keeps_the_earlier_chart(void **state) {
    (void)state;
    char *out;
    assert_int_equal(run(SHORT " -out plotted.json -plot chart.png", &out), 0);
    free(out);
    char *before = read_at("chart.png");
    assert_non_null(before);
    size_t size = 0;
    char path[512];
    snprintf(path, sizeof path, "%s/chart.png", dir);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    size = (size_t)st.st_size;
    assert_true(size > 8192);
    /* The finished run resumed: nothing to play, the chart drawn again under an 8 KB limit
     * (SIGXFSZ ignored: gnuplot's writes fail and it exits 0). */
    char command[1024];
    snprintf(command, sizeof command,
             "sh -c \"trap '' XFSZ; ulimit -f 16; exec " ABTEST " tune -resume plotted.json\"");
    assert_int_equal(run(command, &out), 2);
    free(out);
    assert_error("-plot: ");
    char *after = read_at("chart.png");
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal((size_t)st.st_size, size);
    assert_memory_equal(before, after, size < 4096 ? size : 4096);
    free(before);
    free(after);
    char listing[1024];
    snprintf(listing, sizeof listing, "ls %s | grep -c 'chart.png.tmp' || true", dir);
    assert_int_equal(test_run(listing, &out), 0);
    assert_int_equal(atoi(out), 0);
    free(out);
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
         "-engine: not taken here, as abtest tune makes its two engines itself"},
        /* Match options that mean nothing to tune: refused by their rows, no longer ignored. */
        {"-param 'futility, int, 60, 0, 300, 10, 0.002' -iterations 5 -each nodes=300 -html t.html",
         "-html: not taken here, as abtest tune makes"},
        {"-param 'futility, int, 60, 0, 300, 10, 0.002' -iterations 5 -each nodes=300 -quiet",
         "-quiet: not taken here"},
        {"-param 'futility, int, 60, 0, 300, 10, 0.002' -iterations 5 -each nodes=300 -pgnot x",
         "unknown option '-pgnot' (did you mean '-plot'?)"},
        /* Typos of tune's own options are named as such (a new user's -pair suggested -each;
         * -iteration got "-iterations N is required"). */
        {"-param 'futility, int, 60, 0, 300, 10, 0.002' -iterations 5 -each nodes=300 -pair 3",
         "unknown option '-pair' (did you mean '-pairs'?)"},
        {"-param 'futility, int, 60, 0, 300, 10, 0.002' -iteration 5 -each nodes=300",
         "unknown option '-iteration' (did you mean '-iterations'?)"},
        {"-params missing.txt -iterations 5", "-params: "},
        {"-resume missing.json", "-resume: "},
        {"-param 'futility, int, 150, 0, 300, 1e200, 0.002' -iterations 5 -each nodes=300",
         "futility: C_END 1e+200 and R_END 0.002 give a schedule without finite values"},
        {"-param 'futility, int, 150, 0, 300, 1e10, 1e300' -iterations 5 -each nodes=300",
         "give a schedule without finite values"},
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
        cmocka_unit_test(outputs__never_replace_an_input_or_an_unfinished_run),
        cmocka_unit_test(resume__refuses_changed_inputs_and_edited_history),
        cmocka_unit_test(plot__failed_drawing_keeps_the_earlier_chart),
        cmocka_unit_test(errors__name_what_is_wrong),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
