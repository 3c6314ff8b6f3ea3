// SPDX-License-Identifier: MIT
// The search core: alpha-beta (negamax, fail-soft) with iterative deepening, every feature a
// runtime toggle of SearchConfig, counters in SearchStats. A Searcher owns all its state, so any
// number of them run in parallel threads.
#pragma once

#include "board.h"
#include "config.h"
#include "eval.h"
#include "ordering.h"
#include "stats.h"
#include "symmetry.h"
#include "timeman.h"
#include "tt.h"

#include <stdatomic.h>

#define SEARCH_MAX_DEPTH 64
#define SEARCH_MAX_PLY (SEARCH_MAX_DEPTH + 1)

typedef struct {
    Move move;          /* best move; MOVE_NONE when the game is already over */
    int score;          /* from the tigers' side, whoever is to move */
    int depth;          /* deepest finished pass */
    GameResult win;     /* RESULT_TIGERS_WIN / RESULT_SHEEP_WIN when the score is a forced win */
    int win_in;         /* plies to that win from the position, or -1 */
    Move pv[SEARCH_MAX_PLY]; /* principal variation of the last finished pass */
    int pv_length;
    SearchStats stats;  /* counters of this search, all passes (unfinished one included) */
    double seconds;
    bool stopped;       /* a limit or a stop request cut an unfinished pass short */
    bool failed;        /* out of memory before the first pass: no move, no score */
} SearchResult;

typedef struct {
    SearchConfig config; /* frozen at searcher_init */
    TTable tt;           /* unused when config.cache == CACHE_NONE */
    Killers killers;
    History history;     /* toggle history; cleared by each search_run */
    SearchStats stats;
    atomic_bool stop_requested; /* set from another thread by search_stop */
    Move root_hint;             /* tried first at the root in pass 1 (MOVE_NONE: none); for
                                   tests and callers that know a likely move */
    /* Called, when set, after each finished pass with the result so far (move, score, depth,
     * pv, stats, seconds): the engine protocol prints its `info` lines from it. It runs on the
     * searching thread and must not touch the searcher. */
    void (*on_pass)(void *context, const SearchResult *so_far);
    const struct Tablebase *tablebase; /* egdb=on: probed below the root (NULL: none) */
    SearchClock clock; /* the side to move's clock for the searches to come (search_set_clock) */
    void *on_pass_context;
    /* Scratch of the running search. */
    struct {
        uint64_t *keys;     /* game history then the current line: keys[history + ply] */
        int key_capacity;
        int history;        /* positions before the root */
        int root_reversible_start; /* earliest index the root could repeat */
        Move pv[SEARCH_MAX_PLY][SEARCH_MAX_PLY];
        int pv_length[SEARCH_MAX_PLY];
        double start_seconds;
        double deadline_seconds; /* 0 = no time limit */
        uint64_t node_limit;     /* the node budget, nodestime's hard limit included (0: none) */
        int64_t soft_us;         /* no pass starts after this much time (0: none) */
        bool limits_active;      /* false in pass 1, which always finishes */
        int dependency;          /* set by each node: the lowest line index whose position a
                                    repetition below it matched (INT_MAX: none) */
        int null_child_ply;      /* the ply of the node a null move led to (-1: none), so
                                    that no two null moves follow each other */
        bool loop_variants;      /* a variant of the move loop is on (lmr, pvs, futility,
                                    history, jump_extension) */
        Move tried[SEARCH_MAX_PLY][MOVES_MAX]; /* quiet moves tried at each ply (history) */
        SymKeys sym_keys[SEARCH_MAX_PLY + 1];  /* symmetry=on: the image keys of the node at
                                                  each ply, set where the cache will read them */
        bool aborted;
    } run;
} Searcher;

/* The tablebase egdb=on probes (read-only, shared by any number of searchers); without one,
 * egdb=on probes nothing. The tools attach it (cli_searcher_init). */
void searcher_set_tablebase(Searcher *searcher, const struct Tablebase *tablebase);

/* Sets up a searcher for config (allocates the cache once). Fails with a message on a config
 * with no limit at all (depth, nodes and movetime all 0) or when memory is short. */
bool searcher_init(Searcher *searcher, const SearchConfig *config, Error *err);
void searcher_destroy(Searcher *searcher);

/* Searches root by iterative deepening within the config's limits. history holds the game's
 * positions before root, oldest first (may be NULL when history_length is 0); a position that
 * repeats one of them or an earlier one on the line scores as a draw. Each call starts from an
 * empty cache and empty killers, so the result depends only on (config, root, history) under
 * depth and node limits. */
SearchResult search_run(Searcher *searcher, const Board *root, const Board *history,
                        int history_length);

/* Replaces the limits (depth, nodes, movetime; 0 = none) of the searches to come, so that a
 * caller whose limit changes per move (the engine protocol's `go`) keeps its searcher and its
 * cache. Not while a search runs. At least one limit must be set. */
void search_set_limits(Searcher *searcher, int depth, int64_t nodes, int64_t movetime);

/* Sets the clock of the searches to come (clock->on false: none, as after searcher_init); the
 * time manager (timeman.h, the config's tm_* rows) turns it into each search's soft and hard
 * limits, on top of depth=, nodes= and movetime=. With clock->nodestime, time is nodes searched
 * divided by it, for the clock and for movetime=: the search is then as reproducible as under
 * nodes=. Not while a search runs. */
void search_set_clock(Searcher *searcher, const SearchClock *clock);

/* Asks a running search to stop (thread-safe); it returns the last finished pass. The request
 * ends that search only: the next search_run starts with it cleared. */
void search_stop(Searcher *searcher);

/* The positions null-move pruning is never tried in: a side to move with two legal moves or
 * fewer (none: the game is lost; one or two: zugzwang is likely), and the sheep once they slide
 * (in_hand 0: they must move, and any move can open a jump). */
bool search_nullmove_excluded(const Board *b);
