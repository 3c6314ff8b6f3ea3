// SPDX-License-Identifier: MIT
// What a tournament has counted: each pairing as the match of its two engines (its own
// settings, first engine first, and its own MatchTotals, fed the pairing's pairs in order), and
// the joint rating of every engine fitted on the pairings' pentanomials (rating.h). The run's
// own MatchTotals keep what belongs to the run (pairs, ends, plies, time, sessions, ranks).
#pragma once

#include "rating.h"
#include "settings.h"
#include "totals.h"

typedef struct {
    PairingList pairings;
    MatchSettings *settings; /* [pairings.count]: the match of each pairing */
    MatchTotals *totals;     /* [pairings.count] */
} TournamentTotals;

/* Every pairing's settings and empty totals for the run's settings (a tournament, checked). */
bool tournament_totals_init(TournamentTotals *t, const MatchSettings *run, Error *err);
void tournament_totals_destroy(TournamentTotals *t);

/* The match that pairing p of run is: its two engines, first first, and the run's games. */
void tournament_pairing_settings(const MatchSettings *run, Pairing pairing, MatchSettings *out);

/* Counts a pair (the next of its pairing) into its pairing. */
void tournament_totals_add(TournamentTotals *t, const PairRecord *pair);

/* The joint rating of the run's engines from every pairing's pairs, the first engine at 0.
 * False (err says why) while a pairing has no pair yet, or when the fit fails. */
bool tournament_totals_rating(const TournamentTotals *t, int engines, RatingList *out,
                              Error *err);

/* Whether every pairing has a pair and the rating still does not fit: then why says why (an
 * engine that won or lost every point: its Elo is unbounded). */
bool tournament_totals_rating_failure(const TournamentTotals *t, int engines, Error *why);

/* Before a pairing is written: what the run knows of it (its build, start, time and sessions,
 * its two engines' signatures, the changes accepted). */
void tournament_totals_sync(TournamentTotals *t, const MatchTotals *run);

/* The engines in rating order, strongest first (ties in engine order): order[rank] = engine. */
void tournament_rating_order(const RatingList *list, int order[]);
