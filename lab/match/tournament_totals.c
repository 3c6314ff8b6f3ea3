// SPDX-License-Identifier: MIT
#include "tournament_totals.h"

#include "ladder.h"

#include <stdlib.h>
#include <string.h>

void tournament_pairing_settings(const MatchSettings *run, Pairing pairing, MatchSettings *out) {
    *out = *run;
    out->engines[0] = run->engines[pairing.first];
    out->engines[1] = run->engines[pairing.second];
    memset(out->engines + MATCH_ENGINES, 0,
           sizeof out->engines[0] * (TOURNAMENT_RUN_ENGINES_MAX - MATCH_ENGINES));
    out->engine_count = MATCH_ENGINES;
    out->tournament = TOURNAMENT_MATCH;
    out->seeds = 1;
    if (run->tournament == TOURNAMENT_LADDER) /* each step its own test */
        out->has_sprt = ladder_step_sprt(&run->ladder, pairing.first / ladder_width(&run->ladder),
                                         &run->sprt, run->has_sprt, &out->sprt);
    memset(&out->ladder, 0, sizeof out->ladder);
}

bool tournament_totals_init(TournamentTotals *t, const MatchSettings *run, Error *err) {
    memset(t, 0, sizeof *t);
    if (!settings_pairings(run, &t->pairings, err))
        return false;
    int count = t->pairings.count;
    t->settings = malloc(sizeof *t->settings * (size_t)count);
    t->totals = calloc((size_t)count, sizeof *t->totals);
    if (!t->settings || !t->totals) {
        tournament_totals_destroy(t);
        return error_set(err, "out of memory for %d pairings", count);
    }
    for (int p = 0; p < count; p++) {
        tournament_pairing_settings(run, t->pairings.pairings[p], &t->settings[p]);
        totals_init(&t->totals[p]);
    }
    return true;
}

void tournament_totals_destroy(TournamentTotals *t) {
    for (int p = 0; t->totals && p < t->pairings.count; p++)
        totals_destroy(&t->totals[p]);
    free(t->settings);
    free(t->totals);
    memset(t, 0, sizeof *t);
}

void tournament_totals_add(TournamentTotals *t, const PairRecord *pair) {
    totals_add_pair(&t->totals[pair->pairing], pair);
}

bool tournament_totals_rating(const TournamentTotals *t, int engines, RatingList *out,
                              Error *err) {
    RatingPairing pairings[TOURNAMENT_PAIRINGS_MAX];
    const char *names[RATING_ENGINES_MAX] = {0};
    for (int p = 0; p < t->pairings.count; p++) {
        if (t->totals[p].pairs == 0)
            return error_set(err, "no rating before every pairing has played a pair");
        Pairing pairing = t->pairings.pairings[p];
        pairings[p] = (RatingPairing){pairing.first, pairing.second, t->totals[p].penta};
        if (pairing.first >= 0 && pairing.first < RATING_ENGINES_MAX)
            names[pairing.first] = t->settings[p].engines[0].name;
        if (pairing.second >= 0 && pairing.second < RATING_ENGINES_MAX)
            names[pairing.second] = t->settings[p].engines[1].name;
    }
    for (int e = 0; e < engines && e < RATING_ENGINES_MAX; e++)
        if (!names[e])
            names[e] = "?";
    return rating_fit(engines, 0, names, pairings, t->pairings.count, out, err);
}

bool tournament_totals_rating_failure(const TournamentTotals *t, int engines, Error *why) {
    for (int p = 0; p < t->pairings.count; p++)
        if (t->totals[p].pairs == 0)
            return false;
    RatingList unused;
    return !tournament_totals_rating(t, engines, &unused, why);
}

void tournament_totals_sync(TournamentTotals *t, const MatchTotals *run) {
    for (int p = 0; p < t->pairings.count; p++) {
        MatchTotals *to = &t->totals[p];
        Pairing pairing = t->pairings.pairings[p];
        to->build = run->build;
        memcpy(to->started, run->started, sizeof to->started);
        to->seconds = run->seconds;
        to->sessions = run->sessions;
        to->book_exhausted = run->book_exhausted;
        to->signatures[0] = run->signatures[pairing.first];
        to->signatures[1] = run->signatures[pairing.second];
        memcpy(to->accepted_changes, run->accepted_changes, sizeof to->accepted_changes);
    }
}

void tournament_rating_order(const RatingList *list, int order[]) {
    for (int i = 0; i < list->count; i++)
        order[i] = i;
    for (int i = 1; i < list->count; i++) /* insertion: stable, and count is at most 16 */
        for (int j = i; j > 0 && list->engines[order[j]].elo > list->engines[order[j - 1]].elo;
             j--) {
            int swap = order[j];
            order[j] = order[j - 1];
            order[j - 1] = swap;
        }
}
