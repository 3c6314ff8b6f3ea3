// SPDX-License-Identifier: MIT
// A move judged against perfect play wherever the game is solved: the sliding file, and the
// placement layers a prober has loaded. A move keeps its position's value (a win stays a win, a
// draw a draw; every move keeps a loss) or is a blunder of one of three kinds.
#pragma once

#include "tb_place_probe.h"

typedef enum {
    TB_VERDICT_UNJUDGED, /* the position is not solved (or the game is over) */
    TB_VERDICT_KEPT,
    TB_VERDICT_WIN_TO_DRAW,
    TB_VERDICT_WIN_TO_LOSS,
    TB_VERDICT_DRAW_TO_LOSS,
    TB_VERDICTS
} TbVerdict;

/* "win to draw", ... as messages and game records say it ("" for unjudged and kept). */
extern const char *const TB_VERDICT_NAMES[TB_VERDICTS];
/* "kept", "win_to_draw", ... as results files name them (NULL for unjudged). */
extern const char *const TB_VERDICT_KEYS[TB_VERDICTS];

/* What a move did from the mover's value to the value it leaves the opponent. */
static inline TbVerdict tb_verdict(TbOutcome value, TbOutcome after) {
    if (value == TB_WIN)
        return after == TB_LOSS ? TB_VERDICT_KEPT
               : after == TB_DRAW ? TB_VERDICT_WIN_TO_DRAW
                                  : TB_VERDICT_WIN_TO_LOSS;
    if (value == TB_DRAW)
        return after == TB_WIN ? TB_VERDICT_DRAW_TO_LOSS : TB_VERDICT_KEPT;
    return TB_VERDICT_KEPT;
}

static inline TbOutcome tb_place_outcome(TbPlaceValue v) {
    return v == TB_PLACE_WIN ? TB_WIN : v == TB_PLACE_LOSS ? TB_LOSS : TB_DRAW;
}

/* The tablebases a judge reads: the sliding file and, when placement is not NULL, its layers of
 * 1..in_hand sheep in hand, loaded (tb_place_prober_load), so judging only reads and many
 * threads may judge at once. */
typedef struct {
    const Tablebase *sliding;
    TbPlaceProber *placement;
    int in_hand;
} TbJudge;

/* The verdict on move m (legal) in b. */
TbVerdict tb_judge_move(const TbJudge *judge, const Board *b, Move m);
