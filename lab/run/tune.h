// SPDX-License-Identifier: MIT
// `abtest tune`: SPSA over search options (lab/stats/spsa.h for the arithmetic). Each iteration
// plays the configuration at theta + c_k * delta against theta - c_k * delta over a number of
// pairs from the book, then moves theta; the tuning file records every finished iteration, so a
// run resumes exactly. docs/tuning.md.
#pragma once

#include "error.h"
#include "tune_file.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


typedef struct Tune Tune;

/* Where an iteration's pairs are played when not on this process's threads alone: MPI ranks
 * (lab/mpi/tune_ranks.c). A pair's result depends on its engines, opening and index only, so
 * who plays it does not change the trajectory. */
typedef struct {
    void *context;
    int default_threads;           /* this process's game threads when -concurrency is not given */
    const char *tablebase_refusal; /* why -tb cannot be honoured (NULL: it can) */
    /* Once the run is parsed and its games are ready; argv: the run's arguments. */
    bool (*begin)(void *context, Tune *tune, int argc, char **argv, Error *err);
    /* Iteration k at the current theta: half_points[j] (0..4, engine plus) for every pair. */
    bool (*play)(void *context, Tune *tune, int64_t k, int half_points[], Error *err);
    void (*end)(void *context, Tune *tune);
    /* The run stops before begin (bad arguments): the ranks are told there is none. */
    void (*cancel)(void *context);
} TuneRemote;

/* argv after "tune"; remote NULL: every pair on this process's threads. The exit status. */
int abtest_tune_main(int argc, char **argv, const TuneRemote *remote);

/* A run: its arguments parsed, book, order and tablebase loaded; -tb refused with
 * tablebase_refusal when that is not NULL. NULL after saying why in err. */
Tune *tune_open(int argc, char **argv, int default_threads, const char *tablebase_refusal,
                Error *err);
void tune_close(Tune *t);

int tune_pairs(const Tune *t);   /* per iteration */
int tune_threads(const Tune *t); /* -concurrency, or the default given */
int tune_param_count(const Tune *t);
void tune_theta(const Tune *t, double theta[]);
void tune_set_theta(Tune *t, const double theta[]);

/* What every rank must share: engines, options, book (lab/match/fingerprint.h). */
bool tune_fingerprint(const Tune *t, char *text, size_t size, Error *err);

/* Plays the pairs offsets[0..count) of iteration k (pair index (k - 1) * pairs + offset) at the
 * current theta on up to threads threads; half_points[i] for offsets[i]. abort, when set,
 * stops the games (the call then fails). */
bool tune_play(Tune *t, int64_t k, const int offsets[], int count, int threads, atomic_bool *abort,
               int half_points[], Error *err);
