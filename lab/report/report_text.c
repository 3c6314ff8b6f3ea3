// SPDX-License-Identifier: MIT
#include "report_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double report_shown(double value, int decimals) {
    return fabs(value) < 0.5 * pow(10, -decimals) ? 0.0 : value;
}

/* The commit, and the build's source identity when the file has one (two builds of one commit,
 * a dirty tree edited between runs, differ there). */
void report_commit_text(const char *commit, const char *source, char *out, size_t size) {
    if (source[0] && strcmp(source, "unknown"))
        snprintf(out, size, "%s %.8s", commit[0] ? commit : "-", source);
    else
        snprintf(out, size, "%s", commit[0] ? commit : "-");
}

/* (report_text.h) */
void report_escape_text(const char *text, bool markdown, char *out, size_t size) {
    size_t used = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && used + 9 < size; p++) {
        bool c1 = p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
        if (markdown && (*p == '\n' || *p == '\r')) {
            out[used++] = ' ';
        } else if (markdown && *p == '|') {
            out[used++] = '\\';
            out[used++] = '|';
        } else if (*p < 0x20 || *p == 0x7f) {
            used += (size_t)snprintf(out + used, size - used, "\\x%02x", *p);
        } else if (c1) {
            used += (size_t)snprintf(out + used, size - used, "\\xc2\\x%02x", p[1]);
            p++;
        } else {
            out[used++] = (char)*p;
        }
    }
    out[used] = '\0';
}

void report_markdown_text(const char *text, char *out, size_t size) {
    char escaped[4 * REPORT_CELL];
    report_escape_text(text, true, escaped, sizeof escaped);
    size_t used = 0;
    for (const char *p = escaped; *p && used + 3 < size; p++) {
        /* Markup (a tag, an entity, a code span, emphasis, a link's "](") is escaped; a '['
         * alone starts nothing, and an intraword '_' nothing in GitHub's Markdown. '|' arrives
         * escaped already ("\|"): its backslash is kept as it is. */
        if (strchr("<>&`*~", *p) || (*p == ']' && p[1] == '(') || (*p == '\\' && p[1] != '|'))
            out[used++] = '\\';
        out[used++] = *p;
    }
    out[used] = '\0';
}

void report_code_span(const char *text, char *out, size_t size) {
    int longest = 0, run = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    char fence[16];
    int ticks = longest + 1 < (int)sizeof fence ? longest + 1 : (int)sizeof fence - 1;
    memset(fence, '`', (size_t)ticks);
    fence[ticks] = '\0';
    size_t length = strlen(text);
    const char *pad = length && (text[0] == '`' || text[length - 1] == '`') ? " " : "";
    snprintf(out, size, "%s%s%s%s%s", fence, pad, text, pad, fence);
}

/* A cell padded to its column's width, two spaces between columns; the last ends the line. */
static void put_cell(FILE *out, const char *text, size_t width, bool last) {
    if (last)
        fprintf(out, "%s\n", text);
    else
        fprintf(out, "%-*s  ", (int)width, text);
}

void report_aligned_print(FILE *out, const char *indent, int rows, int columns, ReportCellText cell,
                          const void *context) {
    size_t *width = calloc((size_t)columns, sizeof *width);
    if (!width)
        return;
    char text[REPORT_CELL];
    for (int row = 0; row < rows; row++)
        for (int c = 0; c < columns; c++) {
            cell(context, row, c, text, sizeof text);
            width[c] = strlen(text) > width[c] ? strlen(text) : width[c];
        }
    for (int row = 0; row < rows; row++) {
        fputs(indent, out);
        for (int c = 0; c < columns; c++) {
            cell(context, row, c, text, sizeof text);
            put_cell(out, text, width[c], c + 1 == columns);
        }
    }
    free(width);
}

void report_blunder_rate(double lost, double judged, char *out, size_t size) {
    snprintf(out, size, "%.0f/%.0f (%.2f%%)", lost, judged, judged > 0 ? 100 * lost / judged : 0.0);
}
