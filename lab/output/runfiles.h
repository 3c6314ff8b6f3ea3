// SPDX-License-Identifier: MIT
// What a run keeps on disk: the results file and the game records. Both are locked for the
// session (a second abtest on the same files is refused), the records are opened fresh or cut
// back to what the results file covers, and checkpoints write the results atomically after the
// records are durable. A failed checkpoint is reported once, with what is safe.
#pragma once

#include "book.h"
#include "outfile.h"
#include "outputs.h"
#include "results.h"
#include "settings.h"

#include <stdio.h>

typedef struct {
    const MatchSettings *settings;
    RunOutputs outputs; /* the checked plan every file of the run is opened through */
    FILE *pgn;
    OutLock locks[2];      /* of the results and the records */
    int64_t saved_pairs;   /* pairs covered by the last checkpoint written (-1: none yet) */
    bool save_failed;      /* a checkpoint failed; the run stops */
    Error save_error;
} RunFiles;

/* Checks the run's outputs (outputs_check_writable, into files->outputs), then takes the locks
 * ("PATH.lock" beside the results file and the records, flock'd for the session). Fails naming
 * the file when an output cannot be written or another process holds a lock. */
bool runfiles_lock(RunFiles *files, const MatchSettings *settings, Error *err);

/* Nothing open or locked yet: what runfiles_lock starts from and runfiles_destroy accepts. */
void runfiles_init(RunFiles *files);

/* Opens the records: fresh (truncated), or for resume cut back to pgn_bytes, which the file
 * must hold (a shorter file is another run's or damaged). */
bool runfiles_open_records(RunFiles *files, bool resuming, uint64_t pgn_bytes, Error *err);

/* Flushes and syncs the records, notes their length in totals, then writes the results file
 * atomically: a match's, or with tour a tournament's (with its rating, NULL while there is
 * none). False (the error kept in files->save_error) when either fails. */
bool runfiles_checkpoint(RunFiles *files, MatchTotals *totals, TournamentTotals *tour,
                         const RatingList *rating, RunState state, const Book *book,
                         const char *command);

/* Closes the records and releases the locks. */
void runfiles_destroy(RunFiles *files);
