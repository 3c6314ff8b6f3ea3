// SPDX-License-Identifier: MIT
// `bench options`: the search options and their defaults, as text or docs/options.md.
#pragma once

#include "config.h"

#include <stdio.h>

int bench_options_main(int argc, char **argv);

/* docs/options.md, from the option table. */
void bench_print_options_markdown(FILE *out);

/* The tunable options (the .tuning column of lib/search/config.c) as SPSA input lines, starting
 * from config; a value outside its tuning range starts at the nearer end, with a note on
 * err_out. */
void bench_print_options_spsa(const SearchConfig *config, FILE *out, FILE *err_out);
