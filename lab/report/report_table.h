// SPDX-License-Identifier: MIT
// A report as a terminal table, one row per run (REPORT_COLUMNS: header and cell in one row of
// a table), columns as wide as their widest cell, then the files that could not be read with
// the reason; and the same list as JSON for scripts.
#pragma once

#include "report_list.h"

#include <cJSON.h>
#include <stdio.h>

#define REPORT_CELL (RUN_SUMMARY_TEXT + 16)

/* One column: its header, how a run's cell is written (at most REPORT_CELL - 1 bytes), and the
 * most a terminal shows of it (0: all; the JSON and the page have it whole). */
typedef struct {
    const char *header;
    void (*cell)(const RunSummary *run, char *out, size_t size);
    size_t terminal_width;
} ReportColumn;

extern const ReportColumn REPORT_COLUMNS[];
extern const size_t REPORT_COLUMN_COUNT;

void report_table_print(FILE *out, const ReportList *list);

/* [{"file", "read", "reason" | the run's fields ...}, ...] (docs/abtest.md, "Reports"). */
cJSON *report_table_json(const ReportList *list);

/* The run's own object of report_table_json. */
cJSON *report_run_json(const RunSummary *run);
