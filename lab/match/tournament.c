// SPDX-License-Identifier: MIT
#include "tournament.h"

#include <string.h>

static const char *const KIND_NAMES[] = {
    [TOURNAMENT_MATCH] = "match",
    [TOURNAMENT_ROUNDROBIN] = "roundrobin",
    [TOURNAMENT_GAUNTLET] = "gauntlet",
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
    }
    return error_set(err, "an unknown tournament kind %d", (int)kind);
}
