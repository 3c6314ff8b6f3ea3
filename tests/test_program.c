// SPDX-License-Identifier: MIT
// abtest with engine programs: build/engine against the same configuration in-process (the same
// games byte for byte, and an exact resume), and tests/mock_engine.c's faults, each with its
// documented outcome (docs/abtest.md, "Build against build"). Every run is bounded to seconds.
#include "cli.h"
#include "program_process.h"
#include "program_reply.h"
#include "search.h"
#include "test_util.h"

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define ENGINE TSLAB_BUILD_DIR "/engine"
#define MOCK TSLAB_BUILD_DIR "/tests/mock_engine"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"

static char dir[256];

static int setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "program");
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

static int run_abtest(const char *arguments, char **out, char **errors) {
    return test_abtest_in(dir, arguments, out, errors);
}

/* The results file's count `key` of engine `index`. */
static double engine_count(const char *key, int index) {
    char path[512];
    snprintf(path, sizeof path, "%s/run.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *engine = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), index);
    const cJSON *value = cJSON_GetObjectItem(engine, key);
    assert_true(cJSON_IsNumber(value));
    double count = value->valuedouble;
    cJSON_Delete(json);
    return count;
}

/* Two runs played the same games: the same records byte for byte, the same counts, and the same
 * moves, nodes and depths per engine (the engines' recorded options differ: a program's are sent
 * with setoption, not held in its configuration). */
static void assert_same_games(const char *reference, const char *name) {
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/%s.pgn", dir, reference);
    snprintf(b, sizeof b, "%s/%s.pgn", dir, name);
    test_assert_same_file(a, b);
    snprintf(a, sizeof a, "%s/%s.json", dir, reference);
    snprintf(b, sizeof b, "%s/%s.json", dir, name);
    static const char *const keys[] = {"pairs", "pentanomial", "wdl", "elo", "end_reasons", "plies",
                                       "trajectory"};
    test_assert_same_keys(a, b, keys, sizeof keys / sizeof keys[0]);
    cJSON *x = test_load_json(a), *y = test_load_json(b);
    static const char *const counts[] = {"moves", "nodes", "depth_sum"};
    for (int e = 0; e < 2; e++)
        for (size_t i = 0; i < 3; i++) {
            const cJSON *ex = cJSON_GetArrayItem(cJSON_GetObjectItem(x, "engines"), e);
            const cJSON *ey = cJSON_GetArrayItem(cJSON_GetObjectItem(y, "engines"), e);
            assert_true(cJSON_GetObjectItem(ex, counts[i])->valuedouble ==
                        cJSON_GetObjectItem(ey, counts[i])->valuedouble);
        }
    cJSON_Delete(x);
    cJSON_Delete(y);
}

/* The program build/engine and the in-process search with the same options play the same games
 * to the byte, and a match between two programs resumes exactly. */
static void engine_program__same_games_as_in_process_and_exact_resume(void **state) {
    (void)state;
    char command[4096], *out;
    const char *common = "-each nodes=1500 -rounds 8 -openings file=" BOOK " -concurrency 2";
    snprintf(command, sizeof command,
             "cd %s && %s -engine name=first cmd=%s option.killers=false -engine name=second "
             "%s -quiet -out ext.json -pgnout file=ext.pgn >/dev/null 2>&1 && "
             "%s -engine name=first killers=off -engine name=second %s -quiet -out int.json "
             "-pgnout file=int.pgn >/dev/null 2>&1",
             dir, ABTEST, ENGINE, common, ABTEST, common);
    assert_int_equal(test_run(command, NULL), 0);
    assert_same_games("int", "ext");
    /* Two programs, stopped after 3 pairs and resumed: the same as one uninterrupted run. */
    snprintf(command, sizeof command,
             "cd %s && %s -engine name=first cmd=%s option.killers=false -engine name=second "
             "cmd=%s %s -quiet -out two.json -pgnout file=two.pgn -debug-stopafter 3 "
             ">/dev/null 2>&1; %s -resume two.json -quiet >/dev/null 2>&1",
             dir, ABTEST, ENGINE, ENGINE, common, ABTEST);
    assert_int_equal(test_run(command, NULL), 0);
    assert_same_games("int", "two");
    snprintf(command, sizeof command, "cd %s && grep -c '\"sessions\":.2' two.json", dir);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
}

/* A program written from docs/rules.md and docs/engine.md alone (tests/engines/from_docs.py,
 * Python's standard library only) plays a match with the same games on 1 and 2 threads, resumes
 * after an interruption to the uninterrupted run's games, and runs a build-against-build bench
 * compare (its per-position lines read; another engine, so moves differ: exit 1). */
static void from_docs__a_scripted_engine_plays_resumes_and_benches(void **state) {
    (void)state;
    if (test_run("python3 -c 'import sys' 2>/dev/null", NULL) != 0)
        skip(); /* make deps installs python3 */
    char command[4096], *out;
    const char *engines = "-engine name=py cmd=" TSLAB_SOURCE_DIR "/tests/engines/from_docs.py "
                          "-engine name=int -each nodes=200 -rounds 6 -openings file=" BOOK;
    snprintf(command, sizeof command,
             "cd %s && %s %s -concurrency 1 -quiet -out docs1.json -pgnout file=docs1.pgn && "
             "%s %s -concurrency 2 -quiet -out docs2.json -pgnout file=docs2.pgn && "
             "%s %s -concurrency 2 -quiet -out docs3.json -pgnout file=docs3.pgn "
             "-debug-stopafter 2; %s -resume docs3.json -quiet",
             dir, ABTEST, engines, ABTEST, engines, ABTEST, engines, ABTEST);
    assert_int_equal(test_run(command, &out), 0);
    if (strstr(out, "illegal"))
        fail_msg("%s", out);
    free(out);
    assert_same_games("docs1", "docs2");
    assert_same_games("docs1", "docs3");
    char path[512]; /* every move it made was legal */
    snprintf(path, sizeof path, "%s/docs1.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *py = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), 0);
    assert_true(cJSON_GetObjectItem(py, "illegal_moves")->valuedouble == 0);
    assert_true(cJSON_GetObjectItem(py, "moves")->valuedouble > 0);
    cJSON_Delete(json);
    snprintf(command, sizeof command,
             TSLAB_BUILD_DIR "/bench compare -base -cand-engine " TSLAB_SOURCE_DIR
             "/tests/engines/from_docs.py -depth 2 -repeat 1");
    assert_int_equal(test_run(command, &out), 1);
    if (!strstr(out, "position 67 of 67") || !strstr(out, "start "))
        fail_msg("%s", out);
    free(out);
}

static void slow_start__refused_before_play_with_the_limit_named(void **state) {
    (void)state;
    char *out, *errors;
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " args=slow startup=300 "
                                "-engine name=int -each nodes=200 -rounds 2",
                                &out, &errors),
                     2);
    assert_non_null(strstr(errors, "engine mock (" MOCK ") did not answer 'uci' with 'uciok' "
                                   "within 300 ms (startup=MS sets the limit)"));
    assert_null(strstr(out, "Finished game"));
    free(out);
    free(errors);
}

/* One move 1 s late under movetime=50 timemargin=50: that game is lost on time, said on stderr
 * and in the game line as fastchess writes it; the engine is resynchronised and plays on. */
static void overrun__game_lost_on_time_and_play_goes_on(void **state) {
    (void)state;
    char *out, *errors;
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " \"args=overrun 3\" movetime=50 "
                                "timemargin=50 -engine name=int nodes=200 -rounds 2",
                                &out, &errors),
                     0);
    assert_non_null(strstr(out, " lose on time}\n"));
    assert_non_null(strstr(errors, "warning: engine mock loses a game on time in "));
    assert_int_equal(engine_count("time_losses", 0), 1);
    assert_non_null(strstr(out, "Finished: 2 pairs played"));
    assert_non_null(strstr(out, "Forfeits of mock: lost on the clock 1, engine exited 0"));
    free(out);
    free(errors);
}

/* An engine that exits: without -recover the run stops, saved and resumable, with a message that
 * names the engine, the position and -recover; with it, the game is lost and play goes on. */
static void crash__stops_the_run_unless_recover(void **state) {
    (void)state;
    char *out, *errors;
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " \"args=crash 3\" -engine name=int "
                                "-each nodes=200 -rounds 2",
                                &out, &errors),
                     2);
    assert_non_null(strstr(errors, "engine mock disconnected in "));
    assert_non_null(strstr(errors, "it exited before its bestmove (exit status 3)"));
    assert_non_null(strstr(errors, "give -recover to count the game as lost"));
    char path[512];
    snprintf(path, sizeof path, "%s/run.json", dir);
    cJSON *json = test_load_json(path);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(json, "state")), "interrupted");
    cJSON_Delete(json);
    free(out);
    free(errors);
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " \"args=crash 3\" -engine name=int "
                                "-each nodes=200 -rounds 2 -recover",
                                &out, &errors),
                     0);
    assert_non_null(strstr(out, " disconnect}\n"));
    assert_non_null(strstr(errors, "the game is lost, the engine restarted (-recover)"));
    assert_int_equal(engine_count("disconnects", 0), 4); /* a fresh mock crashes every game */
    free(out);
    free(errors);
}

static void stall__lost_after_the_stall_limit_with_recover(void **state) {
    (void)state;
    char *out, *errors;
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " \"args=stall 3\" stall=300 "
                                "-engine name=int -each nodes=200 -rounds 1 -recover",
                                &out, &errors),
                     0);
    assert_non_null(strstr(out, " connection stalls}\n"));
    assert_non_null(strstr(errors, "engine mock stopped answering in "));
    assert_int_equal(engine_count("stalls", 0), 2);
    free(out);
    free(errors);
}

/* A legal-looking but illegal move, and garbage followed by an unreadable one: each loses its
 * game with a warning that names the engine, the position and what it sent. */
static void illegal_and_garbage__game_lost_with_the_move_named(void **state) {
    (void)state;
    char *out, *errors;
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " \"args=illegal 3\" "
                                "-engine name=int -each nodes=200 -rounds 2",
                                &out, &errors),
                     0);
    assert_non_null(strstr(out, " make an illegal move}\n"));
    assert_non_null(strstr(errors, "warning: engine mock loses a game by an illegal move in "));
    assert_non_null(strstr(errors, "bestmove '"));
    assert_int_equal(engine_count("illegal_moves", 0), 1);
    free(out);
    free(errors);
    assert_int_equal(run_abtest("-engine name=int -engine name=mock cmd=" MOCK
                                " \"args=garbage 3\" -each nodes=200 -rounds 2",
                                &out, &errors),
                     0);
    assert_non_null(strstr(errors, "bestmove '?\?\?'"));
    assert_int_equal(engine_count("illegal_moves", 1), 1);
    assert_int_equal(engine_count("illegal_moves", 0), 0);
    free(out);
    free(errors);
}

/* A program that prints every bestmove twice: the stale copy is dropped before the next go
 * (isready, then every line to readyok) and named in a warning, never taken as the next move's
 * answer, so no game is lost by an illegal move. Its results-file configuration is what it was
 * sent. */
static void stale_bestmove__never_taken_as_an_answer(void **state) {
    (void)state;
    char *out, *errors;
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " args=twice option.Hash=16 "
                                "-engine name=int -each nodes=200 -rounds 2",
                                &out, &errors),
                     0);
    if (!strstr(errors, "warning: engine mock (" MOCK ") sent 'bestmove ") ||
        !strstr(errors, "' with no search asked for: ignored (a bestmove printed twice?)"))
        fail_msg("stderr:\n%s", errors);
    assert_null(strstr(errors, "illegal move"));
    assert_int_equal(engine_count("illegal_moves", 0), 0);
    free(out);
    free(errors);
    /* The program's recorded configuration is what it was sent, not tslab's defaults. */
    char path[512];
    snprintf(path, sizeof path, "%s/run.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *mock = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), 0);
    assert_string_equal(cJSON_GetObjectItem(mock, "config_text")->valuestring, "Hash=16 nodes=200");
    const cJSON *config = cJSON_GetObjectItem(mock, "config");
    assert_int_equal(cJSON_GetArraySize(config), 2);
    assert_string_equal(cJSON_GetObjectItem(config, "Hash")->valuestring, "16");
    assert_string_equal(cJSON_GetObjectItem(config, "nodes")->valuestring, "200");
    const cJSON *in_process = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), 1);
    assert_non_null(strstr(cJSON_GetObjectItem(in_process, "config_text")->valuestring,
                           "cache=table "));
    cJSON_Delete(json);
}

/* bench=off: a program that is not asked for its bench plays, known by its files; the banner
 * and the results file say so, and the run resumes. */
static void bench_off__a_program_without_bench_plays(void **state) {
    (void)state;
    char command[2048], *out;
    snprintf(command, sizeof command,
             "cd %s && rm -f off.json && " ABTEST " -engine name=mock cmd=" MOCK " bench=off "
             "-engine name=int -each nodes=200 -rounds 3 -concurrency 1 -quiet -openings file=" BOOK
             " -out off.json -debug-stopafter 1; " ABTEST " -resume off.json -quiet",
             dir);
    assert_int_equal(test_run(command, &out), 0);
    if (!strstr(out, "engine mock (" MOCK "): bench=off: not asked for its bench; known by its "
                     "files (") ||
        strstr(out, "bench 4242 nodes"))
        fail_msg("%s", out);
    free(out);
    char path[512];
    snprintf(path, sizeof path, "%s/off.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *program = cJSON_GetObjectItem(
        cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(json, "settings"), "engines"),
                           0),
        "program");
    assert_true(cJSON_GetObjectItem(program, "bench")->valuedouble == -1);
    assert_int_equal((int)cJSON_GetObjectItem(json, "pairs")->valuedouble, 3);
    cJSON_Delete(json);
}

/* bench=N as fishtest's workers check it: the expected count plays, another refuses. The start
 * gives a program's bench and signature where an in-process engine has its config hash. */
static void bench__expected_count_plays_another_refuses(void **state) {
    (void)state;
    char *out, *errors;
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " bench=4242 -engine name=int "
                                "-each nodes=200 -rounds 1",
                                &out, &errors),
                     0);
    assert_non_null(strstr(out, "engine mock (" MOCK "): bench 4242 nodes, as expected; "
                                "signature none (the program prints none)\n"));
    /* A config hash names an in-process configuration; a program has its bench instead. */
    assert_null(strstr(out, "config hash mock"));
    assert_non_null(strstr(out, "config hash int: "));
    free(out);
    free(errors);
    assert_int_equal(run_abtest("-engine name=mock cmd=" MOCK " bench=4243 -engine name=int "
                                "-each nodes=200 -rounds 1",
                                &out, &errors),
                     2);
    assert_non_null(strstr(errors, "engine mock: bench gives 4242 nodes, bench=4243 expects "
                                   "4243"));
    assert_null(strstr(out, "Finished game"));
    free(out);
    free(errors);
}

/* tslab's bench lines as engine_reply reads them: a position line only when every field is
 * there once and in range, a signature only as 16 lowercase hex digits; anything else is not
 * mistaken for them. */
static void reply__bench_position_and_signature_lines(void **state) {
    (void)state;
    ProgramReply r;
    program_reply_parse("info string bench position mid3 move c3-c4 score -41 depth 10 nodes 123456",
                       SEARCH_MAX_DEPTH, &r);
    assert_int_equal(r.kind, REPLY_BENCH_POSITION);
    assert_string_equal(r.bench_id, "mid3");
    assert_string_equal(r.move, "c3-c4");
    assert_int_equal(r.score, -41);
    assert_int_equal(r.depth, 10);
    assert_int_equal(r.nodes, 123456);
    program_reply_parse("info string bench: 67 positions from bench/positions.txt (built in), "
                       "depth 10, signature e5eda8d85fe2eb26",
                       SEARCH_MAX_DEPTH, &r);
    assert_int_equal(r.kind, REPLY_BENCH_SIGNATURE);
    assert_string_equal(r.signature, "e5eda8d85fe2eb26");
    static const char *const not_bench[] = {
        "info string bench position a move b1 score 3 depth 2",            /* no nodes */
        "info string bench position a move b1 score 3 depth 2 nodes 5 nodes 6", /* twice */
        "info string bench position a move b1 score x depth 2 nodes 5",    /* score */
        "info string bench position a move b1 score 3 depth 99 nodes 5",   /* depth > 64 */
        "info string bench position a move b1 score 3 depth 2 nodes -5",   /* nodes */
        "info string bench position a move b1 score 3 depth 2 nodes 5 color red",
        "info string bench: 1 positions, depth 2, signature E5EDA8D85FE2EB26",
        "info string bench: 1 positions, depth 2, signature e5eda8d85fe2eb2",
        "info string bench: 1 positions, depth 2",
        "info depth 3 string bench position a move b1 score 3 depth 2 nodes 5 x",
    };
    for (size_t i = 0; i < sizeof not_bench / sizeof not_bench[0]; i++) {
        program_reply_parse(not_bench[i], SEARCH_MAX_DEPTH, &r);
        if (r.kind == REPLY_BENCH_POSITION || r.kind == REPLY_BENCH_SIGNATURE)
            fail_msg("'%s' read as a bench line", not_bench[i]);
    }
}

/* The command line names what does not fit an engine's kind. */
static void arguments__program_and_in_process_keys_do_not_mix(void **state) {
    (void)state;
    static const struct {
        const char *arguments, *message;
    } cases[] = {
        {"-engine name=a cmd=" MOCK " killers=off -engine name=b -each nodes=9 -rounds 1",
         "'killers=off' is an in-process search option; give the program's options as "
         "option.killers=off"},
        {"-engine name=a option.Hash=16 -engine name=b -each nodes=9 -rounds 1",
         "option.NAME=VALUE is for engine programs (cmd=)"},
        {"-engine name=a cmd=" MOCK " proto=xboard -engine name=b -each nodes=9 -rounds 1",
         "proto=xboard: engine programs speak the engine protocol"},
        {"-engine name=a cmd=" MOCK " stall=0 -engine name=b -each nodes=9 -rounds 1",
         "stall=0: "},
        {"-engine name=a cmd= -engine name=b -each nodes=9 -rounds 1", "cmd=: empty"},
        /* A program's deadlines mean nothing to an in-process engine: said, never dropped. */
        {"-engine name=a timemargin=500 -engine name=b -each nodes=9 -rounds 1",
         "-engine a: timemargin=500 forgives an overrun of a clock: an in-process engine has "
         "none without tc= or st="},
        {"-engine name=a cmd=" MOCK " -engine name=b -each nodes=9 stall=900 -rounds 1",
         "-engine b: stall= belongs to engine programs (give cmd=)"},
        {"-engine name=a args=x -engine name=b -each nodes=9 -rounds 1",
         "-engine a: args= belongs to engine programs"},
        {"-engine name=a cmd=" ENGINE " option.killers=maybe -engine name=b -each nodes=9 "
         "-rounds 1",
         "engine a (" ENGINE ") reported during start-up: 'info string error: setoption: "
         "option killers: 'maybe' is not allowed"},
        {"-engine name=a cmd=/nonexistent/engine -engine name=b -each nodes=9 -rounds 1",
         "engine a (/nonexistent/engine) exited before answering 'uci' (could not be run: not "
         "found or not executable; dir=.)"},
        {"-engine name=a cmd=" MOCK " dir=/nonexistent -engine name=b -each nodes=9 -rounds 1",
         "(could not enter its directory; dir=/nonexistent)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *errors;
        int status = run_abtest(cases[i].arguments, &out, &errors);
        if (status != 2 || !strstr(errors, cases[i].message))
            fail_msg("%s: exit %d, expected '%s' in:\n%s", cases[i].arguments, status,
                     cases[i].message, errors);
        free(out);
        free(errors);
    }
}

/* A program that cannot be run may be gone before the first write or only before the first
 * read; either way the reason is the same, however often it is asked (a flaky CI run once said
 * "already stopped" where the write had found it gone first). */
static void missing_program__the_same_reason_whichever_side_finds_it(void **state) {
    (void)state;
    ProgramProcess p;
    Error err;
    assert_true(program_process_start(&p, "/nonexistent/engine", "", "", NULL, &err));
    const struct timespec pause = {0, 100 * 1000 * 1000}; /* it has surely exited by then */
    nanosleep(&pause, NULL);
    assert_int_equal(program_process_send(&p, "uci", cli_now_ms() + 1000), PROGRAM_IO_CLOSED);
    for (int ask = 0; ask < 2; ask++) {
        char how[160];
        program_process_ending(&p, 500, how, sizeof how);
        assert_string_equal(how, "could not be run: not found or not executable");
    }
    program_process_stop(&p, 100);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(engine_program__same_games_as_in_process_and_exact_resume),
        cmocka_unit_test(from_docs__a_scripted_engine_plays_resumes_and_benches),
        cmocka_unit_test(slow_start__refused_before_play_with_the_limit_named),
        cmocka_unit_test(overrun__game_lost_on_time_and_play_goes_on),
        cmocka_unit_test(crash__stops_the_run_unless_recover),
        cmocka_unit_test(stall__lost_after_the_stall_limit_with_recover),
        cmocka_unit_test(illegal_and_garbage__game_lost_with_the_move_named),
        cmocka_unit_test(stale_bestmove__never_taken_as_an_answer),
        cmocka_unit_test(bench_off__a_program_without_bench_plays),
        cmocka_unit_test(bench__expected_count_plays_another_refuses),
        cmocka_unit_test(reply__bench_position_and_signature_lines),
        cmocka_unit_test(arguments__program_and_in_process_keys_do_not_mix),
        cmocka_unit_test(missing_program__the_same_reason_whichever_side_finds_it),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
