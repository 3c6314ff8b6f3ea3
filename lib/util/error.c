// SPDX-License-Identifier: MIT
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

bool error_set(Error *err, const char *format, ...) {
    if (err) {
        va_list args;
        va_start(args, format);
        vsnprintf(err->text, sizeof err->text, format, args);
        va_end(args);
    }
    return false;
}

const char *error_excerpt(const char *text, char buffer[ERROR_EXCERPT_MAX]) {
    enum { SHOWN = 60 };
    size_t used = 0;
    const unsigned char *p = (const unsigned char *)text;
    for (; *p && used < SHOWN; p++) {
        if (*p >= 0x20 && *p < 0x7f)
            buffer[used++] = (char)*p;
        else
            used += (size_t)snprintf(buffer + used, ERROR_EXCERPT_MAX - used, "\\x%02x", *p);
    }
    if (*p)
        snprintf(buffer + used, ERROR_EXCERPT_MAX - used, "...");
    else
        buffer[used] = '\0';
    return buffer;
}
