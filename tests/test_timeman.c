// SPDX-License-Identifier: MIT
// The time manager's limits against figures worked by hand from its formula (timeman.h), and a
// clocked search under nodestime: its node count follows from the budget alone.
#include "search.h"
#include "test_util.h"

#include <stdlib.h>

static SearchConfig config_with(int moves, int soft, int hard, int overhead) {
    SearchConfig c = config_default();
    c.tm_moves = moves;
    c.tm_soft = soft;
    c.tm_hard = hard;
    c.tm_overhead = overhead;
    return c;
}

/* Sudden death 10+0.1 at the start (fastchess gives 10100 ms): the defaults (30 moves, 60%,
 * 300%, 1 ms) share (10100 - 1) / 30 + 100 = 336.633 + 100 ms; soft 60% of it, hard 300%. */
static void budget__sudden_death(void **state) {
    (void)state;
    SearchConfig c = config_with(30, 60, 300, 1);
    SearchClock clock = {true, 10100, 100, 0, 0};
    TimeBudget b = timeman_budget(&c, &clock);
    /* share = 10099000 / 30 + 100000 = 336633 + 100000 = 436633 us */
    assert_int_equal(b.soft_us, 436633 / 100 * 60);
    assert_int_equal(b.hard_us, 436633 / 100 * 300);
}

/* A period's end comes sooner than tm_moves: movestogo shares among fewer moves; on its last
 * move the whole clock (less the overhead) may go, never more. */
static void budget__moves_to_go(void **state) {
    (void)state;
    SearchConfig c = config_with(30, 60, 300, 0);
    SearchClock clock = {true, 1000, 0, 4, 0};
    TimeBudget b = timeman_budget(&c, &clock);
    assert_int_equal(b.soft_us, 250000 / 100 * 60); /* share 1000 / 4 = 250 ms */
    assert_int_equal(b.hard_us, 500000);            /* 750 ms capped at half the clock */
    clock.moves_to_go = 1;
    b = timeman_budget(&c, &clock);
    assert_int_equal(b.hard_us, 1000000); /* 3000 ms capped at all of it */
    assert_int_equal(b.soft_us, 600000);
}

/* An empty clock (after an overrun within the margin) leaves the increment; a clock below the
 * overhead leaves nothing, and the limits stay at one microsecond (pass 1 always finishes). */
static void budget__low_clock(void **state) {
    (void)state;
    SearchConfig c = config_with(30, 60, 300, 5);
    SearchClock clock = {true, 3, 10, 0, 0};
    TimeBudget b = timeman_budget(&c, &clock);
    assert_int_equal(b.hard_us, 1);
    assert_int_equal(b.soft_us, 1);
    c.tm_overhead = 0;
    clock.time_left_ms = 40; /* share 40/30 + 10 = 11.333 ms; cap 20 ms */
    b = timeman_budget(&c, &clock);
    assert_int_equal(b.soft_us, 11333 / 100 * 60);
    assert_int_equal(b.hard_us, 20000);
}

/* The soft limit never passes the hard one. */
static void budget__soft_within_hard(void **state) {
    (void)state;
    SearchConfig c = config_with(30, 500, 200, 0);
    SearchClock clock = {true, 3000, 0, 0, 0};
    TimeBudget b = timeman_budget(&c, &clock);
    assert_int_equal(b.hard_us, 200000);
    assert_int_equal(b.soft_us, 200000);
}

static SearchResult clocked_search(SearchConfig config, SearchClock clock) {
    config.depth = SEARCH_MAX_DEPTH;
    Searcher *s = malloc(sizeof *s);
    Error err;
    assert_true(searcher_init(s, &config, &err));
    search_set_clock(s, &clock);
    Board start = board_start();
    SearchResult r = search_run(s, &start, NULL, 0);
    searcher_destroy(s);
    free(s);
    return r;
}

/* Under nodestime the hard limit is a node budget: hard_us * nodestime / 1000 nodes, and the
 * search stops one node past it (as nodes= does); the same clock gives the same search. */
static void nodestime__budget_in_nodes(void **state) {
    (void)state;
    SearchConfig c = config_with(30, 1000, 100, 0); /* soft = hard: the pass is always cut */
    SearchClock clock = {true, 3000, 0, 0, 50};     /* share 100 ms = 5000 nodes */
    SearchResult a = clocked_search(c, clock);
    SearchResult b = clocked_search(c, clock);
    assert_true(a.stopped);
    assert_int_equal(a.stats.nodes, 5001);
    assert_int_equal(b.stats.nodes, a.stats.nodes);
    assert_int_equal(b.move, a.move);
    assert_int_equal(b.depth, a.depth);
    /* With nodes= below it, nodes= is the limit. */
    c.nodes = 3000;
    assert_int_equal(clocked_search(c, clock).stats.nodes, 3001);
}

/* The soft limit ends the deepening between passes: a search given a large hard limit and a
 * small soft one finishes its last pass (not stopped) past the soft limit's nodes. */
static void nodestime__soft_limit_between_passes(void **state) {
    (void)state;
    SearchConfig c = config_with(30, 10, 1000, 0);
    SearchClock clock = {true, 3000, 0, 0, 50}; /* share 100 ms: soft 10 ms = 500 nodes */
    SearchResult r = clocked_search(c, clock);
    assert_false(r.stopped);
    assert_true(r.stats.nodes > 500);
    assert_true(r.stats.nodes < 100 * 50 * 10);
}

/* movetime= under nodestime: a node budget of movetime * nodestime. */
static void nodestime__movetime(void **state) {
    (void)state;
    SearchConfig c = config_default();
    c.movetime = 20;
    SearchClock clock = {false, 0, 0, 0, 100};
    SearchResult r = clocked_search(c, clock);
    /* Cut at the hard limit one node past 20 * 100, or ended between passes past half of it. */
    if (r.stopped)
        assert_int_equal(r.stats.nodes, 2001);
    else
        assert_true(r.stats.nodes > 1000 && r.stats.nodes <= 2001);
}

/* The largest values the options and the protocol take: a clock of 2^50 ms, increments of
 * 2^50 ms, nodestime a billion, movetime 2^50 ms. The arithmetic saturates (under UBSan, make
 * sanitize, an overflow would stop the test): the limits become ones no search reaches, and a
 * depth-limited search still ends at its depth. */
static void limits__largest_values_saturate(void **state) {
    (void)state;
    SearchConfig c = config_with(30, 60, 300, 1);
    SearchClock clock = {true, INT64_C(1) << 50, INT64_C(1) << 50, 0, 1000000000};
    TimeBudget b = timeman_budget(&c, &clock);
    assert_true(b.hard_us > 0 && b.soft_us > 0 && b.soft_us <= b.hard_us);
    c.depth = 3;
    c.movetime = INT64_C(1) << 50;
    Searcher *s = malloc(sizeof *s);
    Error err;
    assert_true(searcher_init(s, &c, &err));
    search_set_limits(s, 3, 0, INT64_C(1) << 50);
    search_set_clock(s, &clock);
    Board start = board_start();
    SearchResult r = search_run(s, &start, NULL, 0);
    assert_int_equal(r.depth, 3);
    assert_false(r.stopped);
    SearchClock plain = {false, 0, 0, 0, 1000000000};
    search_set_clock(s, &plain);
    r = search_run(s, &start, NULL, 0);
    assert_int_equal(r.depth, 3);
    searcher_destroy(s);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(budget__sudden_death),
        cmocka_unit_test(limits__largest_values_saturate),
        cmocka_unit_test(budget__moves_to_go),
        cmocka_unit_test(budget__low_clock),
        cmocka_unit_test(budget__soft_within_hard),
        cmocka_unit_test(nodestime__budget_in_nodes),
        cmocka_unit_test(nodestime__soft_limit_between_passes),
        cmocka_unit_test(nodestime__movetime),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
