// SPDX-License-Identifier: MIT
// The bench signature file (bench/signature.json), read back with every check: format 1, a
// depth the search can run, a non-empty configuration of valid options without a time limit,
// positions with unique ids, well-formed playable positions, moves that are legal there, scores
// in range, whole node counts that add up to the total, and a signature that matches the pinned
// moves and scores. Anything else is refused with the reason, never "ok".
#pragma once

#include "book.h"
#include "config.h"
#include "move.h"

#include <stddef.h>

#define PINFILE_FORMAT 1
#define PINFILE_MAX_POSITIONS 100000

/* One pinned position. */
typedef struct {
    BookEntry entry; /* id and position */
    Move move;
    char move_text[MOVE_TEXT_MAX];
    int score;
    uint64_t nodes;
} PinnedRow;

typedef struct {
    SearchConfig config; /* its depth is the pinned depth */
    PinnedRow *rows;     /* malloc'd: pinfile_destroy */
    int count;
    uint64_t nodes;
    uint64_t signature;
} PinFile;

/* Parses and checks the text of a signature file; on failure returns false with the reason
 * (prefixed by name). */
bool pinfile_parse(const char *text, size_t length, const char *name, PinFile *pin, Error *err);

/* Reads path (a regular file) and parses it. */
bool pinfile_load(const char *path, PinFile *pin, Error *err);

void pinfile_destroy(PinFile *pin);
