// SPDX-License-Identifier: MIT
// The frameworks our users run read our output with their own code. These tests reimplement
// their parsing rules, as published, and check that they read the right numbers:
//   - OpenBench's runner loop (Client/worker.py: run_and_parse_cutechess, update_results): reads
//     stdout line by line, strips, decodes ASCII, stops at the first empty line, and builds the
//     trinomial and pentanomial from "Finished game N (A vs B): R {reason}" lines, taking odd
//     games as the first engine's White (here: tigers) games;
//   - fishtest's fastchess parser (worker/games.py: parse_fastchess_output): the Games/Wins/
//     Losses/Draws and Ptnml(0-2) regular expressions over the interval blocks, the new engine
//     first, and its crash and time-loss substrings;
//   - fishtest's bench reader (run_single_bench): stderr only, "Total time (ms)" and "Nodes
//     searched" split at ": ";
//   - OpenBench's bench reader (Client/bench.py: parse_stream_output): stdout and stderr
//     together, lines from the last, non-alphanumerics to spaces, its nps and nodes patterns.
// POSIX extended regular expressions stand in for Python's; on our lines they match the same
// text.
#include "test_util.h"

#include <cJSON.h>
#include <ctype.h>
#include <regex.h>
#include <unistd.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define BENCH TSLAB_BUILD_DIR "/bench"
#define MOCK TSLAB_BUILD_DIR "/tests/mock_engine"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"

static bool all_ascii(const char *text) {
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p > 127)
            return false;
    return true;
}

/* Python's str.strip(): whitespace off both ends, in place. */
static char *strip(char *line) {
    while (*line && isspace((unsigned char)*line))
        line++;
    size_t length = strlen(line);
    while (length > 0 && isspace((unsigned char)line[length - 1]))
        line[--length] = '\0';
    return line;
}

/* The next line of *cursor (without its newline), or NULL at the end; modifies the text. */
static char *next_line(char **cursor) {
    if (!*cursor || !**cursor)
        return NULL;
    char *line = *cursor, *newline = strchr(line, '\n');
    if (newline) {
        *newline = '\0';
        *cursor = newline + 1;
    } else {
        *cursor = NULL;
    }
    return line;
}

/* OpenBench's result lookup: '0-1': 0, '1/2-1/2': 1, '1-0': 2; anything else is a KeyError. */
static int openbench_lookup(const char *result) {
    if (!strcmp(result, "0-1"))
        return 0;
    if (!strcmp(result, "1/2-1/2"))
        return 1;
    if (!strcmp(result, "1-0"))
        return 2;
    fail_msg("OpenBench cannot read the result '%s'", result);
    return -1;
}

typedef struct {
    uint64_t trinomial[3];   /* L, D, W of the first engine */
    uint64_t pentanomial[5]; /* LL, LD, DD+WL, WD, WW */
    int finished_lines, crashes, time_losses, illegals;
    bool stopped_at_empty_line;
} OpenBenchCounts;

static void openbench_read_runner(char *text, OpenBenchCounts *c) {
    memset(c, 0, sizeof *c);
    if (!all_ascii(text))
        fail_msg("OpenBench decodes the output as ASCII: a byte above 127 raises");
    enum { MAX_GAMES = 1 << 16 };
    char **results = calloc(MAX_GAMES, sizeof *results); /* game -> result, pair incomplete */
    assert_non_null(results);
    char *cursor = text, *raw;
    while ((raw = next_line(&cursor))) {
        char *line = strip(raw);
        if (!*line) {
            c->stopped_at_empty_line = cursor != NULL && *cursor;
            break;
        }
        if (!strstr(line, "Finished game"))
            continue;
        c->finished_lines++;
        /* reason = line.split(':')[1] */
        const char *colon = strchr(line, ':');
        if (!colon)
            fail_msg("OpenBench: no ':' in '%s'", line);
        char reason[256];
        snprintf(reason, sizeof reason, "%s", colon + 1);
        char *second = strchr(reason, ':');
        if (second)
            *second = '\0';
        c->crashes += strstr(reason, "disconnect") || strstr(reason, "stalls");
        c->time_losses += strstr(reason, "on time") != NULL;
        c->illegals += strstr(reason, "illegal") != NULL;
        /* tokens = line.split(); game = int(tokens[2]); result = tokens[6] */
        char copy[512], *tokens[16];
        int count = 0;
        snprintf(copy, sizeof copy, "%s", line);
        for (char *t = strtok(copy, " \t"); t && count < 16; t = strtok(NULL, " \t"))
            tokens[count++] = t;
        if (count < 7)
            fail_msg("OpenBench: fewer than 7 words in '%s'", line);
        char *end;
        long game = strtol(tokens[2], &end, 10);
        if (*end || game < 1 || game + 1 >= MAX_GAMES)
            fail_msg("OpenBench: int('%s') fails", tokens[2]);
        free(results[game]);
        results[game] = strdup(tokens[6]);
        long first = game % 2 ? game : game - 1, second_game = first + 1;
        if (!results[first] || !results[second_game])
            continue;
        int r1 = openbench_lookup(results[first]), r2 = openbench_lookup(results[second_game]);
        c->pentanomial[r1 + 2 - r2]++;
        c->trinomial[r1]++;
        c->trinomial[2 - r2]++;
        free(results[first]);
        free(results[second_game]);
        results[first] = results[second_game] = NULL;
    }
    for (int i = 0; i < MAX_GAMES; i++)
        free(results[i]);
    free(results);
}

typedef struct {
    long long games, wins, losses, draws;
    double points;
    long long ptnml[5];
    int blocks, crashes, time_losses;
} FishtestCounts;

static long long group_number(const char *line, const regmatch_t *m) {
    return strtoll(line + m->rm_so, NULL, 10);
}

static void fishtest_read_fastchess(char *text, FishtestCounts *c) {
    memset(c, 0, sizeof *c);
    regex_t wld, ptnml;
    assert_int_equal(regcomp(&wld, "Games: ([0-9]+), Wins: ([0-9]+), Losses: ([0-9]+), "
                                   "Draws: ([0-9]+), Points: ([0-9.]+) \\(",
                             REG_EXTENDED), 0);
    assert_int_equal(regcomp(&ptnml, "Ptnml\\(0-2\\): \\[([0-9]+), ([0-9]+), ([0-9]+), "
                                     "([0-9]+), ([0-9]+)\\]",
                             REG_EXTENDED), 0);
    bool have_wld = false, have_ptnml = false;
    long long block_wld[4] = {0}, block_ptnml[5] = {0};
    double block_points = 0;
    char *cursor = text, *raw;
    while ((raw = next_line(&cursor))) {
        char *line = strip(raw);
        if (strstr(line, "disconnect") || strstr(line, "stall"))
            c->crashes++;
        if (strstr(line, "on time") || strstr(line, "timeout"))
            c->time_losses++;
        regmatch_t m[6];
        if (regexec(&wld, line, 6, m, 0) == 0) {
            for (int i = 0; i < 4; i++)
                block_wld[i] = group_number(line, &m[i + 1]);
            block_points = strtod(line + m[5].rm_so, NULL);
            have_wld = true;
        }
        if (regexec(&ptnml, line, 6, m, 0) == 0) {
            for (int i = 0; i < 5; i++)
                block_ptnml[i] = group_number(line, &m[i + 1]);
            have_ptnml = true;
        }
        if (have_wld && have_ptnml) { /* a whole block: it replaces the previous one */
            c->games = block_wld[0];
            c->wins = block_wld[1];
            c->losses = block_wld[2];
            c->draws = block_wld[3];
            c->points = block_points;
            memcpy(c->ptnml, block_ptnml, sizeof c->ptnml);
            long long pairs = 0;
            for (int i = 0; i < 5; i++)
                pairs += block_ptnml[i];
            /* fishtest's own assertions on every block */
            assert_int_equal(2 * pairs, c->wins + c->losses + c->draws);
            assert_int_equal(c->games, 2 * pairs);
            c->blocks++;
            have_wld = have_ptnml = false;
        }
    }
    regfree(&wld);
    regfree(&ptnml);
}


static double number_at(const cJSON *json, const char *key) {
    const cJSON *item = cJSON_GetObjectItem(json, key);
    if (!cJSON_IsNumber(item))
        fail_msg("no number \"%s\"", key);
    return item->valuedouble;
}

/* A bounded match whose first engine is the stronger, printed as a terminal-less run prints. */
static void abtest__openbench_and_fishtest_read_the_first_engines_results(void **state) {
    (void)state;
    char path[128], command[1024], *out;
    snprintf(path, sizeof path, "/tmp/tslab_frameworks_%d.json", (int)getpid());
    snprintf(command, sizeof command,
             ABTEST " -engine name=New-full -engine name=Base-nokillers killers=off hint=off"
                    " -each nodes=1000 -openings file=" BOOK " -rounds 60 -ratinginterval 7"
                    " -concurrency 2 -out %s 2>/dev/null", path);
    assert_int_equal(test_run(command, &out), 0);
    cJSON *json = test_load_json(path);
    unlink(path);
    const cJSON *penta = cJSON_GetObjectItem(json, "pentanomial");
    const cJSON *wdl = cJSON_GetObjectItem(json, "wdl");
    double wins = number_at(wdl, "wins"), draws = number_at(wdl, "draws");
    double losses = number_at(wdl, "losses");
    assert_true(wins > losses); /* the numbers are the first (stronger) engine's */

    /* No empty line anywhere: OpenBench would stop reading there. */
    assert_null(strstr(out, "\n\n"));
    char *copy = strdup(out);
    OpenBenchCounts ob;
    openbench_read_runner(copy, &ob);
    free(copy);
    assert_false(ob.stopped_at_empty_line);
    assert_int_equal(ob.finished_lines, 120);
    for (int i = 0; i < 5; i++)
        assert_int_equal(ob.pentanomial[i], cJSON_GetArrayItem(penta, i)->valuedouble);
    assert_int_equal(ob.trinomial[0], losses);
    assert_int_equal(ob.trinomial[1], draws);
    assert_int_equal(ob.trinomial[2], wins);
    assert_int_equal(ob.crashes + ob.time_losses + ob.illegals, 0);

    copy = strdup(out);
    FishtestCounts ft;
    fishtest_read_fastchess(copy, &ft);
    free(copy);
    assert_int_equal(ft.blocks, 60 / 7 + 1); /* every 7 pairs, and the end */
    assert_int_equal(ft.games, 120);
    assert_int_equal(ft.wins, wins);
    assert_int_equal(ft.losses, losses);
    assert_int_equal(ft.draws, draws);
    assert_float_equal(ft.points, wins + draws / 2, 1e-9);
    for (int i = 0; i < 5; i++)
        assert_int_equal(ft.ptnml[i], cJSON_GetArrayItem(penta, i)->valuedouble);
    assert_int_equal(ft.crashes + ft.time_losses, 0);
    /* fastchess's last line, which fishtest waits for. */
    assert_non_null(strstr(out, "\nFinished match\n"));
    cJSON_Delete(json);
    free(out);
}

/* Engine programs' faults are counted by both frameworks exactly as the results file counts
 * them: one per game line, none from the summary (whose words avoid theirs). */
static void abtest__frameworks_count_each_forfeit_once(void **state) {
    (void)state;
    char path[128], command[1024], *out;
    snprintf(path, sizeof path, "/tmp/tslab_frameworks_faults_%d.json", (int)getpid());
    snprintf(command, sizeof command,
             ABTEST " -engine name=late cmd=" MOCK " 'args=overrun 3' movetime=50 timemargin=50"
                    " -engine name=crashy cmd=" MOCK " 'args=crash 4' nodes=100 -recover"
                    " -openings file=" BOOK " -rounds 2 -concurrency 1 -out %s 2>/dev/null",
             path);
    assert_int_equal(test_run(command, &out), 0);
    cJSON *json = test_load_json(path);
    unlink(path);
    double time_losses = 0, crashes = 0, illegals = 0;
    for (int e = 0; e < 2; e++) {
        const cJSON *engine = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), e);
        time_losses += number_at(engine, "time_losses");
        crashes += number_at(engine, "disconnects") + number_at(engine, "stalls");
        illegals += number_at(engine, "illegal_moves");
    }
    assert_true(time_losses >= 1 && crashes >= 1);
    char *copy = strdup(out);
    OpenBenchCounts ob;
    openbench_read_runner(copy, &ob);
    free(copy);
    assert_int_equal(ob.finished_lines, 4);
    assert_int_equal(ob.time_losses, time_losses);
    assert_int_equal(ob.crashes, crashes);
    assert_int_equal(ob.illegals, illegals);
    copy = strdup(out);
    FishtestCounts ft;
    fishtest_read_fastchess(copy, &ft);
    free(copy);
    assert_int_equal(ft.time_losses, time_losses);
    assert_int_equal(ft.crashes, crashes);
    cJSON_Delete(json);
    free(out);
}

/* -quiet drops the per-game lines (and the blocks), keeping the end. */
static void abtest__quiet_drops_the_game_lines(void **state) {
    (void)state;
    char *out;
    assert_int_equal(test_run(ABTEST " -engine name=a -engine name=b killers=off -each nodes=300"
                                     " -openings file=" BOOK " -rounds 4 -quiet 2>/dev/null",
                              &out),
                     0);
    assert_null(strstr(out, "Started game"));
    assert_null(strstr(out, "Finished game"));
    assert_non_null(strstr(out, "Finished: 4 pairs played"));
    free(out);
}

typedef struct {
    double total_time_ms, nodes;
    bool has_time, has_nodes;
} FishtestBench;

/* fishtest's run_single_bench: stderr lines; float(line.split(": ")[1].strip()). */
static void fishtest_read_bench(char *stderr_text, FishtestBench *b) {
    memset(b, 0, sizeof *b);
    char *cursor = stderr_text, *line;
    while ((line = next_line(&cursor))) {
        const char *value = strstr(line, ": ");
        if (strstr(line, "Total time (ms)")) {
            assert_non_null(value);
            b->total_time_ms = strtod(value + 2, NULL);
            b->has_time = true;
        }
        if (strstr(line, "Nodes searched")) {
            assert_non_null(value);
            b->nodes = strtod(value + 2, NULL);
            b->has_nodes = true;
        }
    }
}

/* OpenBench's parse_stream_output: from the last line up, non-alphanumerics become spaces, the
 * first nps and nodes matches win; each value is the first number of its match. */
static void openbench_read_bench(char *text, long long *bench, long long *nps) {
    regex_t nps_pattern, bench_pattern;
    assert_int_equal(regcomp(&nps_pattern,
                             "([0-9]+[[:space:]]+nps)|(nps[[:space:]]+[0-9]+)|"
                             "(nodes second[[:space:]]+[0-9]+)",
                             REG_EXTENDED | REG_ICASE), 0);
    assert_int_equal(regcomp(&bench_pattern,
                             "([0-9]+[[:space:]]+nodes)|(nodes[[:space:]]+[0-9]+)|"
                             "(nodes searched[[:space:]]+[0-9]+)",
                             REG_EXTENDED | REG_ICASE), 0);
    assert_true(all_ascii(text));
    *bench = *nps = -1;
    /* Lines from the last: split, then walk backwards. */
    char *lines[1 << 12];
    int count = 0;
    char *cursor = text, *line;
    while ((line = next_line(&cursor)) && count < (int)(sizeof lines / sizeof lines[0]))
        lines[count++] = line;
    for (int i = count - 1; i >= 0; i--) {
        for (char *p = lines[i]; *p; p++)
            if (!isalnum((unsigned char)*p) && *p != ' ')
                *p = ' ';
        regmatch_t m;
        if (*nps < 0 && regexec(&nps_pattern, lines[i], 1, &m, 0) == 0) {
            const char *digits = lines[i] + m.rm_so;
            while (!isdigit((unsigned char)*digits))
                digits++;
            *nps = strtoll(digits, NULL, 10);
        }
        if (*bench < 0 && regexec(&bench_pattern, lines[i], 1, &m, 0) == 0) {
            const char *digits = lines[i] + m.rm_so;
            while (!isdigit((unsigned char)*digits))
                digits++;
            *bench = strtoll(digits, NULL, 10);
        }
    }
    regfree(&nps_pattern);
    regfree(&bench_pattern);
}

/* The suite's node count at depth 6, as bench -json reports it. */
static double depth6_nodes(void) {
    char *json_text;
    assert_int_equal(test_run(BENCH " -depth 6 -json - 2>/dev/null", &json_text), 0);
    cJSON *json = cJSON_Parse(json_text);
    free(json_text);
    assert_non_null(json);
    double nodes = number_at(json, "nodes");
    cJSON_Delete(json);
    return nodes;
}

/* `bench bench` with Stockfish's arguments, read by both frameworks' rules: the node count they
 * read is the suite's, as -json reports it. (Depth 6 keeps it short; fishtest asks for depth 13
 * and OpenBench for the default, with output of the same shape.) */
static void bench__fishtest_and_openbench_read_nodes_time_and_speed(void **state) {
    (void)state;
    double nodes = depth6_nodes();

    char *err_only;
    assert_int_equal(test_run(BENCH " bench 16 1 6 default depth 2>&1 >/dev/null", &err_only), 0);
    FishtestBench fb;
    fishtest_read_bench(err_only, &fb);
    free(err_only);
    assert_true(fb.has_time && fb.has_nodes);
    assert_float_equal(fb.nodes, nodes, 0);
    assert_true(fb.total_time_ms >= 0);

    char *merged;
    assert_int_equal(test_run(BENCH " bench 16 1 6 2>&1", &merged), 0);
    long long bench, nps;
    openbench_read_bench(merged, &bench, &nps);
    free(merged);
    assert_int_equal(bench, (long long)nodes);
    assert_true(nps > 0);
}

/* The pinned bench node count (bench/signature.json's "nodes"). */
static double pinned_nodes(void) {
    char *text = test_read_file(TSLAB_SOURCE_DIR "/bench/signature.json");
    assert_non_null(text);
    cJSON *json = cJSON_Parse(text);
    free(text);
    assert_non_null(json);
    double nodes = number_at(json, "nodes");
    cJSON_Delete(json);
    return nodes;
}

/* As the workers run it: the engine binary alone in a directory of its own, with no data files
 * anywhere it could look (no TSLAB_DATA, and the copy is outside any checkout). OpenBench's `./engine bench` gives the pinned count to OpenBench's reader; fishtest's
 * `./engine bench 16 1 13 default depth`, here at depth 6 to stay short (depth 13 takes half a
 * minute), gives fishtest's reader the count the bench tool gives at that depth. `bench check`
 * from there checks against the signature compiled in. */
static void engine__benchable_alone_in_an_empty_directory(void **state) {
    (void)state;
    char dir[96], command[512];
    assert_int_equal(test_make_dir(dir, sizeof dir, "bare_engine"), 0);
    snprintf(command, sizeof command, "cp " TSLAB_BUILD_DIR "/engine %s/engine", dir);
    assert_int_equal(system(command), 0);
    char *merged;
    snprintf(command, sizeof command, "cd %s && env -u TSLAB_DATA ./engine bench 2>&1", dir);
    assert_int_equal(test_run(command, &merged), 0);
    assert_non_null(strstr(merged, "bench/positions.txt (built in)"));
    long long bench, nps;
    openbench_read_bench(merged, &bench, &nps);
    free(merged);
    assert_int_equal(bench, (long long)pinned_nodes());
    assert_true(nps > 0);

    double nodes = depth6_nodes();
    char *err_only;
    snprintf(command, sizeof command,
             "cd %s && env -u TSLAB_DATA ./engine bench 16 1 6 default depth 2>&1 >/dev/null",
             dir);
    assert_int_equal(test_run(command, &err_only), 0);
    FishtestBench fb;
    fishtest_read_bench(err_only, &fb);
    free(err_only);
    assert_true(fb.has_time && fb.has_nodes);
    assert_float_equal(fb.nodes, nodes, 0);

    /* The bench tool alone checks itself against the signature compiled into it. */
    char *out;
    snprintf(command, sizeof command,
             "cp " TSLAB_BUILD_DIR "/bench %s/bench && cd %s && env -u TSLAB_DATA ./bench check "
             "-threads 2 2>&1",
             dir, dir);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "against bench/signature.json (built in)"));
    assert_non_null(strstr(out, "IDENTICAL"));
    free(out);
    assert_int_equal(test_remove_dir(dir), 0);
}

/* What does not apply is refused with the reason. */
static void bench__stockfish_arguments_that_do_not_apply(void **state) {
    (void)state;
    static const struct {
        const char *arguments, *message;
    } rows[] = {
        {"16 1 4 current", "'current' does not apply"},
        {"16 1 4 default perft", "perft does not apply"},
        {"16 1 4 default eval", "eval does not apply"},
        {"16 1 4 default mate", "'mate' is not one of depth, nodes, movetime"},
        {"16 1 99", "depth 99: at most 64"},
        {"x", "ttSize: 'x' is not an integer"},
        {"16 1 4 default depth extra", "at most 5 arguments"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char command[256], *out;
        snprintf(command, sizeof command, BENCH " bench %s", rows[i].arguments);
        int status = test_run(command, &out);
        if (status != 2 || !strstr(out, rows[i].message))
            fail_msg("bench bench %s: exit %d, '%s', expected '%s'", rows[i].arguments, status,
                     out, rows[i].message);
        free(out);
    }
    /* 64 MB is tt_bits=22; nodes as the limit type runs a node budget per position. */
    char *out;
    assert_int_equal(test_run(BENCH " bench 64 2 3000 default nodes 2>/dev/null", &out), 0);
    assert_non_null(strstr(out, "tt_bits=22"));
    assert_non_null(strstr(out, "nodes=3000"));
    free(out);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(abtest__openbench_and_fishtest_read_the_first_engines_results),
        cmocka_unit_test(abtest__frameworks_count_each_forfeit_once),
        cmocka_unit_test(abtest__quiet_drops_the_game_lines),
        cmocka_unit_test(bench__fishtest_and_openbench_read_nodes_time_and_speed),
        cmocka_unit_test(bench__stockfish_arguments_that_do_not_apply),
        cmocka_unit_test(engine__benchable_alone_in_an_empty_directory),
    };
    return RUN_TESTS("frameworks", tests);
}
