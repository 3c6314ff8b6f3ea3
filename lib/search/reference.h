// SPDX-License-Identifier: MIT
// Plain minimax: the reference the search is compared with (tests, bench verify).
#pragma once

#include "config.h"
#include "game.h"

/* Plain minimax to a fixed depth, with no pruning, cache or ordering and the same rules for
 * terminals, repetitions and the evaluation: the reference the tests and `bench verify` compare
 * against. Puts the score from the tigers' side in *score and (if best is not NULL) the first
 * move in movegen_all order with that score; *nodes (if not NULL) gets the positions visited.
 * Returns false, with nothing written, when memory for the line's keys is short. */
bool search_reference(const SearchConfig *config, const Board *root, int depth,
                      const Board *history, int history_length, int *score, Move *best,
                      uint64_t *nodes);
