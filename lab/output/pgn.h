// SPDX-License-Identifier: MIT
// Game records in the PGN standard's export format, so that tools that read only the tags
// (Ordo, BayesElo, pgn-extract) can rate a match: the Seven Tag Roster first (Event, Site, Date,
// Round as pair.game, White, Black, Result), then the other tags in ASCII order (FEN, Opening,
// PlyCount, SetUp, Sheep, Termination, Tigers, the clocks, Variant "bagh-chal"). White is the
// side that moves first, the sheep; Black the tigers; so "1-0" is a win for the sheep, "0-1" for
// the tigers, "1/2-1/2" a draw. The moves are in the project's notation.
#pragma once

#include "match.h"
#include "settings.h"

#include <stdio.h>

/* "1-0" (White, the sheep, won), "0-1" (the tigers won) or "1/2-1/2". */
const char *pgn_result_text(GameResult result);

/* Writes both games of a pair; Date is the day the match started (started: ISO 8601, UTC, as
 * the results file keeps it), the same in a resumed run. Returns false on a write error. */
bool pgn_write_pair(FILE *out, const MatchSettings *settings, const PairRecord *pair,
                    const char *opening_id, const char *started);
