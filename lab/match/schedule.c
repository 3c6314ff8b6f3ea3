// SPDX-License-Identifier: MIT
#include "schedule.h"

#include "rng.h"

#include <stdlib.h>

bool schedule_init(Schedule *schedule, const Book *book, const MatchSettings *settings) {
    schedule->count = book->count;
    schedule->start = settings->start;
    schedule->order = malloc(sizeof *schedule->order * (size_t)book->count);
    if (!schedule->order)
        return false;
    for (int i = 0; i < book->count; i++)
        schedule->order[i] = i;
    if (settings->order == ORDER_RANDOM) {
        Rng rng = rng_seeded(settings->seed);
        for (int i = book->count - 1; i > 0; i--) {
            int j = (int)rng_below(&rng, (uint64_t)i + 1);
            int swap = schedule->order[i];
            schedule->order[i] = schedule->order[j];
            schedule->order[j] = swap;
        }
    }
    return true;
}

void schedule_destroy(Schedule *schedule) {
    free(schedule->order);
    schedule->order = NULL;
}

int schedule_opening(const Schedule *schedule, int64_t pair) {
    int64_t slot = (schedule->start - 1 + pair) % schedule->count;
    return schedule->order[slot];
}
