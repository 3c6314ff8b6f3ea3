// SPDX-License-Identifier: MIT
// The tunings of a report (abtest tune's files, lab/output/tune_file.h): in the terminal one row
// each (file, iterations, state, the configuration both sides share, every parameter now and
// where it started, the build); as JSON; on the page a row each and a section with the
// parameters' table and each parameter's trajectory over the iterations.
#pragma once

#include "report_list.h"

#include <cJSON.h>
#include <stdio.h>

/* "tunings:" and their table; nothing when entries hold none. */
void report_tunings_print(FILE *out, const ReportEntry entries[], int count);

/* {"file", "read", "kind": "tuning", "state", "iterations", "done", "each", "params": [as the
 * tuning file holds them], "commit", "source", "command"}. */
cJSON *report_tuning_json(const ReportEntry *entry);

/* The page's "Tunings" table (a row each, linked to its section); nothing when there are none. */
void report_tunings_html_table(FILE *out, const ReportEntry entries[], int count);

/* Each tuning's section: state, build, the parameters' table, a chart of each parameter's theta
 * by iteration, the commands that reproduce and resume it. */
void report_tunings_html_sections(FILE *out, const ReportEntry entries[], int count);
