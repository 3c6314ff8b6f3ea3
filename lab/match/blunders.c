// SPDX-License-Identifier: MIT
#include "blunders.h"

#include <string.h>

const char *const GAME_PHASE_KEYS[GAME_PHASES] = {[GAME_PHASE_PLACEMENT] = "placement",
                                                  [GAME_PHASE_SLIDING] = "sliding"};

const char *const BLUNDER_GAME_KEYS[BLUNDER_GAME_BINS] = {"0", "1", "2", "3+"};

static void judge_game(const TbJudge *judge, GameRecord *game) {
    memset(game->blunders, 0, sizeof game->blunders);
    Board b = game->start;
    for (int i = 0; i < game->plies; i++) {
        int mover = b.side == SIDE_TIGERS ? game->tigers_engine : 1 - game->tigers_engine;
        GamePhase phase = b.in_hand ? GAME_PHASE_PLACEMENT : GAME_PHASE_SLIDING;
        TbVerdict verdict = tb_judge_move(judge, &b, game->moves[i]);
        game->notes[i].verdict = (uint8_t)verdict;
        if (verdict != TB_VERDICT_UNJUDGED)
            game->blunders[mover][phase].verdicts[verdict]++;
        board_make(&b, game->moves[i]);
    }
}

void blunders_judge_pair(const TbJudge *judge, PairRecord *pair) {
    for (int g = 0; g < 2; g++)
        judge_game(judge, &pair->games[g]);
}

uint64_t blunders_judged(const BlunderCounts *c) {
    uint64_t sum = 0;
    for (int v = TB_VERDICT_KEPT; v < TB_VERDICTS; v++)
        sum += c->verdicts[v];
    return sum;
}

uint64_t blunders_lost(const BlunderCounts *c) {
    return blunders_judged(c) - c->verdicts[TB_VERDICT_KEPT];
}

static void add_counts(BlunderCounts *sum, const BlunderCounts *more) {
    for (int v = 0; v < TB_VERDICTS; v++)
        sum->verdicts[v] += more->verdicts[v];
}

BlunderCounts blunders_in_game(const GameRecord *game, int engine) {
    BlunderCounts sum = {0};
    for (int phase = 0; phase < GAME_PHASES; phase++)
        add_counts(&sum, &game->blunders[engine][phase]);
    return sum;
}

void blunder_totals_add_game(BlunderTotals *t, const GameRecord *game) {
    for (int e = 0; e < MATCH_ENGINES; e++) {
        for (int phase = 0; phase < GAME_PHASES; phase++)
            add_counts(&t->phase[e][phase], &game->blunders[e][phase]);
        BlunderCounts in_game = blunders_in_game(game, e);
        if (!blunders_judged(&in_game))
            continue;
        uint64_t lost = blunders_lost(&in_game);
        t->games[e][lost < BLUNDER_GAME_BINS ? lost : BLUNDER_GAME_BINS - 1]++;
    }
}
