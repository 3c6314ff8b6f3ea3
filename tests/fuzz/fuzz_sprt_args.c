// SPDX-License-Identifier: MIT
// The SPRT calculator's arguments (words of the input): parsed or refused; accepted parameters
// pass sprt_params_check and give a finite LLR.
#include "fuzz.h"
#include "sprt_cmd.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_string(data, size);
    char *argv[FUZZ_MAX_ARGS];
    if (!text)
        return 0;
    int argc = fuzz_words(text, argv);
    SprtCommand cmd;
    Error err;
    if (sprt_cmd_parse(argc, argv, &cmd, &err) && !cmd.help) {
        if (!sprt_params_check(&cmd.params, &err))
            abort();
        if (cmd.has_penta || cmd.has_wdl) {
            SprtSample sample = cmd.has_penta ? sprt_sample_pentanomial(&cmd.penta)
                                              : sprt_sample_trinomial(&cmd.wdl);
            if (!isfinite(sprt_llr(&sample, &cmd.params)))
                abort();
        }
    }
    free(text);
    return 0;
}
