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

typedef enum {
    TOURNAMENT_MATCH,
    TOURNAMENT_ROUNDROBIN,
    TOURNAMENT_GAUNTLET,
    TOURNAMENT_LADDER /* engines at rising limits, a step a match or a gauntlet (ladder.h) */
} TournamentKind;

/* A ladder's steps as given (ladder.h): each step's limit ("nodes=1000", "tc=0.2+0.002") and its
 * SPRT preset ("": the run's test). count 0: no ladder. A step is a match of two engines, or a
 * gauntlet (-tournament gauntlet -seeds 1): its candidates each against the one seed. */
#define LADDER_STEP_TEXT 48
#define LADDER_PRESET_TEXT 24
typedef struct {
    int count;
    char limit[TOURNAMENT_RUN_ENGINES_MAX / 2][LADDER_STEP_TEXT];
    char preset[TOURNAMENT_RUN_ENGINES_MAX / 2][LADDER_PRESET_TEXT];
    bool go_on;    /* continue=on: every step plays, whatever one decides */
    bool gauntlet; /* a step is a gauntlet: the seed first, then the candidates */
    int candidates; /* pairings a step: a gauntlet's candidates, 1 for a match */
} LadderSpec;

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

/* The pairings still playing from a pair on. A run starts with every pairing open at pair 0;
 * a gauntlet decided by SPRTs closes a candidate's pairing at a look (the end of a round, when
 * every open pairing has played the same number of pairs) and goes on from the next pair with
 * the others: pair n >= first_pair is open[(n - first_pair) mod count] in its own round
 * first_round + (n - first_pair) div count. So a pairing's k-th pair always plays round k (the
 * same opening and random plies as in a match of its two engines), and the segment follows
 * from the pairings' counts alone (tournament_segment_from_counts), which a resume reads. */
typedef struct {
    int64_t first_pair, first_round;
    int count;
    uint8_t open[TOURNAMENT_PAIRINGS_MAX]; /* indices into the run's PairingList, in order */
} PairingSegment;

/* Every one of pairings open from pair 0. */
PairingSegment tournament_segment_all(int pairings);

/* The segment after pairs counted, pairs[p] of pairing p, the closed ones marked closed[p]: the
 * open ones in order from the round of the fewest pairs. False with err when the counts cannot
 * come from the schedule (an open pairing more than one pair from another, or behind a closed
 * one's). */
bool tournament_segment_from_counts(int pairings, const int64_t pairs[], const bool closed[],
                                    PairingSegment *out, Error *err);

/* The pairing (index into the run's list) and the round of pair n (n >= first_pair). */
static inline int tournament_pairing_of(const PairingSegment *segment, int64_t pair) {
    return segment->open[(pair - segment->first_pair) % segment->count];
}
static inline int64_t tournament_round_of(const PairingSegment *segment, int64_t pair) {
    return segment->first_round + (pair - segment->first_pair) / segment->count;
}

/* Whether pair n is the last of a round of the segment (a gauntlet's SPRTs look then). */
static inline bool tournament_round_ends(const PairingSegment *segment, int64_t pair) {
    return (pair - segment->first_pair + 1) % segment->count == 0;
}
