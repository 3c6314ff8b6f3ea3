// SPDX-License-Identifier: MIT
// A pool's job as rank 0 sends it (in SETUP, and in JOB whenever it changes): the settings every
// rank rebuilds the engines, the games and the book's order from, and the hash the rank's copy
// of the book must have.
#pragma once

#include "error.h"
#include "settings.h"

#include <cJSON.h>

/* {"generation": G, "settings": {...}, "book_hash": "16 hex digits", "segment": {"first_pair":
 * N, "first_round": R, "open": [pairing indices]}}; G counts the pool's jobs (1 for the first),
 * the segment says which pairings play from which pair (tournament.h). NULL when memory is
 * short. */
cJSON *job_json(const MatchSettings *settings, const PairingSegment *segment, uint64_t book_hash,
                int64_t generation);

/* Reads it back with the checks of a results file's settings, and the segment against the
 * settings' pairings; false with the reason. */
bool job_json_read(const cJSON *json, MatchSettings *settings, PairingSegment *segment,
                   uint64_t *book_hash, int64_t *generation, Error *err);
