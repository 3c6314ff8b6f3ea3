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
// A checked plan is the only way to open an output: output_begin, output_write_text,
// output_write_json and output_open_records refuse a path the plan does not hold, or a plan not
// checked. tools/check_layers.sh fails the build's tests when code outside this file and
// lib/util/outfile.c opens a file to write.
#pragma once

#include "error.h"
#include "outfile.h"

#include <cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#define OUTPUT_PLAN_MAX 48 /* bench tbplace: 40 layers and their input */
#define OUTPUT_PLAN_DIRS 4

/* Whether the file at path holds an unfinished run of its kind; if so, resume_hint says how far
 * it got and how to go on with it ("(40 of 200 iterations): continue it with `abtest tune
 * -resume F`"). */
typedef bool (*OutputUnfinished)(const char *path, char *resume_hint, size_t size);

typedef struct {
    const char *option; /* as the user gave it: "-out", "-json", "-openings file" */
    const char *path;
    OutputUnfinished unfinished; /* outputs only; NULL: an earlier file is just moved aside */
} OutputRole;

/* Whether a file name (no directory) in an input directory is one of its inputs. */
typedef bool (*OutputDirMember)(const char *name);

/* A directory whose files of one kind are inputs (the placement layers of -dir or -blunders):
 * an output there under such a name is refused, whether or not the file exists yet. */
typedef struct {
    const char *option, *path, *what; /* what: "the placement layers" */
    OutputDirMember member;
} OutputDirRole;

typedef struct {
    OutputRole outputs[OUTPUT_PLAN_MAX];
    OutputRole inputs[OUTPUT_PLAN_MAX];
    OutputDirRole input_dirs[OUTPUT_PLAN_DIRS];
    int output_count, input_count, input_dir_count;
    bool overflow; /* more roles than the arrays hold: output_plan_check fails */
    bool checked;  /* output_plan_check passed: its outputs may be opened */
    const char *tablebase_magic; /* bench tbgen and tbplace: the kind of tablebase file the plan
                                    writes (TB_FILE_MAGIC, TB_PLACE_FILE_MAGIC), which an output
                                    may be and is replaced, not moved aside; NULL: none */
} OutputPlan;

/* An output of the command (NULL, "" and "-", standard output, are not files: skipped). */
void output_plan_add(OutputPlan *plan, const char *option, const char *path,
                     OutputUnfinished unfinished);

/* An input of the command: no output may be it (NULL and "" skipped). */
void output_plan_input(OutputPlan *plan, const char *option, const char *path);

/* Files of dir that member accepts are inputs of the command (NULL and "" skipped). */
void output_plan_input_dir(OutputPlan *plan, const char *option, const char *dir, const char *what,
                           OutputDirMember member);

/* Step 1 above (and a tablebase or placement layer file, known by its first bytes, is never an
 * output but of the plan that writes that kind); marks the plan checked. False naming the option, the path and what is
 * wrong. */
bool output_plan_check(OutputPlan *plan, Error *err);

/* Step 2, for a fresh run, after output_plan_check: notes go to notes (one line per file moved,
 * "note: F existed (an earlier run): moved to G"). False, nothing moved, when an output holds
 * an unfinished run, or a file cannot be moved. */
bool output_plan_move_aside(const OutputPlan *plan, FILE *notes, Error *err);

/* Takes the lock of a long-running writer's output; the refusal names option, path and, when
 * another process holds it, that process and what two writers on one file would do
 * ("interleave their records", "lose one of the two runs"). */
bool output_lock(OutLock *lock, const char *option, const char *path, const char *tool,
                 const char *harm, Error *err);

/* Begins writing the planned output path whole (outfile_begin, its directories made first):
 * then write out->f and outfile_commit or outfile_abandon. False when path is not an output of
 * the checked plan, or cannot be begun. */
bool output_begin(const OutputPlan *plan, OutFile *out, const char *path, Error *err);

/* Opens the planned output path to append records as they come (a run's game records): fresh
 * (emptied) or, to resume, at its end. NULL with the reason, as output_begin. */
FILE *output_open_records(const OutputPlan *plan, const char *path, bool fresh, Error *err);

/* text written whole as the planned output path ("-": standard output, where a write error is
 * also an error). */
bool output_write_text(const OutputPlan *plan, const char *text, const char *path, Error *err);

/* json as output_write_text writes text: numbers exact (json_text.h), a newline at the end. */
bool output_write_json(const OutputPlan *plan, const cJSON *json, const char *path, Error *err);

/* A plan of one output, checked: for a command whose only file is path ("-" or NULL: none).
 * False naming option and what is wrong. */
bool output_plan_single(OutputPlan *plan, const char *option, const char *path, Error *err);

/* Standard output flushed and checked: false with the reason when a write to it failed (a full
 * disk behind a redirection, a closed pipe). For commands whose result is what they print. */
bool output_stdout_ok(Error *err);
