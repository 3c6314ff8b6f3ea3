// SPDX-License-Identifier: MIT
// Rank 0 of `abtest-mpi tune`: the tuner of build/abtest (lab/run/tune.c) with each iteration's
// pairs shared among the ranks in proportion to their game threads (messages.h has the
// conversation). The other ranks compute nothing of the schedule: they receive theta and the
// pairs, and return each pair's score. A rank silent for -rank-timeout seconds while it holds
// pairs is lost, and rank 0 plays them; the trajectory is the same either way.
#pragma once

#include "tune.h"

typedef struct TuneRanks TuneRanks;

/* For a world of ranks processes; timeout: -rank-timeout. NULL when memory is short. */
TuneRanks *tune_ranks_new(int ranks, int default_threads, double timeout);

/* The hooks abtest_tune_main calls. */
TuneRemote tune_ranks_remote(TuneRanks *ranks);

/* Ranks lost (silent past the timeout, or not stopping at the end): the job must end with
 * MPI_Abort, since MPI_Finalize would wait for them. */
int tune_ranks_lost(const TuneRanks *ranks);

void tune_ranks_free(TuneRanks *ranks);
