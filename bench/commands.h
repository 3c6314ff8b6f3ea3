// SPDX-License-Identifier: MIT
// The subcommands of build/bench; each takes the arguments after its name.
#pragma once

int bench_perft_main(int argc, char **argv);
int bench_search_main(int argc, char **argv);
int bench_options_main(int argc, char **argv);
int bench_run_main(int argc, char **argv);
int bench_pin_main(int argc, char **argv);
int bench_check_main(int argc, char **argv);
int bench_compare_main(int argc, char **argv);
int bench_verify_main(int argc, char **argv);
int bench_stockfish_main(int argc, char **argv);

#include <stdio.h>
/* docs/options.md, from the option table. */
void bench_print_options_markdown(FILE *out);
