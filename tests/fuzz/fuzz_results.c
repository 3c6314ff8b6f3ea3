// SPDX-License-Identifier: MIT
// abtest results files: any bytes are read back or refused; what is accepted has counts that
// agree (results_parse checks them) and settings that pass the command line's checks.
#include "fuzz.h"
#include "results_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ResultsFile file;
    Error err;
    if (results_parse((const char *)data, size, "fuzz", &file, &err)) {
        if (!settings_check(&file.settings, &err) || file.totals.pairs > file.settings.rounds)
            abort();
        totals_destroy(&file.totals);
    }
    return 0;
}
