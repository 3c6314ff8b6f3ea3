// SPDX-License-Identifier: MIT
// What a match has counted so far over its contiguous prefix of pairs (the first engine's side):
// W/D/L, the pentanomial, ends, forfeits, moves and nodes per engine, the SPRT trajectory and
// its overshoot state, and who played this session. The results file (lab/output/results.h)
// writes them; the runner adds pairs in order.
#pragma once

#include "blunders.h"
#include "cli.h"
#include "fingerprint.h"
#include "match.h"
#include "provenance.h"
#include "sprt.h"
#include "sprt_overshoot.h"

#define TOTALS_END_REASONS GAME_END_COUNT
#define TOTALS_CHANGES_MAX 2048
typedef struct {
    int64_t pairs;
    double llr, elo, elo_low, elo_high;
} TrajectoryPoint;

/* One process of the session: this machine alone, or an MPI rank. */
typedef struct {
    char host[64];
    int threads;   /* games it plays at once */
    int64_t pairs; /* finished pairs it delivered this session (counted or discarded) */
} RankRecord;

/* Who played this session (written to the results file, not read back: a resume may run on
 * another shape). fingerprint: what every rank proved it runs (lab/match/fingerprint.h), "" when
 * the run had one process. */
typedef struct {
    RankRecord *ranks; /* malloc'd; totals_destroy releases it */
    int count;
    char fingerprint[FINGERPRINT_TEXT_MAX];
    double seconds;             /* wall time of this session */
    int64_t messages;           /* batches sent and result messages received by rank 0 (MPI) */
    double coordinator_seconds; /* rank 0's time handling them (decoding, checking, sending) */
} SessionRanks;

typedef struct {
    int64_t pairs;         /* completed pairs counted, in pair order */
    Pentanomial penta;     /* first engine's side */
    Trinomial wdl;         /* first engine's side */
    Trinomial first_as[2]; /* the first engine's games: [0] as sheep, [1] as tigers */
    uint64_t ends[TOTALS_END_REASONS];
    EngineMoveStats engine[MATCH_ENGINES];
    /* Games each engine lost by a forfeit, by reason (only the forfeit rows are used). */
    uint64_t forfeits[MATCH_ENGINES][TOTALS_END_REASONS];
    uint64_t plies;
    /* -blunders: the moves judged against perfect play, and up to how many sheep in hand the
     * placement phase was solved when the run began (a resumed run judges no further). */
    BlunderTotals blunders;
    int blunders_in_hand;
    TrajectoryPoint *trajectory; /* one point per rating interval (and the end) */
    int trajectory_count, trajectory_capacity;
    SprtOvershoot overshoot; /* the correction's state, fed pair by pair in pair order */
    SprtDecision decision;
    int64_t decision_pair;          /* pairs counted when the SPRT decided (0: no decision) */
    int64_t discarded_pairs;        /* finished or in flight after the decision or a stop */
    bool book_exhausted;            /* pairs beyond the book's size replayed openings */
    double seconds;                 /* wall time over every session of the run */
    uint64_t pgn_bytes;             /* bytes of the game-record file covering `pairs` */
    int sessions;                   /* 1 + number of resumes */
    char started[CLI_UTC_TEXT_MAX]; /* UTC start of the first session (ISO 8601) */
    SessionRanks session;
    /* What played (lab/match/provenance.h): the build of the last session, each in-process
     * engine's signature, and the changes -allow-engine-change resumed through ("pair N: ...",
     * one a line). */
    BuildIdentity build;
    EngineSignature signatures[TOURNAMENT_RUN_ENGINES_MAX]; /* by engine: a match's two, a run's all */
    char accepted_changes[TOTALS_CHANGES_MAX];
} MatchTotals;

/* The engine that lost a game by forfeit (the side to move when it ended), or -1. */
int totals_forfeiting_engine(const GameRecord *game);

void totals_init(MatchTotals *totals);
void totals_destroy(MatchTotals *totals);

/* Adds a pair (which must be the next in order). */
void totals_add_pair(MatchTotals *totals, const PairRecord *pair);

/* The SPRT's decision on the counts so far, called once per counted pair (with
 * params->overshoot, it feeds the correction that pair's LLR first). */
SprtDecision totals_decide(MatchTotals *totals, const SprtParams *params);

/* The SPRT sample of the counts so far (pentanomial). */
SprtSample totals_sample(const MatchTotals *totals);

/* Appends a point to the trajectory (false when memory is short). */
bool totals_push_point(MatchTotals *totals, TrajectoryPoint point);

/* Appends a trajectory point for the current counts. */
bool totals_add_point(MatchTotals *totals, const SprtParams *sprt, bool has_sprt);
