// SPDX-License-Identifier: MIT
// build/bench: entry point; dispatches to the subcommands in bench/*.c. With no command (or
// options only) it runs the suite. The usage comes from the command table.
#include "check_cmd.h"
#include "compare_cmd.h"
#include "options_cmd.h"
#include "perft_cmd.h"
#include "run_cmd.h"
#include "search_cmd.h"
#include "stockfish_bench.h"
#include "tb_cmd.h"
#include "tbaccuracy_cmd.h"
#include "tbplace_cmd.h"
#include "verify_cmd.h"

#include "cli.h"
#include "paths.h"
#include "version.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    int (*main)(int argc, char **argv);
    const char *arguments; /* after the name, in the usage */
    const char *help;      /* the usage's explanation, one line */
} Command;

static const Command COMMANDS[] = {
    {"pin", bench_pin_main, "[-out FILE]",
     "write the pinned signature file (bench/signature.json)"},
    {"check", bench_check_main, "[FILE]",
     "re-run a signature file: exit 0 identical, 1 moves or scores changed, 3 nodes only"},
    {"compare", bench_compare_main, "-base OPTS... -cand OPTS...",
     "two configurations side by side, per position"},
    {"verify", bench_verify_main, "[-depth N] [-positions FILE]",
     "every configuration of the exactness matrix against plain minimax"},
    {"search", bench_search_main, "[-fen POSITION] [key=value ...]",
     "one position, reported in full"},
    {"perft", bench_perft_main, "[-fen POSITION] [-divide] DEPTH",
     "count move paths (move generator check)"},
    {"options", bench_options_main, "[-markdown]",
     "the search options (key=value) and their defaults"},
    {"bench", bench_stockfish_main, "[ttMB] [threads] [depth] [file] [limitType]",
     "the suite, with Stockfish's arguments"},
    {"tbgen", bench_tbgen_main, "[-out FILE] [-captures K]",
     "solve the sliding phase into the tablebase (make tablebase)"},
    {"tbprobe", bench_tbprobe_main, "-fen POSITION | -info",
     "a position's tablebase value, or the file's header"},
    {"tbverify", bench_tbverify_main, "[-tb FILE]",
     "check every tablebase entry against its successors"},
    {"tbplace", bench_tbplace_main, "[-in-hand H] [-dir DIR]",
     "solve the placement phase layer by layer (make tablebase-placement)"},
    {"tbaccuracy", bench_tbaccuracy_main, "[-in-hand H] [-samples N] [key=value ...]",
     "a search's moves against perfect play, per layer"},
};
#define COMMAND_COUNT (sizeof COMMANDS / sizeof COMMANDS[0])

static void print_usage(FILE *out) {
    fputs("usage: bench [COMMAND] [options]\n"
          "  (no command)  search the suite to a fixed depth: table, totals, signature\n",
          out);
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        char left[80];
        snprintf(left, sizeof left, "%s %s", COMMANDS[i].name, COMMANDS[i].arguments);
        fprintf(out, "  %s\n      %s\n", left, COMMANDS[i].help);
    }
    fputs("Each command takes -help; bench -version prints the version.\n", out);
}

int main(int argc, char **argv) {
    cli_init(argv[0]);
    if (argc >= 2 && (!strcmp(argv[1], "-help") || !strcmp(argv[1], "--help"))) {
        char defaults[PATHS_MAX + 128];
        paths_describe_defaults(defaults, sizeof defaults);
        print_usage(stdout);
        printf("%s\n", defaults);
        return 0;
    }
    if (argc >= 2 && (!strcmp(argv[1], "-version") || !strcmp(argv[1], "--version"))) {
        printf("bench (%s)\n", version_text());
        return 0;
    }
    if (argc >= 2 && argv[1][0] != '-' && !strchr(argv[1], '=')) {
        for (size_t i = 0; i < COMMAND_COUNT; i++)
            if (!strcmp(argv[1], COMMANDS[i].name))
                return COMMANDS[i].main(argc - 2, argv + 2);
        die("unknown command '%s' (bench -help lists them)", argv[1]);
    }
    return bench_run_main(argc - 1, argv + 1);
}
