// SPDX-License-Identifier: MIT
// One side of `bench compare` or `bench check`: an in-process configuration, or an engine program
// (a build) driven through the engine protocol's `bench` (programs/program_bench.h). Either
// way the side's run is a BenchRun with the same rows, totals, signature, timing and tablebase
// accuracy, so two builds compare as two configurations do.
#pragma once

#include "engine_spec.h"
#include "output.h"
#include "program_identity.h"
#include "flags.h"
#include "suite.h"

typedef struct {
    bool is_program;
    char file[PROGRAM_PATH_MAX]; /* a program: the file it runs (bench_side_plan_input) */
    SearchConfig config; /* in process: the search; a program: its depth and tt_bits only */
    EngineSpec engine;   /* a program: cmd, and the options sent by setoption */
    char text[PROGRAM_TEXT_MAX + PROGRAM_OPTIONS_MAX + 64]; /* what the side is, for headers */
} BenchSide;

/* An in-process side: the defaults with words applied. False naming the bad word. */
bool bench_side_config(BenchSide *side, const CliGroup *words, Error *err);

/* A program side: cmd is the program, or a directory holding `engine` (a build directory) or
 * `bin/tslab-engine` (make engine-at's OUT); words (key=value, may be absent) are sent as
 * setoption. Limits (depth, nodes, movetime) are refused: -depth sets the bench's depth. */
bool bench_side_program(BenchSide *side, const char *name, const char *cmd, const CliGroup *words,
                        Error *err);

/* How long a program's bench may take before it is given up (-stall MS): an hour by default
 * (the default bench takes 3 s, fishtest's depth 13 half a minute; a slow program at depth 16
 * takes minutes). */
#define BENCH_PROGRAM_STALL_DEFAULT_MS 3600000
#define BENCH_TEXT_OF(number) #number
#define BENCH_TEXT(number) BENCH_TEXT_OF(number) /* a macro's value as a string literal */
#define BENCH_STALL_FLAG_HELP                                                                      \
    "ms a program's bench may take before it is given up (" BENCH_TEXT(                            \
        BENCH_PROGRAM_STALL_DEFAULT_MS) ")"

/* Sets a program side's -stall (an in-process side has none). */
void bench_side_set_stall(BenchSide *side, int64_t stall_ms);

/* Sets the side's depth (and, in process, its text, which names every option and the depth). */
void bench_side_set_depth(BenchSide *side, int depth);

/* Runs entries[0..count) at the side's depth: threads in-process workers, or threads processes of
 * the program. Rows in entry order; a program's rows carry move, score, depth and nodes (its
 * other counters are unknown: zero). */
bool bench_side_run(const BenchSide *side, const BookEntry *entries, int count, int threads,
                    BenchRun *run, Error *err);

/* A program side's file (found as execvp finds it) as an input of plan, named by option: no
 * -json or -out may replace the engine under test. Nothing for a configuration, or a program
 * not found (its start says so). Dies naming what is wrong when the plan then fails. */
void bench_side_plan_input(BenchSide *side, const char *option, OutputPlan *plan,
                           const char *command);
