// SPDX-License-Identifier: MIT
// Board geometry and symmetry tables, generated as static data (lib/game/tables.c).
#pragma once

#include <stdint.h>

#define BOARD_SIZE 5    /* files a..e and ranks 1..5 */
#define BOARD_POINTS 25 /* point index = rank * 5 + file; a1 = 0, e1 = 4, a5 = 20, e5 = 24 */
#define BOARD_ALL 0x1ffffffu
#define DIRECTIONS 8 /* N, NE, E, SE, S, SW, W, NW: clockwise from north */
#define SYMMETRIES 8 /* identity, rotations 90/180/270, mirror files, mirror ranks, both diagonals */

/* Points joined to each point by a line. */
extern const uint32_t TABLE_ADJACENT[BOARD_POINTS];
/* The direction tables are defined here, not in tables.c, so that the compiler sees their values:
 * a loop over the directions then unrolls into fixed shifts and masks (movegen.c; measured in
 * docs/performance.md). tests/test_tables.c rebuilds them from the rules and compares. */

/* Index change of one step in each direction. */
static const int8_t TABLE_DIR_DELTA[DIRECTIONS] = {5, 6, 1, -4, -5, -6, -1, 4};

/* Points with a line one step (STEP) or two steps (JUMP) long in each direction. Diagonal
 * lines exist only through points whose file + rank is even, so the diagonal masks hold only
 * those. Shifting (mask & pieces) by the direction's delta never leaves the board. */
static const uint32_t TABLE_STEP_FROM[DIRECTIONS] = {
    0x00fffffu, /* N */
    0x0051545u, /* NE */
    0x0f7bdefu, /* E */
    0x0551540u, /* SE */
    0x1ffffe0u, /* S */
    0x1455140u, /* SW */
    0x1ef7bdeu, /* W */
    0x0055154u, /* NW */
};
static const uint32_t TABLE_JUMP_FROM[DIRECTIONS] = {
    0x0007fffu, /* N */
    0x0001445u, /* NE */
    0x0739ce7u, /* E */
    0x0511400u, /* SE */
    0x1fffc00u, /* S */
    0x1445000u, /* SW */
    0x1ce739cu, /* W */
    0x0005114u, /* NW */
};
/* Image of each point under each symmetry, and the symmetry that undoes each one. */
extern const int8_t TABLE_SYM_POINT[SYMMETRIES][BOARD_POINTS];
extern const uint8_t TABLE_SYM_INVERSE[SYMMETRIES];
/* A sheep's or a tiger's bit on point p in the key of the image under symmetry s, point-major
 * ([p][s]): (1 << TABLE_SYM_POINT[s][p]) shifted to its place in SymKeys' keys (symmetry.h). */
extern const int64_t TABLE_SYM_SHEEP_KEY[BOARD_POINTS][SYMMETRIES];
extern const int64_t TABLE_SYM_TIGER_KEY[BOARD_POINTS][SYMMETRIES];
/* Image under each symmetry of the 5 bits of one rank: a mask transforms in 5 lookups. */
extern const uint32_t TABLE_SYM_ROW_IMAGE[SYMMETRIES][BOARD_SIZE][32];
