// SPDX-License-Identifier: MIT
// Accuracy against perfect play: for each suite position in the sliding phase, whether the
// search's move keeps the tablebase's value (a win stays a win, a draw a draw; a loss always
// stays one) and whether it is optimal (the fastest win, the slowest loss).
#pragma once

#include "tablebase.h"

#include <cJSON.h>
#include <stdio.h>

struct BenchRun;

#define BENCH_TB_MISSES_MAX 256 /* ids of the positions whose move loses the value */

typedef struct {
    bool measured;           /* a tablebase was found */
    int positions;           /* suite positions in the sliding phase */
    int wins, losses, draws; /* their values for the side to move */
    int kept, optimal;
    char misses[BENCH_TB_MISSES_MAX]; /* "tb4 move3 ..." */
} BenchTbAccuracy;

/* Fills out from the run's moves (out->measured false when tb is NULL). */
void bench_tb_accuracy(const struct BenchRun *run, const Tablebase *tb, BenchTbAccuracy *out);

/* "tablebase: 36 sliding-phase positions (12 wins, 12 losses, 12 draws): the move keeps the
 * value in 33 (91.7%), optimal in 25 (69.4%); lost it: tb4 move3 trap1", or the line saying
 * how to get the tablebase. */
void bench_tb_print(const BenchTbAccuracy *accuracy, FILE *out);

/* {"positions": ..., "wins", "losses", "draws", "kept", "optimal", "accuracy", "misses": [...]},
 * or null when not measured. */
cJSON *bench_tb_json(const BenchTbAccuracy *accuracy);
