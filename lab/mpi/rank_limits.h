// SPDX-License-Identifier: MIT
// What a rank holds: its game threads, and the batches of pair numbers it asks for. Shared by
// rank 0 (which sizes the window of finished pairs from them) and the other ranks.
#pragma once

#include "arguments.h"

#include <stdbool.h>
#include <stdint.h>

/* A rank asks for enough pair numbers to keep its threads busy for about half a second
 * (RANK_BATCH_SECONDS), at most 16 per thread. Measured (docs/distributed.md): rank 0 spends
 * 0.1 to 0.2 ms on a message, decoding and replaying its pairs included (0.2% of a session at
 * 5000 nodes), so larger batches would save nothing there, while a rank never holds so many
 * pairs that the others wait for them. Games under a millisecond are the exception: a round
 * trip (a 1 ms poll on each side) then idles the asking rank, 18% fewer pairs/s at depth 1. */
#define RANK_BATCH_SECONDS 0.5
#define RANK_BATCH_PER_THREAD 16
#define RANK_BATCH_MAX 4096
#define RANK_THREADS_MAX 256 /* as -concurrency */
/* A rank that has sent nothing else for this long sends ALIVE (messages.h). */
#define RANK_HEARTBEAT_SECONDS 1.0
/* -rank-timeout's default (arguments.h, which prints it in the usage). */
#define RANK_TIMEOUT_DEFAULT_SECONDS ((double)ARGUMENTS_RANK_TIMEOUT_SECONDS)
#define RANK_TIMEOUT_MAX_SECONDS 86400.0

/* The most pair numbers a rank of threads threads asks for at once. */
static inline int rank_limits_batch(int threads) {
    int64_t most = (int64_t)RANK_BATCH_PER_THREAD * threads;
    return most > RANK_BATCH_MAX ? RANK_BATCH_MAX : (int)most;
}

/* The most pairs such a rank holds at once: playing, waiting, and asked for. */
static inline int64_t rank_limits_in_flight(int threads) {
    return 2 * (int64_t)threads + rank_limits_batch(threads);
}

/* A thread count from text: 1..RANK_THREADS_MAX. */
bool rank_limits_parse_threads(const char *text, int *threads);

/* The default game threads of a rank: the cores it may run on (its CPU affinity, which mpirun's
 * binding narrows), and at most its share of the host's cores among the local_ranks ranks
 * placed there. At least 1. */
int rank_limits_default_threads(int local_ranks);
