// SPDX-License-Identifier: MIT
// An engine program's bench, position by position (`bench compare -base-engine`, `bench check
// -engine`): the positions go to the program as a positions file, which its `bench` runs with
// Stockfish's arguments (`bench TTSIZE 1 DEPTH FILE depth`); its per-position lines (tslab's
// "info string bench position ...") and its total are read back. With N processes, position i
// goes to process i mod N, each with a file of its own: results do not depend on N, since a
// bench searches every position from an empty cache.
#pragma once

#include "book.h"
#include "engine_spec.h"
#include "program_reply.h"

#include <stdatomic.h>
#include <stdio.h>

typedef struct {
    char move[PROGRAM_REPLY_MOVE_MAX];
    int score, depth;
    uint64_t nodes;
} ProgramBenchRow;

typedef struct {
    ProgramBenchRow *rows; /* one per position, in the positions' order (malloc'd) */
    int count;
    uint64_t nodes;      /* their sum */
    double wall_seconds; /* from starting the first process to stopping the last */
    double cpu_seconds;  /* user and system time of the processes, start-up included */
} ProgramBenchRun;

typedef struct {
    const EngineSpec *spec; /* the program (cmd, args, dir, options; startup= bounds its start) */
    int depth;
    int tt_megabytes; /* Stockfish's ttSize: tslab reads 2^k MB as tt_bits = 16 + k */
    int processes;    /* 1.. */
    FILE *progress;   /* where to say what is running and how far it is (NULL: nowhere) */
    atomic_bool *stop; /* set (by a signal handler) to stop every process within 100 ms, each
                          removing its positions file; the run then fails ("aborted"). NULL:
                          none. A process that fails sets it too, to stop the others */
} ProgramBenchJob;

/* Runs entries[0..count) through job's program. On job->progress: a line when it starts (the
 * positions, depth, processes and the stall deadline), then "position I of N" as lines come, at
 * most one a second, and the last. False with the reason (naming the program) when
 * a process cannot start, answers with an error, leaves out a position or answers another one,
 * or prints no per-position lines (a program other than tslab's engine of 0.4.1 or later). */
bool program_bench_run(const ProgramBenchJob *job, const BookEntry *entries, int count,
                       ProgramBenchRun *out, Error *err);

void program_bench_destroy(ProgramBenchRun *run);
