// SPDX-License-Identifier: MIT
// `bench options`: the search options and their defaults, as text or docs/options.md.
#pragma once

#include <stdio.h>

int bench_options_main(int argc, char **argv);

/* docs/options.md, from the option table. */
void bench_print_options_markdown(FILE *out);
