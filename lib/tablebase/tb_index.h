// SPDX-License-Identifier: MIT
// The sliding-phase tablebase's index: every position with no sheep in hand and 0-4 sheep
// captured, folded by the board's 8 symmetries, numbered densely from 0 to TB_CLASSES - 1.
//
// Layout: ten blocks, one per (captured, side to move), captured 0 first, sheep to move before
// tigers. A block lists the tiger sets' symmetry classes in order (each represented by the
// smallest mask of its class); under each tiger set, its positions are numbered by the empty
// points (captured + 1 of them, among the 21 points the tigers leave) in combinatorial order. A
// tiger set that some symmetry maps onto itself (its stabiliser) keeps only the empty sets that
// are the smallest mask among their images under that stabiliser, numbered through a table.
// Canonicalising a position is picking, among the symmetries that take its tigers to their
// class's representative, the one whose image of the empty points is smallest: a few lookups,
// no search (docs/tablebase.md).
//
// The same numbering serves a layer of the placement phase (tb_place.h): the positions with a
// given number of sheep in hand, 1 + in hand + captured empty points a level.
#pragma once

#include "board.h"
#include "symmetry.h"

#define TB_LEVELS 5         /* sheep captured: 0..4; a fifth capture ends the game */
#define TB_CLASSES 88260972 /* positions up to symmetry, both sides to move (Lim and Nievergelt)   \
                             */
#define TB_TIGER_SETS 12650 /* C(25, 4) */
#define TB_FREE_POINTS 21   /* points the tigers leave */

/* Positions up to symmetry per side to move with 0..4 captured (1..5 empty points): what the
 * index numbers, known before it is built (a file's size is checked against them). */
static const int64_t TB_CLASSES_PER_SIDE[TB_LEVELS] = {33481, 333175, 2105695, 9469965,
                                                       32188170};

typedef struct TbIndex TbIndex;

/* Builds the tables (about 4 MB, a few milliseconds). NULL when memory runs out. */
TbIndex *tb_index_new(void);

/* The index of the positions with in_hand sheep in hand (0: the sliding phase, as tb_index_new;
 * 1..20: a layer of the placement phase), levels captured 0..levels - 1 of 1 + in_hand +
 * captured empty points (the others, and a level of more captures than sheep placed, are empty:
 * a smaller game's index builds only what it numbers). NULL when memory runs out or a number is
 * out of range. */
TbIndex *tb_index_new_in_hand(int in_hand, int levels);
int tb_index_in_hand(const TbIndex *index);

/* Classes of both sides to move over every level. */
int64_t tb_index_classes(const TbIndex *index);
void tb_index_free(TbIndex *index);

/* The index of b's class, or -1 when b is not the index's (other sheep in hand, or 5 or more
 * captured). b must be consistent (board_is_consistent). With sym not NULL, *sym receives a
 * symmetry that maps b onto its class's representative (tb_index_board). */
int64_t tb_index_of(const TbIndex *index, const Board *b, Symmetry *sym);

/* The representative position of a class (the one the index reads back to): any index in
 * [0, TB_CLASSES). */
Board tb_index_board(const TbIndex *index, int64_t class_index);

/* First index and number of classes of a block. */
int64_t tb_index_block_start(const TbIndex *index, int captured, Side side);
int64_t tb_index_block_size(const TbIndex *index, int captured, Side side);
