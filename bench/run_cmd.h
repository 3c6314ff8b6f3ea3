// SPDX-License-Identifier: MIT
// `bench` (the suite) and `bench pin` (the signature file).
#pragma once

#include "suite.h"

int bench_run_main(int argc, char **argv);

int bench_pin_main(int argc, char **argv);

/* Runs the suite as `bench` does (the positions of args, config's depth) and prints it; writes
 * -json when asked. Returns the exit code. */
int bench_run_suite(BenchArgs *args, const SearchConfig *config);
