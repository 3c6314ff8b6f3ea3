// SPDX-License-Identifier: MIT
// Game records in a PGN-like text: tags Event, Round (pair.game), Tigers, Sheep, FEN, Result,
// PlyCount, Termination, then the moves in the project's notation. Result "1-0" means the
// tigers won, "0-1" the sheep, "1/2-1/2" a draw (the tigers are named first, like White).
#pragma once

#include "match.h"
#include "settings.h"

#include <stdio.h>

/* "1-0" (the tigers won), "0-1" (the sheep won) or "1/2-1/2". */
const char *pgn_result_text(GameResult result);

/* Writes both games of a pair; returns false on a write error. */
bool pgn_write_pair(FILE *out, const MatchSettings *settings, const PairRecord *pair,
                    const char *opening_id);
