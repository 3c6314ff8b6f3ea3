// SPDX-License-Identifier: MIT
// A run's pairings: which two engines each pair is between. A match is one pairing (engine 1
// against engine 2); a round robin pairs every two engines; a gauntlet pairs each of its first
// `seeds` engines with every other engine (fastchess's -tournament and -seeds). A pairing is
// written first engine first, and every number of it is from the first engine's side: in a
// gauntlet that is the candidate, against the seed, as in every abtest match.
//
// Pairs are numbered across the pairings, interleaved: pair n is pairing n mod P in round
// n div P (P pairings). A round's pairs play the same opening and random plies, and a run
// stopped anywhere has played every pairing within one pair of the others.
#pragma once

#include "error.h"

#include <stdbool.h>
#include <stdint.h>

/* Engines a run may have; a round robin of them has 120 pairings. Each worker thread holds a
 * searcher or a program of every engine (a searcher is 39 KB before its cache). */
#define TOURNAMENT_RUN_ENGINES_MAX 16
#define TOURNAMENT_PAIRINGS_MAX (TOURNAMENT_RUN_ENGINES_MAX * (TOURNAMENT_RUN_ENGINES_MAX - 1) / 2)

typedef enum { TOURNAMENT_MATCH, TOURNAMENT_ROUNDROBIN, TOURNAMENT_GAUNTLET } TournamentKind;

typedef struct {
    int8_t first, second; /* engine indices */
} Pairing;

typedef struct {
    int count;
    Pairing pairings[TOURNAMENT_PAIRINGS_MAX];
} PairingList;

/* The kind's name as -tournament takes it ("match" for a match), and back (false: none). */
const char *tournament_kind_name(TournamentKind kind);
bool tournament_kind_from_name(const char *name, TournamentKind *kind);

/* The pairings of engines engines under kind; seeds matters to a gauntlet only. False with err
 * when the numbers do not make a tournament (one engine, too many, seeds out of range). */
bool tournament_pairings(TournamentKind kind, int engines, int seeds, PairingList *out,
                         Error *err);

/* The pairing and the round of pair n among pairings pairings. */
static inline int tournament_pairing_of(int pairings, int64_t pair) {
    return (int)(pair % pairings);
}
static inline int64_t tournament_round_of(int pairings, int64_t pair) { return pair / pairings; }
