// SPDX-License-Identifier: MIT
// Rank 0 of build/abtest-mpi: the runner of build/abtest (lab/run/runner.c) with the other ranks as
// a remote source. It sends them the run's settings, compares their fingerprints with its own
// before any game, hands out pair numbers in batches as they ask, checks and deposits the pairs
// they send back, hands a silent rank's pairs to the others, and stops them when the run ends. All counting, reporting, checkpoints and
// resume are the runner's, so the results are those of build/abtest.
#pragma once

#include "runner.h"

typedef struct Coordinator Coordinator;

/* For a world of ranks processes; default_threads: rank 0's game threads when -concurrency is
 * not given; timeout (-rank-timeout) the seconds of silence after which a rank is lost. NULL
 * when memory is short. */
Coordinator *coordinator_new(int ranks, int default_threads, double timeout);

/* How many ranks were lost (silent past the timeout, before or during the run, or not stopping
 * at its end). Such a rank never reaches MPI_Finalize: the job must end with MPI_Abort. */
int coordinator_lost_ranks(const Coordinator *coordinator);

/* The hooks runner_run calls. */
PairRemote coordinator_remote(Coordinator *coordinator);

/* After runner_run: tells the ranks that were never sent a run that there is none, then frees
 * the coordinator. */
void coordinator_free(Coordinator *coordinator);

/* Tells every other rank there is nothing to play (rank 0 stopped before a run). */
void coordinator_send_nothing(int ranks);
