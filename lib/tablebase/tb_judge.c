// SPDX-License-Identifier: MIT
#include "tb_judge.h"

const char *const TB_VERDICT_NAMES[TB_VERDICTS] = {
    [TB_VERDICT_UNJUDGED] = "",
    [TB_VERDICT_KEPT] = "",
    [TB_VERDICT_WIN_TO_DRAW] = "win to draw",
    [TB_VERDICT_WIN_TO_LOSS] = "win to loss",
    [TB_VERDICT_DRAW_TO_LOSS] = "draw to loss",
};

const char *const TB_VERDICT_KEYS[TB_VERDICTS] = {
    [TB_VERDICT_UNJUDGED] = NULL,
    [TB_VERDICT_KEPT] = "kept",
    [TB_VERDICT_WIN_TO_DRAW] = "win_to_draw",
    [TB_VERDICT_WIN_TO_LOSS] = "win_to_loss",
    [TB_VERDICT_DRAW_TO_LOSS] = "draw_to_loss",
};

TbVerdict tb_judge_move(const TbJudge *judge, const Board *b, Move m) {
    if (board_game_end(b) != GAME_END_NONE)
        return TB_VERDICT_UNJUDGED;
    if (b->in_hand == 0) {
        TbValue value;
        if (!tb_probe(judge->sliding, b, &value))
            return TB_VERDICT_UNJUDGED;
        return tb_verdict(value.outcome, tb_probe_after(judge->sliding, b, m).outcome);
    }
    if (!judge->placement || b->in_hand > judge->in_hand)
        return TB_VERDICT_UNJUDGED;
    TbPlaceValue value, after;
    Error err;
    if (!tb_place_probe_move(judge->placement, b, m, &value, &after, &err))
        return TB_VERDICT_UNJUDGED;
    return tb_verdict(tb_place_outcome(value), tb_place_outcome(after));
}
