// SPDX-License-Identifier: MIT
// Which search options can be tuned. The rows worth tuning carry their interval and C_END in the
// option table (OptionSpec.tuning, config.c): `bench options -spsa` prints them as OpenBench's
// SPSA input lines; `abtest tune` tunes these and any other integer option (docs/tuning.md).
#pragma once

#include "config.h"

#define TUNING_R_END 0.002 /* OpenBench's usual learning rate at the last iteration */

/* Whether an option can be tuned at all: an integer row that is not a search limit, the cache's
 * size or a choice. False with the reason otherwise. */
bool tuning_option_check(const char *name, Error *err);
