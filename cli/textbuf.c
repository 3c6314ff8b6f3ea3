// SPDX-License-Identifier: MIT
#include "textbuf.h"

#include <stdarg.h>
#include <stdio.h>

void textbuf_printf(TextBuf *buf, const char *format, ...) {
    size_t offset = buf->used < buf->size ? buf->used : buf->size;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(buf->text + offset, buf->size - offset, format, args);
    va_end(args);
    if (n > 0)
        buf->used += (size_t)n;
}
