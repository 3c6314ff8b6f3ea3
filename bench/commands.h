// SPDX-License-Identifier: MIT
// The subcommands of build/bench; each takes the arguments after its name.
#pragma once

#include "config.h"
#include "error.h"

#include <stdbool.h>

int bench_perft_main(int argc, char **argv);
int bench_search_main(int argc, char **argv);
int bench_options_main(int argc, char **argv);
int bench_run_main(int argc, char **argv);
int bench_pin_main(int argc, char **argv);
int bench_check_main(int argc, char **argv);
int bench_compare_main(int argc, char **argv);
int bench_verify_main(int argc, char **argv);
int bench_stockfish_main(int argc, char **argv);
int bench_tbgen_main(int argc, char **argv);
int bench_tbprobe_main(int argc, char **argv);
int bench_tbverify_main(int argc, char **argv);

/* Stockfish's bench arguments [ttSize] [threads] [limit] [fenFile] [limitType] applied to
 * config (ttSize only when given; the limit replaces config's limits): *positions is the
 * fenFile (NULL for "default"), *current true for "current". False with a message naming the
 * argument. The engine protocol's `bench` reads them too. */
bool bench_stockfish_parse(int argc, char **argv, SearchConfig *config, int *threads,
                           const char **positions, bool *current, Error *err);

#include <stdio.h>
/* docs/options.md, from the option table. */
void bench_print_options_markdown(FILE *out);
