// SPDX-License-Identifier: MIT
#include "html_text.h"

void html_put_escaped(FILE *out, const char *text) {
    for (const char *p = text; *p; p++) {
        switch (*p) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            fputc(*p, out);
        }
    }
}
