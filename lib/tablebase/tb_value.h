// SPDX-License-Identifier: MIT
// A tablebase value: win or loss for the side to move with the plies to the game's end under
// best play (the winner hurries, the loser delays), or draw. Stored as one number per position:
// 0 for a draw (and, while generating, for "not known yet"), else plies + 1. A win always takes
// an odd number of plies (the winner makes the last move) and a loss an even number, so the
// parity says which it is.
#pragma once

#include <stdbool.h>
#include <stdint.h>

typedef enum { TB_DRAW = 0, TB_WIN, TB_LOSS } TbOutcome;

typedef struct {
    TbOutcome outcome;
    int plies; /* to the end of the game; -1 for a draw */
} TbValue;

typedef uint16_t TbCode;

#define TB_CODE_DRAW 0
#define TB_MAX_PLIES 65534
/* The longest distance a file may hold for the search to use it: egdb=on scores a win in n plies
 * found at ply p as SCORE_WIN - (p + n), which must stay a win (beyond SCORE_WIN_MIN; search.c
 * asserts the margin). The real game's longest is 137 plies; a file with more is refused when
 * it is opened. */
#define TB_PLIES_MAX 900

static inline TbCode tb_code(int plies) { return (TbCode)(plies + 1); }

static inline TbValue tb_value_of(TbCode code) {
    if (code == TB_CODE_DRAW)
        return (TbValue){TB_DRAW, -1};
    int plies = code - 1;
    return (TbValue){plies % 2 ? TB_WIN : TB_LOSS, plies};
}

/* A solution's entries as they are held: TbCode values (codes), or a file's bytes, 1 or 2 per
 * entry, little-endian (codes NULL). */
typedef struct {
    const TbCode *codes;
    const uint8_t *bytes;
    int entry_bytes;
} TbEntries;

static inline TbCode tb_entries_at(const TbEntries *e, int64_t i) {
    if (e->codes)
        return e->codes[i];
    if (e->entry_bytes == 1)
        return e->bytes[i];
    return (TbCode)(e->bytes[2 * i] | e->bytes[2 * i + 1] << 8);
}

static inline bool tb_code_is_win(TbCode code) { return code != TB_CODE_DRAW && code % 2 == 0; }
static inline bool tb_code_is_loss(TbCode code) { return code % 2 == 1; }

/* Whether a move that leaves the opponent `after` keeps the mover's value `before`: a win stays
 * a win, a draw a draw; every move keeps a loss. */
static inline bool tb_move_keeps(TbValue before, TbValue after) {
    return before.outcome == TB_WIN    ? after.outcome == TB_LOSS
           : before.outcome == TB_DRAW ? after.outcome == TB_DRAW
                                       : true;
}

/* Whether it is also the best: the fastest win, the slowest loss (any drawing move of a draw). */
static inline bool tb_move_is_best(TbValue before, TbValue after) {
    return tb_move_keeps(before, after) &&
           (before.outcome == TB_DRAW || after.plies == before.plies - 1);
}

/* "win", "loss", "draw". */
static inline const char *tb_outcome_name(TbOutcome outcome) {
    return outcome == TB_WIN ? "win" : outcome == TB_LOSS ? "loss" : "draw";
}
