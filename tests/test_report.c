// SPDX-License-Identifier: MIT
// abtest report over a directory of real runs (an SPRT decided, a bounded run, an interrupted
// one) and of files that are not runs (another tool's JSON, a damaged results file, text that
// is not JSON): the rows and the JSON carry the results files' own numbers, the files not read
// are listed with their reason, filters and order work, a live run is "running" and the same
// file after kill -9 "stopped".
#include "test_util.h"

#include "json_text.h"

#include <cJSON.h>
#include <ctype.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"
#define MOCK TSLAB_BUILD_DIR "/tests/mock_engine"
#define ENGINE TSLAB_BUILD_DIR "/engine"
/* -each last: the node limit follows. */
#define ENGINES                                                                                    \
    " -engine name=full -engine name=weak killers=off hint=off -openings file=" BOOK               \
    " -quiet -concurrency 2 -each " TEST_MATCH_PRESET

static char dir[256];

static int setup(void **state) {
    (void)state;
    if (test_make_dir(dir, sizeof dir, "report"))
        return -1;
    char command[4096];
    snprintf(command, sizeof command,
             "cd %s && mkdir -p runs/older && " ABTEST ENGINES " nodes=1000 -sprt elo0=0 elo1=10 "
             "-out runs/sprt.json >/dev/null && sleep 1 && " ABTEST ENGINES
             " nodes=300 -rounds 12 -out runs/older/rounds.json -pgnout file=runs/rounds.pgn "
             ">/dev/null && sleep 1 && " ABTEST ENGINES " nodes=300 -rounds 50 "
             "-debug-stopafter 8 -out runs/cut.json >/dev/null 2>&1; "
             "echo '[{\"book\": \"x\"}]' > runs/booktest.json && echo 'not json' > runs/notes.json "
             "&& sed 's/\"pairs\":/\"pairs\": 1, \"was\":/' runs/older/rounds.json > runs/bad.json",
             dir);
    if (test_run(command, NULL) != 0)
        return -1;
    /* The other experiments' files: a finished tuning, the same file made unfinished (more
     * iterations than done) and damaged ("done" against its history), a booktest. */
    snprintf(command, sizeof command,
             "cd %s && mkdir -p studies && printf 'futility, int, 100, 0, 300, 30, 0.002\n"
             "lmr_moves, int, 3, 1, 8, 1, 0.002\n' > studies/params.txt && " ABTEST
             " tune -params studies/params.txt -iterations 6 -pairs 2 -each nodes=300 "
             "-openings file=" BOOK " -out studies/tune.json >/dev/null && "
             "sed 's/\"iterations\":[[:space:]]*6/\"iterations\": 9/' studies/tune.json > "
             "studies/tune_more.json && "
             "sed 's/\"done\":[[:space:]]*6/\"done\": 5/' studies/tune.json > studies/tune_bad.json && "
             "grep -q '\"iterations\": 9' studies/tune_more.json && "
             "grep -q '\"done\": 5' studies/tune_bad.json && "
             ABTEST " booktest -book " BOOK " -diff killers=off -diff hint=off -pairs 10 "
             "-each nodes=300 -json studies/booktest.json >/dev/null",
             dir);
    return test_run(command, NULL) == 0 ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

static cJSON *load(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/runs/%s", dir, name);
    return test_load_json(path);
}

static const cJSON *by_file(const cJSON *list, const char *suffix) {
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        const char *file = cJSON_GetObjectItem(item, "file")->valuestring;
        if (strlen(file) >= strlen(suffix) && !strcmp(file + strlen(file) - strlen(suffix), suffix))
            return item;
    }
    fail_msg("no %s in the report", suffix);
    return NULL;
}

static double number(const cJSON *object, const char *key) {
    const cJSON *item = cJSON_GetObjectItem(object, key);
    if (!cJSON_IsNumber(item))
        fail_msg("\"%s\" is not a number", key);
    return item->valuedouble;
}

/* The JSON list: each run's numbers are its results file's own; the others have a reason. */
static void json__runs_as_their_files_say_and_the_rest_with_reasons(void **state) {
    (void)state;
    char command[4096], *out;
    snprintf(command, sizeof command, "cd %s && " ABTEST " report runs -json -", dir);
    assert_int_equal(test_run(command, &out), 0);
    cJSON *list = cJSON_Parse(out);
    free(out);
    assert_non_null(list);
    assert_int_equal(cJSON_GetArraySize(list), 6);
    static const char *const runs[] = {"sprt.json", "older/rounds.json", "cut.json"};
    static const char *const states[] = {NULL, "rounds", "interrupted"};
    for (int i = 0; i < 3; i++) {
        cJSON *file = load(runs[i]);
        const cJSON *row = by_file(list, runs[i]);
        assert_true(cJSON_IsTrue(cJSON_GetObjectItem(row, "read")));
        const char *wanted =
            states[i] ? states[i] : cJSON_GetObjectItem(file, "decision")->valuestring;
        assert_string_equal(cJSON_GetObjectItem(row, "state")->valuestring, wanted);
        assert_true(number(row, "pairs") == number(file, "pairs"));
        assert_true(number(row, "elo") == number(file, "elo"));
        assert_true(cJSON_Compare(cJSON_GetObjectItem(row, "ptnml"),
                                  cJSON_GetObjectItem(file, "pentanomial"), true));
        assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(row, "engines"), 0)->valuestring,
                            "full");
        assert_string_equal(cJSON_GetObjectItem(row, "difference")->valuestring,
                            "killers=on vs off, hint=on vs off");
        if (i == 0) {
            assert_true(number(row, "llr") == number(file, "llr"));
            assert_string_equal(cJSON_GetObjectItem(row, "limits")->valuestring, "nodes=1000");
        } else {
            assert_true(cJSON_IsNull(cJSON_GetObjectItem(row, "llr")));
        }
        cJSON_Delete(file);
    }
    static const struct {
        const char *file, *reason;
    } unread[] = {
        {"booktest.json", "not an abtest results file"},
        {"notes.json", "not JSON"},
        {"bad.json", "the pentanomial counts 12 pairs, \"pairs\" says 1"},
    };
    for (size_t i = 0; i < sizeof unread / sizeof *unread; i++) {
        const cJSON *row = by_file(list, unread[i].file);
        assert_true(cJSON_IsFalse(cJSON_GetObjectItem(row, "read")));
        const char *reason = cJSON_GetObjectItem(row, "reason")->valuestring;
        if (!strstr(reason, unread[i].reason))
            fail_msg("%s: '%s', wanted '%s'", unread[i].file, reason, unread[i].reason);
    }
    cJSON_Delete(list);
}

/* The table: a row per run with its Elo as the results file gives it, newest first unless
 * -sort oldest; filters by engine and state; files not read listed last with their reason. */
static void table__rows_filters_and_order(void **state) {
    (void)state;
    char command[4096], *out, elo[64];
    cJSON *file = load("sprt.json");
    const cJSON *ci = cJSON_GetObjectItem(file, "elo_ci95");
    snprintf(elo, sizeof elo, "%+.2f +/- %.2f", number(file, "elo"),
             (cJSON_GetArrayItem(ci, 1)->valuedouble - cJSON_GetArrayItem(ci, 0)->valuedouble) / 2);
    cJSON_Delete(file);
    snprintf(command, sizeof command, "cd %s && " ABTEST " report runs", dir);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "report: 3 run(s), 3 file(s) not read\n"));
    assert_non_null(strstr(out, elo));
    assert_non_null(strstr(out, "not read:\n  runs/bad.json: "));
    char *sprt = strstr(out, "runs/sprt.json"), *rounds = strstr(out, "runs/older/rounds.json"),
         *cut = strstr(out, "runs/cut.json");
    assert_true(sprt && rounds && cut && cut < rounds && rounds < sprt); /* newest first */
    free(out);
    /* The ledger's Markdown row (make docs) carries the same Elo, with "±". */
    snprintf(command, sizeof command,
             "cd %s && " ABTEST " report -sort given -markdown runs/sprt.json runs/notes.json",
             dir);
    assert_int_equal(test_run(command, &out), 0);
    char row[256];
    snprintf(row, sizeof row,
             "| `full` vs `weak` | killers=on vs off, hint=on vs off | nodes=1000 | %s", elo);
    char *plus_minus = strstr(row, "+/-");
    assert_non_null(plus_minus);
    memmove(plus_minus + 2, plus_minus + 3, strlen(plus_minus + 3) + 1);
    memcpy(plus_minus, "\xc2\xb1", 2); /* "±" in UTF-8 */
    if (!strstr(out, row))
        fail_msg("no row '%s' in:\n%s", row, out);
    assert_non_null(strstr(out, "| `runs/notes.json`: not JSON |"));
    free(out);
    snprintf(command, sizeof command, "cd %s && " ABTEST " report runs -sort oldest", dir);
    assert_int_equal(test_run(command, &out), 0);
    assert_true(strstr(out, "runs/sprt.json") < strstr(out, "runs/cut.json"));
    free(out);
    static const struct {
        const char *filter, *count;
    } filters[] = {
        {"-engine weak", "report: 3 run(s), 0 file(s)"},
        {"-engine nobody", "report: 0 run(s), 0 file(s)"},
        {"-state rounds", "report: 1 run(s), 0 file(s)"},
        {"-state undecided", "report: 2 run(s), 0 file(s)"},
        {"-state interrupted", "report: 1 run(s), 0 file(s)"},
    };
    for (size_t i = 0; i < sizeof filters / sizeof *filters; i++) {
        snprintf(command, sizeof command, "cd %s && " ABTEST " report runs %s", dir,
                 filters[i].filter);
        assert_int_equal(test_run(command, &out), 0);
        if (!strstr(out, filters[i].count))
            fail_msg("%s:\n%s", filters[i].filter, out);
        free(out);
    }
}

/* A run in progress is "running" (and its -html page reloads itself); killed with SIGKILL, its
 * file (still saying running) is "stopped": nobody holds its lock. */
static void state__running_then_stopped(void **state) {
    (void)state;
    char command[4096], path[512], page[512], *out;
    snprintf(path, sizeof path, "%s/live/live.json", dir);
    snprintf(page, sizeof page, "%s/live/page.html", dir);
    snprintf(command, sizeof command,
             "mkdir -p %s/live && exec " ABTEST ENGINES " nodes=3000 -rounds 100000 "
             "-ratinginterval 2 -out %s -html %s > /dev/null",
             dir, path, page);
    pid_t child = test_start_until(command, page, 60); /* the page follows the results file */
    char *text = test_read_file(page);
    assert_non_null(text);
    assert_non_null(strstr(text, "<meta http-equiv=\"refresh\" content=\"10\">"));
    free(text);
    snprintf(command, sizeof command, ABTEST " report %s/live -json -", dir);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "\"state\":\t\"running\""));
    free(out);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "\"state\":\t\"stopped\""));
    free(out);
}

/* Engine programs are told apart by their bench signatures, or their benches when they print
 * none (the one measured when none is given), and their options (two mock engines: the same
 * bench, one with an option; then two of tslab's engines, which print a signature). */
static void difference__programs_by_their_benches(void **state) {
    (void)state;
    char command[4096], *out;
    snprintf(command, sizeof command,
             "cd %s && mkdir -p progs && " ABTEST " -engine name=a cmd=" MOCK " args=good "
             "-engine name=b cmd=" MOCK " args=good option.killers=off "
             "-each nodes=300 -rounds 2 -concurrency 1 -quiet -openings file=" BOOK
             " -out progs/programs.json > /dev/null && " ABTEST " report progs -json -",
             dir);
    assert_int_equal(test_run(command, &out), 0);
    cJSON *list = cJSON_Parse(out), *file = load("../progs/programs.json");
    free(out);
    assert_non_null(list);
    const cJSON *engines = cJSON_GetObjectItem(cJSON_GetObjectItem(file, "settings"), "engines");
    double benches[2];
    for (int e = 0; e < 2; e++) {
        const cJSON *program = cJSON_GetObjectItem(cJSON_GetArrayItem(engines, e), "program");
        benches[e] = number(cJSON_GetObjectItem(program, "seen"), "bench");
    }
    char want[256];
    snprintf(want, sizeof want, "bench %.0f vs bench %.0f (killers=off)", benches[0], benches[1]);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0), "difference")->valuestring,
                        want);
    cJSON_Delete(list);
    cJSON_Delete(file);
    /* Programs that print a bench signature (tslab's engine) are told by it. */
    snprintf(command, sizeof command,
             "cd %s && mkdir -p signed && " ABTEST " -engine name=a cmd=" ENGINE " -engine name=b "
             "cmd=" ENGINE " option.killers=off -each nodes=300 -rounds 1 -concurrency 1 -quiet "
             "-openings file=" BOOK " -out signed/signed.json > /dev/null && " ABTEST
             " report signed -json -",
             dir);
    assert_int_equal(test_run(command, &out), 0);
    list = cJSON_Parse(out);
    free(out);
    assert_non_null(list);
    const char *difference =
        cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0), "difference")->valuestring;
    if (strncmp(difference, "signature ", 10) || !strstr(difference, " vs signature ") ||
        !strstr(difference, " (killers=off)"))
        fail_msg("difference: '%s'", difference);
    cJSON_Delete(list);
}

/* The browser the page is checked in: Debian's chromium (make deps installs it). */
static bool find_browser(char *out, size_t size) {
    char *path = NULL;
    if (test_run("command -v chromium || command -v chromium-browser", &path) != 0 || !path) {
        free(path);
        return false;
    }
    path[strcspn(path, "\n")] = '\0';
    snprintf(out, size, "%s", path);
    free(path);
    return out[0] != '\0';
}

/* The page is self-contained (nothing fetched: no src, link, import or address), and once a
 * real browser has laid it out (headless Chromium, networking pointed at a dead proxy) its DOM
 * holds every run's row with the results file's state, pairs and Elo, every run's charts with
 * the trajectory's points and last LLR, drawn with a width, and the pentanomial's bars with the
 * file's counts. A screenshot is kept as build/report-page.png. */
static void html__rendered_in_a_browser(void **state) {
    (void)state;
    char browser[512];
    if (!find_browser(browser, sizeof browser)) {
        printf("test_report: browser test skipped: no chromium (make deps installs it)\n");
        skip();
    }
    char command[4096], path[512], *out;
    snprintf(command, sizeof command, "cd %s && " ABTEST " report runs studies -html page.html",
             dir);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
    snprintf(path, sizeof path, "%s/page.html", dir);
    char *page = test_read_file(path);
    static const char *const fetches[] = {" src=", "<link",   "@import",
                                          "url(",  "http://", "https://"};
    for (size_t i = 0; i < sizeof fetches / sizeof *fetches; i++)
        if (strstr(page, fetches[i]))
            fail_msg("the page fetches something: '%s'", fetches[i]);
    assert_null(strstr(page, "http-equiv=\"refresh\"")); /* a report of ended runs is not live */
    free(page);
    const char *flags = "--headless --no-sandbox --disable-gpu --no-first-run "
                        "--disable-background-networking --disable-component-update "
                        "--proxy-server=127.0.0.1:9 --virtual-time-budget=3000";
    snprintf(command, sizeof command,
             "cd %s && timeout 120 %s %s --user-data-dir=%s/profile --window-size=1400,2400 "
             "--dump-dom file://%s/page.html > dom.html 2>/dev/null && timeout 120 %s %s "
             "--user-data-dir=%s/profile --hide-scrollbars --window-size=1400,2400 "
             "--screenshot=" TSLAB_BUILD_DIR "/report-page.png file://%s/page.html "
             ">/dev/null 2>&1",
             dir, browser, flags, dir, dir, browser, flags, dir, dir);
    assert_int_equal(test_run(command, NULL), 0);
    snprintf(path, sizeof path, "%s/dom.html", dir);
    char *dom = test_read_file(path);
    assert_non_null(strstr(dom, "data-drawn=\"yes\""));
    /* At 1400 px the runs' table fits its room: it does not scroll sideways. */
    const char *width = strstr(dom, "data-runs-width=\""), *room = strstr(dom, "data-runs-room=\"");
    assert_true(width && room);
    int table_width = atoi(width + strlen("data-runs-width=\"")),
        table_room = atoi(room + strlen("data-runs-room=\""));
    if (table_width > table_room || table_room < 1300)
        fail_msg("the runs' table is %d px wide in %d px", table_width, table_room);
    assert_non_null(strstr(dom, "data-runs=\"3\" data-tunings=\"2\" data-booktests=\"1\" "
                                "data-unread=\"4\""));
    /* A tuning's trajectory is drawn as the runs' are. */
    const char *theta = strstr(dom, "data-chart=\"theta\"");
    const char *theta_drawn = theta ? strstr(theta, "data-drawn-width=\"") : NULL;
    assert_true(theta_drawn && atoi(theta_drawn + strlen("data-drawn-width=\"")) > 100);
    static const char *const runs[] = {"sprt.json", "older/rounds.json", "cut.json"};
    for (int i = 0; i < 3; i++) {
        cJSON *file = load(runs[i]);
        char row[512];
        const cJSON *decision = cJSON_GetObjectItem(file, "decision");
        const char *run_state = !strcmp(cJSON_GetObjectItem(file, "state")->valuestring, "sprt")
                                    ? decision->valuestring
                                    : cJSON_GetObjectItem(file, "state")->valuestring;
        snprintf(row, sizeof row,
                 "data-file=\"runs/%s\" data-state=\"%s\" data-pairs=\"%.0f\" data-elo=\"%.2f\"",
                 runs[i], run_state, number(file, "pairs"), number(file, "elo"));
        if (!strstr(dom, row))
            fail_msg("no row %s", row);
        /* The run's section: its data-file closes the tag (the row's goes on). */
        char marker[300];
        snprintf(marker, sizeof marker, "class=\"run-detail\" id=\"run-");
        const char *section = strstr(dom, marker);
        snprintf(marker, sizeof marker, "data-file=\"runs/%s\">", runs[i]);
        section = section ? strstr(section, marker) : NULL;
        assert_non_null(section);
        const char *end = strstr(section, "</section>");
        assert_non_null(end);
        const cJSON *trajectory = cJSON_GetObjectItem(file, "trajectory");
        int points = cJSON_GetArraySize(trajectory);
        const cJSON *last = cJSON_GetArrayItem(trajectory, points - 1);
        char chart[256];
        if (i == 0) {
            snprintf(chart, sizeof chart,
                     "data-chart=\"llr\" data-points=\"%d\" data-last=\"%.2f\"", points,
                     number(last, "llr"));
            const char *at = strstr(section, chart);
            if (!at || at > end)
                fail_msg("%s: no %s", runs[i], chart);
        }
        if (points > 0) {
            snprintf(chart, sizeof chart,
                     "data-chart=\"elo\" data-points=\"%d\" data-last=\"%.2f\"", points,
                     number(last, "elo"));
            const char *elo = strstr(section, chart);
            if (!elo || elo > end)
                fail_msg("%s: no %s", runs[i], chart);
            const char *drawn = strstr(elo, "data-drawn-width=\""),
                       *mark = strstr(elo, "data-mark-width=\"");
            assert_true(drawn && mark && mark < end);
            assert_true(atoi(drawn + strlen("data-drawn-width=\"")) > 100);
            assert_true(atoi(mark + strlen("data-mark-width=\"")) > 10);
            /* The final value is written at the line's end, and the value axis has ticks. */
            char final[64];
            snprintf(final, sizeof final, "text-anchor=\"end\">%.2f</text>", number(last, "elo"));
            const char *written = strstr(elo, "class=\"final\"");
            assert_true(written && written < end && strstr(written, final));
            const char *tick = strstr(elo, "class=\"axis tick\"");
            assert_true(tick && tick < end);
        } else { /* stopped before its first rating interval: no curve to draw */
            const char *elo = strstr(section, "data-chart=\"elo\"");
            assert_true(!elo || elo > end);
        }
        /* No bar's value label reaches the chart's title (at y = 14, 12 px text). */
        for (const char *label = strstr(section, "class=\"value\""); label && label < end;
             label = strstr(label + 1, "class=\"value\"")) {
            const char *y = strstr(label, " y=\"");
            assert_true(y && atof(y + 4) >= 28);
        }
        const cJSON *ptnml = cJSON_GetObjectItem(file, "pentanomial");
        static const char *const labels[] = {"0", "0.5", "1", "1.5", "2"};
        for (int k = 0; k < 5; k++) {
            snprintf(chart, sizeof chart, "data-label=\"%s\" data-value=\"%.0f\"", labels[k],
                     cJSON_GetArrayItem(ptnml, k)->valuedouble);
            const char *bar = strstr(section, chart);
            if (!bar || bar > end)
                fail_msg("%s: no bar %s", runs[i], chart);
        }
        cJSON_Delete(file);
    }
    assert_non_null(strstr(dom, "<li data-file=\"runs/notes.json\">runs/notes.json: not JSON"));
    free(dom);
    struct stat st;
    assert_int_equal(stat(TSLAB_BUILD_DIR "/report-page.png", &st), 0);
    assert_true(st.st_size > 30000); /* a blank page is about 11 KB */
}

static cJSON *load_study(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/studies/%s", dir, name);
    return test_load_json(path);
}

/* Tunings and booktests are listed beside the runs, read by their own readers: a tuning's
 * parameters now and at the start, its iterations and state; a booktest's books x differences,
 * each cell's Elo and the pairs an SPRT would need, as the files hold them. */
static void studies__tunings_and_booktests_beside_the_runs(void **state) {
    (void)state;
    char command[4096], *out, text[512];
    cJSON *tune = load_study("tune.json"), *booktest = load_study("booktest.json");
    const cJSON *params = cJSON_GetObjectItem(tune, "params");
    snprintf(command, sizeof command, "cd %s && " ABTEST " report studies", dir);
    assert_int_equal(test_run(command, &out), 0);
    if (!strstr(out, "report: 0 run(s), 2 tuning(s), 1 booktest(s), 1 file(s) not read\n"))
        fail_msg("%s", out);
    const cJSON *futility = cJSON_GetArrayItem(params, 0), *lmr = cJSON_GetArrayItem(params, 1);
    snprintf(text, sizeof text, "futility %.2f (100), lmr_moves %.2f (3)",
             number(futility, "value"), number(lmr, "value"));
    const char *row = strstr(out, "studies/tune.json ");
    if (!row || !strstr(row, "6 of 6") || !strstr(row, "finished") || !strstr(row, text))
        fail_msg("no finished tuning row with '%s':\n%s", text, out);
    row = strstr(out, "studies/tune_more.json ");
    if (!row || !strstr(row, "6 of 9") || !strstr(row, "unfinished"))
        fail_msg("no unfinished tuning row:\n%s", out);
    if (!strstr(out, "studies/tune_bad.json: a tuning file that does not read: \"done\" is 5, "
                     "the history holds 6 iterations"))
        fail_msg("the damaged tuning is not named:\n%s", out);
    const cJSON *cells = cJSON_GetObjectItem(booktest, "cells");
    const cJSON *cell = cJSON_GetArrayItem(cells, 1);
    double elo = number(cell, "elo");
    snprintf(text, sizeof text, "%+.2f +/- %.2f (%.0f)", fabs(elo) < 0.005 ? 0.0 : elo,
             number(cell, "elo_error"), number(cell, "expected_pairs"));
    if (!strstr(out, "studies/booktest.json: 1 book(s) x 2 difference(s), 10 pairs a cell, "
                     "finished (2 of 2 cells)") ||
        !strstr(out, "killers=off") || !strstr(out, text))
        fail_msg("no booktest with its cell '%s':\n%s", text, out);
    free(out);

    /* JSON: the files' own numbers, to the bit; the cells as the booktest file holds them. */
    snprintf(command, sizeof command, "cd %s && " ABTEST " report studies -json -", dir);
    assert_int_equal(test_run(command, &out), 0);
    cJSON *list = cJSON_Parse(out);
    free(out);
    assert_non_null(list);
    const cJSON *item = by_file(list, "studies/tune.json");
    assert_string_equal(cJSON_GetObjectItem(item, "kind")->valuestring, "tuning");
    assert_string_equal(cJSON_GetObjectItem(item, "state")->valuestring, "finished");
    assert_string_equal(cJSON_GetObjectItem(item, "each")->valuestring, "nodes=300");
    for (int i = 0; i < 2; i++) {
        const cJSON *shown = cJSON_GetArrayItem(cJSON_GetObjectItem(item, "params"), i);
        assert_true(number(shown, "value") == number(cJSON_GetArrayItem(params, i), "value"));
        assert_true(number(shown, "start") == number(cJSON_GetArrayItem(params, i), "start"));
    }
    item = by_file(list, "studies/booktest.json");
    assert_string_equal(cJSON_GetObjectItem(item, "kind")->valuestring, "booktest");
    assert_true(cJSON_Compare(cJSON_GetObjectItem(item, "cells"), cells, true));
    assert_string_equal(cJSON_GetObjectItem(by_file(list, "studies/tune_more.json"),
                                            "state")->valuestring, "unfinished");
    cJSON_Delete(list);

    /* A filter on engines or states keeps runs only. */
    snprintf(command, sizeof command, "cd %s && " ABTEST " report studies runs -engine full", dir);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "report: 3 run(s), 0 file(s) not read\n"));
    assert_null(strstr(out, "tunings:"));
    free(out);

    /* The page: a row and a section per tuning, each parameter's trajectory from its start
     * through every iteration, the booktest's cells. */
    snprintf(command, sizeof command, "cd %s && " ABTEST " report studies -html studies.html",
             dir);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
    char path[512];
    snprintf(path, sizeof path, "%s/studies.html", dir);
    char *page = test_read_file(path);
    assert_non_null(strstr(page, "data-runs=\"0\" data-tunings=\"2\" data-booktests=\"1\" "
                                 "data-unread=\"1\""));
    assert_non_null(strstr(page, "<tr class=\"tuning\" data-file=\"studies/tune.json\" "
                                 "data-state=\"finished\" data-done=\"6\" "
                                 "data-iterations=\"6\">"));
    const char *section = strstr(page, "class=\"tuning-detail\" id=\"tuning-");
    section = section ? strstr(section, "data-file=\"studies/tune.json\">") : NULL;
    assert_non_null(section);
    const char *end = strstr(section, "</section>");
    const cJSON *history = cJSON_GetObjectItem(tune, "history");
    for (int i = 0; i < 2; i++) {
        double theta = cJSON_GetArrayItem(
            cJSON_GetObjectItem(cJSON_GetArrayItem(history, 5), "theta"), i)->valuedouble;
        snprintf(text, sizeof text, "data-chart=\"theta\" data-points=\"7\" data-last=\"%.2f\"",
                 theta);
        const char *chart = section;
        for (int k = 0; k <= i && chart; k++)
            chart = strstr(chart + 1, "data-chart=\"theta\"");
        if (!chart || chart > end || strncmp(chart, text, strlen(text)))
            fail_msg("parameter %d: no chart %s", i, text);
    }
    snprintf(text, sizeof text, "<td data-elo=\"%.2f\" data-expected-pairs=\"%.0f\">", elo,
             number(cell, "expected_pairs"));
    assert_non_null(strstr(page, text));
    free(page);
    cJSON_Delete(tune);
    cJSON_Delete(booktest);
}

/* A directory built to break a report: a link back to itself, a FIFO and a device named *.json,
 * a running run whose lock is a FIFO, a dangling link, a path of more than 511 characters, a
 * name with an escape sequence, a '|' and a newline, a duration of 1e300 seconds. The report
 * lists every run once, the special files with what they are (never opened: a FIFO would
 * block), escapes what a terminal or Markdown would act on, shows the absurd duration as "?",
 * refuses to write over a file it read, and fails when standard output cannot be written. */
static void hostile__loops_fifos_long_paths_and_escapes(void **state) {
    (void)state;
    char command[8192], *out, hostile[512];
    snprintf(hostile, sizeof hostile, "%s/hostile", dir);
    snprintf(command, sizeof command,
             "rm -rf %s && mkdir -p %s && cd %s && cp ../runs/older/rounds.json plain.json && "
             "ln -s . self && ln -s . self2 && mkfifo fifo.json && mknod dev.json c 1 3 && "
             "ln -s missing.json dangling.json && sed 's/\"state\":\\t\"rounds\"/\"state\":\\t\"running\"/' "
             "plain.json > live.json && mkfifo live.json.lock",
             hostile, hostile, hostile);
    assert_int_equal(system(command), 0);
    /* A name with ESC, '|' and a newline; a duration of 1e300 s. */
    char path[8192];
    snprintf(path, sizeof path, "%s/plain.json", hostile);
    cJSON *json = test_load_json(path);
    cJSON *engine = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), 0);
    cJSON_ReplaceItemInObject(engine, "name", cJSON_CreateString("ev\x1b[31mil|x\ny"));
    cJSON_ReplaceItemInObject(json, "seconds", cJSON_CreateNumber(1e300));
    char *text = json_text(json);
    cJSON_Delete(json);
    snprintf(path, sizeof path, "%s/named.json", hostile);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    /* Nested directories to a path of more than 600 characters. */
    char deep[1024];
    snprintf(deep, sizeof deep, "%s", hostile);
    for (int i = 0; i < 6; i++) {
        size_t used = strlen(deep);
        snprintf(deep + used, sizeof deep - used, "/%0100d", i);
    }
    snprintf(command, sizeof command, "mkdir -p %s && cp %s/plain.json %s/deep.json", deep,
             hostile, deep);
    assert_int_equal(system(command), 0);
    free(text);

    snprintf(command, sizeof command, "timeout 30 " ABTEST " report %s -json - 2>&1", hostile);
    assert_int_equal(test_run(command, &out), 0);
    cJSON *list = cJSON_Parse(out);
    if (!list)
        fail_msg("not JSON:\n%.2000s", out);
    free(out);
    int runs = 0, plain = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        const char *file = cJSON_GetStringValue(cJSON_GetObjectItem(item, "file"));
        runs += cJSON_IsTrue(cJSON_GetObjectItem(item, "read"));
        plain += strstr(file, "plain.json") != NULL;
    }
    assert_int_equal(plain, 1); /* walked once, whatever links lead back */
    assert_int_equal(runs, 4);  /* plain, live, named, deep */
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(by_file(list, "fifo.json"),
                                                                 "reason")),
                        "a FIFO, not a results file: not read");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(by_file(list, "dev.json"),
                                                                 "reason")),
                        "a character device, not a results file: not read");
    assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(
                               by_file(list, "dangling.json"), "reason")),
                           "No such file"));
    const cJSON *deep_run = by_file(list, "/deep.json");
    assert_true(strlen(cJSON_GetStringValue(cJSON_GetObjectItem(deep_run, "file"))) > 600);
    assert_true(number(deep_run, "pairs") == 12);
    /* The live run's lock is a FIFO: no lock held, so stopped (and the report did not block). */
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(by_file(list, "live.json"),
                                                                 "state")),
                        "stopped");
    cJSON_Delete(list);

    snprintf(command, sizeof command, "timeout 30 " ABTEST " report %s/named.json 2>&1", hostile);
    assert_int_equal(test_run(command, &out), 0);
    assert_null(strchr(out, '\x1b'));
    assert_non_null(strstr(out, "ev\\x1b[31mil|x\\x0ay vs weak"));
    assert_non_null(strstr(out, "  ?  ")); /* the duration */
    free(out);
    snprintf(command, sizeof command, "timeout 30 " ABTEST " report %s/named.json -markdown 2>&1",
             hostile);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "`ev\\x1b[31mil\\|x y` vs `weak`"));
    free(out);

    /* -html or -json over a file the report reads is refused, the file left as it was. */
    snprintf(command, sizeof command, ABTEST " report %s -html %s/plain.json 2>&1", hostile,
             hostile);
    assert_int_equal(test_run(command, &out), 2);
    assert_non_null(strstr(out, "plain.json is also a file the report reads"));
    free(out);
    snprintf(command, sizeof command, ABTEST " report %s/plain.json 2>&1 >/dev/full", hostile);
    assert_int_not_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "writing to standard output failed"));
    free(out);
    snprintf(path, sizeof path, "%s/plain.json", hostile);
    json = test_load_json(path); /* still a results file */
    cJSON_Delete(json);
}

/* A subdirectory the user cannot read is listed with the reason and the rest is reported,
 * exit 0. Run as nobody (setpriv), since root reads any directory; skipped, and said, when
 * setpriv is missing or nobody cannot run the build where it stands. */
/* Every string value of key (at any depth) that equals from, replaced by to. */
static void rename_all(cJSON *node, const char *key, const char *from, const char *to) {
    for (cJSON *child = node ? node->child : NULL; child; child = child->next) {
        if (child->string && !strcmp(child->string, key) && cJSON_IsString(child) &&
            !strcmp(child->valuestring, from))
            cJSON_SetValuestring(child, to);
        else
            rename_all(child, key, from, to);
    }
}

static void edit_file(const char *path, void (*edit)(cJSON *json)) {
    cJSON *json = test_load_json(path);
    edit(json);
    test_save_json(path, json);
    cJSON_Delete(json);
}

static void names_as_markup(cJSON *json) {
    rename_all(json, "name", "a", "<img src=x onerror=alert(1)>");
    rename_all(json, "anchor", "a", "<img src=x onerror=alert(1)>");
    rename_all(json, "name", "b", "b```c");
}

static void rating_of_1e308(cJSON *json) {
    cJSON *rating = cJSON_GetObjectItem(cJSON_GetObjectItem(json, "tournament"), "rating");
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(rating, "engines"), 0), "elo",
                              cJSON_CreateNumber(1e308));
}

static void ladder_of_1e308(cJSON *json) {
    cJSON *ladder = cJSON_GetObjectItem(cJSON_GetObjectItem(json, "tournament"), "ladder");
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(ladder, "steps"), 0), "elo",
                              cJSON_CreateNumber(1e308));
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(ladder, "slope"), "elo_per_doubling",
                              cJSON_CreateNumber(1e308));
    rename_all(json, "name", "a.1", "<b>x</b>.1");
}

/* Whether text holds a run of at least 30 digits (a 1e308 written out). */
static bool long_number(const char *text) {
    for (int run = 0; *text; text++)
        if ((run = isdigit((unsigned char)*text) ? run + 1 : 0) >= 30)
            return true;
    return false;
}

/* Tournament and ladder files edited as an attacker would: engine names that are markup, a
 * rating Elo, a step's Elo and a slope of 1e308. Markdown shows the names in code spans; no view
 * writes 309 digits or a NaN coordinate: the rating is "not rated" with the reason, the step and
 * the slope "?". */
static void hostile__tournament_names_and_figures_in_every_view(void **state) {
    (void)state;
    char command[4096], *out, path[512];
    snprintf(command, sizeof command,
             "rm -rf %s/hostile_t && mkdir -p %s/hostile_t && cd %s/hostile_t && " ABTEST
             " -tournament roundrobin -engine name=a -engine name=b killers=off -engine name=c "
             "hint=off -each nodes=200 -rounds 2 -quiet -openings file=" BOOK " -out names.json "
             ">/dev/null && cp names.json rated.json && " ABTEST " -engine name=a -engine name=b "
             "killers=off -ladder nodes=100,nodes=200 -rounds 3 -quiet -openings file=" BOOK
             " -out ladder.json >/dev/null",
             dir, dir, dir);
    assert_int_equal(system(command), 0);
    void (*const edits[])(cJSON *) = {names_as_markup, rating_of_1e308, ladder_of_1e308};
    const char *const files[] = {"names.json", "rated.json", "ladder.json"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/hostile_t/%s", dir, files[i]);
        edit_file(path, edits[i]);
    }
    snprintf(command, sizeof command,
             "cd %s/hostile_t && " ABTEST " report . -markdown && " ABTEST " report . && " ABTEST
             " report . -html page.html 2>&1 && cat page.html",
             dir);
    assert_int_equal(test_run(command, &out), 0);
    static const char *const expected[] = {
        "| `<img src=x onerror=alert(1)>` |", /* the rating table's name */
        "| ````b```c```` |",                  /* a name with backticks: a longer fence */
        "| `<b>x</b>` vs `b` | ? |",          /* the ladder's row and its step */
        "Not rated: the file's rating holds a figure no run can have (1e+308",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        if (!strstr(out, expected[i]))
            fail_msg("no '%s' in:\n%.6000s", expected[i], out);
    if (long_number(out) || strstr(out, "nan") || strstr(out, "NaN") || strstr(out, "| <img"))
        fail_msg("a figure or a name shown raw:\n%.6000s", out);
    free(out);
}

static void hostile__unreadable_directory_listed_the_rest_reported(void **state) {
    (void)state;
    char command[4096], *out;
    if (test_run("setpriv --reuid=65534 --regid=65534 --clear-groups " ABTEST " -version "
                 ">/dev/null 2>&1",
                 NULL) != 0) {
        printf("test_report: skipped: setpriv is missing or user nobody cannot run %s\n",
               ABTEST);
        skip();
    }
    snprintf(command, sizeof command,
             "mkdir -p %s/guarded/locked && cp %s/runs/sprt.json %s/guarded/ && "
             "cp %s/runs/sprt.json %s/guarded/locked/ && chmod 755 %s %s/guarded && "
             "chmod 644 %s/guarded/sprt.json && chmod 000 %s/guarded/locked",
             dir, dir, dir, dir, dir, dir, dir, dir, dir);
    assert_int_equal(test_run(command, NULL), 0);
    snprintf(command, sizeof command,
             "setpriv --reuid=65534 --regid=65534 --clear-groups " ABTEST " report %s/guarded "
             "2>&1",
             dir);
    int status = test_run(command, &out);
    if (status != 0 || !strstr(out, "report: 1 run(s), 1 file(s) not read") ||
        !strstr(out, "/guarded/locked: a directory that cannot be read: Permission denied"))
        fail_msg("exit %d:\n%s", status, out);
    free(out);
    snprintf(command, sizeof command, "chmod 700 %s/guarded/locked %s", dir, dir);
    assert_int_equal(test_run(command, NULL), 0);
}

static void errors__named(void **state) {
    (void)state;
    static const struct {
        const char *arguments, *message;
    } cases[] = {
        {" report /nonexistent/dir", "report: /nonexistent/dir: No such file or directory"},
        {" report -state won", "report: -state: 'won' is not one of"},
        {" report -sort size", "report: -sort: 'size' is not newest, oldest or given"},
        {" report -colour", "report: unknown option '-colour'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char command[512], *out;
        snprintf(command, sizeof command, ABTEST "%s 2>&1", cases[i].arguments);
        int status = test_run(command, &out);
        if (status != 2 || !strstr(out, cases[i].message))
            fail_msg("%s: exit %d, wanted '%s':\n%s", cases[i].arguments, status, cases[i].message,
                     out);
        free(out);
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json__runs_as_their_files_say_and_the_rest_with_reasons),
        cmocka_unit_test(table__rows_filters_and_order),
        cmocka_unit_test(state__running_then_stopped),
        cmocka_unit_test(difference__programs_by_their_benches),
        cmocka_unit_test(studies__tunings_and_booktests_beside_the_runs),
        cmocka_unit_test(html__rendered_in_a_browser),
        cmocka_unit_test(hostile__loops_fifos_long_paths_and_escapes),
        cmocka_unit_test(hostile__tournament_names_and_figures_in_every_view),
        cmocka_unit_test(hostile__unreadable_directory_listed_the_rest_reported),
        cmocka_unit_test(errors__named),
    };
    return tslab_run_tests_setup("report", tests, sizeof tests / sizeof tests[0], argc, argv, setup,
                                 teardown);
}
