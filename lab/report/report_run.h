// SPDX-License-Identifier: MIT
// The report of one run (a match, or a tournament's pairing, which is one): its columns for the
// terminal and the page (REPORT_COLUMNS: header and cell in one row of a table), its columns in
// the ledger's Markdown, and its object in the report's JSON.
#pragma once

#include "report_text.h"

#include <cJSON.h>

/* One column: its header, how a run's cell is written (at most REPORT_CELL - 1 bytes), and the
 * most a terminal shows of it (0: all; the JSON and the page have it whole). */
typedef struct {
    const char *header;
    void (*cell)(const RunSummary *run, char *out, size_t size);
    size_t terminal_width;
    /* On the web page, only in each run's section: the runs' table fits 1400 px without it. */
    bool section_only;
} ReportColumn;

extern const ReportColumn REPORT_COLUMNS[];
extern const size_t REPORT_COLUMN_COUNT;

/* The ledger's columns (docs/experiments.md): variant vs base, what differs, limits, Elo (95%),
 * LLR, SPRT, pairs, depth and nodes a move of each engine. Cells are not yet escaped. */
extern const ReportColumn REPORT_MARKDOWN_COLUMNS[];
extern const size_t REPORT_MARKDOWN_COLUMN_COUNT;

/* A cell, its text escaped for the terminal, cut to the column's width ("..." marks the cut). */
void report_run_terminal_cell(const ReportColumn *column, const RunSummary *run, char *out,
                              size_t size);

/* The run's object of the report's JSON ({"file", "read", "kind": "run", ...}). */
cJSON *report_run_json(const RunSummary *run);
