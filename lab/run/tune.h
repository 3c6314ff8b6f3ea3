// SPDX-License-Identifier: MIT
// `abtest tune`: SPSA over search options (lab/stats/spsa.h for the arithmetic). Each iteration
// plays the configuration at theta + c_k * delta against theta - c_k * delta over a number of
// pairs from the book, then moves theta; the tuning file records every finished iteration, so a
// run resumes exactly. docs/tuning.md.
#pragma once

#include "error.h"
#include "pair_pool.h"
#include "tune_file.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/* argv after "tune"; remote NULL: every pair on this process's threads, else on the ranks
 * behind it too (the trajectory is the same: a pair's games depend only on its engines,
 * opening and number). The exit status. */
int abtest_tune_main(int argc, char **argv, const PairRemote *remote);
