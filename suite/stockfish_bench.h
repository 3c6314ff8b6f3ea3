// SPDX-License-Identifier: MIT
// `bench bench` and the engine's `bench`: the suite with Stockfish's bench arguments, printed
// as `bench` prints it.
#pragma once

#include "config.h"

int bench_stockfish_main(int argc, char **argv);

/* Stockfish's bench arguments [ttSize] [threads] [limit] [fenFile] [limitType] applied to
 * config (ttSize only when given; the limit replaces config's limits): *positions is the
 * fenFile (NULL for "default"), *current true for "current". False with a message naming the
 * argument. The engine protocol's `bench` reads them too. */
bool bench_stockfish_parse(int argc, char **argv, SearchConfig *config, int *threads,
                           const char **positions, bool *current, Error *err);
