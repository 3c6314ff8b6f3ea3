// SPDX-License-Identifier: MIT
// -plot: the LLR with its bounds and the Elo estimate with its 95% interval against pairs, as a
// PNG drawn by gnuplot (when installed). The title names the engines in command-line order (every
// number is the first engine's); the bounds, their values and the decision are written on it.
#pragma once

#include "results.h"
#include "settings.h"

#include <stdio.h>

/* Draws the trajectory into path. Returns false with the reason (no gnuplot, a run too short to
 * plot, a write error). Nothing from the settings reaches gnuplot unquoted, and gnuplot runs
 * without a shell. */
bool plot_write(const char *path, const MatchSettings *settings, const MatchTotals *totals,
                RunState state, Error *err);

/* Draws any chart: write_points fills a temporary data file, write_commands a gnuplot script
 * that draws it (given the PNG's and the data file's paths) into path; gnuplot runs without a
 * shell. False with the reason (no gnuplot, a write error, gnuplot failed). */
typedef bool (*PlotDataWriter)(FILE *f, const void *context);
typedef bool (*PlotScriptWriter)(FILE *f, const char *png, const char *data, const void *context);
bool plot_draw(const char *path, PlotDataWriter write_points, PlotScriptWriter write_commands,
               const void *context, Error *err);

/* Writes text as a gnuplot single-quoted string (a quote doubled; newlines become spaces). */
void plot_put_quoted(FILE *f, const char *text);
