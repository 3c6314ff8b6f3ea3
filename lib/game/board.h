// SPDX-License-Identifier: MIT
// The position: bitboards, its exact key, position text, rules (make, legality, game end).
#pragma once

#include "error.h"
#include "move.h"
#include "tables.h"

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#define SHEEP_TOTAL 20
#define TIGERS_TOTAL 4
#define CAPTURES_TO_WIN 5
#define BOARD_TEXT_MAX 48 /* longest canonical text is 36 characters */
#define BOARD_TEXT_INPUT_MAX 128 /* longer input is rejected before parsing */

typedef enum { SIDE_SHEEP = 0, SIDE_TIGERS = 1 } Side;

/* The whole position in 12 bytes, so copy-make is a plain struct copy. Bit i of a mask is
 * point i (rank * 5 + file). captured is kept for speed; it always equals
 * SHEEP_TOTAL - popcount(sheep) - in_hand (board_is_consistent checks it). */
typedef struct {
    uint32_t tigers;  /* points holding a tiger (always 4 bits) */
    uint32_t sheep;   /* points holding a sheep */
    uint8_t in_hand;  /* sheep still to be placed, 0..20 */
    uint8_t captured; /* sheep captured so far, 0..20 */
    uint8_t side;     /* Side to move */
} Board;

/* Why a game ended (or GAME_END_NONE). The first three are the rules' own; repetition needs the
 * game's history (game.h); max-moves and tablebase are the match runner's adjudications (a draw
 * after the ply limit; the tablebase's value once the sliding phase starts). The forfeits are a
 * match runner's verdict on an engine process (the side to move loses): they come last.
 * Results files and messages name the ends; the numbers are not stored. */
typedef enum {
    GAME_END_NONE = 0,
    GAME_END_CAPTURES,       /* tigers captured 5 sheep: tigers win */
    GAME_END_TIGERS_TRAPPED, /* tigers to move, no legal move: sheep win */
    GAME_END_SHEEP_BLOCKED,  /* sheep to move, no legal move: tigers win */
    GAME_END_REPETITION,     /* a position occurred a third time: draw */
    GAME_END_MAX_MOVES,      /* adjudicated as a draw after the ply limit */
    GAME_END_TABLEBASE,      /* adjudicated by the tablebase's value (any result) */
    GAME_END_TIME_FORFEIT,   /* the side to move overran its time: it loses */
    GAME_END_DISCONNECT,     /* the side to move's engine exited or could not be talked to */
    GAME_END_STALL,          /* the side to move's engine stopped answering */
    GAME_END_ILLEGAL_MOVE,   /* the side to move's engine sent an illegal or unreadable move */
} GameEnd;

#define GAME_END_COUNT (GAME_END_ILLEGAL_MOVE + 1)

static inline bool game_end_is_forfeit(GameEnd end) { return end >= GAME_END_TIME_FORFEIT; }

typedef enum { RESULT_NONE = 0, RESULT_TIGERS_WIN, RESULT_SHEEP_WIN, RESULT_DRAW } GameResult;

static inline int popcount32(uint32_t x) { return __builtin_popcount(x); }
static inline int lsb32(uint32_t x) { return __builtin_ctz(x); }

/* The start position: tigers on a1, e1, a5, e5, 20 sheep in hand, sheep to move. */
Board board_start(void);

/* Exact 56-bit key: tigers (bits 0-24), sheep (25-49), in hand (50-54), side (55). The captured
 * count follows from the others, so two positions share a key only when they are equal. */
static inline uint64_t board_key(const Board *b) {
    return (uint64_t)b->tigers | (uint64_t)b->sheep << 25 | (uint64_t)b->in_hand << 50 |
           (uint64_t)b->side << 55;
}

/* Same position (key and captured count; padding bytes are not compared). */
static inline bool board_equal(const Board *a, const Board *b) {
    return board_key(a) == board_key(b) && a->captured == b->captured;
}

static inline uint32_t board_empty(const Board *b) { return BOARD_ALL & ~(b->tigers | b->sheep); }

/* True when every invariant holds: 4 tigers, no overlap, nothing off the board, the sheep
 * add up to 20, side is 0 or 1. Used in asserts after make. */
bool board_is_consistent(const Board *b);

/* Parses position text ("T3T/5/5/5/T3T s 20 0"). Validates everything; on failure returns
 * false, leaves *out untouched and puts "col N: what is wrong" in err. Never asserts on input. */
bool board_from_text(const char *text, Board *out, Error *err);

/* Writes the canonical text of b into out (BOARD_TEXT_MAX bytes at least); returns out. */
char *board_to_text(const Board *b, char *out);

/* Plays a legal move on b in place (callers copy first for copy-make). No checks: use
 * board_check_move for untrusted moves. */
static inline void board_make(Board *b, Move m) {
    /* Inline, because perft and the search make a move per node (docs/performance.md). */
    uint32_t to = 1u << move_to(m);
    if (move_is_place(m)) {
        b->sheep |= to;
        b->in_hand--;
    } else if (b->side == SIDE_SHEEP) {
        b->sheep ^= 1u << move_from(m) | to;
    } else {
        b->tigers ^= 1u << move_from(m) | to;
        if (move_is_jump(m)) {
            b->sheep &= ~(1u << move_over(m));
            b->captured++;
        }
    }
    b->side ^= 1;
    assert(board_is_consistent(b));
}

/* True when m is legal in b; otherwise false with the reason in err ("c3 is occupied"). */
bool board_check_move(const Board *b, Move m, Error *err);

/* How the game stands by the rules alone (captures, no legal move); no repetition here. */
GameEnd board_game_end(const Board *b);

/* The result a game end gives: tigers win, sheep win or draw (RESULT_NONE for a forfeit, whose
 * result depends on who forfeited: game_forfeit, and for a tablebase adjudication, whose result
 * is the tablebase's: game_adjudicate_result). */
GameResult game_end_result(GameEnd end);

/* Names for reports: "captures", "tigers trapped", ..., and "1-0"-style result words. */
const char *game_end_name(GameEnd end);
const char *game_result_name(GameResult result);
