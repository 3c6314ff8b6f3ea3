// SPDX-License-Identifier: MIT
// -plot: the LLR with its bounds and the Elo estimate with its 95% interval against pairs, as a
// PNG drawn by gnuplot (when installed).
#pragma once

#include "results.h"
#include "settings.h"

/* Draws the trajectory into path. Returns false with the reason (no gnuplot, write error). */
bool plot_write(const char *path, const MatchSettings *settings, const MatchTotals *totals,
                Error *err);
