// SPDX-License-Identifier: MIT
// A ladder's terminal output: a block per look (each step's pairs, Elo and test, a gauntlet's
// candidate by candidate), the lines of a step that ends, and the end (each step's decision, Elo
// and pairs, the scaling slope, what the steps decided in one sentence).
#pragma once

#include "results.h"
#include "tournament_totals.h"

#include <stdio.h>

void ladder_status_block(FILE *out, const MatchSettings *run, const MatchTotals *totals,
                         const TournamentTotals *tour);

/* Step k has ended (its SPRT decided or its rounds played). */
void ladder_status_step_end(FILE *out, const MatchSettings *run, const TournamentTotals *tour,
                            int step);

void ladder_status_final(FILE *out, const MatchSettings *run, const MatchTotals *totals,
                         const TournamentTotals *tour, RunState state);
