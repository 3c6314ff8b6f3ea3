// SPDX-License-Identifier: MIT
// A rank other than 0, whatever rank 0 runs (a match, tune, booktest): it receives the first
// job, proves its fingerprint, then plays the pair numbers rank 0 hands out on its pair pool and
// sends the played pairs back, taking each new job rank 0 sends, until rank 0 says stop. It
// writes nothing and prints nothing: rank 0 reports for it.
#pragma once

/* Returns the rank's exit code: 0, also when rank 0 stopped the run before play. */
int rank_worker_main(int default_threads);
