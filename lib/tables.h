// SPDX-License-Identifier: MIT
// Board geometry and symmetry tables, generated as static data (lib/tables.c).
#pragma once

#include <stdint.h>

#define BOARD_SIZE 5    /* files a..e and ranks 1..5 */
#define BOARD_POINTS 25 /* point index = rank * 5 + file; a1 = 0, e1 = 4, a5 = 20, e5 = 24 */
#define BOARD_ALL 0x1ffffffu
#define DIRECTIONS 8 /* N, NE, E, SE, S, SW, W, NW: clockwise from north */
#define SYMMETRIES 8 /* identity, rotations 90/180/270, mirror files, mirror ranks, both diagonals */

/* Points joined to each point by a line. */
extern const uint32_t TABLE_ADJACENT[BOARD_POINTS];
/* Index change of one step in each direction. */
extern const int8_t TABLE_DIR_DELTA[DIRECTIONS];
/* Points with a line one step (STEP) or two steps (JUMP) long in each direction. Diagonal
 * lines exist only through points whose file + rank is even, so the diagonal masks hold only
 * those. Shifting (mask & pieces) by the direction's delta never leaves the board. */
extern const uint32_t TABLE_STEP_FROM[DIRECTIONS];
extern const uint32_t TABLE_JUMP_FROM[DIRECTIONS];
/* Image of each point under each symmetry, and the symmetry that undoes each one. */
extern const int8_t TABLE_SYM_POINT[SYMMETRIES][BOARD_POINTS];
extern const uint8_t TABLE_SYM_INVERSE[SYMMETRIES];
/* Image under each symmetry of the 5 bits of one rank: a mask transforms in 5 lookups. */
extern const uint32_t TABLE_SYM_ROW_IMAGE[SYMMETRIES][BOARD_SIZE][32];
