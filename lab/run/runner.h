// SPDX-License-Identifier: MIT
// The match runner: the pair pool (lab/match/pair_pool.h) plays the pairs; the main thread counts
// them in pair order, runs the SPRT, reports, checkpoints and resumes. Other ranks (lab/mpi/)
// play through the same pool when remote is given.
#pragma once

#include "book.h"
#include "match.h"
#include "pair_pool.h"
#include "results.h"
#include "schedule.h"
#include "settings.h"

/* Runs (or resumes) the match the settings describe, on this machine's threads and, when
 * remote is not NULL, on the ranks behind it. Returns the process exit code: 0 when the run
 * ended (SPRT decision or rounds done), 130/143 when interrupted by SIGINT/SIGTERM (the results
 * are saved and the resume command printed), 2 on an error (already reported). */
int runner_run(MatchSettings *settings, const PairRemote *remote);

