// SPDX-License-Identifier: MIT
// A run's output files (-out, -pgnout, -plot, -html) under the output discipline (cli/output.h):
// checked before the first game is played, and never silently replaced. A fresh run moves the
// files of an earlier finished run aside (NAME.EXT -> NAME.N.EXT) and says so; it refuses to
// start over an unfinished run, which -resume continues.
#pragma once

#include "output.h"
#include "paths.h"
#include "program_identity.h"
#include "settings.h"

#include <stdio.h>

/* A run's output plan (cli/output.h), and the storage of the paths it resolved. */
typedef struct {
    OutputPlan plan;
    char sliding[PATHS_MAX]; /* -blunders without -tb: the default sliding file it reads */
    char programs[TOURNAMENT_RUN_ENGINES_MAX][PROGRAM_PATH_MAX]; /* the engine programs' files */
} RunOutputs;

/* The run's plan into outputs (filled in place: the plan points into it and into settings):
 * the results file, records, plot and page against the book, the tablebase, the placement
 * layers of -blunders and the file resumed. Creates the directories each output needs and
 * checks that each can be written (a directory in the way, a missing permission or a
 * read-only file system fails here, before any game). */
bool outputs_check_writable(const MatchSettings *settings, RunOutputs *outputs, Error *err);

/* For a fresh run, after outputs_check_writable: a results file of an unfinished run is an
 * error that says how to resume it; otherwise existing outputs are renamed with the first free
 * number N and each move is reported on out. */
bool outputs_prepare_fresh(const RunOutputs *outputs, FILE *out, Error *err);

/* Whether path holds a results file of an unfinished run (running or interrupted), with the
 * command that resumes it in hint (an OutputUnfinished, cli/output.h). */
bool outputs_results_unfinished(const char *path, char *hint, size_t size);
