// SPDX-License-Identifier: MIT
// Search options: key=value tokens through config_apply; an accepted configuration prints to
// text that applies back to the same configuration.
#include "config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_string(data, size);
    char *words[FUZZ_MAX_ARGS];
    if (!text)
        return 0;
    int count = fuzz_words(text, words);
    SearchConfig config = config_default();
    Error err;
    for (int i = 0; i < count; i++)
        (void)config_apply(&config, words[i], &err);
    char printed[1024];
    config_to_text(&config, printed, sizeof printed);
    SearchConfig again = config_default();
    char *saved;
    for (char *token = strtok_r(printed, " ", &saved); token; token = strtok_r(NULL, " ", &saved))
        if (!config_apply(&again, token, &err))
            abort();
    if (config_hash(&again) != config_hash(&config))
        abort();
    free(text);
    return 0;
}
