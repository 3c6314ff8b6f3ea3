// SPDX-License-Identifier: MIT
#define _GNU_SOURCE /* sched_getaffinity */
#include "rank_limits.h"

#include "cli.h"
#include "parse.h"

#include <sched.h>
#include <unistd.h>

bool rank_limits_parse_threads(const char *text, int *threads) {
    Error err;
    return parse_int(text, 1, RANK_THREADS_MAX, threads, &err);
}

int rank_limits_default_threads(int local_ranks) {
    int share = cli_cores() / (local_ranks > 0 ? local_ranks : 1);
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) < share)
        share = CPU_COUNT(&allowed);
    if (share > RANK_THREADS_MAX)
        share = RANK_THREADS_MAX;
    return share > 0 ? share : 1;
}
