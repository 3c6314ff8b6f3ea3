// SPDX-License-Identifier: MIT
// A rank other than 0 under `abtest-mpi tune`: it parses the run rank 0 sends, proves its
// fingerprint, then plays the pairs of each iteration it is handed at the theta it is given and
// returns their scores, sending ALIVE while it plays, until rank 0 says stop.
#pragma once

/* Returns the rank's exit code: 0, also when rank 0 stopped the run before play. */
int tune_worker_main(int default_threads);
