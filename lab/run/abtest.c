// SPDX-License-Identifier: MIT
// build/abtest: paired matches between search configurations decided by SPRT (runner.c), the
// SPRT calculator (sprt_cmd.c), the opening-book generator (book_gen.c), books' resolving power
// (booktest.c), tuning (tune.c) and reports of past runs (report_cmd.c). With no arguments it
// runs the built-in main job.
#include "arguments.h"
#include "book_gen.h"
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

int main(int argc, char **argv) {
    cli_init(argv[0]);
    if (argc >= 2 && !strcmp(argv[1], "sprt"))
        return abtest_sprt_main(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "book"))
        return abtest_book_main(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "simulate"))
        return abtest_simulate_main(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "booktest"))
        return abtest_booktest_main(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "report"))
        return abtest_report_main(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "tune"))
        return abtest_tune_main(argc - 2, argv + 2, NULL);
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
    if (exit_now)
        return 0;
    return runner_run(&settings, NULL);
}
