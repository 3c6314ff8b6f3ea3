// SPDX-License-Identifier: MIT
// The game record: legal play, results with reasons, threefold repetition.
#include "game.h"

#include "test_util.h"

static void play_all(Game *game, const char *const *moves, int count) {
    for (int i = 0; i < count; i++) {
        Error err = {{0}};
        if (!game_play(game, parse_move(moves[i]), &err))
            fail_msg("move %d (%s) refused: %s", i + 1, moves[i], err.text);
    }
}

static void threefold__third_occurrence_is_a_draw(void **state) {
    (void)state;
    Board start = parse_board("TSSST/SSSSS/SSSSS/SS2S/T3T s 0 4");
    Game game;
    assert_true(game_init(&game, &start, NULL));
    static const char *const cycle[] = {"b2-c1", "a1-b1", "c1-b2", "b1-a1"};
    play_all(&game, cycle, 4);
    assert_int_equal(game_occurrences(&game), 2);
    assert_int_equal(game.end, GAME_END_NONE);
    play_all(&game, cycle, 3);
    assert_int_equal(game.end, GAME_END_NONE);
    play_all(&game, cycle + 3, 1);
    assert_int_equal(game_occurrences(&game), 3);
    assert_int_equal(game.end, GAME_END_REPETITION);
    assert_int_equal(game.result, RESULT_DRAW);
    Error err = {{0}};
    assert_false(game_play(&game, parse_move("b2-c1"), &err));
    assert_non_null(strstr(err.text, "the game is over (threefold repetition)"));
    game_destroy(&game);
}

static void record__keeps_moves_positions_and_refuses_illegal(void **state) {
    (void)state;
    Board start = board_start();
    Game game;
    assert_true(game_init(&game, &start, NULL));
    Error err = {{0}};
    assert_false(game_play(&game, parse_move("a1-b2"), &err));
    assert_non_null(strstr(err.text, "sheep must place"));
    assert_int_equal(game.plies, 0);
    /* 100 plies from random games exercise growth past the first capacity. */
    Rng rng = rng_seeded(5);
    while (game.end == GAME_END_NONE && game.plies < 200) {
        MoveList list;
        movegen_all(game_current(&game), &list);
        assert_true(game_play(&game, list.moves[rng_below(&rng, (uint64_t)list.count)], &err));
    }
    for (int i = 0; i < game.plies; i++) {
        Board replay = game.positions[i];
        board_make(&replay, game.moves[i]);
        assert_true(board_equal(&replay, &game.positions[i + 1]));
    }
    if (game.end == GAME_END_NONE) {
        game_adjudicate(&game, GAME_END_MAX_MOVES);
        assert_int_equal(game.result, RESULT_DRAW);
    }
    game_destroy(&game);
}

static void capture_win__fifth_capture_ends_the_game(void **state) {
    (void)state;
    Board start = parse_board("T3T/S4/5/5/T3T t 15 4");
    Game game;
    assert_true(game_init(&game, &start, NULL));
    static const char *const moves[] = {"a5xa3"};
    play_all(&game, moves, 1);
    assert_int_equal(game.end, GAME_END_CAPTURES);
    assert_int_equal(game.result, RESULT_TIGERS_WIN);
    game_destroy(&game);
}

static void init__over_position_is_recorded_as_over(void **state) {
    (void)state;
    Board trapped = parse_board("5/SS1S1/SSS2/TTSS1/TTSS1 t 10 0");
    Game game;
    assert_true(game_init(&game, &trapped, NULL));
    assert_int_equal(game.end, GAME_END_TIGERS_TRAPPED);
    assert_int_equal(game.result, RESULT_SHEEP_WIN);
    game_destroy(&game);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(threefold__third_occurrence_is_a_draw),
        cmocka_unit_test(record__keeps_moves_positions_and_refuses_illegal),
        cmocka_unit_test(capture_win__fifth_capture_ends_the_game),
        cmocka_unit_test(init__over_position_is_recorded_as_over),
    };
    return RUN_TESTS("game", tests);
}
