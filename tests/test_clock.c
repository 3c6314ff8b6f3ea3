// SPDX-License-Identifier: MIT
// Time controls (lib/game/clock.c): fastchess's tc= and st= grammar with exact errors, their text
// and PGN forms, and the clock arithmetic (increments, periods, the flag at the boundary),
// against figures worked out by hand.
#include "clock.h"
#include "test_util.h"

static void grammar__valid_time_controls(void **state) {
    (void)state;
    static const struct {
        const char *text;
        int moves;
        int64_t time, increment;
        const char *echo;
    } rows[] = {
        {"10+0.1", 0, 10000, 100, "10+0.1"},        {"40/60", 40, 60000, 0, "40/60"},
        {"0.5+0.005", 0, 500, 5, "0.5+0.005"},      {"60", 0, 60000, 0, "60"},
        {"40/60+0.6", 40, 60000, 600, "40/60+0.6"}, {"0+1", 0, 0, 1000, "0+1"},
        {"1.250+0.010", 0, 1250, 10, "1.25+0.01"},  {"864000", 0, 864000000, 0, "864000"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        TimeControl tc;
        Error err;
        char echo[CLOCK_TEXT_MAX];
        if (!clock_parse_tc(rows[i].text, &tc, &err))
            fail_msg("tc=%s: %s", rows[i].text, err.text);
        assert_int_equal(tc.moves, rows[i].moves);
        assert_int_equal(tc.time_ms, rows[i].time);
        assert_int_equal(tc.increment_ms, rows[i].increment);
        assert_int_equal(tc.fixed_ms, 0);
        assert_string_equal(clock_text(&tc, echo), rows[i].echo);
        assert_string_equal(clock_pgn_text(&tc, echo), rows[i].echo);
    }
    TimeControl st;
    Error err;
    char text[CLOCK_TEXT_MAX];
    assert_true(clock_parse_st("0.1", &st, &err));
    assert_int_equal(st.fixed_ms, 100);
    assert_string_equal(clock_text(&st, text), "0.1/move");
    assert_string_equal(clock_pgn_text(&st, text), "-");
}

static void grammar__invalid_time_controls_say_why(void **state) {
    (void)state;
    static const char *const rows[][2] = {
        {"", "tc=: the time is empty"},
        {"10+", "tc=10+: the increment is empty"},
        {"abc", "tc=abc: the time 'abc' is not a number of seconds"},
        {"-5", "tc=-5: the time '-5' is not a number of seconds"},
        {"10+-1", "tc=10+-1: the increment '-1' is not a number of seconds"},
        {"1e3", "tc=1e3: the time '1e3' is not a number of seconds"},
        {"10.", "tc=10.: the time '10.' is not a number of seconds"},
        {".5", "tc=.5: the time '.5' is not a number of seconds"},
        {"0.0005", "tc=0.0005: the time '0.0005' is finer than a millisecond"},
        {"864001", "tc=864001: the time '864001' is more than 864000 seconds"},
        {"99999999", "tc=99999999: the time '99999999' is more than 864000 seconds"},
        {"0", "tc=0: no time at all (SECONDS or INCREMENT must be above zero)"},
        {"0+0", "tc=0+0: no time at all"},
        {"0/60", "tc=0/60: MOVES: 0 is out of range 1..10000"},
        {"x/60", "tc=x/60: MOVES: 'x' is not an integer"},
        {"40/0+1", "tc=40/0+1: a period of 40 moves needs time (SECONDS above zero)"},
        {"10+1/40", "tc=10+1/40: the form is [MOVES/]SECONDS[+INCREMENT]"},
        {"40/60/5", "tc=40/60/5: the time '60/5' is not a number of seconds"},
        {"inf", "tc=inf: the time 'inf' is not a number of seconds"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        TimeControl tc;
        Error err = {{0}};
        if (clock_parse_tc(rows[i][0], &tc, &err) || !strstr(err.text, rows[i][1]))
            fail_msg("tc=%s said '%s', not '%s'", rows[i][0], err.text, rows[i][1]);
    }
    TimeControl st;
    Error err;
    assert_false(clock_parse_st("0", &st, &err));
    assert_string_equal(err.text, "st=0: the time per move must be above zero");
    assert_false(clock_parse_st("0.1s", &st, &err));
    assert_string_equal(err.text, "st=0.1s: the time per move '0.1s' is not a number of seconds");
}

/* 10+0.1 as fastchess keeps it: 10000 + 100 ms for the first move; a move of 300 ms leaves
 * 9800, then the next move's 100. The fastshogi/fastchess test's figures: 10000+100, a move of
 * 5555 ms, then 4745 (100 past zero, within the 100 ms margin), then 10251 (past it). */
static void clock__increment_after_each_move(void **state) {
    (void)state;
    TimeControl tc = {0, 10000, 100, 0};
    Clock c = clock_start(&tc);
    assert_int_equal(c.left_us, 10100000);
    assert_true(clock_after_move(&c, &tc, 300000, 0));
    assert_int_equal(c.left_us, 9900000);
    assert_true(clock_after_move(&c, &tc, 0, 0));
    assert_int_equal(c.left_us, 10000000);
    /* Time given counts per move made: 10 s and the two moves' increments; the third
     * increment waits for a third move. */
    assert_int_equal(c.given_us, 10200000);
    assert_int_equal(c.pending_us, 100000);
    Clock f = clock_start(&tc);
    assert_true(clock_after_move(&f, &tc, 5555000, 100));
    assert_int_equal(f.left_us, 4645000);
    assert_true(clock_after_move(&f, &tc, 4745000, 100)); /* 100 ms past zero: kept, at zero */
    assert_int_equal(f.left_us, 100000);
    assert_false(clock_after_move(&f, &tc, 10251000, 100));
    /* A microsecond counts: 0.4 ms moves are not free. */
    Clock fine = clock_start(&tc);
    assert_true(clock_after_move(&fine, &tc, 400, 0));
    assert_int_equal(fine.left_us, 10199600);
}

/* 2/1: two moves a second, then a second more for the next two. */
static void clock__periods_give_time_again(void **state) {
    (void)state;
    TimeControl tc = {2, 1000, 0, 0};
    Clock c = clock_start(&tc);
    assert_int_equal(c.moves_left, 2);
    assert_true(clock_after_move(&c, &tc, 400000, 0));
    assert_int_equal(c.left_us, 600000);
    assert_int_equal(c.moves_left, 1);
    assert_true(clock_after_move(&c, &tc, 500000, 0)); /* the period ends: 100 + 1000 */
    assert_int_equal(c.left_us, 1100000);
    assert_int_equal(c.moves_left, 2);
    assert_int_equal(c.given_us, 1000000); /* the second period counts from its first move */
    assert_true(clock_after_move(&c, &tc, 1100000, 0)); /* exactly all of it */
    assert_int_equal(c.left_us, 0);
    assert_false(clock_after_move(&c, &tc, 1, 0)); /* the flag falls */
}

/* The flag falls one microsecond past the time left plus the margin, not at it. */
static void clock__flag_at_the_boundary(void **state) {
    (void)state;
    TimeControl tc = {0, 1000, 0, 0};
    Clock at = clock_start(&tc), past = clock_start(&tc);
    assert_true(clock_after_move(&at, &tc, 1100000, 100));
    assert_int_equal(at.left_us, 0);
    assert_false(clock_after_move(&past, &tc, 1100001, 100));
    TimeControl st = {0, 0, 0, 100};
    Clock fixed = clock_start(&st);
    assert_true(clock_after_move(&fixed, &st, 150000, 50));
    assert_int_equal(fixed.left_us, 100000); /* every move has the same time again */
    assert_int_equal(fixed.given_us, 100000); /* st=: the fixed time of each move made */
    assert_false(clock_after_move(&fixed, &st, 150001, 50));
    /* An increment-only control gives the increment before the first move. */
    TimeControl inc = {0, 0, 50, 0};
    Clock only = clock_start(&inc);
    assert_int_equal(only.left_us, 50000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grammar__valid_time_controls),
        cmocka_unit_test(grammar__invalid_time_controls_say_why),
        cmocka_unit_test(clock__increment_after_each_move),
        cmocka_unit_test(clock__periods_give_time_again),
        cmocka_unit_test(clock__flag_at_the_boundary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
