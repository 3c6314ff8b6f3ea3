// SPDX-License-Identifier: MIT
// The output discipline (cli/output.h, lib/util/outfile.h) and exact JSON numbers
// (cli/json_text.h): numbers read back to the same bits, files replaced whole or not at all,
// special files and planted links refused without blocking, locks that hold.
#include "test_util.h"

#include "json_text.h"
#include "output.h"
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

static char dir[256];

static int setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "output");
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

static uint64_t bits_of(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static double double_of(uint64_t u) {
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* Significant digits of a %g text (the mantissa's digits, leading zeros not counted). */
static int significant_digits(const char *text) {
    int digits = 0;
    bool leading = true;
    for (const char *p = text; *p && *p != 'e'; p++) {
        if (*p < '0' || *p > '9')
            continue;
        if (*p == '0' && leading)
            continue;
        leading = false;
        digits++;
    }
    return digits;
}

/* Checks one value: its text reads back to the same bits, and (not an integer) no shorter %g
 * text does. */
static void check_number(double x) {
    char text[JSON_NUMBER_MAX];
    json_text_number(x, text);
    double back = strtod(text, NULL);
    if (bits_of(back) != bits_of(x))
        fail_msg("%.17g (bits %016llx) written '%s', read back %.17g", x,
                 (unsigned long long)bits_of(x), text, back);
    if (x == floor(x) && fabs(x) <= 9007199254740992.0)
        return;
    int digits = significant_digits(text);
    if (digits > 1) {
        char shorter[400]; /* %g's longest text, as the compiler counts it under -O1 */
        snprintf(shorter, sizeof shorter, "%.*g", digits - 1, x);
        if (strtod(shorter, NULL) == x)
            fail_msg("%.17g written '%s', but '%s' reads back too", x, text, shorter);
    }
}

static void json_number__shortest_text_reads_back_bit_for_bit(void **state) {
    (void)state;
    const double fixed[] = {0.0, -0.0, 0.1 + 0.2, 1.0 / 3, -2.5e-308, DBL_MIN, DBL_MAX, -DBL_MAX,
                            4.9e-324, 9007199254740991.0, 9007199254740993.0, 1e16, 1e300,
                            123456789.125, -0.0061241621386010263, 2.94443897916644};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        check_number(fixed[i]);
    Rng rng = rng_seeded(2026);
    int checked = 0, lossy_in_cjson = 0;
    while (checked < 300000) {
        double x = double_of(rng_next(&rng));
        if (!isfinite(x))
            continue;
        check_number(x);
        /* The figure behind the fix: cJSON's 15 digits lose bits of about 13% of doubles. */
        char fifteen[32];
        snprintf(fifteen, sizeof fifteen, "%1.15g", x);
        double y = strtod(fifteen, NULL);
        lossy_in_cjson += y != x && fabs(y - x) <= fabs(x) * DBL_EPSILON;
        checked++;
    }
    /* Values on a human scale too: ratios and Elo-like numbers. */
    for (int i = 0; i < 200000; i++)
        check_number(((double)(rng_next(&rng) >> 11) * 0x1p-53 - 0.5) * 800);
    assert_true(lossy_in_cjson > checked / 20); /* the case is real in this sample */
    char text[JSON_NUMBER_MAX];
    assert_string_equal(json_text_number(NAN, text), "null");
    assert_string_equal(json_text_number(-INFINITY, text), "null");
    assert_string_equal(json_text_number(0.1 + 0.2, text), "0.30000000000000004");
    assert_string_equal(json_text_number(12345678, text), "12345678");
    assert_string_equal(json_text_number(-0.0, text), "-0");
}

/* The layout is cJSON_Print's: where every number is short, the texts are the same bytes. */
static void json_text__layout_is_cjson_print(void **state) {
    (void)state;
    cJSON *json = cJSON_Parse(
        "{\"a\": 1, \"s\": \"q\\\"\\\\\\n\\t\\u0001 \xc3\xa9\", \"list\": [1, 2.5, [], {}, "
        "{\"x\": [true, false, null]}], \"empty\": {}, \"nested\": {\"deep\": {\"k\": -0.125}},"
        " \"numbers\": [1e-7, 123456.5, -3]}");
    assert_non_null(json);
    char *ours = json_text(json), *theirs = cJSON_Print(json);
    assert_string_equal(ours, theirs);
    free(ours);
    free(theirs);
    cJSON_Delete(json);
}

/* A tree of random doubles written and parsed back by cJSON: every value to the bit. */
static void json_text__random_doubles_round_trip_through_cjson(void **state) {
    (void)state;
    Rng rng = rng_seeded(7);
    double values[5000];
    cJSON *root = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(root, "values");
    for (int i = 0; i < 5000; i++) {
        do
            values[i] = double_of(rng_next(&rng));
        while (!isfinite(values[i]));
        cJSON_AddItemToArray(list, cJSON_CreateNumber(values[i]));
    }
    char *text = json_text(root);
    cJSON *back = cJSON_Parse(text);
    assert_non_null(back);
    const cJSON *item;
    int i = 0;
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(back, "values")) {
        if (bits_of(item->valuedouble) != bits_of(values[i]))
            fail_msg("value %d: %.17g came back as %.17g", i, values[i], item->valuedouble);
        i++;
    }
    assert_int_equal(i, 5000);
    free(text);
    cJSON_Delete(back);
    cJSON_Delete(root);
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void assert_contents(const char *path, const char *expected) {
    char *text = test_read_file(path);
    if (!text || strcmp(text, expected))
        fail_msg("%s holds '%s', not '%s'", path, text ? text : "(nothing)", expected);
    free(text);
}

/* Files in dir whose name contains part (temporaries left behind). */
static int files_named(const char *part) {
    char command[600], *out;
    snprintf(command, sizeof command, "ls -a %s | grep -c -- '%s' || true", dir, part);
    test_run(command, &out);
    int count = atoi(out);
    free(out);
    return count;
}

static void outfile__replaces_through_links_and_keeps_the_mode(void **state) {
    (void)state;
    char path[512], link[512], command[1200];
    Error err;
    snprintf(path, sizeof path, "%s/plain.txt", dir);
    write_text(path, "old\n");
    assert_int_equal(chmod(path, 0640), 0);
    assert_true(outfile_write(path, "new\n", 4, &err));
    assert_contents(path, "new\n");
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    /* Through a link: the target is replaced, the link stays a link. */
    snprintf(link, sizeof link, "%s/link.txt", dir);
    snprintf(command, sizeof command, "ln -sf plain.txt %s", link);
    assert_int_equal(system(command), 0);
    assert_true(outfile_write(link, "linked\n", 7, &err));
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_contents(path, "linked\n");
    assert_int_equal(files_named(".tmp."), 0);
}

static void outfile__special_files_and_dangling_links_refused(void **state) {
    (void)state;
    char path[512], command[1200];
    Error err;
    snprintf(path, sizeof path, "%s/fifo", dir);
    snprintf(command, sizeof command, "mkfifo %s", path);
    assert_int_equal(system(command), 0);
    assert_false(outfile_write(path, "x", 1, &err)); /* refused, not blocked on */
    assert_non_null(strstr(err.text, "is not a regular file (a FIFO)"));
    /* A device node with /dev/null's numbers, as the report planted one. */
    snprintf(path, sizeof path, "%s/null", dir);
    snprintf(command, sizeof command, "mknod %s c 1 3", path);
    if (system(command) == 0) {
        assert_false(outfile_write(path, "x", 1, &err));
        assert_non_null(strstr(err.text, "a character device"));
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        assert_true(S_ISCHR(st.st_mode)); /* still the device */
    }
    assert_false(outfile_write(dir, "x", 1, &err));
    assert_non_null(strstr(err.text, "is a directory"));
    snprintf(path, sizeof path, "%s/dangling", dir);
    snprintf(command, sizeof command, "ln -sf %s/nowhere %s", dir, path);
    assert_int_equal(system(command), 0);
    assert_false(outfile_write(path, "x", 1, &err));
    assert_non_null(strstr(err.text, "link to a missing file"));
    assert_int_not_equal(access(path, F_OK), 0);
}

/* A write that fails (the file-size limit stands in for a full disk) leaves the old file and no
 * temporary. */
static void outfile__failed_write_leaves_the_old_file(void **state) {
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/kept.txt", dir);
    write_text(path, "the good file\n");
    pid_t child = fork();
    if (child == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit limit = {4096, 4096};
        setrlimit(RLIMIT_FSIZE, &limit);
        static char big[65536];
        memset(big, 'x', sizeof big);
        Error err;
        bool ok = outfile_write(path, big, sizeof big, &err);
        _exit(!ok && strstr(err.text, "write failed") ? 0 : 1);
    }
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_contents(path, "the good file\n");
    assert_int_equal(files_named("kept.txt.tmp"), 0);
}

static void lock__planted_links_and_fifos_refused_untouched(void **state) {
    (void)state;
    char results[512], target[512], command[1600];
    OutLock lock;
    bool busy;
    Error err;
    snprintf(results, sizeof results, "%s/x.json", dir);
    snprintf(target, sizeof target, "%s/victim.txt", dir);
    write_text(target, "precious\n");
    snprintf(command, sizeof command, "ln -sf %s %s.lock", target, results);
    assert_int_equal(system(command), 0);
    assert_false(outfile_lock(&lock, results, "test", &busy, &err));
    assert_false(busy);
    assert_non_null(strstr(err.text, "is a symbolic link"));
    assert_contents(target, "precious\n");
    snprintf(command, sizeof command, "rm %s.lock && mkfifo %s.lock", results, results);
    assert_int_equal(system(command), 0);
    assert_false(outfile_lock(&lock, results, "test", &busy, &err));
    assert_non_null(strstr(err.text, "a FIFO"));
    assert_false(outfile_lock_held(results));
    snprintf(command, sizeof command, "rm %s.lock && ln %s %s.lock", results, target, results);
    assert_int_equal(system(command), 0);
    assert_false(outfile_lock(&lock, results, "test", &busy, &err));
    assert_non_null(strstr(err.text, "hard links"));
    assert_contents(target, "precious\n");
    snprintf(command, sizeof command, "rm %s.lock", results);
    assert_int_equal(system(command), 0);
}

static void lock__held_by_another_process_is_busy(void **state) {
    (void)state;
    char results[512];
    snprintf(results, sizeof results, "%s/held.json", dir);
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t child = fork();
    if (child == 0) {
        OutLock lock;
        bool busy;
        Error err;
        bool ok = outfile_lock(&lock, results, "test", &busy, &err);
        if (write(ready[1], ok ? "y" : "n", 1) != 1)
            _exit(2);
        pause(); /* until the test kills it */
        _exit(0);
    }
    char answer = 0;
    assert_int_equal(read(ready[0], &answer, 1), 1);
    assert_int_equal(answer, 'y');
    assert_true(outfile_lock_held(results));
    OutLock lock;
    bool busy;
    Error err;
    assert_false(outfile_lock(&lock, results, "test", &busy, &err));
    assert_true(busy);
    char expected[64];
    snprintf(expected, sizeof expected, "in use by process %d", (int)child);
    assert_string_equal(err.text, expected);
    assert_string_equal(lock.holder, "test");
    assert_int_equal(kill(child, SIGKILL), 0);
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    /* Its lock died with it: taken at once, released with the file. */
    assert_true(outfile_lock(&lock, results, "test", &busy, &err));
    outfile_unlock(&lock);
    char lock_path[600];
    snprintf(lock_path, sizeof lock_path, "%s.lock", results);
    assert_int_not_equal(access(lock_path, F_OK), 0);
    close(ready[0]);
    close(ready[1]);
}

static bool always_unfinished(const char *path, char *hint, size_t size) {
    snprintf(hint, size, "(3 of 9 steps): continue it with `tool -resume %s`", path);
    return true;
}

static void plan__inputs_outputs_and_earlier_files(void **state) {
    (void)state;
    char input[512], out[512], other[512];
    snprintf(input, sizeof input, "%s/in.txt", dir);
    snprintf(out, sizeof out, "%s/plan/out.json", dir);
    snprintf(other, sizeof other, "%s/plan/../plan/out.json", dir);
    write_text(input, "input\n");
    Error err;
    OutputPlan plan = {0};
    output_plan_add(&plan, "-out", input, NULL);
    output_plan_input(&plan, "-openings file", input);
    assert_false(output_plan_check(&plan, &err));
    assert_non_null(strstr(err.text, "is also -openings file: writing it would destroy"));
    plan = (OutputPlan){0};
    output_plan_add(&plan, "-out", out, NULL);
    output_plan_add(&plan, "-plot", other, NULL);
    output_plan_add(&plan, "-json", "-", NULL); /* standard output: not a file */
    assert_false(output_plan_check(&plan, &err));
    assert_non_null(strstr(err.text, "-out and -plot are the same file"));
    /* A fresh run over earlier files: moved aside under one number, said. */
    plan = (OutputPlan){0};
    output_plan_add(&plan, "-out", out, NULL);
    output_plan_input(&plan, "-openings file", input);
    assert_true(output_plan_check(&plan, &err)); /* made plan/ */
    write_text(out, "earlier\n");
    char *notes = NULL;
    size_t length = 0;
    FILE *f = open_memstream(&notes, &length);
    assert_true(output_plan_move_aside(&plan, f, &err));
    fclose(f);
    char moved[600];
    snprintf(moved, sizeof moved, "%s/plan/out.1.json", dir);
    assert_contents(moved, "earlier\n");
    assert_non_null(strstr(notes, "existed (an earlier run): moved to"));
    free(notes);
    /* An unfinished one is refused, with how to resume it, and left in place. */
    write_text(out, "unfinished\n");
    plan.outputs[0].unfinished = always_unfinished;
    assert_false(output_plan_move_aside(&plan, stdout, &err));
    assert_non_null(strstr(err.text, "holds an unfinished run (3 of 9 steps): continue it"));
    assert_contents(out, "unfinished\n");
}

static bool layer_name(const char *name) {
    size_t length = strlen(name);
    return length > 5 && !strcmp(name + length - 5, ".tspl");
}

/* A file is opened to write only through a checked plan that holds it; a file of an input
 * directory's kind is refused as an output whether or not it exists yet. */
static void plan__only_a_checked_plan_opens_an_output(void **state) {
    (void)state;
    char out[512], layers[512], layer[600], other[600];
    snprintf(out, sizeof out, "%s/planned.json", dir);
    snprintf(layers, sizeof layers, "%s/layers", dir);
    snprintf(layer, sizeof layer, "%s/layers/../layers/h02-sheep.tspl", dir);
    snprintf(other, sizeof other, "%s/layers/notes.json", dir);
    Error err;
    OutputPlan plan = {0};
    output_plan_add(&plan, "-json", out, NULL);
    assert_false(output_write_text(&plan, "x\n", out, &err)); /* not checked yet */
    assert_non_null(strstr(err.text, "not an output of the command's checked plan"));
    assert_int_not_equal(access(out, F_OK), 0);
    assert_true(output_plan_check(&plan, &err));
    assert_true(output_write_text(&plan, "x\n", out, &err));
    assert_contents(out, "x\n");
    assert_false(output_write_text(&plan, "y\n", other, &err)); /* not in the plan */
    assert_true(output_write_text(NULL, "", "-", &err));        /* standard output */
    assert_int_equal(mkdir(layers, 0755), 0);
    plan = (OutputPlan){0};
    output_plan_add(&plan, "-json", layer, NULL);
    output_plan_input_dir(&plan, "-dir", layers, "the placement layers", layer_name);
    assert_false(output_plan_check(&plan, &err));
    assert_non_null(strstr(err.text, "is one of the placement layers in -dir"));
    plan = (OutputPlan){0};
    output_plan_add(&plan, "-json", other, NULL);
    output_plan_input_dir(&plan, "-dir", layers, "the placement layers", layer_name);
    assert_true(output_plan_check(&plan, &err)); /* another kind of file there is an output */
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_number__shortest_text_reads_back_bit_for_bit),
        cmocka_unit_test(json_text__layout_is_cjson_print),
        cmocka_unit_test(json_text__random_doubles_round_trip_through_cjson),
        cmocka_unit_test(outfile__replaces_through_links_and_keeps_the_mode),
        cmocka_unit_test(outfile__special_files_and_dangling_links_refused),
        cmocka_unit_test(outfile__failed_write_leaves_the_old_file),
        cmocka_unit_test(lock__planted_links_and_fifos_refused_untouched),
        cmocka_unit_test(lock__held_by_another_process_is_busy),
        cmocka_unit_test(plan__inputs_outputs_and_earlier_files),
        cmocka_unit_test(plan__only_a_checked_plan_opens_an_output),
    };
    return tslab_run_tests_setup("output", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 setup, teardown);
}
