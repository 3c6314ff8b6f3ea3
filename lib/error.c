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
