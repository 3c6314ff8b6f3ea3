// SPDX-License-Identifier: MIT
// Time management: how long one move may take, from the side to move's clock. Pure arithmetic
// on the option table's time rows (tm_moves, tm_soft, tm_hard, tm_overhead), so that a change to
// it is a toggle abtest decides like any other variant, and the same code serves abtest's
// in-process engines and build/engine.
#pragma once

#include "config.h"

#include <stdbool.h>
#include <stdint.h>

/* The side to move's clock when a search starts. */
typedef struct {
    bool on;              /* false: no clock (then only depth=, nodes=, movetime= limit) */
    int64_t time_left_ms; /* on the clock now (0 after an overrun: the increment alone) */
    int64_t increment_ms; /* added after the move */
    int moves_to_go;      /* moves to the end of the period; 0: the rest of the game */
    /* Nodes per millisecond (fishtest's nodestime): the search's time is its nodes searched
     * divided by this, never the wall clock, so a clocked search is reproducible. 0: wall time.
     * It applies to movetime= too. */
    int64_t nodestime;
} SearchClock;

/* What one move may use, in microseconds. */
typedef struct {
    int64_t soft_us; /* no new pass starts after this */
    int64_t hard_us; /* a pass running at this point is cut off */
} TimeBudget;

/* The budget of one move: the share of the clock is (time left - tm_overhead) / moves to go
 * (tm_moves in sudden death, or fewer when the period ends sooner) plus the increment; the
 * soft limit is tm_soft percent of it, the hard limit tm_hard percent, never more than half of
 * what is left (all of it on the period's last move). Both at least 1 microsecond. */
TimeBudget timeman_budget(const SearchConfig *config, const SearchClock *clock);
