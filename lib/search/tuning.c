// SPDX-License-Identifier: MIT
#include "tuning.h"

#include <string.h>

/* Ranges chosen around the ledger's findings (docs/experiments.md): wide enough to hold every
 * value an SPRT there decided on, narrow enough that the ends still play sensible games. */
const TuningRange TUNING_RANGES[] = {
    {"aspiration", 0, 100, 5},     {"lmr_depth", 2, 8, 1},    {"lmr_moves", 1, 12, 1},
    {"lmr_reduction", 1, 4, 0.5},  {"nullmove_r", 1, 5, 0.5}, {"futility", 0, 300, 10},
    {"eval_captured", 40, 250, 8}, {"eval_jumps", 0, 80, 3},  {"eval_trapped", -80, 0, 3},
    {"eval_mobility", 0, 10, 1},   {"tm_moves", 10, 80, 3},   {"tm_soft", 20, 200, 8},
    {"tm_hard", 100, 800, 25},
};
const size_t TUNING_RANGE_COUNT = sizeof TUNING_RANGES / sizeof TUNING_RANGES[0];

const TuningRange *tuning_range(const char *name) {
    for (size_t i = 0; i < TUNING_RANGE_COUNT; i++)
        if (strcmp(TUNING_RANGES[i].name, name) == 0)
            return &TUNING_RANGES[i];
    return NULL;
}

const OptionSpec *tuning_option(const char *name) {
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++)
        if (strcmp(CONFIG_OPTIONS[i].name, name) == 0)
            return &CONFIG_OPTIONS[i];
    return NULL;
}

bool tuning_option_check(const char *name, Error *err) {
    const OptionSpec *spec = tuning_option(name);
    if (!spec)
        return error_set(err, "'%s' is not a search option (bench options lists them)", name);
    if (spec->kind == OPTION_KIND_LIMIT)
        return error_set(err,
                         "'%s' is a search limit: set it with the match's limits, it is "
                         "not tuned",
                         name);
    if (spec->type != OPTION_INT)
        return error_set(err, "'%s' is not numeric (it is %s): only integer options can be tuned",
                         name, spec->type == OPTION_BOOL ? "on|off" : "a choice");
    if (strcmp(name, "tt_bits") == 0)
        return error_set(err, "'tt_bits' sets the cache's memory, not the search: it is not "
                              "tuned");
    return true;
}
