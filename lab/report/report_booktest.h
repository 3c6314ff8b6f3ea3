// SPDX-License-Identifier: MIT
// The booktests of a report (abtest booktest's files, lab/output/booktest_file.h): each as its
// books x differences, a cell the Elo the difference made on that book with its 95% interval and
// the pairs an SPRT [0, 5] would need there; in the terminal, as JSON (the cells as the file
// holds them) and on the page.
#pragma once

#include "report_list.h"

#include <cJSON.h>
#include <stdio.h>

/* "booktests:" and, for each, a line about it and its books x differences. */
void report_booktests_print(FILE *out, const ReportEntry entries[], int count);

/* {"file", "read", "kind": "booktest", "state", "pairs", "each", "books": [{"path",
 * "positions"}], "differences", "cells": [as the file], "commit", "source", "command"}. */
cJSON *report_booktest_json(const ReportEntry *entry);

/* The page's "Booktests": a section each with its matrix; nothing when there are none. */
void report_booktests_html(FILE *out, const ReportEntry entries[], int count);
