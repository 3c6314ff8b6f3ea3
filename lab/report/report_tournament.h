// SPDX-License-Identifier: MIT
// The tournaments of a report (a round robin's or gauntlet's results file, run_summary.h): each
// as a line about the run, its rating list (rank, engine, Elo with its 95% interval, nElo, pairs,
// score, draws) and its pairings as the runs' table shows a match; in the terminal, as JSON and
// on the page, where the rating is also a chart of the Elos with their intervals.
#pragma once

#include "report_list.h"

#include <cJSON.h>
#include <stdio.h>

/* "tournaments:" and, for each, its line, rating list and pairings. */
void report_tournaments_print(FILE *out, const ReportEntry entries[], int count);

/* {"file", "read", "kind": "tournament", "tournament", "seeds", "family", "state", "pairs",
 * "engines", "rating": [{"rank", "name", "elo", "elo_ci95", "nelo", "pairs", "score",
 * "draw_ratio"}] or null, "pairings": [as a run's], "started", "seconds", "commit", "source",
 * "command"}. */
cJSON *report_tournament_json(const ReportEntry *entry);

/* The page's "Tournaments": a section each; nothing when there are none. */
void report_tournaments_html(FILE *out, const ReportEntry entries[], int count);

/* For docs/experiments.md (abtest report -markdown): each tournament's line, its rating list as
 * a Markdown table and the ratings as a text chart of their intervals. */
void report_tournaments_markdown(FILE *out, const ReportEntry entries[], int count);
