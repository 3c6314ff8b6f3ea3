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

void html_commands(FILE *out, const char *command, const char *resume, const char *file) {
    fputs("<p>Reproduce:</p><pre class=\"command\">", out);
    html_put_escaped(out, command);
    fputs("</pre>\n", out);
    if (!resume)
        return;
    fputs("<p>Resume:</p><pre class=\"resume\">", out);
    html_put_escaped(out, resume);
    html_put_escaped(out, file);
    fputs("</pre>\n", out);
}
