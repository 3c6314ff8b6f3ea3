// SPDX-License-Identifier: MIT
// perft: the number of positions exactly `depth` plies from a position, for proving the move
// generator. A game that ends earlier (5 captures, no legal move) contributes nothing; perft
// knows no repetition rule.
#pragma once

#include "board.h"

/* Leaves at depth plies from b; depth 0 counts b itself. The last ply is counted without
 * making the moves (bulk counting). */
uint64_t perft(const Board *b, int depth);
