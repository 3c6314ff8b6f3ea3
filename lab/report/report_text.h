// SPDX-License-Identifier: MIT
// The report's text toolkit, shared by every kind's report and the page: text made safe for a
// terminal or Markdown, code spans, aligned tables, and the few numbers every kind writes the
// same way. A leaf: it knows no kind of run.
#pragma once

#include "run_summary.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define REPORT_CELL (RUN_SUMMARY_TEXT + 16)

/* A value as "%.Nf" shows it (N decimals), without a "-0.00" for a tiny negative one. */
double report_shown(double value, int decimals);

/* The commit, and the build's source identity (its first 8 digits) when the file has one: two
 * builds of one commit, a dirty tree edited between runs, differ there. */
void report_commit_text(const char *commit, const char *source, char *out, size_t size);

/* text with what a terminal or a Markdown table would act on made visible: control bytes
 * (ESC included) and UTF-8's C1 controls written \xHH, so a name cannot move the cursor or
 * recolour the screen; for Markdown (markdown true) also '|' escaped and line ends as spaces, so
 * a name cannot split a row. At most size bytes (cut short). */
void report_escape_text(const char *text, bool markdown, char *out, size_t size);

/* text as Markdown shows it outside a code span: report_escape_text's, then what Markdown or a
 * page would act on backslash-escaped (< > & ` * ~ \\ and the ']' of a link's "]("), so text
 * from a file is never markup. At most size bytes (cut short). */
void report_markdown_text(const char *text, char *out, size_t size);

/* text as a Markdown code span, which a page shows as it is (a name "<img src=x onerror=...>"
 * stays text): fenced by one backtick more than its longest run of them, padded by a space
 * when it begins or ends with one. At most size bytes (cut short). */
void report_code_span(const char *text, char *out, size_t size);

/* A table's cell (row 0: the headers), already escaped, at most size - 1 bytes. */
typedef void (*ReportCellText)(const void *context, int row, int column, char *out, size_t size);

/* rows x columns cells, each padded to its column's widest, two spaces apart, every line after
 * indent. */
void report_aligned_print(FILE *out, const char *indent, int rows, int columns, ReportCellText cell,
                          const void *context);

/* "3/812 (0.37%)": blunders of the moves judged (0.00% when none was judged). */
void report_blunder_rate(double lost, double judged, char *out, size_t size);
