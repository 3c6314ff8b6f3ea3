// SPDX-License-Identifier: MIT
#include "timeman.h"

#include "saturate.h"

static int64_t at_least_one(int64_t us) { return us > 0 ? us : 1; }

TimeBudget timeman_budget(const SearchConfig *config, const SearchClock *clock) {
    int64_t usable_us = saturate_mul(clock->time_left_ms - config->tm_overhead, 1000);
    if (usable_us < 0)
        usable_us = 0;
    int moves = config->tm_moves;
    if (clock->moves_to_go > 0 && clock->moves_to_go < moves)
        moves = clock->moves_to_go;
    int64_t share_us = saturate_add(usable_us / moves, saturate_mul(clock->increment_ms, 1000));
    /* Never stake more than half the clock on one move, unless the period ends with it: the
     * increment alone cannot pay back a move that took most of what was left. */
    int64_t cap_us = moves == 1 ? usable_us : usable_us / 2;
    int64_t hard_us = saturate_mul(share_us / 100, config->tm_hard);
    if (hard_us > cap_us)
        hard_us = cap_us;
    int64_t soft_us = saturate_mul(share_us / 100, config->tm_soft);
    if (soft_us > hard_us)
        soft_us = hard_us;
    return (TimeBudget){at_least_one(soft_us), at_least_one(hard_us)};
}
