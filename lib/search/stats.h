// SPDX-License-Identifier: MIT
// Search counters: kept by every searcher, read and reset per search. One table names them for
// printing and JSON.
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t nodes;              /* positions entered by the search, root and leaves included */
    uint64_t leaves;             /* positions evaluated at depth 0 */
    uint64_t terminals;          /* positions where the game is over (5 captures, no move) */
    uint64_t repetitions;        /* positions scored as a draw because they repeat */
    uint64_t cache_probes;       /* cache lookups (the hint lookup at depth - 1 included) */
    uint64_t cache_hits;         /* lookups that found an entry */
    uint64_t cache_cutoffs;      /* hits whose bounds ended the node without a search */
    uint64_t cache_stores;       /* entries written (new or updated) */
    uint64_t cache_overwrites;   /* entries of another position or depth overwritten */
    uint64_t cutoffs;            /* beta cutoffs in the move loop */
    uint64_t first_move_cutoffs; /* ... of which on the first move tried */
    uint64_t movegens;           /* move lists generated */
    uint64_t pvs_researches;     /* null-window searches that failed high and were redone */
    uint64_t aspiration_researches; /* root passes redone with a wider window */
    uint64_t lmr_reductions;     /* moves searched at a reduced depth */
    uint64_t lmr_researches;     /* ... that beat alpha and were redone at full depth */
    uint64_t qsearch_nodes;      /* positions entered by the quiescence search */
    uint64_t nullmove_tries;     /* null-move searches */
    uint64_t nullmove_cutoffs;   /* ... that ended the node */
    uint64_t futility_prunes;    /* quiet moves skipped at depth 1 */
    uint64_t tablebase_hits;     /* nodes given the tablebase's value (egdb) */
    uint64_t extensions;         /* moves searched one ply deeper */
    uint64_t depth;              /* deepest finished iteration */
} SearchStats;

typedef struct {
    const char *name; /* as in JSON and table headers */
    size_t offset;
    const char *help;
} StatSpec;

extern const StatSpec STATS_FIELDS[];
extern const size_t STATS_FIELD_COUNT;

static inline uint64_t stats_get(const SearchStats *stats, const StatSpec *spec) {
    return *(const uint64_t *)((const char *)stats + spec->offset);
}

/* total += add, field by field (depth: the maximum). */
void stats_add(SearchStats *total, const SearchStats *add);

/* Ratios for reports, 0 when the denominator is 0. */
double stats_hit_rate(const SearchStats *stats);         /* hits / probes */
double stats_first_cutoff_rate(const SearchStats *stats); /* first-move cutoffs / cutoffs */
