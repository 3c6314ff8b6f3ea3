// SPDX-License-Identifier: MIT
// A rank other than 0: it receives the run's settings, proves its fingerprint, then plays the
// pair numbers rank 0 hands out on its game threads and sends the played pairs back, until rank
// 0 says stop. It writes nothing and prints nothing: rank 0 reports for it.
#pragma once

/* Returns the rank's exit code: 0, also when rank 0 stopped the run before play. */
int rank_worker_main(int rank, int default_threads);
