// SPDX-License-Identifier: MIT
// The report as one self-contained web page (no network, no external scripts, styles or fonts):
// the list of runs as the terminal table has it, then per run its details from the results
// file: the LLR trajectory against its bounds, the Elo estimate with its band against pairs,
// the pentanomial as bars, results by side, end reasons, per-engine depth, nodes and time, and
// the commands that reproduce or resume it. A live page reloads itself.
#pragma once

#include "output.h"
#include "report_list.h"

#include <cJSON.h>
#include <stdio.h>

/* Where a page gets a run's parsed results file for its details: entry's JSON (NULL: none),
 * with *owned set when the page frees it after use. A list's page loads each file when it
 * writes that run's details and frees it at once, so memory holds one file at a time. */
typedef cJSON *(*ReportDetails)(void *context, const ReportEntry *entry, bool *owned);

/* The page for entries[0..count). live: the page reloads itself every few seconds (a running
 * match's -html). */
void report_html_page(FILE *out, const ReportEntry entries[], int count, bool live,
                      ReportDetails details, void *context);

/* Writes the page of list to path, an output of the checked plan (whole or not at all:
 * cli/output.h), reading each run's results file again, one at a time, for its details. */
bool report_html_write(const OutputPlan *outputs, const char *path, const ReportList *list,
                       bool live, Error *err);

/* The same for runs whose details come from elsewhere (abtest -html during a match). */
bool report_html_write_entries(const OutputPlan *outputs, const char *path,
                               const ReportEntry entries[], int count, bool live,
                               ReportDetails details, void *context, Error *err);
