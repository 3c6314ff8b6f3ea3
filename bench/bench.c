// SPDX-License-Identifier: MIT
// build/bench: entry point; dispatches to the subcommands in bench/*.c.
#include "commands.h"

#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char bench_usage[] =
    "usage: bench COMMAND [options]\n"
    "commands:\n"
    "  perft [-fen POSITION] [-divide] DEPTH   count move paths (move generator check)\n"
    "  search [-fen POSITION] [key=value ...]  search one position and report everything\n"
    "  options [-markdown]                     the search options (key=value) and defaults\n"
    "Each command takes -help.\n";

int main(int argc, char **argv) {
    cli_set_program("bench");
    if (argc < 2 || !strcmp(argv[1], "-help") || !strcmp(argv[1], "--help")) {
        fputs(bench_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "perft"))
        return bench_perft_main(argc - 2, argv + 2);
    if (!strcmp(argv[1], "options"))
        return bench_options_main(argc - 2, argv + 2);
    if (!strcmp(argv[1], "search"))
        return bench_search_main(argc - 2, argv + 2);
    die("unknown command '%s'\n%s", argv[1], bench_usage);
}
