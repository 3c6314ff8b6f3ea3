// SPDX-License-Identifier: MIT
#include "report_cmd.h"

#include "cli.h"
#include "describe.h"
#include "flags.h"
#include "output.h"
#include "paths.h"
#include "report_html.h"
#include "report_list.h"
#include "report_table.h"

#include <stdio.h>
#include <string.h>

#define REPORT_PATHS_MAX 256
#define DEFAULT_DIRECTORY "results"

typedef struct {
    const char *paths[REPORT_PATHS_MAX];
    int count;
} Paths;

static bool take_path(void *context, const char *word, Error *err) {
    Paths *paths = context;
    if (word[0] == '-')
        return error_set(err, "unknown option '%s' (abtest report -help)", word);
    if (paths->count == REPORT_PATHS_MAX)
        return error_set(err, "more than %d files or directories", REPORT_PATHS_MAX);
    paths->paths[paths->count++] = word;
    return true;
}

static const char *const STATES[] = {"H0",      "H1",      "rounds",  "interrupted",
                                     "running", "stopped", "decided", "undecided"};

static bool known_state(const char *state) {
    for (size_t i = 0; i < sizeof STATES / sizeof *STATES; i++)
        if (!strcmp(state, STATES[i]))
            return true;
    return false;
}

static const char synopsis[] =
    "usage: abtest report [FILE|DIR ...] [-engine NAME] [-state STATE]\n"
    "                     [-sort newest|oldest|given] [-json FILE] [-html FILE] [-markdown]\n"
    "  One row per results file (default: the results/ directory, its *.json files): engines,\n"
    "  what differs, limits, book, state, LLR, Elo, nElo, SPRT-corrected Elo, pentanomial,\n"
    "  pairs, start, duration, commit; then each tournament's rating list and pairings, the\n"
    "  tunings and the booktests; files that are not results files listed with the reason.\n";

int abtest_report_main(int argc, char **argv) {
    Paths paths = {{0}, 0};
    const char *engine = NULL, *state = NULL, *sort = "newest", *json_path = NULL,
               *html_path = NULL;
    bool markdown = false;
    const CliFlag flags[] = {
        {"-engine", CLI_FLAG_TEXT, &engine, 0, 0, "NAME",
         "only runs and tournaments with an engine of that name"},
        {"-state", CLI_FLAG_TEXT, &state, 0, 0, "STATE",
         "only runs and tournaments in that state: H0, H1, rounds, interrupted, running, "
         "stopped, decided (H0, H1, a decided gauntlet), undecided"},
        {"-sort", CLI_FLAG_TEXT, &sort, 0, 0, "ORDER",
         "by start: newest first (default) or oldest; or as given"},
        {"-markdown", CLI_FLAG_SWITCH, &markdown, 0, 0, NULL,
         "the ledger's table in Markdown instead (docs/experiments.md, make docs)"},
        {"-json", CLI_FLAG_TEXT, &json_path, 0, 0, "FILE", "the list as JSON (- for stdout)"},
        {"-html", CLI_FLAG_TEXT, &html_path, 0, 0, "FILE",
         "the list and each run's charts as one self-contained web page"},
    };
    const CliCommand command = {.name = "report",
                                .subcommand = "report",
                                .synopsis = synopsis,
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0],
                                .word = take_path,
                                .context = &paths};
    if (cli_flags_parse_or_die(&command, argc, argv))
        return 0;
    if (state && !known_state(state))
        die("report: -state: '%s' is not one of H0, H1, rounds, interrupted, running, stopped, "
            "decided, undecided",
            state);
    if (strcmp(sort, "newest") && strcmp(sort, "oldest") && strcmp(sort, "given"))
        die("report: -sort: '%s' is not newest, oldest or given", sort);
    if (paths.count == 0)
        paths.paths[paths.count++] = DEFAULT_DIRECTORY;
    ReportList list = {0};
    Error err;
    for (int i = 0; i < paths.count; i++)
        if (!report_list_add(&list, paths.paths[i], &err)) {
            report_list_free(&list);
            die("report: %s", err.text);
        }
    report_list_check_running(&list);
    report_list_filter(&list, engine, state);
    if (strcmp(sort, "given"))
        report_list_sort(&list, !strcmp(sort, "newest"));
    /* An output is checked before anything is written, against every file the report read (as
     * many as the directories hold, so outside the plan's inputs): it must not replace one. */
    OutputPlan plan = {0};
    output_plan_add(&plan, "-json", json_path, NULL);
    output_plan_add(&plan, "-html", html_path, NULL);
    for (int o = 0; o < plan.output_count; o++)
        for (int i = 0; i < list.count; i++)
            if (paths_same_file(plan.outputs[o].path, list.entries[i].path)) {
                report_list_free(&list);
                die("report: %s %s is also a file the report reads: writing it would destroy it",
                    plan.outputs[o].option, plan.outputs[o].path);
            }
    if (!output_plan_check(&plan, &err)) {
        report_list_free(&list);
        die("report: %s", err.text);
    }
    int status = 0;
    if (json_path) {
        cJSON *json = report_table_json(&list);
        if (!output_write_json(&plan, json, json_path, &err)) {
            cli_error("report: -json: %s", err.text);
            status = 2;
        }
        cJSON_Delete(json);
    }
    if (html_path) {
        if (report_html_write(&plan, html_path, &list, false, &err))
            fprintf(stderr, "report: page %s\n", html_path);
        else {
            cli_error("report: -html: %s", err.text);
            status = 2;
        }
    }
    if (markdown && !(json_path && !strcmp(json_path, "-")))
        report_table_markdown(stdout, &list);
    else if (!json_path || strcmp(json_path, "-"))
        report_table_print(stdout, &list);
    if (!output_stdout_ok(&err)) {
        cli_error("report: %s", err.text);
        status = 2;
    }
    report_list_free(&list);
    return status;
}
