// SPDX-License-Identifier: MIT
// The 8 symmetries: perft invariance, canonical form, moves commuting with make, inverses.
#include "symmetry.h"

#include "perft.h"
#include "test_util.h"

static void perft__equal_for_all_8_images(void **state) {
    (void)state;
    Rng rng = rng_seeded(11);
    for (int game = 0; game < 40; game++) {
        Board b = random_position(&rng, (int)rng_below(&rng, 60));
        uint64_t expected = perft(&b, 3);
        for (Symmetry s = 0; s < SYMMETRIES; s++) {
            Board image = sym_board(s, &b);
            assert_true(board_is_consistent(&image));
            if (perft(&image, 3) != expected)
                fail_msg("game %d, %s: perft 3 differs", game, sym_name(s));
        }
    }
    Board placement = parse_board("3ST/2S2/S2S1/1TS2/STST1 t 12 1");
    for (Symmetry s = 0; s < SYMMETRIES; s++) {
        Board image = sym_board(s, &placement);
        assert_int_equal(perft(&image, 4), 17920);
    }
}

static void canonical__idempotent_and_shared_by_all_images(void **state) {
    (void)state;
    Rng rng = rng_seeded(12);
    for (int game = 0; game < 300; game++) {
        Board b = random_position(&rng, (int)rng_below(&rng, 80));
        Symmetry sym;
        Board canon = sym_canonical(&b, &sym);
        Board image_of_b = sym_board(sym, &b);
        assert_int_equal(board_key(&image_of_b), board_key(&canon));
        Board twice = sym_canonical(&canon, NULL);
        assert_int_equal(board_key(&twice), board_key(&canon));
        Symmetry lowest = SYMMETRIES; /* the first image with the smallest key, by brute force */
        for (Symmetry s = 0; s < SYMMETRIES; s++) {
            Board image = sym_board(s, &b);
            Board image_canon = sym_canonical(&image, NULL);
            assert_int_equal(board_key(&image_canon), board_key(&canon));
            assert_true(board_key(&image) >= board_key(&canon));
            if (lowest == SYMMETRIES && board_key(&image) == board_key(&canon))
                lowest = s;
        }
        assert_int_equal(sym, lowest);
        assert_int_equal(canon.captured, b.captured);
    }
    /* The start position is symmetric: it is its own canonical image, under the identity. */
    Board start = board_start();
    Symmetry sym = 99;
    Board canon = sym_canonical(&start, &sym);
    assert_int_equal(sym, 0);
    assert_int_equal(board_key(&canon), board_key(&start));
}

static void moves__transform_commutes_with_make(void **state) {
    (void)state;
    Rng rng = rng_seeded(13);
    for (int game = 0; game < 200; game++) {
        Board b = random_position(&rng, (int)rng_below(&rng, 100));
        MoveList list;
        movegen_all(&b, &list);
        for (Symmetry s = 0; s < SYMMETRIES; s++) {
            Board image = sym_board(s, &b);
            MoveList image_list;
            movegen_all(&image, &image_list);
            assert_int_equal(image_list.count, list.count);
            for (int i = 0; i < list.count; i++) {
                Move m = list.moves[i], mapped = sym_move(s, m);
                assert_true(movelist_find(&image_list, mapped) >= 0);
                Board after = b, image_after = image;
                board_make(&after, m);
                board_make(&image_after, mapped);
                Board expected = sym_board(s, &after);
                assert_int_equal(board_key(&image_after), board_key(&expected));
                assert_int_equal(sym_move(sym_inverse(s), mapped), m);
            }
        }
    }
}

/* Image keys kept move by move along random games (sheep placing and sliding, tiger steps and
 * jumps) equal the keys built from scratch, and give sym_canonical's key and symmetry. */
static void sym_keys__incremental_match_scratch_and_canonical(void **state) {
    (void)state;
    Rng rng = rng_seeded(15);
    int jumps = 0, slides = 0;
    for (int game = 0; game < 300; game++) {
        Board b = board_start();
        SymKeys keys;
        sym_keys_init(&keys, &b);
        for (int ply = 0; ply < 120 && board_game_end(&b) == GAME_END_NONE; ply++) {
            SymKeys scratch;
            sym_keys_init(&scratch, &b);
            for (Symmetry s = 0; s < SYMMETRIES; s++)
                assert_int_equal(keys.image[s], scratch.image[s]);
            assert_int_equal(keys.least, scratch.least);
            Symmetry sym, expected_sym;
            uint64_t key = sym_keys_canonical(&keys, &b, &sym);
            Board canon = sym_canonical(&b, &expected_sym);
            assert_int_equal(key, board_key(&canon));
            assert_int_equal(sym, expected_sym);
            MoveList list;
            movegen_all(&b, &list);
            Move m = list.moves[rng_below(&rng, (uint64_t)list.count)];
            jumps += move_is_jump(m);
            slides += b.side == SIDE_SHEEP && !move_is_place(m);
            SymKeys child;
            sym_keys_make(&child, &keys, &b, m);
            keys = child;
            board_make(&b, m);
        }
    }
    assert_true(jumps > 100 && slides > 100); /* every kind of move was exercised */
}

static void inverse__undoes_each_symmetry(void **state) {
    (void)state;
    Rng rng = rng_seeded(14);
    for (int game = 0; game < 100; game++) {
        Board b = random_position(&rng, (int)rng_below(&rng, 100));
        for (Symmetry s = 0; s < SYMMETRIES; s++) {
            Board image = sym_board(s, &b);
            Board back = sym_board(sym_inverse(s), &image);
            assert_true(board_equal(&back, &b));
        }
    }
    assert_int_equal(sym_move(3, MOVE_NONE), MOVE_NONE);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(perft__equal_for_all_8_images),
        cmocka_unit_test(canonical__idempotent_and_shared_by_all_images),
        cmocka_unit_test(moves__transform_commutes_with_make),
        cmocka_unit_test(sym_keys__incremental_match_scratch_and_canonical),
        cmocka_unit_test(inverse__undoes_each_symmetry),
    };
    return RUN_TESTS("symmetry", tests);
}
