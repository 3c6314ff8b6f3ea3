// SPDX-License-Identifier: MIT
#define _DEFAULT_SOURCE
#include "tt.h"

#include <sys/mman.h>

#include <stdlib.h>
#include <string.h>

#define MAP_INITIAL_BITS 12
#define PASS_LOG_CAPACITY 65536

static size_t slot_index(uint64_t tag, size_t slot_count) {
    /* Fibonacci hashing: multiply, keep the top bits. slot_count is a power of two. */
    uint64_t mixed = tag * 0x9e3779b97f4a7c15ull;
    int bits = __builtin_ctzll((unsigned long long)slot_count);
    return bits == 0 ? 0 : (size_t)(mixed >> (64 - bits));
}

static bool is_live(const TTable *tt, const TTEntry *e) {
    return e->gen != 0 && e->gen >= tt->gen_first && e->gen <= tt->gen_current;
}

/* A table of 2 MiB or more is aligned to 2 MiB and asks the kernel for huge pages. */
static TTEntry *alloc_slots(size_t count) {
    size_t bytes = count * sizeof(TTEntry), huge = (size_t)2 << 20;
    if (bytes < huge)
        return calloc(count, sizeof(TTEntry));
    TTEntry *slots = aligned_alloc(huge, bytes);
    if (!slots)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(slots, bytes, MADV_HUGEPAGE);
#endif
    memset(slots, 0, bytes);
    return slots;
}

bool tt_init(TTable *tt, int kind, int bits, int policy, Error *err) {
    memset(tt, 0, sizeof *tt);
    tt->kind = kind;
    tt->policy = policy;
    if (kind == CACHE_TINY)
        bits = CONFIG_TINY_BITS;
    else if (kind == CACHE_MAP)
        bits = MAP_INITIAL_BITS;
    tt->slot_count = (size_t)1 << bits;
    tt->slots = kind == CACHE_MAP ? calloc(tt->slot_count, sizeof *tt->slots)
                                  : alloc_slots(tt->slot_count);
    tt->pass_log_capacity = PASS_LOG_CAPACITY;
    tt->pass_log = malloc(tt->pass_log_capacity * sizeof *tt->pass_log);
    if (!tt->slots || !tt->pass_log) {
        tt_destroy(tt);
        return error_set(err, "cannot allocate a cache of 2^%d slots (%zu MiB)", bits,
                         ((size_t)1 << bits) * sizeof(TTEntry) >> 20);
    }
    tt->gen_first = tt->gen_current = 1;
    return true;
}

void tt_destroy(TTable *tt) {
    free(tt->slots);
    free(tt->pass_log);
    memset(tt, 0, sizeof *tt);
}

static void wipe(TTable *tt) {
    memset(tt->slots, 0, tt->slot_count * sizeof *tt->slots);
    tt->used = 0;
    tt->wipes += tt->kind != CACHE_MAP; /* the map is wiped at every clear: not a wrap */
    tt->gen_first = tt->gen_current = 1;
    tt->pass_log_used = 0;
}

/* Advances the generation; on wrap wipes the table so that no old entry can come back. */
static void next_generation(TTable *tt) {
    tt->pass_log_used = 0;
    if (tt->gen_current == UINT16_MAX) {
        wipe(tt);
        return;
    }
    tt->gen_current++;
}

void tt_clear(TTable *tt) {
    /* Wipe now rather than in the middle of the next search: a wrap during a search would drop
     * its earlier passes' entries, and results would depend on how many searches this table had
     * served before (found as a one-game difference between two runs of a node-limited match). */
    if (tt->kind == CACHE_MAP || tt->gen_current > UINT16_MAX - TT_PASSES_MAX) {
        /* The map must also be empty for its probe chains to stay short. */
        wipe(tt);
        return;
    }
    next_generation(tt);
    tt->gen_first = tt->gen_current;
}

void tt_new_pass(TTable *tt) { next_generation(tt); }

static void log_write(TTable *tt, size_t index) {
    if (tt->pass_log_used < tt->pass_log_capacity)
        tt->pass_log[tt->pass_log_used] = index;
    tt->pass_log_used++;
}

void tt_discard_pass(TTable *tt) {
    if (tt->kind == CACHE_MAP || tt->pass_log_used > tt->pass_log_capacity) {
        for (size_t i = 0; i < tt->slot_count; i++)
            if (tt->slots[i].gen == tt->gen_current)
                tt->slots[i].gen = 0;
    } else {
        for (size_t i = 0; i < tt->pass_log_used; i++)
            if (tt->slots[tt->pass_log[i]].gen == tt->gen_current)
                tt->slots[tt->pass_log[i]].gen = 0;
    }
    tt->pass_log_used = 0;
    /* A map keeps dead slots as tombstones (gen 0 with a tag): probes skip over them. */
}

/* Map: linear probing. A slot with tag 0 and gen 0 ends a chain; gen 0 with a tag is a
 * tombstone left by tt_discard_pass. No position has key 0 (4 tigers are always on the board). */
static size_t map_find(const TTable *tt, uint64_t tag, bool *found) {
    size_t mask = tt->slot_count - 1, i = slot_index(tag, tt->slot_count);
    for (;; i = (i + 1) & mask) {
        const TTEntry *e = &tt->slots[i];
        if (e->tag == tag && e->gen != 0) {
            *found = is_live(tt, e);
            return i;
        }
        if (e->tag == 0) {
            *found = false;
            return i;
        }
    }
}

static bool map_grow(TTable *tt) {
    size_t old_count = tt->slot_count;
    TTEntry *old = tt->slots;
    TTEntry *fresh = calloc(old_count * 2, sizeof *fresh);
    if (!fresh)
        return false;
    tt->slots = fresh;
    tt->slot_count = old_count * 2;
    tt->used = 0;
    for (size_t i = 0; i < old_count; i++)
        if (is_live(tt, &old[i])) {
            bool found;
            size_t j = map_find(tt, old[i].tag, &found);
            tt->slots[j] = old[i];
            tt->used++;
        }
    free(old);
    return true;
}

void tt_prefetch(const TTable *tt, uint64_t tag) {
    if (tt->kind == CACHE_MAP)
        return;
    size_t i = slot_index(tag, tt->slot_count);
    if (tt->policy == REPLACE_TWOTIER)
        i &= ~(size_t)1;
    __builtin_prefetch(&tt->slots[i]);
}

const TTEntry *tt_probe(const TTable *tt, uint64_t tag) {
    if (tt->kind == CACHE_MAP) {
        bool found;
        size_t i = map_find(tt, tag, &found);
        return found ? &tt->slots[i] : NULL;
    }
    size_t i = slot_index(tag, tt->slot_count);
    if (tt->policy == REPLACE_TWOTIER) {
        i &= ~(size_t)1; /* buckets of two: [deepest, always] */
        if (tt->slots[i].tag == tag && is_live(tt, &tt->slots[i]))
            return &tt->slots[i];
        i++;
    }
    return tt->slots[i].tag == tag && is_live(tt, &tt->slots[i]) ? &tt->slots[i] : NULL;
}

static TTEntry make_entry(const TTable *tt, uint64_t tag, int lower, int upper, Move move) {
    return (TTEntry){tag, (int16_t)lower, (int16_t)upper, move, tt->gen_current};
}

/* Same position and depth: both are bounds on one value, so intersect them. If they contradict
 * (possible only through the repetition caveat, see docs/search.md) the new one wins. */
static void update(TTable *tt, TTEntry *e, int lower, int upper, Move move) {
    int new_lower = lower > e->lower ? lower : e->lower;
    int new_upper = upper < e->upper ? upper : e->upper;
    if (new_lower > new_upper) {
        new_lower = lower;
        new_upper = upper;
    }
    e->lower = (int16_t)new_lower;
    e->upper = (int16_t)new_upper;
    if (move != MOVE_NONE)
        e->move = move;
    e->gen = tt->gen_current;
}

static TTStore write_slot(TTable *tt, size_t i, TTEntry entry) {
    bool was_live = is_live(tt, &tt->slots[i]);
    tt->slots[i] = entry;
    log_write(tt, i);
    return was_live ? TT_STORE_OVERWROTE : TT_STORE_NEW;
}

TTStore tt_store(TTable *tt, uint64_t tag, int lower, int upper, Move move) {
    TTEntry entry = make_entry(tt, tag, lower, upper, move);
    if (tt->kind == CACHE_MAP) {
        if (2 * (tt->used + 1) > tt->slot_count && !map_grow(tt))
            return TT_STORE_REJECTED;
        bool found;
        size_t i = map_find(tt, tag, &found);
        if (found) {
            update(tt, &tt->slots[i], lower, upper, move);
            return TT_STORE_UPDATED;
        }
        if (tt->slots[i].tag == 0)
            tt->used++;
        tt->slots[i] = entry;
        return TT_STORE_NEW;
    }
    size_t i = slot_index(tag, tt->slot_count);
    int depth = (int)(tag >> TT_DEPTH_SHIFT);
    switch (tt->policy) {
    case REPLACE_ALWAYS:
        if (tt->slots[i].tag == tag && is_live(tt, &tt->slots[i])) {
            update(tt, &tt->slots[i], lower, upper, move);
            log_write(tt, i);
            return TT_STORE_UPDATED;
        }
        return write_slot(tt, i, entry);
    case REPLACE_DEEPEST:
        if (tt->slots[i].tag == tag && is_live(tt, &tt->slots[i])) {
            update(tt, &tt->slots[i], lower, upper, move);
            log_write(tt, i);
            return TT_STORE_UPDATED;
        }
        if (is_live(tt, &tt->slots[i]) && tt_entry_depth(&tt->slots[i]) > depth)
            return TT_STORE_REJECTED;
        return write_slot(tt, i, entry);
    default: { /* REPLACE_TWOTIER */
        size_t deep = i & ~(size_t)1, any = deep + 1;
        for (size_t k = deep; k <= any; k++)
            if (tt->slots[k].tag == tag && is_live(tt, &tt->slots[k])) {
                update(tt, &tt->slots[k], lower, upper, move);
                log_write(tt, k);
                return TT_STORE_UPDATED;
            }
        if (!is_live(tt, &tt->slots[deep]) || depth >= tt_entry_depth(&tt->slots[deep])) {
            /* The deepest slot's old entry moves down to the second slot. */
            TTStore result = TT_STORE_NEW;
            if (is_live(tt, &tt->slots[deep]))
                result = write_slot(tt, any, tt->slots[deep]) == TT_STORE_OVERWROTE
                             ? TT_STORE_OVERWROTE
                             : TT_STORE_NEW;
            write_slot(tt, deep, entry);
            return result;
        }
        return write_slot(tt, any, entry);
    }
    }
}

size_t tt_bytes(const TTable *tt) { return tt->slot_count * sizeof(TTEntry); }

size_t tt_slot_of(const TTable *tt, uint64_t tag) { return slot_index(tag, tt->slot_count); }
