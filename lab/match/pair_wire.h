// SPDX-License-Identifier: MIT
// A played pair as bytes, for sending between ranks (lab/mpi/): fixed-width little-endian
// fields, so hosts of any byte order agree. What arrives is checked like any input: the layout,
// every value's range, and then the games themselves, replayed from the position the pair's
// number implies (every move legal, the recorded end and result the rules' own).
#pragma once

#include "book.h"
#include "match.h"
#include "schedule.h"

#include <stddef.h>
#include <stdint.h>

/* A growing byte buffer. */
typedef struct {
    uint8_t *data;
    size_t used, capacity;
} WireBuffer;

void wire_buffer_destroy(WireBuffer *buffer);

/* Appends pair's encoding. False when memory is short. */
bool pair_wire_encode(const PairRecord *pair, WireBuffer *out);

/* The job a message's pairs were played for (lab/match/pair_pool.h's generation), first in
 * every message of pairs: 8 bytes. False when memory is short. */
bool pair_wire_encode_generation(int64_t generation, WireBuffer *out);
/* Reads it back; false when data is shorter. */
bool pair_wire_decode_generation(const uint8_t *data, size_t size, int64_t *generation,
                                 size_t *used);

/* Decodes one pair from data[0..size) into out (which then owns its moves); *used is the
 * number of bytes it took. max_plies bounds the games' lengths. False with the reason
 * otherwise (nothing to free, *used 0). */
bool pair_wire_decode(const uint8_t *data, size_t size, int max_plies, PairRecord *out,
                      size_t *used, Error *err);

/* What a pair must be, given the run: its opening the schedule's for its number, both games
 * from the position match_opening_position gives, the first engine tigers in game 1, every move
 * legal, each game's end and result what the rules (or the max-moves adjudication) say, and
 * each engine's move count what the game implies. */
bool pair_wire_verify(const PairRecord *pair, const PairSetup *setup, const Book *book,
                      const Schedule *schedule, Error *err);
