// SPDX-License-Identifier: MIT
// Time controls in fastchess's grammar and the clocks a match keeps with them: the arithmetic
// only (what is left after a move, when the flag falls), in whole microseconds, so that the same
// moves and times give the same clocks everywhere. Who measures the time is the caller's job.
#pragma once

#include "error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Seconds a time control may give (ten days): beyond it is a typo, not a test. */
#define CLOCK_SECONDS_MAX 864000
#define CLOCK_TEXT_MAX 64

typedef struct {
    int moves;            /* moves per period; 0: the whole game is one period */
    int64_t time_ms;      /* time of each period */
    int64_t increment_ms; /* added after each move */
    int64_t fixed_ms;     /* st=: each move has exactly this (0: a clock, above) */
} TimeControl;

/* fastchess's tc=: [MOVES/]SECONDS[+INCREMENT] ("10+0.1", "40/60", "0.5+0.005"): seconds with
 * at most three decimals (a millisecond), MOVES a whole number from 1, some time in all (SECONDS
 * or INCREMENT above zero). False with what is wrong, naming the text. */
bool clock_parse_tc(const char *text, TimeControl *tc, Error *err);

/* fastchess's st=SECONDS: a fixed time per move (st=0.1 is 100 ms). */
bool clock_parse_st(const char *text, TimeControl *tc, Error *err);

/* The time control as tc= or st= writes it ("10+0.1", "40/60", "st=0.1" as "0.1/move"). */
char *clock_text(const TimeControl *tc, char out[CLOCK_TEXT_MAX]);

/* The PGN standard's TimeControl tag: "40/60", "10+0.1" (seconds, the increment after "+"),
 * "60" for sudden death; a fixed time per move has no form there and gives "-". */
char *clock_pgn_text(const TimeControl *tc, char out[CLOCK_TEXT_MAX]);

/* One side's clock during a game, in microseconds: a move measured to the microsecond is charged
 * what it took (a whole-millisecond clock would give moves under a millisecond for free). */
typedef struct {
    int64_t left_us;  /* time left on the clock (the fixed time, under st=) */
    int moves_left;   /* moves to the end of the period; 0 without periods */
    int64_t given_us;   /* the time the clock gave the moves made so far: the start, their
                           increments, the periods they began (under st=, the fixed time of
                           each move) */
    int64_t pending_us; /* given to the clock for the next move, counted in given_us when it is
                           made: a game's last increment or period, never used, is not given */
} Clock;

/* A side's clock at the start of a game, as fastchess starts it: the first period's time and
 * the first move's increment (under st=, the fixed time). */
Clock clock_start(const TimeControl *tc);

/* After a move that took elapsed_us: false when the flag fell (elapsed_us beyond the time left
 * plus margin_ms), else the clock goes on: the time spent taken off (never below zero), the
 * increment of the next move added, and at the end of a period its time given again. Under st=
 * the clock is the fixed time again. */
bool clock_after_move(Clock *clock, const TimeControl *tc, int64_t elapsed_us, int64_t margin_ms);
