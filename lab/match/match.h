// SPDX-License-Identifier: MIT
// One pair of games between two search configurations from one opening, sides swapped. A pair's
// result depends only on (configurations, limits, opening, pair index, seed), never on the worker
// or timing (time limits excepted).
#pragma once

#include "book.h"
#include "engine_spec.h"
#include "game.h"
#include "search.h"
#include "tb_judge.h"
#include "tournament.h"

#include <stdatomic.h>

/* The engines of a pair: engine 0 is the first engine, the one under test; engine 1 the second,
 * the baseline. Every statistic is from the first engine's side, as fastchess, fishtest and
 * OpenBench report. A run of more engines plays pairings of two (tournament.h). */
#define MATCH_ENGINES 2

/* Counts of moves, nodes and depths saturate here: the largest whole number that a results
 * file's JSON number (a double) holds exactly. No engine's reports can then wrap a sum, or make
 * abtest write a file that -resume refuses. */
#define MATCH_COUNT_MAX (UINT64_C(1) << 53)

static inline uint64_t match_count_add(uint64_t sum, uint64_t more) {
    return sum >= MATCH_COUNT_MAX || more >= MATCH_COUNT_MAX - sum ? MATCH_COUNT_MAX : sum + more;
}

/* Per-engine counts over the moves an engine played in a game. */
typedef struct {
    uint64_t moves;
    uint64_t nodes;
    uint64_t depth_sum;
    /* On a clock only (else 0): what its moves were charged and what the clock gave (the start,
     * increments, periods) in microseconds; a move's charge is its wall time, or its nodes
     * divided by nodestime. */
    uint64_t time_us;
    uint64_t given_us;
} EngineMoveStats;

/* What the game records say of one move: the mover's score, depth and time. */
enum {
    MOVE_NOTE_SCORE = 1, /* score holds a score (centi-units of the mover's side) */
    MOVE_NOTE_MATE = 2,  /* ... moves to a forced win (negative: to a forced loss) */
    MOVE_NOTE_TIMED = 4, /* time_us holds the clock's charge */
};
typedef struct {
    int32_t score;
    uint8_t flags;
    uint8_t depth;
    uint8_t verdict; /* TbVerdict against perfect play (abtest -blunders; else unjudged) */
    int64_t time_us;
} MoveNote;

/* The phases of a game: sheep still in hand, then every sheep placed. */
typedef enum { GAME_PHASE_PLACEMENT, GAME_PHASE_SLIDING, GAME_PHASES } GamePhase;

/* An engine's moves judged against perfect play in one phase (abtest -blunders), by verdict:
 * kept, and each kind of blunder (the unjudged are not counted). */
typedef struct {
    uint64_t verdicts[TB_VERDICTS];
} BlunderCounts;

typedef struct {
    Board start;         /* after the opening and its random plies */
    int tigers_engine;   /* 0 or 1: who played the tigers */
    GameEnd end;
    GameResult result;
    int plies;
    Move *moves;         /* plies moves, malloc'd (match_pair_destroy) */
    MoveNote *notes;     /* plies notes, malloc'd alike */
    EngineMoveStats engine[MATCH_ENGINES];
    BlunderCounts blunders[MATCH_ENGINES][GAME_PHASES]; /* zero unless judged */
} GameRecord;

typedef struct {
    int64_t index;       /* 0-based pair number */
    int pairing;         /* which two engines played (PairSetup's pairings; 0 in a match) */
    int opening;         /* index into the book */
    GameRecord games[2]; /* game 1: the first engine as tigers; game 2: the second */
} PairRecord;

/* What a pair needs besides the engines. */
typedef struct {
    PairingList pairings;      /* the run's pairings */
    PairingSegment segment;    /* which of them pair n is, in which round (tournament.h) */
    int max_plies;             /* adjudicated as a draw after this many plies */
    int random_plies;          /* extra random plies after the opening, same for both games */
    uint64_t seed;
    bool recover;              /* an engine that exits or stalls loses the game and is
                                  restarted (fastchess's -recover); else the pair fails */
    const struct Tablebase *tablebase; /* -tb: adjudicate at the sliding phase (NULL: off) */
} PairSetup;

struct EngineProgram;

/* What one worker thread owns, one per engine of the run, reused across games and pairings: a
 * searcher for an in-process engine (every search starts from an empty cache, so reuse does not
 * change results), the running process of an engine program (ucinewgame between games). */
typedef struct {
    const EngineSpec *engines; /* [count] */
    int count;
    Searcher *searchers;                  /* [count] */
    struct EngineProgram **programs;      /* [count], NULL for in-process engines */
} MatchWorker;

/* Ready to play for the count engines: searchers made, programs started. abort is the run's
 * flag (NULL: none), which every wait on a program watches. */
bool match_worker_init(MatchWorker *worker, const EngineSpec *engines, int count,
                       const atomic_bool *abort, Error *err);
void match_worker_destroy(MatchWorker *worker);
/* Makes the running searches return at once (from another thread, even while the worker's own
 * thread destroys it). */
void match_worker_stop(MatchWorker *worker);

/* The round of pair index: the opening slot it plays (schedule.h) and its random plies' stream. */
int64_t match_pair_round(const PairSetup *setup, int64_t index);

/* Plays pair `index` (of its pairing, in its round) from `opening`. Returns false (pair
 * unusable) when abort was raised while it ran, or on an internal error (err says which). */
bool match_play_pair(MatchWorker *worker, const PairSetup *setup, int64_t index,
                     const BookEntry *opening, int opening_index, const atomic_bool *abort,
                     PairRecord *out, Error *err);
void match_pair_destroy(PairRecord *pair);

/* The first engine's score in a game (1, 0.5, 0) and its pair total in half points (0..4). */
double match_first_score(const GameRecord *game);
int match_pair_half_points(const PairRecord *pair);

/* The position after the opening's random plies for a round (deterministic in seed, round). */
Board match_opening_position(const Board *opening, int random_plies, uint64_t seed, int64_t round);
