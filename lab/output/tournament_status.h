// SPDX-License-Identifier: MIT
// A tournament's text output: the rating list (rank, engine, Elo and its 95% interval, nElo,
// pairs, score, draw ratio) and each pairing's line, every rating interval and at the end.
#pragma once

#include "results.h"
#include "tournament_totals.h"

#include <stdio.h>

/* The rating list, strongest first; without one (rating NULL), why: a pairing without a pair
 * yet, or the fit's reason (an engine that won or lost every point). */
void tournament_status_rating(FILE *out, const MatchSettings *run, const TournamentTotals *tour,
                              const RatingList *rating);

/* The block of a rating interval: the run's pairs and rounds, the rating list, the pairings. */
void tournament_status_block(FILE *out, const MatchSettings *run, const MatchTotals *totals,
                             const TournamentTotals *tour, const RatingList *rating);

/* The end: how the run ended, the block, the end reasons, time, and a summary for commits. */
void tournament_status_final(FILE *out, const MatchSettings *run, const MatchTotals *totals,
                             const TournamentTotals *tour, const RatingList *rating,
                             RunState state);
