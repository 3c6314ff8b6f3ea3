// SPDX-License-Identifier: MIT
// A rank's share of an SPSA iteration, played on its game threads in the background while the
// rank keeps talking to the others (rank 0 hears the ranks; the others send heartbeats).
#pragma once

#include "tune.h"

typedef struct TuneShare TuneShare;

/* Starts playing offsets[0..count) of iteration k at the current theta on threads threads;
 * half_points[i] receives offsets[i]'s result. The arrays must outlive the share. NULL when
 * the thread cannot start (err says why). */
TuneShare *tune_share_start(Tune *tune, int64_t k, const int offsets[], int count, int threads,
                            int half_points[], Error *err);

/* True once every game of the share is over (or it failed). */
bool tune_share_finished(TuneShare *share);

/* Stops its games early; the share then fails. */
void tune_share_abort(TuneShare *share);

/* Waits for it, frees it; false with err when a game could not be played or it was aborted. */
bool tune_share_join(TuneShare *share, Error *err);
