// SPDX-License-Identifier: MIT
// Timing two runs honestly on a shared machine: the sides run interleaved (A B A B ...), each
// round's wall and CPU seconds are kept, and the summary gives per side the minimum and median,
// the ratio of the medians and the spread of the per-round ratios, as hyperfine does. One run of
// each side, one after the other, says little here: single runs of the same suite spread by a
// third on the development machine (docs/experiments.md).
#pragma once

#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TIMING_ROUNDS_MAX 100
#define TIMING_DEFAULT_ROUNDS 3

/* Samples of the two sides: [side][round], side 0 the base, side 1 the candidate. */
typedef struct {
    int rounds;
    double wall[2][TIMING_ROUNDS_MAX];
    double cpu[2][TIMING_ROUNDS_MAX];
} TimingSamples;

typedef struct {
    double wall_min, wall_median, cpu_min, cpu_median;
} TimingSide;

typedef struct {
    int rounds;
    TimingSide side[2];
    double wall_ratio, cpu_ratio;            /* side 1 over side 0, of the medians */
    double wall_ratio_low, wall_ratio_high;  /* the lowest and highest per-round ratios */
    double cpu_ratio_low, cpu_ratio_high;
} TimingSummary;

/* Adds one round (both sides' wall and CPU seconds); false when the samples are full. */
bool timing_add_round(TimingSamples *samples, const double wall[2], const double cpu[2]);

void timing_summarize(const TimingSamples *samples, TimingSummary *summary);

/* A note when the figures should not be trusted as they are, else NULL (both reasons, joined
 * by "; ", when both hold):
 * - the per-round CPU ratios spread by more than 10% (the machine's load changed between runs);
 * - with one thread, the median wall time more than 10% above the CPU time (the core was shared:
 *   the CPU ratio is the better figure). With more threads the wall time also holds the idle end
 *   of an uneven split, so that test is not made. */
const char *timing_noise_note(const TimingSummary *summary, int threads, char *out, size_t size);

/* The median of values[0..count), 1 <= count <= TIMING_ROUNDS_MAX (the mean of the middle two
 * for an even count), and the minimum. */
double timing_median(const double *values, int count);
double timing_minimum(const double *values, int count);

/* The table: per side min and median of wall and CPU seconds, then the ratios with their spread,
 * then the note if any. */
void timing_print(const TimingSummary *summary, int threads, FILE *out);

/* {"rounds", "base": {"wall": [...], "cpu": [...], "wall_median", ...}, "cand": ..., ratios}. */
cJSON *timing_json(const TimingSamples *samples, const TimingSummary *summary);
