// SPDX-License-Identifier: MIT
// The output discipline every command that writes follows (the match, tune, booktest, book,
// report, bench's -json and -out, plots, pages), so that nothing computed is lost and nothing
// read is destroyed:
//   1. before any game or search, the plan of the command's outputs and inputs is checked: an
//      output that is an input, or another output, or a directory, FIFO, device, socket or link
//      to nothing is refused, its directory is made, and a file is created and removed beside
//      it (the one sure test that writing will work: access() says yes to root on a read-only
//      file system);
//   2. a fresh run does not replace an earlier file: one that holds an unfinished run is
//      refused with the command that resumes it, any other is moved aside (NAME.EXT ->
//      NAME.N.EXT, one N for all the run's files) and the move is said;
//   3. a long-running writer holds a lock beside its output (outfile_lock: never through a link);
//   4. every file is written whole or not at all (lib/util/outfile.h), every write checked.
#pragma once

#include "error.h"
#include "outfile.h"

#include <cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#define OUTPUT_PLAN_MAX 16

/* Whether the file at path holds an unfinished run of its kind; if so, resume_hint says how far
 * it got and how to go on with it ("(40 of 200 iterations): continue it with `abtest tune
 * -resume F`"). */
typedef bool (*OutputUnfinished)(const char *path, char *resume_hint, size_t size);

typedef struct {
    const char *option; /* as the user gave it: "-out", "-json", "-openings file" */
    const char *path;
    OutputUnfinished unfinished; /* outputs only; NULL: an earlier file is just moved aside */
} OutputRole;

typedef struct {
    OutputRole outputs[OUTPUT_PLAN_MAX];
    OutputRole inputs[OUTPUT_PLAN_MAX];
    int output_count, input_count;
    bool overflow; /* more roles than OUTPUT_PLAN_MAX: output_plan_check fails */
} OutputPlan;

/* An output of the command (NULL, "" and "-", standard output, are not files: skipped). */
void output_plan_add(OutputPlan *plan, const char *option, const char *path,
                     OutputUnfinished unfinished);

/* An input of the command: no output may be it (NULL and "" skipped). */
void output_plan_input(OutputPlan *plan, const char *option, const char *path);

/* Step 1 above. False naming the option, the path and what is wrong. */
bool output_plan_check(const OutputPlan *plan, Error *err);

/* Step 2, for a fresh run, after output_plan_check: notes go to notes (one line per file moved,
 * "note: F existed (an earlier run): moved to G"). False, nothing moved, when an output holds
 * an unfinished run, or a file cannot be moved. */
bool output_plan_move_aside(const OutputPlan *plan, FILE *notes, Error *err);

/* Takes the lock of a long-running writer's output; the refusal names option, path and, when
 * another process holds it, that process and what two writers on one file would do
 * ("interleave their records", "lose one of the two runs"). */
bool output_lock(OutLock *lock, const char *option, const char *path, const char *tool,
                 const char *harm, Error *err);

/* text written whole as path ("-": standard output, where a write error is also an error),
 * its directories made first. */
bool output_write_text(const char *text, const char *path, Error *err);

/* json as output_write_text writes text: numbers exact (json_text.h), a newline at the end. */
bool output_write_json(const cJSON *json, const char *path, Error *err);

/* Standard output flushed and checked: false with the reason when a write to it failed (a full
 * disk behind a redirection, a closed pipe). For commands whose result is what they print. */
bool output_stdout_ok(Error *err);
