// SPDX-License-Identifier: MIT
// -plot: the LLR with its bounds and the Elo estimate with its 95% interval against pairs, as a
// PNG drawn by gnuplot (when installed). The title names the engines in command-line order (every
// number is the first engine's); the bounds, their values and the decision are written on it.
#pragma once

#include "output.h"
#include "results.h"
#include "settings.h"

#include <stdio.h>

/* Draws the trajectory into path. Returns false with the reason (no gnuplot, a run too short to
 * plot, a write error). Nothing from the settings reaches gnuplot unquoted, and gnuplot runs
 * without a shell. */
bool plot_write(const OutputPlan *outputs, const char *path, const MatchSettings *settings,
                const MatchTotals *totals, RunState state, Error *err);
