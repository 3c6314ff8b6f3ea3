// SPDX-License-Identifier: MIT
#include "totals.h"

#include <stdlib.h>
#include <string.h>

void totals_init(MatchTotals *t) {
    memset(t, 0, sizeof *t);
    t->sessions = 1;
    t->blunders_in_hand = -1; /* not judged yet */
    sprt_overshoot_init(&t->overshoot);
}

SprtDecision totals_decide(MatchTotals *t, const SprtParams *params) {
    SprtSample sample = totals_sample(t);
    return sprt_decide_pair(&sample, t->pairs, params, &t->overshoot);
}

void totals_destroy(MatchTotals *t) {
    free(t->trajectory);
    t->trajectory = NULL;
    free(t->session.ranks);
    t->session.ranks = NULL;
    t->session.count = 0;
}

int totals_forfeiting_engine(const GameRecord *game) {
    if (!game_end_is_forfeit(game->end))
        return -1;
    /* The loser played the side that did not win. */
    bool tigers_lost = game->result == RESULT_SHEEP_WIN;
    return tigers_lost ? game->tigers_engine : 1 - game->tigers_engine;
}

void totals_add_pair(MatchTotals *t, const PairRecord *pair) {
    t->pairs++;
    for (int g = 0; g < 2; g++) {
        const GameRecord *game = &pair->games[g];
        double score = match_first_score(game);
        Trinomial *side = &t->first_as[game->tigers_engine == 0];
        if (score == 1) {
            t->wdl.wins++;
            side->wins++;
        } else if (score == 0) {
            t->wdl.losses++;
            side->losses++;
        } else {
            t->wdl.draws++;
            side->draws++;
        }
        t->ends[game->end]++;
        int forfeiting = totals_forfeiting_engine(game);
        if (forfeiting >= 0)
            t->forfeits[forfeiting][game->end]++;
        t->plies += (uint64_t)game->plies;
        blunder_totals_add_game(&t->blunders, game);
        for (int e = 0; e < MATCH_ENGINES; e++) {
            EngineMoveStats *sum = &t->engine[e];
            sum->moves = match_count_add(sum->moves, game->engine[e].moves);
            sum->nodes = match_count_add(sum->nodes, game->engine[e].nodes);
            sum->depth_sum = match_count_add(sum->depth_sum, game->engine[e].depth_sum);
            sum->time_us = match_count_add(sum->time_us, game->engine[e].time_us);
            sum->given_us = match_count_add(sum->given_us, game->engine[e].given_us);
        }
    }
    double first = match_first_score(&pair->games[0]);
    switch (match_pair_half_points(pair)) {
    case 0:
        t->penta.ll++;
        break;
    case 1:
        t->penta.ld++;
        break;
    case 2: /* one point: a win and a loss, or two draws */
        if (first == 0.5)
            t->penta.dd++;
        else
            t->penta.wl++;
        break;
    case 3:
        t->penta.wd++;
        break;
    default:
        t->penta.ww++;
        break;
    }
}

SprtSample totals_sample(const MatchTotals *t) { return sprt_sample_pentanomial(&t->penta); }

bool totals_push_point(MatchTotals *t, TrajectoryPoint point) {
    if (t->trajectory_count == t->trajectory_capacity) {
        int capacity = t->trajectory_capacity ? 2 * t->trajectory_capacity : 64;
        TrajectoryPoint *grown = realloc(t->trajectory, sizeof *grown * (size_t)capacity);
        if (!grown)
            return false;
        t->trajectory = grown;
        t->trajectory_capacity = capacity;
    }
    t->trajectory[t->trajectory_count++] = point;
    return true;
}

bool totals_add_point(MatchTotals *t, const SprtParams *sprt, bool has_sprt) {
    SprtSample sample = totals_sample(t);
    SprtEstimate e = sprt_estimate(&sample);
    return totals_push_point(t, (TrajectoryPoint){t->pairs, has_sprt ? sprt_llr(&sample, sprt) : 0,
                                                  e.elo, e.elo_low, e.elo_high});
}
