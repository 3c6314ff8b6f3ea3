// SPDX-License-Identifier: MIT
#include "tournament.h"

#include <inttypes.h>
#include <string.h>

static const char *const KIND_NAMES[] = {
    [TOURNAMENT_MATCH] = "match",
    [TOURNAMENT_ROUNDROBIN] = "roundrobin",
    [TOURNAMENT_GAUNTLET] = "gauntlet",
    [TOURNAMENT_LADDER] = "ladder",
};

const char *tournament_kind_name(TournamentKind kind) { return KIND_NAMES[kind]; }

bool tournament_kind_from_name(const char *name, TournamentKind *kind) {
    for (size_t k = 0; k < sizeof KIND_NAMES / sizeof KIND_NAMES[0]; k++)
        if (strcmp(name, KIND_NAMES[k]) == 0) {
            *kind = (TournamentKind)k;
            return true;
        }
    return false;
}

static void add(PairingList *out, int first, int second) {
    out->pairings[out->count++] = (Pairing){(int8_t)first, (int8_t)second};
}

bool tournament_pairings(TournamentKind kind, int engines, int seeds, PairingList *out,
                         Error *err) {
    out->count = 0;
    if (engines < 2)
        return error_set(err, "%s needs two engines or more (-engine ... -engine ...), %d given",
                         kind == TOURNAMENT_MATCH ? "a match" : tournament_kind_name(kind),
                         engines);
    if (engines > TOURNAMENT_RUN_ENGINES_MAX)
        return error_set(err, "%d engines: a run takes at most %d", engines,
                         TOURNAMENT_RUN_ENGINES_MAX);
    switch (kind) {
    case TOURNAMENT_MATCH:
        if (engines != 2)
            return error_set(err, "%d engines: a match is between two (give -tournament "
                                  "roundrobin or gauntlet for more)",
                             engines);
        add(out, 0, 1);
        return true;
    case TOURNAMENT_ROUNDROBIN:
        for (int a = 0; a < engines; a++)
            for (int b = a + 1; b < engines; b++)
                add(out, a, b);
        return true;
    case TOURNAMENT_GAUNTLET:
        if (seeds < 1 || seeds >= engines)
            return error_set(err, "-seeds %d: a gauntlet of %d engines takes 1 to %d seeds (the "
                                  "first engines, each playing every other)",
                             seeds, engines, engines - 1);
        /* Each candidate against each seed, the candidate first: its numbers are its own. */
        for (int c = seeds; c < engines; c++)
            for (int s = 0; s < seeds; s++)
                add(out, c, s);
        return true;
    case TOURNAMENT_LADDER: /* step k: the two engines at its limit, 2k and 2k + 1 */
        if (engines % 2)
            return error_set(err, "a ladder's engines are two a step, %d given", engines);
        for (int step = 0; step < engines / 2; step++)
            add(out, 2 * step, 2 * step + 1);
        return true;
    }
    return error_set(err, "an unknown tournament kind %d", (int)kind);
}

PairingSegment tournament_segment_all(int pairings) {
    PairingSegment segment = {.first_pair = 0, .first_round = 0, .count = pairings};
    for (int p = 0; p < pairings; p++)
        segment.open[p] = (uint8_t)p;
    return segment;
}

bool tournament_segment_from_counts(int pairings, const int64_t pairs[], const bool closed[],
                                    PairingSegment *out, Error *err) {
    PairingSegment segment = {.count = 0};
    int64_t fewest = INT64_MAX, most = 0, closed_pairs = 0, closed_most = 0;
    for (int p = 0; p < pairings; p++) {
        if (closed[p]) {
            closed_pairs += pairs[p];
            closed_most = pairs[p] > closed_most ? pairs[p] : closed_most;
            continue;
        }
        segment.open[segment.count++] = (uint8_t)p;
        fewest = pairs[p] < fewest ? pairs[p] : fewest;
        most = pairs[p] > most ? pairs[p] : most;
    }
    if (segment.count == 0)
        return error_set(err, "every pairing is closed: nothing follows");
    if (most - fewest > 1)
        return error_set(err, "open pairings with %" PRId64 " and %" PRId64 " pairs: in turn they "
                              "are at most one apart",
                         fewest, most);
    if (closed_most > fewest)
        return error_set(err, "a closed pairing has %" PRId64 " pairs, more than an open one's "
                              "%" PRId64 ": it closed at a round's end",
                         closed_most, fewest);
    /* The pairings ahead by one come first in order: they played the round's first pairs. */
    for (int i = 0, ahead = 0; i < segment.count; i++)
        if (pairs[segment.open[i]] > fewest) {
            if (i != ahead)
                return error_set(err, "pairing %d is ahead of pairing %d, which comes before it",
                                 segment.open[i] + 1, segment.open[ahead] + 1);
            ahead++;
        }
    segment.first_round = fewest;
    segment.first_pair = closed_pairs + fewest * segment.count;
    *out = segment;
    return true;
}
