// SPDX-License-Identifier: MIT
// nodestime=auto: before the first game, abtest measures the nodes per millisecond of each engine
// that asks for it, on this machine, from fixed wall-clock searches of the book's positions. The
// engines are measured in turns, round by round (the order reversed every other round), so that
// every engine meets the same load; a round's sample is its searches' nodes over their time. The
// median of the rounds becomes the engine's nodestime, and the run is from then on the
// reproducible nodestime run it would have been with that number typed in.
#pragma once

#include "book.h"
#include "settings.h"

#include <stdatomic.h>
#include <stdio.h>

/* Rounds, searches a round, and each search's time: 9 x 8 x 25 ms = 1.8 s an engine (programs
 * add their start-up). Nine rounds make the 2nd and 8th order statistics a 96.1% interval of
 * the median (1 - 2 P(Bin(9, 1/2) <= 1)), whatever the samples' law. */
#define CALIBRATE_ROUNDS 9
#define CALIBRATE_SEARCHES 8
#define CALIBRATE_MOVETIME_MS 25
#define CALIBRATE_LOW_RANK 2 /* 1-based order statistics of the interval */
#define CALIBRATE_HIGH_RANK 8

/* An in-process engine's searches that had less than this share of a core were slowed by
 * other work on the machine: the measurement says so. */
#define CALIBRATE_BUSY_SHARE 0.9

/* What one doubling of the nodes a move is worth to this search in self-play, in logistic Elo:
 * the scale on which an error in a measured speed ratio is read. Measured at the clocks' node
 * counts (tc=0.2+0.002 gives about 100,000 nodes a move): nodes=200000 against nodes=100000,
 * +46.3 +/- 18.6 over 200 pairs (results/ledger/doubling_100k.json; at 20,000 against 40,000
 * it is +56.1 +/- 16.3, doubling_20k.json). */
#define CALIBRATE_DOUBLING_ELO 46.0

/* Measures every engine of the settings with nodestime=auto that has no measurement yet (a
 * resumed run has its recorded one), prints each result on out, and sets its nodestime to the
 * median. False when an engine cannot be measured (a program that does not finish a search
 * within its movetime and timemargin, or reports no nodes), with the reason; "aborted" when
 * abort was raised. */
bool calibrate_engines(MatchSettings *settings, const Book *book, const atomic_bool *abort,
                       FILE *out, Error *err);

/* A measured engine's recorded calibration (a resumed run's): its nodestime must be the median
 * of its samples, and the interval theirs. False naming the engine, the field and both values:
 * an edited nodestime would make the run go on at another speed. */
bool calibrate_recorded_agrees(const EngineSpec *spec, Error *err);

/* The speed ratio of two engines' nodestimes (first over second) and its interval: from the
 * rounds' paired ratios when both were measured together, from the measured one's interval
 * when one was, none when neither was. */
typedef struct {
    bool known;
    double ratio, low, high;
} SpeedRatio;

SpeedRatio calibrate_speed_ratio(const EngineTiming *first, const EngineTiming *second);

/* How much Elo an error of the ratio within its interval could explain (the larger side, at
 * CALIBRATE_DOUBLING_ELO a doubling). */
double calibrate_elo_worth(const SpeedRatio *ratio);

/* One line: "speed ratio 1.012 [0.995, 1.031] from nodestime=auto: a calibration error within
 * it is worth up to +/- 0.9 Elo" (nothing when the ratio is not known). */
void calibrate_print_ratio(FILE *out, const MatchSettings *settings);
