// SPDX-License-Identifier: MIT
// What a rank proves before it plays (lab/mpi/): that it searches exactly as rank 0 does and
// reads the same book. Each engine's configuration searches a short fixed suite (its limits
// replaced by a fixed depth); the moves, scores and node counts are hashed with both
// configuration hashes and the book's content hash. Another build whose search differs (another
// evaluation, other compiler flags that change a result), other options or another book gives
// another fingerprint, as OpenBench refuses a worker with the wrong bench.
#pragma once

#include "book.h"
#include "match.h"

#include <stdint.h>

#define FINGERPRINT_TEXT_MAX 128
/* Deep enough that every feature of the search takes part (null move and LMR need depth 3 or
 * more), shallow enough for about half a second with every feature off. */
#define FINGERPRINT_DEPTH 6

typedef struct {
    uint64_t search;     /* hash of every move, score and node count of the suite */
    uint64_t nodes;      /* nodes searched, both engines */
    uint64_t configs[MATCH_ENGINES];
    uint64_t book;
} Fingerprint;

/* Runs the suite with engines' configurations (about half a second). False when a searcher
 * cannot be set up (err says why). */
bool fingerprint_compute(const EngineSpec *engines, const Book *book, Fingerprint *out,
                         Error *err);

/* One configuration's own search of the suite: its hash and nodes, which identify what the code
 * plays with that configuration (lab/match/provenance.h). */
bool fingerprint_signature(const SearchConfig *config, uint64_t *hash, uint64_t *nodes,
                           Error *err);

/* "search:HEX nodes:N configs:HEX/HEX book:HEX", to compare and to show. */
void fingerprint_text(const Fingerprint *fingerprint, char *out, size_t size);
