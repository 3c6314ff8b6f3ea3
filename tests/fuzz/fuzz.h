// SPDX-License-Identifier: MIT
// Shared by the libFuzzer targets (make fuzz): the fuzzer's bytes as a C string, and as argv.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes as a NUL-terminated copy (a NUL inside ends the string, as it would for a parser
 * given a C string). Free with free(). */
static inline char *fuzz_string(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
    }
    return text;
}

#define FUZZ_MAX_ARGS 64

/* Splits text in place at spaces and newlines into at most FUZZ_MAX_ARGS words. */
static inline int fuzz_words(char *text, char **argv) {
    int argc = 0;
    for (char *p = text; *p && argc < FUZZ_MAX_ARGS;) {
        while (*p == ' ' || *p == '\n')
            *p++ = '\0';
        if (!*p)
            break;
        argv[argc++] = p;
        while (*p && *p != ' ' && *p != '\n')
            p++;
    }
    return argc;
}
