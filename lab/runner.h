// SPDX-License-Identifier: MIT
// The match runner: worker threads play pairs; the main thread counts them in pair order, runs
// the SPRT, reports, checkpoints and resumes.
#pragma once

#include "settings.h"

/* Runs (or resumes) the match the settings describe. Returns the process exit code: 0 when the
 * run ended (SPRT decision or rounds done), 130/143 when interrupted by SIGINT/SIGTERM (the
 * results are saved and the resume command printed), 2 on an error (already reported). */
int runner_run(MatchSettings *settings);
