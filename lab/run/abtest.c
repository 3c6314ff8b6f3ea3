// SPDX-License-Identifier: MIT
// build/abtest: paired matches between search configurations decided by SPRT (runner.c) and the
// commands of ABTEST_COMMANDS, one row each: the dispatch and the `-help` listing come from the
// table. With no arguments it runs the built-in main job.
#include "arguments.h"
#include "book_cmd.h"
#include "booktest.h"
#include "cli.h"
#include "report_cmd.h"
#include "runner.h"
#include "settings.h"
#include "simulate.h"
#include "simulate_cmd.h"
#include "sprt_cmd.h"
#include "tune.h"

#include <stdio.h>
#include <string.h>

/* The clients of the pair pool take a remote (abtest-mpi's ranks); here there is none. */
static int booktest_main(int argc, char **argv) { return abtest_booktest_main(argc, argv, NULL); }
static int tune_main(int argc, char **argv) { return abtest_tune_main(argc, argv, NULL); }

typedef struct {
    const char *name;
    const char *summary;
    int (*main)(int argc, char **argv); /* argv after the command's name */
} AbtestCommand;

static const AbtestCommand ABTEST_COMMANDS[] = {
    {"sprt", "the SPRT calculator", abtest_sprt_main},
    {"book", "the opening-book generator", abtest_book_main},
    {"booktest", "a book's resolving power", booktest_main},
    {"simulate", "virtual SPRTs: error rates, lengths, Elo bias", abtest_simulate_main},
    {"tune", "SPSA over search options", tune_main},
    {"report", "reports of past runs from their results files", abtest_report_main},
};
#define ABTEST_COMMAND_COUNT (sizeof ABTEST_COMMANDS / sizeof ABTEST_COMMANDS[0])

static void print_commands(FILE *out) {
    fprintf(out, "Commands (abtest COMMAND -help for each):\n");
    for (size_t i = 0; i < ABTEST_COMMAND_COUNT; i++)
        fprintf(out, "  abtest %-10s %s\n", ABTEST_COMMANDS[i].name, ABTEST_COMMANDS[i].summary);
}

static bool asks_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-help") || !strcmp(argv[i], "--help"))
            return true;
    return false;
}

int main(int argc, char **argv) {
    cli_init(argv[0]);
    for (size_t i = 0; argc >= 2 && i < ABTEST_COMMAND_COUNT; i++)
        if (!strcmp(argv[1], ABTEST_COMMANDS[i].name))
            return ABTEST_COMMANDS[i].main(argc - 2, argv + 2);
    MatchSettings settings;
    Error err;
    if (argc < 2) {
        if (!arguments_main_job(&settings, &err))
            die("%s", err.text);
        printf("abtest: no options: running the built-in main job (abtest -help for options)\n");
        return runner_run(&settings, NULL);
    }
    bool exit_now;
    if (!arguments_parse(argc - 1, argv + 1, &settings, &exit_now, &err))
        die("%s", err.text);
    if (exit_now) {
        if (asks_help(argc, argv))
            print_commands(stdout);
        return 0;
    }
    return runner_run(&settings, NULL);
}
