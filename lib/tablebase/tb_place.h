// SPDX-License-Identifier: MIT
// The placement phase solved layer by layer: win, draw or loss for the side to move of every
// position with sheep in hand (docs/tablebase.md).
//
// A layer is the positions with h sheep in hand and one side to move, every arrangement of 4
// tigers and 20 - h - c sheep (c captured, 0..4), folded by the board's symmetries as the
// sliding file's are (tb_index_new_in_hand). Every sheep move places a sheep, so the phase has
// no cycle: layer (h, sheep) moves into (h - 1, tigers), and (h, tigers) into (h, sheep); the
// tigers to move with no sheep in hand are the sliding phase, solved already. So each layer is
// solved once, by one forward pass: a position's value is the best of its successors' values,
// read from the layer below it (or the sliding file), from (1, sheep) up to (20, sheep), the
// start. No position repeats, so a draw here is a draw of the sliding phase reached by force.
#pragma once

#include "board.h"
#include "error.h"
#include "tablebase.h"
#include "tb_index.h"

#include <stdint.h>

/* A value as a layer holds it, 2 bits a position for the side to move. */
typedef enum { TB_PLACE_DRAW = 0, TB_PLACE_WIN = 1, TB_PLACE_LOSS = 2, TB_PLACE_NONE = 3 } TbPlaceValue;

/* One layer: its positions (an index of its sheep in hand, one side of it), their values packed
 * four to a byte (position i in bits 2 * (i % 4) of byte i / 4), and per level the counts. */
typedef struct {
    TbIndex *index;
    bool borrows_index; /* index is the other side's layer's (tb_layer_share_index) */
    int in_hand;
    Side side;
    int win_captures;
    int64_t count; /* positions: the side's classes over every level */
    int64_t level_start[TB_LEVELS + 1]; /* within the layer */
    uint8_t *values;
    int64_t wins[TB_LEVELS], draws[TB_LEVELS], losses[TB_LEVELS];
} TbLayer;

/* An empty layer (values zeroed: draws) of in_hand sheep in hand, side to move, in the game that
 * tigers win at win_captures captures. False with err when memory runs out. */
bool tb_layer_init(TbLayer *layer, int in_hand, Side side, int win_captures, Error *err);
void tb_layer_free(TbLayer *layer);

/* Makes layer use the index of owner, the other side's layer of the same sheep in hand (one
 * index numbers both sides), freeing its own: in the middle layers an index is larger than the
 * values (4.1 GB to probe one position with 8 in hand, two layers and two indexes). owner must
 * outlive layer's use of it. */
void tb_layer_share_index(TbLayer *layer, const TbLayer *owner);

static inline size_t tb_layer_bytes(const TbLayer *layer) {
    return (size_t)((layer->count + 3) / 4);
}

static inline TbPlaceValue tb_layer_value_at(const TbLayer *layer, int64_t i) {
    return (TbPlaceValue)(layer->values[i / 4] >> 2 * (i % 4) & 3);
}

/* The layer's number of b (its sheep in hand and side), -1 when b is not in it. */
int64_t tb_layer_position(const TbLayer *layer, const Board *b);

/* The representative position of number i. */
Board tb_layer_board(const TbLayer *layer, int64_t i);

/* What the positions after a move are read from: the layer below, or, after the last sheep is
 * placed, the sliding file. */
typedef struct {
    const TbLayer *layer;
    const Tablebase *sliding;
} TbPlaceNext;

/* The value for the side then to move of the position after move m in b (a position of the
 * layer above next): a capture that ends the game is a loss for the sheep. */
TbPlaceValue tb_place_after(const TbPlaceNext *next, int win_captures, const Board *b, Move m);

/* The value of b for its side to move from its successors' values: a win if one is a loss for
 * the opponent, else a draw if one is a draw, else (every move losing, or none) a loss. */
TbPlaceValue tb_place_minimax(const TbPlaceNext *next, int win_captures, const Board *b);

typedef struct {
    int threads;
    /* Called now and then with a line of progress ("12% of 1090123456, 1.9 M/s"). */
    void (*progress)(void *context, const char *line);
    void *context;
} TbPlaceSetup;

/* Solves layer from next (the layer it moves into: in hand one less and tigers to move for a
 * sheep layer, the same in hand and sheep to move for a tigers layer; the sliding file below
 * in hand 1's sheep layer), on setup->threads threads; fills its values and counts. */
bool tb_place_solve(TbLayer *layer, const TbPlaceNext *next, const TbPlaceSetup *setup,
                    Error *err);

/* Checks every position of a solved layer against its successors in next (the moves generated
 * in another order than the solver's): returns how many disagree, the first of them in
 * *first_failure (-1: none). */
int64_t tb_place_check(const TbLayer *layer, const TbPlaceNext *next, const TbPlaceSetup *setup,
                       int64_t *first_failure);

/* Counts the layer's values per level (its wins, draws, losses); false when one is
 * TB_PLACE_NONE. */
bool tb_layer_count(TbLayer *layer);
