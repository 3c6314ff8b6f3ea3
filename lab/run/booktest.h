// SPDX-License-Identifier: MIT
// `abtest booktest`: a book's resolving power. Known differences (options added to the first
// engine) are played over each candidate book for a fixed number of pairs at a fixed seed, and
// each cell reports what decides an SPRT's cost: normalized Elo per pair with its error, draw
// ratios, pentanomial, and the expected pairs to an SPRT [0, 5] decision. docs/abtest.md.
#pragma once

#include "pair_pool.h"

/* argv after "booktest"; remote NULL: every pair on this process's threads, else on the ranks
 * behind it too (the cells are the same). Returns the exit status. */
int abtest_booktest_main(int argc, char **argv, const PairRemote *remote);
