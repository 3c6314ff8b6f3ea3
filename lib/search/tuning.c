// SPDX-License-Identifier: MIT
#include "tuning.h"

#include <string.h>

bool tuning_option_check(const char *name, Error *err) {
    const OptionSpec *spec = config_find(name);
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
