// SPDX-License-Identifier: MIT
// The search cache: a fixed-size transposition table with three replacement policies, or an
// exact growing hash map (the reference for tests). Keys are exact, so a collision can lose an
// entry but never return a wrong one.
#pragma once

#include "config.h"
#include "error.h"
#include "move.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TT_DEPTH_SHIFT 56
#define TT_PASSES_MAX 66 /* generations one search can use: one per pass (depth <= 64), and one */

/* Layout (16 bytes, four to a cache line):
 *   tag    the position's 56-bit key with the remaining depth in the top 8 bits: one compare
 *          matches position, side to move and depth at once;
 *   lower, upper  bounds on the score (side to move's view, win scores relative to this node);
 *   move   the best move found, on the board as stored (the canonical image with symmetry=on);
 *   gen    the generation that wrote it; 0 = empty. */
typedef struct {
    uint64_t tag;
    int16_t lower;
    int16_t upper;
    Move move;
    uint16_t gen;
} TTEntry;

/* What a store did, for the counters. */
typedef enum { TT_STORE_NEW, TT_STORE_UPDATED, TT_STORE_OVERWROTE, TT_STORE_REJECTED } TTStore;

/* Generations make clearing nearly free: an entry counts only if its gen lies in
 * [gen_first, gen_current]. tt_clear starts a new range; each iterative-deepening pass gets its
 * own generation so that an unfinished pass can be taken back (tt_discard_pass). When a search
 * could run the 16-bit counter past its end, tt_clear wipes the table for real before it starts,
 * so a search never sees a wipe and its result does not depend on the table's history. */
typedef struct {
    TTEntry *slots;
    size_t slot_count;  /* a power of two */
    size_t used;        /* map only: live entries */
    int kind;           /* CacheKind (never CACHE_NONE here) */
    int policy;         /* ReplacePolicy (table and tiny) */
    uint16_t gen_first; /* oldest generation still valid */
    uint16_t gen_current;
    size_t *pass_log;     /* slots written in the current pass, to discard it */
    size_t pass_log_used; /* > capacity means it overflowed: discard scans the table */
    size_t pass_log_capacity;
    uint64_t wipes; /* real wipes done (generation wraps), for tests */
} TTable;

/* Allocates a cache of the given kind: 2^bits slots for CACHE_TABLE, 8 for CACHE_TINY, a small
 * growing map for CACHE_MAP. Returns false with a message if memory is short. */
bool tt_init(TTable *tt, int kind, int bits, int policy, Error *err);
void tt_destroy(TTable *tt);

/* Forgets every entry (a new generation range; a real wipe on wrap). */
void tt_clear(TTable *tt);
/* Starts a new pass: later stores carry a new generation; earlier entries stay valid. */
void tt_new_pass(TTable *tt);
/* Removes every entry written since the last tt_new_pass (an unfinished pass). Entries it had
 * overwritten stay lost, as after any collision. */
void tt_discard_pass(TTable *tt);

static inline uint64_t tt_tag(uint64_t key, int depth) {
    return key | (uint64_t)depth << TT_DEPTH_SHIFT;
}
static inline int tt_entry_depth(const TTEntry *e) { return (int)(e->tag >> TT_DEPTH_SHIFT); }

/* Asks the processor to fetch the slots tag maps to, ahead of a probe. */
void tt_prefetch(const TTable *tt, uint64_t tag);

/* The entry with this exact tag, or NULL. */
const TTEntry *tt_probe(const TTable *tt, uint64_t tag);

/* Stores bounds and move for tag. An existing entry with the same tag is updated (bounds
 * intersected, or replaced if they contradict); otherwise the policy decides. */
TTStore tt_store(TTable *tt, uint64_t tag, int lower, int upper, Move move);

/* The slot a tag maps to in a table (the bucket's first slot is this & ~1 under twotier). */
size_t tt_slot_of(const TTable *tt, uint64_t tag);

/* Bytes held by the cache. */
size_t tt_bytes(const TTable *tt);
