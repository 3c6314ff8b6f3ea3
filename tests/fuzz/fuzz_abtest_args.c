// SPDX-License-Identifier: MIT
// abtest's command line (words of the input): parsed or refused; accepted settings pass
// settings_check. -help and -version are left out: they print.
#include "arguments.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_string(data, size);
    char *argv[FUZZ_MAX_ARGS];
    if (!text)
        return 0;
    int argc = fuzz_words(text, argv);
    for (int i = 0; i < argc; i++)
        if (strstr(argv[i], "help") || strstr(argv[i], "version")) {
            free(text);
            return 0;
        }
    MatchSettings settings;
    bool exit_now;
    Error err;
    if (arguments_parse(argc, argv, &settings, &exit_now, &err) && !settings.resume_path[0] &&
        !settings_check(&settings, &err))
        abort();
    free(text);
    return 0;
}
