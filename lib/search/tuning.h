// SPDX-License-Identifier: MIT
// The search options worth tuning and how: for each, the interval SPSA may explore (narrower
// than the values the option accepts) and the perturbation at the last iteration (C_END, in
// OpenBench's SPSA input). `bench options -spsa` prints them as input lines; `abtest tune` tunes
// these and any other integer option (docs/tuning.md).
#pragma once

#include "config.h"

#define TUNING_R_END 0.002 /* OpenBench's usual learning rate at the last iteration */

typedef struct {
    const char *name; /* an integer row of CONFIG_OPTIONS */
    int min, max;     /* the interval to explore, within the option's own range */
    double c_end;     /* +- this much should cost a few Elo: measurable, not ruinous */
} TuningRange;

extern const TuningRange TUNING_RANGES[];
extern const size_t TUNING_RANGE_COUNT;

/* The row named name, or NULL. */
const TuningRange *tuning_range(const char *name);

/* The option row named name, or NULL. */
const OptionSpec *tuning_option(const char *name);

/* Whether an option can be tuned at all: an integer row that is not a search limit, the cache's
 * size or a choice. False with the reason otherwise. */
bool tuning_option_check(const char *name, Error *err);
