// SPDX-License-Identifier: MIT
// build/bench end to end: signatures stable across runs and thread counts, check catching a
// changed move, compare of a configuration with itself, clear errors on bad input.
#include "test_util.h"

#include "json_text.h"

#include "config.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH TSLAB_BUILD_DIR "/bench"
#define SUITE TSLAB_SOURCE_DIR "/bench/positions.txt"
#define ENGINE TSLAB_BUILD_DIR "/engine"
#define MOCK TSLAB_BUILD_DIR "/tests/mock_engine"

static cJSON *run_json(const char *command) {
    char *text;
    char full[2048];
    snprintf(full, sizeof full, "%s -json - 2>/dev/null", command);
    FILE *pipe = popen(full, "r");
    assert_non_null(pipe);
    size_t length = 0, capacity = 1 << 20;
    text = malloc(capacity);
    length = fread(text, 1, capacity - 1, pipe);
    text[length] = '\0';
    pclose(pipe);
    cJSON *json = cJSON_Parse(text);
    if (!json)
        fail_msg("%s: not JSON: %.200s", command, text);
    free(text);
    return json;
}

static const char *string_of(const cJSON *json, const char *key) {
    return cJSON_GetStringValue(cJSON_GetObjectItem(json, key));
}

static void signature__same_across_runs_and_threads(void **state) {
    (void)state;
    cJSON *one = run_json(BENCH " -depth 6 -threads 1");
    cJSON *again = run_json(BENCH " -depth 6 -threads 1");
    cJSON *three = run_json(BENCH " -depth 6 -threads 3");
    assert_string_equal(string_of(one, "signature"), string_of(again, "signature"));
    assert_string_equal(string_of(one, "signature"), string_of(three, "signature"));
    assert_int_equal(strlen(string_of(one, "signature")), 16);
    /* CPU seconds beside wall seconds: what make perf's nodes per CPU second divide by. */
    assert_true(cJSON_GetObjectItem(one, "cpu_seconds")->valuedouble > 0);
    const cJSON *a = cJSON_GetObjectItem(one, "positions"), *b = cJSON_GetObjectItem(three, "positions");
    assert_int_equal(cJSON_GetArraySize(a), cJSON_GetArraySize(b));
    for (int i = 0; i < cJSON_GetArraySize(a); i++) {
        const cJSON *x = cJSON_GetArrayItem(a, i), *y = cJSON_GetArrayItem(b, i);
        assert_string_equal(string_of(x, "id"), string_of(y, "id"));
        assert_string_equal(string_of(x, "move"), string_of(y, "move"));
        assert_int_equal(cJSON_GetObjectItem(x, "nodes")->valuedouble,
                         cJSON_GetObjectItem(y, "nodes")->valuedouble);
    }
    assert_int_equal(cJSON_GetObjectItem(one, "nodes")->valuedouble,
                     cJSON_GetObjectItem(three, "nodes")->valuedouble);
    cJSON_Delete(one);
    cJSON_Delete(again);
    cJSON_Delete(three);
}

/* bench check pins the default only. Speed work on the code behind the other options (history
 * ordering, the move loop's variants) must keep their results too: these were measured with the
 * 0.4.1 release build (d9ddcf6), before the cost-per-node work of docs/performance.md. */
static const struct {
    const char *options;
    const char *signature;
    double nodes;
} OLD_RESULTS[] = {
    {"preset=tslab-0.3", "ecbff4506faaaf26", 372115},
    {"preset=tslab-0.3 jump_extension=on qsearch=on pvs=on aspiration=30 jumps_first=off",
     "15b5b27ae6b8c593", 1476432},
};

static void variants__results_as_before_the_speed_work(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof OLD_RESULTS / sizeof *OLD_RESULTS; i++) {
        char command[512];
        snprintf(command, sizeof command, BENCH " -depth 7 -threads 2 %s", OLD_RESULTS[i].options);
        cJSON *run = run_json(command);
        assert_string_equal(string_of(run, "signature"), OLD_RESULTS[i].signature);
        assert_int_equal(cJSON_GetObjectItem(run, "nodes")->valuedouble, OLD_RESULTS[i].nodes);
        cJSON_Delete(run);
    }
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Rewrites the pin file at path after edit(json) changed it. */
static void rewrite_pin(const char *path, void (*edit)(cJSON *json)) {
    char *text = test_read_file(path);
    cJSON *json = cJSON_Parse(text);
    free(text);
    assert_non_null(json);
    edit(json);
    text = json_text(json);
    write_text(path, text);
    free(text);
    cJSON_Delete(json);
}

/* Pinned with the hint off, checked with it on. Under the 0.2 defaults the search has no
 * pruning that depends on move order (LMR, null move and futility arrived in 0.3 and do), so
 * the hint is a pure ordering feature there: every move and score stays, node counts fall. */
#define ORDER_ONLY_CONFIG "preset=tslab-0.2"

static void pin_config_with_hint_on(cJSON *json) {
    char text[1024];
    SearchConfig config = config_default();
    config.depth = 5;
    Error err;
    assert_true(config_apply_line(&config, ORDER_ONLY_CONFIG " hint=on", &err));
    config_to_text(&config, text, sizeof text);
    cJSON_ReplaceItemInObject(json, "config", cJSON_CreateString(text));
}

static void doctor_early2_score(cJSON *json) {
    cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(json, "positions"))
        if (!strcmp(string_of(row, "id"), "early2"))
            cJSON_ReplaceItemInObject(row, "score", cJSON_CreateNumber(-7));
}

static void doctor_early2_move(cJSON *json) {
    cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(json, "positions"))
        if (!strcmp(string_of(row, "id"), "early2"))
            cJSON_ReplaceItemInObject(row, "move", cJSON_CreateString("a1-a2"));
}

static void check__identical_functional_and_efficiency_outcomes(void **state) {
    (void)state;
    char pin[64], command[512], *out;
    snprintf(pin, sizeof pin, "/tmp/tslab_pin_%d.json", (int)getpid());
    snprintf(command, sizeof command, BENCH " pin -depth 5 -out %s", pin);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "Bench: "));
    free(out);
    snprintf(command, sizeof command, BENCH " check %s", pin);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "IDENTICAL: every move, score and node count as pinned"));
    free(out);

    /* A pinned score edited by hand: the signature no longer matches, so the file is refused
     * (exit 2) rather than checked; an impossible move is named. */
    rewrite_pin(pin, doctor_early2_score);
    assert_int_equal(test_run(command, &out), 2);
    assert_non_null(strstr(out, "does not match the pinned ids, moves and scores"));
    free(out);
    rewrite_pin(pin, doctor_early2_move);
    assert_int_equal(test_run(command, &out), 2);
    assert_non_null(strstr(out, "(early2): move: sheep must place"));
    free(out);

    /* An efficiency change: pinned without the hint, checked with it (exit 3, with ratios). */
    snprintf(command, sizeof command, BENCH " pin -depth 5 " ORDER_ONLY_CONFIG " hint=off -out %s", pin);
    assert_int_equal(test_run(command, NULL), 0);
    rewrite_pin(pin, pin_config_with_hint_on);
    snprintf(command, sizeof command, BENCH " check %s", pin);
    assert_int_equal(test_run(command, &out), 3);
    assert_non_null(strstr(out, "moves and scores: 0 position(s) changed"));
    assert_non_null(strstr(out, "nodes:   start"));
    assert_non_null(strstr(out, "EFFICIENCY CHANGE: the same moves and scores for x0."));
    free(out);
    snprintf(command, sizeof command, BENCH " check %s -json -", pin);
    cJSON *result = run_json(command);
    assert_string_equal(string_of(result, "outcome"), "efficiency");
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(result, "ok")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(result, "changed")), 0);
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(result, "node_changed")) > 10);
    assert_true(cJSON_GetObjectItem(result, "node_ratio")->valuedouble < 1);
    cJSON_Delete(result);

    /* A different evaluation in the file moves most scores: functional. */
    snprintf(command, sizeof command, BENCH " pin -depth 5 -out %s", pin);
    assert_int_equal(test_run(command, NULL), 0);
    char *pinned = test_read_file(pin);
    cJSON *json = cJSON_Parse(pinned);
    free(pinned);
    cJSON_ReplaceItemInObject(json, "config", cJSON_CreateString("eval_jumps=0"));
    char *text = json_text(json);
    write_text(pin, text);
    free(text);
    cJSON_Delete(json);
    snprintf(command, sizeof command, BENCH " check %s", pin);
    assert_int_equal(test_run(command, &out), 1);
    assert_non_null(strstr(out, "changed: "));
    assert_non_null(strstr(out, "FUNCTIONAL CHANGE: "));
    free(out);
    snprintf(command, sizeof command, BENCH " check %s -json -", pin);
    result = run_json(command);
    assert_string_equal(string_of(result, "outcome"), "functional");
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(result, "changed")) > 1);
    cJSON_Delete(result);
    unlink(pin);
}

/* bench perft -repeat: the count once per line, the median and minimum CPU time of the runs. */
static void perft__repeat_gives_median_and_minimum(void **state) {
    (void)state;
    char *out;
    assert_int_equal(test_run(BENCH " perft -repeat 3 4", &out), 0);
    const char *line = strstr(out, "perft 4: 68204  (median ");
    if (!line || !strstr(line, " s CPU of 3 runs, min ") || !strstr(out, "perft 3: 5052  ("))
        fail_msg("unexpected output:\n%s", out);
    double median = 0, minimum = 0;
    assert_int_equal(sscanf(line, "perft 4: 68204  (median %lf s CPU of 3 runs, min %lf s", &median,
                            &minimum),
                     2);
    assert_true(minimum <= median);
    free(out);
    assert_int_equal(test_run(BENCH " perft -repeat 0 4", &out), 2);
    assert_non_null(strstr(out, "perft: -repeat: 0 is out of range 1..100"));
    free(out);
}

static void compare__configuration_with_itself_is_identical(void **state) {
    (void)state;
    cJSON *json = run_json(BENCH " compare -base killers=off -cand killers=off -depth 5 -repeat 4");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(json, "identical")));
    assert_non_null(strstr(string_of(json, "base_config"), " depth=5 "));
    assert_float_equal(cJSON_GetObjectItem(json, "geomean_node_ratio")->valuedouble, 1.0, 1e-12);
    assert_float_equal(cJSON_GetObjectItem(json, "total_node_ratio")->valuedouble, 1.0, 1e-12);
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(json, "positions")) {
        assert_true(cJSON_IsTrue(cJSON_GetObjectItem(row, "same_move")));
        assert_int_equal(cJSON_GetObjectItem(row, "base_nodes")->valuedouble,
                         cJSON_GetObjectItem(row, "cand_nodes")->valuedouble);
    }
    /* Timing: -repeat rounds of each side, interleaved; minima at most the medians. */
    cJSON *timing = cJSON_GetObjectItem(json, "timing");
    assert_int_equal(cJSON_GetObjectItem(timing, "rounds")->valueint, 4);
    for (const char *const *side = (const char *const[]){"base", "cand", NULL}; *side; side++) {
        cJSON *s = cJSON_GetObjectItem(timing, *side);
        assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(s, "wall")), 4);
        assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(s, "cpu")), 4);
        assert_true(cJSON_GetObjectItem(s, "cpu_min")->valuedouble > 0);
        assert_true(cJSON_GetObjectItem(s, "wall_min")->valuedouble <=
                    cJSON_GetObjectItem(s, "wall_median")->valuedouble);
    }
    assert_true(cJSON_GetObjectItem(json, "cpu_ratio")->valuedouble > 0);
    cJSON_Delete(json);
    /* A configuration that changes the evaluation differs, and compare says so with exit 1. */
    char *out;
    assert_int_equal(test_run(BENCH " compare -base -cand eval_mobility=0 -depth 4", &out), 1);
    assert_non_null(strstr(out, "DIFFERENT:"));
    assert_non_null(strstr(out, "timing: 3 round(s), base and cand interleaved"));
    assert_non_null(strstr(out, "time ratio cand/base (medians): wall"));
    free(out);
}

/* compare with `"positions"` of a and b equal, and the same ratios and verdict. */
static void assert_same_comparison(const cJSON *a, const cJSON *b) {
    char *x = cJSON_PrintUnformatted(cJSON_GetObjectItem(a, "positions"));
    char *y = cJSON_PrintUnformatted(cJSON_GetObjectItem(b, "positions"));
    if (strcmp(x, y))
        fail_msg("positions differ:\n%.400s\n%.400s", x, y);
    free(x);
    free(y);
    static const char *const keys[] = {"geomean_node_ratio", "total_node_ratio"};
    for (size_t i = 0; i < 2; i++)
        assert_float_equal(cJSON_GetObjectItem(a, keys[i])->valuedouble,
                           cJSON_GetObjectItem(b, keys[i])->valuedouble, 0);
    assert_int_equal(cJSON_IsTrue(cJSON_GetObjectItem(a, "identical")),
                     cJSON_IsTrue(cJSON_GetObjectItem(b, "identical")));
}

/* A build is a side like a configuration: build/engine through the engine protocol's bench (two
 * processes) gives per position exactly what this build gives in process, and a setoption on the
 * program exactly what the toggle gives (futility=70, which changes nodes and moves at depth
 * 6). bench check -engine checks the program against a pin; bench check of the default
 * signature checks this build's defaults. */
static void compare__engine_programs_as_sides(void **state) {
    (void)state;
    cJSON *in_process = run_json(BENCH " compare -base -cand futility=70 -depth 6 -repeat 1");
    cJSON *programs = run_json(BENCH " compare -base-engine " ENGINE " -cand-engine " ENGINE
                                     " -cand futility=70 -depth 6 -repeat 1 -threads 2");
    cJSON *mixed = run_json(BENCH " compare -base -cand-engine " ENGINE
                                  " -cand futility=70 -depth 6 -repeat 1 -threads 3");
    assert_same_comparison(in_process, programs);
    assert_same_comparison(in_process, mixed);
    assert_true(cJSON_GetObjectItem(in_process, "total_node_ratio")->valuedouble < 0.95);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(programs, "cand_is_program")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(mixed, "base_is_program")));
    /* A program reports nodes: its totals carry nothing else. */
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(programs, "cand_totals")), 1);
    assert_true(cJSON_GetObjectItem(programs, "cpu_ratio")->valuedouble > 0);
    cJSON_Delete(in_process);
    cJSON_Delete(programs);
    cJSON_Delete(mixed);

    /* The table says the same as in process, and names the programs. */
    char *out;
    assert_int_equal(test_run(BENCH " compare -base-engine " TSLAB_BUILD_DIR " -cand-engine "
                                    ENGINE " -depth 4 -repeat 1",
                              &out),
                     0);
    assert_non_null(strstr(out, "base: program " ENGINE "\n"));
    assert_non_null(strstr(out, "identical: every move and score is the same"));
    assert_non_null(strstr(out, "a program's bench reports nodes"));
    free(out);

    /* The default signature is checked with this build's defaults: pinned with futility=70,
     * the defaults (futility 0) are a change, named. */
    char data[64], command[512];
    snprintf(data, sizeof data, "/tmp/tslab_data_%d", (int)getpid());
    snprintf(command, sizeof command,
             "mkdir -p %s/bench && cp " SUITE " %s/bench/ && " BENCH " pin -depth 5 futility=70 "
             "-out %s/bench/signature.json >/dev/null",
             data, data, data);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command, "TSLAB_DATA=%s " BENCH " check 2>&1", data);
    int status = test_run(command, &out);
    if ((status != 1 && status != 3) ||
        !strstr(out, "checked: this build's defaults, which differ from the pinned "
                     "configuration: futility=0 (pinned 70)\n"))
        fail_msg("exit %d:\n%s", status, out);
    free(out);
    snprintf(command, sizeof command, "rm -rf %s", data);
    assert_int_equal(system(command), 0);

    char pin[64];
    snprintf(pin, sizeof pin, "/tmp/tslab_pin_engine_%d.json", (int)getpid());
    snprintf(command, sizeof command, BENCH " pin -depth 5 -out %s >/dev/null", pin);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command, BENCH " check %s -engine " ENGINE " -threads 2", pin);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "checked: program " ENGINE " (its own defaults)"));
    /* A program's bench says what runs and how far it is (a slow program is not a hang). */
    assert_non_null(strstr(out, "-engine (" ENGINE "): bench of 67 positions at depth 5 on 2 "
                                "process(es); a process that gives no total within 3600000 ms "
                                "is given up (stall)\n"));
    assert_non_null(strstr(out, "-engine (" ENGINE "): position 67 of 67\n"));
    assert_non_null(strstr(out, "IDENTICAL"));
    free(out);
    unlink(pin);
}

typedef struct {
    const char *command;
    const char *message;
    const char *why;
} ErrorRow;

static const ErrorRow error_rows[] = {
    {BENCH " -positions /nonexistent.txt", "/nonexistent.txt: cannot open", "missing file"},
    {BENCH " -depth 3 kilers=off", "unknown option 'kilers' (did you mean 'killers'?)", "typo"},
    {BENCH " -depht 3", "unknown option '-depht'", "unknown flag"},
    {BENCH " -depth 0", "bench: -depth: 0 is out of range 1..64", "depth 0 (no doubled prefix)"},
    {BENCH " -threads x", "bench: -threads: 'x' is not an integer", "threads (no doubled prefix)"},
    {BENCH " check /nonexistent.json", "/nonexistent.json: cannot open", "missing pin file"},
    {BENCH " compare -base", "both sides are needed: -base or -base-engine, and -cand",
     "no candidate"},
    {BENCH " compare -base -cand-engine /nonexistent", "engine -cand-engine (/nonexistent)",
     "missing program"},
    {BENCH " compare -base -cand-engine /tmp", "/tmp is a directory with neither engine nor "
                                               "bin/tslab-engine", "directory without engine"},
    {BENCH " compare -base -cand-engine " ENGINE " -cand depth=3",
     "-cand-engine: depth= is a limit; -depth N sets the bench's depth", "limit to a program"},
    {BENCH " compare -base -cand-engine " MOCK " -depth 2",
     "needs tslab's engine 0.4.1 or later", "a program without per-position lines"},
    {BENCH " check -engine " ENGINE " killers=off",
     "check: 'killers=off': the signature file says what to run; search options are not taken",
     "check options"},
    {BENCH " check -depth 3", "check: unknown option '-depth'", "check takes no -depth"},
    {BENCH " compare -base -cand -repeat 0", "compare: -repeat: 0 is out of range 1..100",
     "no rounds"},
    {BENCH " compare -base -cand -repeat", "compare: -repeat needs a value", "repeat, no value"},
    {BENCH " frobnicate", "unknown command 'frobnicate'", "unknown command"},
    {BENCH " search -fen 'T3T/5/5/5/T3T s 21 0'", "sheep in hand is 21", "bad position"},
};

static void errors__clear_messages_and_non_zero_exits(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof error_rows / sizeof error_rows[0]; i++) {
        char *out;
        int status = test_run(error_rows[i].command, &out);
        if (status == 0)
            fail_msg("row %zu (%s): exit 0", i, error_rows[i].why);
        if (!strstr(out, error_rows[i].message))
            fail_msg("row %zu (%s): '%s', expected '%s'", i, error_rows[i].why, out,
                     error_rows[i].message);
        free(out);
    }
    /* The program names itself once: no "bench: bench:". */
    char *prefix_out;
    assert_int_equal(test_run(BENCH " -threads x", &prefix_out), 2);
    assert_null(strstr(prefix_out, "bench: bench:"));
    free(prefix_out);
    /* A malformed line names file and line. */
    char path[64], command[256];
    snprintf(path, sizeof path, "/tmp/tslab_suite_%d.txt", (int)getpid());
    write_text(path, "T3T/5/5/5/T3T s 20 0 ; ok\nT3T/5/5/5/T3T s 20 ; broken\n");
    snprintf(command, sizeof command, BENCH " -depth 2 -positions %s", path);
    char *out;
    assert_int_not_equal(test_run(command, &out), 0);
    char expected[128];
    snprintf(expected, sizeof expected, "%s:2: col 19:", path);
    if (!strstr(out, expected))
        fail_msg("'%s', expected '%s'", out, expected);
    free(out);
    unlink(path);
}

/* A program side whose bench total is not the sum of its per-position lines is an error, as is
 * a per-position line that does not read, and a program that never finishes its bench is given
 * up after -stall MS, which says so. */
static void program__wrong_total_and_stall(void **state) {
    (void)state;
    char dir[128], script[256], command[1024], *out;
    snprintf(dir, sizeof dir, "/tmp/tslab_bench_programs_%d", (int)getpid());
    snprintf(command, sizeof command, "rm -rf %s && mkdir -p %s", dir, dir);
    assert_int_equal(system(command), 0);
    snprintf(script, sizeof script, "%s/other_total.sh", dir);
    snprintf(command, sizeof command,
             "printf '#!/bin/sh\nexec %s/tests/engines/rewrite.sh %s other-bench\n' > %s && "
             "chmod +x %s",
             TSLAB_SOURCE_DIR, ENGINE, script, script);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command, BENCH " compare -base -cand-engine %s -depth 2", script);
    assert_int_equal(test_run(command, &out), 2);
    if (!strstr(out, "its bench says 'Nodes searched: 4343' but its per-position lines add up to"))
        fail_msg("%s", out);
    free(out);
    /* A per-position line that does not read is named as such (it read as a program too old to
     * print them before). */
    snprintf(script, sizeof script, "%s/bad_line.sh", dir);
    snprintf(command, sizeof command,
             "printf '#!/bin/sh\nexec %s/tests/engines/rewrite.sh %s bad-bench-line\n' > %s && "
             "chmod +x %s",
             TSLAB_SOURCE_DIR, ENGINE, script, script);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command, BENCH " compare -base -cand-engine %s -depth 2", script);
    assert_int_equal(test_run(command, &out), 2);
    if (!strstr(out, ": a bench line that does not read: 'info string bench position ") ||
        !strstr(out, " score x") || strstr(out, "0.4.1"))
        fail_msg("%s", out);
    free(out);
    /* A program that refuses an option: the message points at bench's words, not abtest's. */
    snprintf(script, sizeof script, "%s/refuses.sh", dir);
    snprintf(command, sizeof command,
             "printf '#!/bin/sh\nwhile read -r line; do case \"$line\" in uci) echo uciok ;; "
             "isready) echo readyok ;; setoption*) echo \"info string error: no option\" ;; "
             "quit) exit 0 ;; esac; done\n' > %s && chmod +x %s",
             script, script);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command, BENCH " compare -base -cand-engine %s -cand Foo=1 -depth 2",
             script);
    assert_int_equal(test_run(command, &out), 2);
    if (!strstr(out, "'info string error: no option' (check its -cand key=value words)") ||
        strstr(out, "option.NAME"))
        fail_msg("%s", out);
    free(out);
    /* A program that answers the handshake, then never finishes its bench. */
    snprintf(script, sizeof script, "%s/silent.sh", dir);
    snprintf(command, sizeof command,
             "printf '#!/bin/sh\nwhile read -r line; do case \"$line\" in uci) echo uciok ;; "
             "isready) echo readyok ;; bench*) exec sleep 600 ;; esac; done\n' > %s && "
             "chmod +x %s",
             script, script);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command,
             "timeout 60 " BENCH " check -engine %s -stall 500 -threads 1", script);
    assert_int_equal(test_run(command, &out), 2);
    if (!strstr(out, "no 'Nodes searched' line within 500 ms"))
        fail_msg("%s", out);
    free(out);
    snprintf(command, sizeof command, "rm -rf %s", dir);
    assert_int_equal(system(command), 0);
}

/* bench has -version like abtest and the engine; perft gives no rate for a count the clock
 * cannot time; the usage lists every command of the table. */
static void tool__version_rates_and_usage(void **state) {
    (void)state;
    char *out;
    assert_int_equal(test_run(BENCH " -version", &out), 0);
    assert_non_null(strstr(out, "bench (tslab "));
    free(out);
    assert_int_equal(test_run(BENCH " perft 2", &out), 0);
    const char *line = strstr(out, "perft 2: 252  (");
    assert_non_null(line);
    /* Either too quick, or a rate a machine can reach (under 10^9 leaves per second). */
    if (!strstr(line, "too quick to rate")) {
        const char *comma = strstr(line, "CPU, ");
        assert_non_null(comma);
        double leaves = strtod(comma + 5, NULL);
        assert_true(leaves > 0 && leaves < 1e9);
    }
    free(out);
    assert_int_equal(test_run(BENCH " -help", &out), 0);
    static const char *const commands[] = {"pin", "check", "compare", "verify", "search",
                                           "perft", "options", "bench", "tbgen", "tbprobe",
                                           "tbverify"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "\n  %s ", commands[i]);
        if (!strstr(out, name))
            fail_msg("bench -help does not list %s:\n%s", commands[i], out);
    }
    free(out);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(signature__same_across_runs_and_threads),
        cmocka_unit_test(variants__results_as_before_the_speed_work),
        cmocka_unit_test(check__identical_functional_and_efficiency_outcomes),
        cmocka_unit_test(perft__repeat_gives_median_and_minimum),
        cmocka_unit_test(tool__version_rates_and_usage),
        cmocka_unit_test(compare__configuration_with_itself_is_identical),
        cmocka_unit_test(compare__engine_programs_as_sides),
        cmocka_unit_test(errors__clear_messages_and_non_zero_exits),
        cmocka_unit_test(program__wrong_total_and_stall),
    };
    return RUN_TESTS("bench", tests);
}
