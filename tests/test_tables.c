// SPDX-License-Identifier: MIT
// Rebuilds every geometry and symmetry table naively from the rules and compares.
#include "tables.h"

#include "test_util.h"

#include <stdlib.h>

static int point(int file, int rank) { return rank * BOARD_SIZE + file; }
static bool on_board(int file, int rank) {
    return file >= 0 && file < BOARD_SIZE && rank >= 0 && rank < BOARD_SIZE;
}
/* Diagonal lines join only points whose file + rank is even. */
static bool joined(int f0, int r0, int f1, int r1) {
    int df = abs(f1 - f0), dr = abs(r1 - r0);
    if (!on_board(f1, r1) || df > 1 || dr > 1 || (df == 0 && dr == 0))
        return false;
    return df + dr == 1 || (f0 + r0) % 2 == 0;
}

static void adjacency__matches_rules(void **state) {
    (void)state;
    for (int r = 0; r < BOARD_SIZE; r++)
        for (int f = 0; f < BOARD_SIZE; f++) {
            uint32_t expected = 0;
            for (int r1 = 0; r1 < BOARD_SIZE; r1++)
                for (int f1 = 0; f1 < BOARD_SIZE; f1++)
                    if (joined(f, r, f1, r1))
                        expected |= 1u << point(f1, r1);
            assert_int_equal(TABLE_ADJACENT[point(f, r)], expected);
        }
    /* Spot checks from the rules text: c3 has 8 neighbours, b3 4, a1 3. */
    assert_int_equal(popcount32(TABLE_ADJACENT[point(2, 2)]), 8);
    assert_int_equal(popcount32(TABLE_ADJACENT[point(1, 2)]), 4);
    assert_int_equal(popcount32(TABLE_ADJACENT[point(0, 0)]), 3);
}

static void directions__step_and_jump_masks_match_rules(void **state) {
    (void)state;
    static const int df[DIRECTIONS] = {0, 1, 1, 1, 0, -1, -1, -1};
    static const int dr[DIRECTIONS] = {1, 1, 0, -1, -1, -1, 0, 1};
    for (int d = 0; d < DIRECTIONS; d++) {
        assert_int_equal(TABLE_DIR_DELTA[d], dr[d] * BOARD_SIZE + df[d]);
        uint32_t step = 0, jump = 0;
        for (int r = 0; r < BOARD_SIZE; r++)
            for (int f = 0; f < BOARD_SIZE; f++) {
                if (joined(f, r, f + df[d], r + dr[d])) {
                    step |= 1u << point(f, r);
                    if (joined(f + df[d], r + dr[d], f + 2 * df[d], r + 2 * dr[d]))
                        jump |= 1u << point(f, r);
                }
            }
        assert_int_equal(TABLE_STEP_FROM[d], step);
        assert_int_equal(TABLE_JUMP_FROM[d], jump);
    }
}

/* Image of (f, r) under symmetry s, written independently of the generator. */
static int naive_image(int s, int f, int r) {
    int n = BOARD_SIZE - 1, f1 = f, r1 = r;
    switch (s) {
    case 1: f1 = n - r, r1 = f; break;
    case 2: f1 = n - f, r1 = n - r; break;
    case 3: f1 = r, r1 = n - f; break;
    case 4: f1 = n - f; break;
    case 5: r1 = n - r; break;
    case 6: f1 = r, r1 = f; break;
    case 7: f1 = n - r, r1 = n - f; break;
    }
    return point(f1, r1);
}

static void symmetry_tables__match_geometry(void **state) {
    (void)state;
    for (int s = 0; s < SYMMETRIES; s++) {
        uint32_t seen = 0;
        for (int p = 0; p < BOARD_POINTS; p++) {
            int image = TABLE_SYM_POINT[s][p];
            assert_int_equal(image, naive_image(s, p % BOARD_SIZE, p / BOARD_SIZE));
            assert_int_equal(TABLE_SYM_SHEEP_KEY[p][s], (int64_t)1 << image << 28);
            assert_int_equal(TABLE_SYM_TIGER_KEY[p][s], (int64_t)1 << image << 3);
            seen |= 1u << image;
            assert_int_equal(TABLE_SYM_POINT[TABLE_SYM_INVERSE[s]][image], p);
            /* Every symmetry maps lines onto lines. */
            for (int q = 0; q < BOARD_POINTS; q++)
                assert_int_equal(!!(TABLE_ADJACENT[p] & 1u << q),
                                 !!(TABLE_ADJACENT[image] & 1u << TABLE_SYM_POINT[s][q]));
        }
        assert_int_equal(seen, BOARD_ALL);
        for (int r = 0; r < BOARD_SIZE; r++)
            for (int bits = 0; bits < 32; bits++) {
                uint32_t expected = 0;
                for (int f = 0; f < BOARD_SIZE; f++)
                    if (bits >> f & 1)
                        expected |= 1u << naive_image(s, f, r);
                assert_int_equal(TABLE_SYM_ROW_IMAGE[s][r][bits], expected);
            }
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(adjacency__matches_rules),
        cmocka_unit_test(directions__step_and_jump_masks_match_rules),
        cmocka_unit_test(symmetry_tables__match_geometry),
    };
    return RUN_TESTS("tables", tests);
}
