// SPDX-License-Identifier: MIT
// Appending formatted text to a fixed buffer, truncating safely.
#pragma once

#include <stddef.h>

typedef struct {
    char *text; /* always NUL-terminated */
    size_t size;
    size_t used; /* may exceed size - 1 after truncation, as snprintf reports */
} TextBuf;

static inline TextBuf textbuf(char *text, size_t size) {
    if (size)
        text[0] = '\0';
    return (TextBuf){text, size, 0};
}

void textbuf_printf(TextBuf *buf, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
