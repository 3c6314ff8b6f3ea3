// SPDX-License-Identifier: MIT
// The report as one self-contained web page (no network, no external scripts, styles or fonts):
// the list of runs as the terminal table has it, then per run its details from the results
// file: the LLR trajectory against its bounds, the Elo estimate with its band against pairs,
// the pentanomial as bars, results by side, end reasons, per-engine depth, nodes and time, and
// the commands that reproduce or resume it. A live page reloads itself.
#pragma once

#include "report_list.h"

#include <cJSON.h>
#include <stdio.h>

/* The page for entries[0..count): details[i] is entry i's parsed results file (NULL for a file
 * not read). live: the page reloads itself every few seconds (a running match's -html). */
void report_html_page(FILE *out, const ReportEntry entries[], const cJSON *const details[],
                      int count, bool live);

/* Writes the page of list to path atomically (a temporary file renamed into place), reading
 * each run's results file again for its details. */
bool report_html_write(const char *path, const ReportList *list, bool live, Error *err);

/* The same for runs already in memory (abtest -html during a match). */
bool report_html_write_entries(const char *path, const ReportEntry entries[],
                               const cJSON *const details[], int count, bool live, Error *err);
