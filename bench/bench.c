// SPDX-License-Identifier: MIT
// build/bench: entry point; dispatches to the subcommands in bench/*.c. With no command (or
// options only) it runs the suite.
#include "commands.h"

#include "cli.h"
#include "paths.h"

#include <stdio.h>
#include <string.h>

static const char bench_usage[] =
    "usage: bench [COMMAND] [options]\n"
    "  (no command)  search the suite to a fixed depth: table, totals, signature\n"
    "  pin [-out FILE]           write the pinned signature file (bench/signature.json)\n"
    "  check [FILE]              re-run a signature file: exit 0 identical, 1 moves or scores\n"
    "                            changed, 3 only node counts changed\n"
    "  compare -base OPTS... -cand OPTS...  two configurations side by side, per position\n"
    "  verify [-depth N]         every cache/replace/killers/symmetry combination vs minimax\n"
    "  search [-fen POSITION] [key=value ...]  one position, reported in full\n"
    "  perft [-fen POSITION] [-divide] DEPTH   count move paths (move generator check)\n"
    "  options [-markdown]       the search options (key=value) and their defaults\n"
    "  bench [ttMB] [threads] [depth] [file] [limitType]  the suite, Stockfish's arguments\n"
    "  tbgen [-out FILE]         solve the sliding phase into the tablebase (make tablebase)\n"
    "  tbprobe -fen POSITION | -info   a position's tablebase value, or the file's header\n"
    "  tbverify [-tb FILE]       check every tablebase entry against its successors\n"
    "Each command takes -help.\n";

typedef struct {
    const char *name;
    int (*main)(int argc, char **argv);
} Command;

static const Command COMMANDS[] = {
    {"pin", bench_pin_main},           {"check", bench_check_main},
    {"compare", bench_compare_main},   {"verify", bench_verify_main},
    {"search", bench_search_main},     {"perft", bench_perft_main},
    {"options", bench_options_main},   {"bench", bench_stockfish_main},
    {"tbgen", bench_tbgen_main},       {"tbprobe", bench_tbprobe_main},
    {"tbverify", bench_tbverify_main},
};

int main(int argc, char **argv) {
    cli_init(argv[0]);
    if (argc >= 2 && (!strcmp(argv[1], "-help") || !strcmp(argv[1], "--help"))) {
        char defaults[PATHS_MAX + 128];
        paths_describe_defaults(defaults, sizeof defaults);
        printf("%s%s\n", bench_usage, defaults);
        return 0;
    }
    if (argc >= 2 && argv[1][0] != '-' && !strchr(argv[1], '=')) {
        for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
            if (!strcmp(argv[1], COMMANDS[i].name))
                return COMMANDS[i].main(argc - 2, argv + 2);
        die("unknown command '%s'\n%s", argv[1], bench_usage);
    }
    return bench_run_main(argc - 1, argv + 1);
}
