// SPDX-License-Identifier: MIT
// SPSA (simultaneous perturbation stochastic approximation) as OpenBench and fishtest run it:
// the input line format, the gain schedule derived from C_END and R_END, the perturbed values an
// iteration plays and the update from its result. Pure functions: no games, no files, no
// randomness of their own (the caller passes the uniform draws). docs/tuning.md.
#pragma once

#include "error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SPSA_NAME_MAX 48
#define SPSA_DEFAULT_ALPHA 0.602
#define SPSA_DEFAULT_GAMMA 0.101
#define SPSA_DEFAULT_A_RATIO 0.1
#define SPSA_INT_C_MIN 0.5 /* an integer's perturbation never falls below half a step */

typedef enum { SPSA_INT, SPSA_FLOAT } SpsaType;

/* One parameter, as one input line `NAME, int|float, START, MIN, MAX, C_END, R_END` gives it,
 * with its current value. */
typedef struct {
    char name[SPSA_NAME_MAX];
    SpsaType type;
    double start, min, max;
    double c_end; /* the perturbation at the last iteration */
    double r_end; /* the learning rate a_k / c_k^2 at the last iteration */
    double value; /* theta: the current estimate, within [min, max] */
} SpsaParam;

/* A run's settings: N iterations and the schedule's exponents. */
typedef struct {
    int64_t iterations;
    double alpha, gamma, a_ratio;
} SpsaSchedule;

SpsaSchedule spsa_schedule_default(int64_t iterations);

/* Checks a schedule: iterations >= 1, alpha and gamma in (0, 1], a_ratio >= 0. */
bool spsa_schedule_check(const SpsaSchedule *schedule, Error *err);

/* Parses one input line; err names the field that is wrong. Checks the numbers alone: MIN <
 * MAX, START within them, C_END and R_END positive (whether NAME can be tuned is the caller's).
 * value starts at START. */
bool spsa_parse_line(const char *line, SpsaParam *out, Error *err);

/* The line for p, in the input format with its current value as START (what OpenBench and
 * fishtest take), integers written as integers. */
void spsa_format_line(const SpsaParam *p, char *out, size_t size);

/* The schedule's constants (the same for every iteration): A = a_ratio * N;
 * c = C_END * N^gamma, so that c_N = C_END; a = R_END * C_END^2 * (A + N)^alpha, so that
 * a_N / c_N^2 = R_END. */
double spsa_big_a(const SpsaSchedule *schedule);
double spsa_c(const SpsaParam *p, const SpsaSchedule *schedule);
double spsa_a(const SpsaParam *p, const SpsaSchedule *schedule);

/* At iteration k (1-based): c_k = c / k^gamma (at least SPSA_INT_C_MIN for an integer),
 * a_k = a / (A + k)^alpha and r_k = a_k / c_k^2. */
double spsa_c_k(const SpsaParam *p, const SpsaSchedule *schedule, int64_t k);
double spsa_a_k(const SpsaParam *p, const SpsaSchedule *schedule, int64_t k);
double spsa_r_k(const SpsaParam *p, const SpsaSchedule *schedule, int64_t k);

/* The value an engine plays: value + sign * c_k (sign +1 or -1), clipped to [min, max]; an
 * integer is rounded stochastically, floor(x + u) with u uniform in [0, 1) drawn by the caller,
 * so that its expectation is x. */
double spsa_played(const SpsaParam *p, double c_k, int sign, double u);

/* The update after an iteration whose result (wins - losses of the engine at value + flip *
 * c_k, over its games) is known: value += r_k * c_k * result * flip, kept within [min, max].
 * Returns the new value. */
double spsa_update(SpsaParam *p, double c_k, double r_k, int flip, double result);
