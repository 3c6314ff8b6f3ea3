// SPDX-License-Identifier: MIT
// The rules: every rule of docs/rules.md has a test here (moves, jumps, placement, game ends).
#include "board.h"

#include "movegen.h"
#include "test_util.h"

/* Builds a position from point lists ("c3 d4") so each test states only what matters. The
 * captured count is whatever makes the sheep add up to 20. */
static Board make_board(const char *tigers, const char *sheep, Side side, int in_hand) {
    Board b = {0};
    const char *lists[2] = {tigers, sheep};
    for (int k = 0; k < 2; k++)
        for (const char *p = lists[k]; *p; p++) {
            if (*p == ' ')
                continue;
            uint32_t bit = 1u << ((p[1] - '1') * BOARD_SIZE + (p[0] - 'a'));
            if (k == 0)
                b.tigers |= bit;
            else
                b.sheep |= bit;
            p++;
        }
    b.side = (uint8_t)side;
    b.in_hand = (uint8_t)in_hand;
    b.captured = (uint8_t)(SHEEP_TOTAL - popcount32(b.sheep) - in_hand);
    assert_true(board_is_consistent(&b));
    return b;
}

static bool has_move(const Board *b, const char *text) {
    MoveList list;
    movegen_all(b, &list);
    return movelist_find(&list, parse_move(text)) >= 0;
}

static void expect_illegal(const Board *b, const char *move, const char *reason) {
    Error err = {{0}};
    if (board_check_move(b, parse_move(move), &err))
        fail_msg("%s was accepted, expected: %s", move, reason);
    if (!strstr(err.text, reason))
        fail_msg("%s rejected with '%s', expected '%s'", move, err.text, reason);
}

static void start__sheep_place_on_any_of_21_points(void **state) {
    (void)state;
    Board b = board_start();
    MoveList list;
    movegen_all(&b, &list);
    assert_int_equal(list.count, 21);
    for (int i = 0; i < list.count; i++)
        assert_true(move_is_place(list.moves[i]));
    assert_int_equal(movegen_count(&b), 21);
    expect_illegal(&b, "a1", "a1 is occupied");
}

static void placement__sheep_cannot_step_while_in_hand(void **state) {
    (void)state;
    Board b = make_board("a1 e1 a5 e5", "c3", SIDE_SHEEP, 19);
    assert_false(has_move(&b, "c3-c4"));
    expect_illegal(&b, "c3-c4", "sheep must place while 19 are in hand");
    assert_int_equal(movegen_count(&b), 20);
}

static void placement__tigers_cannot_place(void **state) {
    (void)state;
    Board b = make_board("a1 e1 a5 e5", "c3", SIDE_TIGERS, 19);
    expect_illegal(&b, "c4", "tigers cannot place");
}

static void movement__sheep_step_along_lines_only(void **state) {
    (void)state;
    /* b3 is an odd point: no diagonals. c3 is even: 8 lines. */
    Board b = make_board("a1 e1 a5 e5", "b3 c3 a2 a3 a4 b1 b2 b4 b5 c1 c2 c4 c5 d1 d2 d3 d4 d5 e2 e3",
                         SIDE_SHEEP, 0);
    assert_true(has_move(&b, "e3-e4"));
    assert_false(has_move(&b, "d3-e4")); /* d3 is odd: no diagonal */
    assert_false(has_move(&b, "d5-e4")); /* e4 is odd: joined only orthogonally */
    expect_illegal(&b, "d3-e4", "d3 and e4 are not joined by a line");
    expect_illegal(&b, "c3-c4", "c4 is occupied");
    expect_illegal(&b, "e4", "no sheep in hand");
    expect_illegal(&b, "a1-a2", "no sheep on a1");
}

static void jumps__diagonal_only_from_even_points(void **state) {
    (void)state;
    Board even = make_board("c3 a1 e1 a5", "d4", SIDE_TIGERS, 19);
    assert_true(has_move(&even, "c3xe5"));
    Board odd = make_board("b3 a1 e1 e5", "c4", SIDE_TIGERS, 19);
    assert_false(has_move(&odd, "b3xd5"));
    expect_illegal(&odd, "b3xd5", "no line from b3 over c4 to d5");
}

static void jumps__allowed_during_placement_and_not_compulsory(void **state) {
    (void)state;
    Board b = make_board("a1 e1 a5 e5", "a2", SIDE_TIGERS, 19);
    MoveList list;
    movegen_all(&b, &list);
    assert_true(move_is_jump(list.moves[0])); /* jumps first */
    assert_int_equal(list.moves[0], parse_move("a1xa3"));
    assert_true(has_move(&b, "a1-b1")); /* other moves stay legal */
    Board after = b;
    board_make(&after, parse_move("a1xa3"));
    assert_int_equal(after.captured, 1);
    assert_int_equal(after.sheep, 0);
    assert_int_equal(after.in_hand, 19);
    assert_int_equal(after.side, SIDE_SHEEP);
    assert_true(board_is_consistent(&after));
}

static void jumps__never_over_a_tiger_off_the_board_or_onto_a_piece(void **state) {
    (void)state;
    Board b = make_board("c3 d3 a1 a5", "e3 c4 c5 c2", SIDE_TIGERS, 16);
    assert_false(has_move(&b, "c3xe3")); /* over a tiger */
    assert_false(has_move(&b, "c3xc5")); /* landing occupied */
    assert_true(has_move(&b, "c3xc1"));
    expect_illegal(&b, "c3xe3", "e3 is occupied");
    /* A tiger on the edge jumps only where the line goes on: e3 over e4 and over d3. */
    Board edge = make_board("e3 a1 a5 e1", "e4 d3", SIDE_TIGERS, 18);
    assert_true(has_move(&edge, "e3xe5"));
    assert_true(has_move(&edge, "e3xc3"));
    assert_int_equal(movegen_tiger_jumps(&edge), 2);
    /* d5 over e5 would land off the board: no jump. */
    Board corner = make_board("d5 a1 a5 e1", "e5", SIDE_TIGERS, 19);
    assert_int_equal(movegen_tiger_jumps(&corner), 0);
    expect_illegal(&edge, "a1xa3", "no sheep on a2 to jump over");
}

static void steps__sheep_cannot_jump(void **state) {
    (void)state;
    /* c1 is empty and c2 holds a sheep: a tiger on c3 could jump there, a sheep cannot. */
    Board b = make_board("a1 e1 a5 e5", "a2 b2 c2 d2 e2 a3 b3 c3 d3 e3 a4 b4 c4 d4 e4 b5 c5 d5",
                         SIDE_SHEEP, 0);
    expect_illegal(&b, "c3xc1", "sheep cannot jump");
    assert_true(has_move(&b, "c2-c1"));
    assert_true(has_move(&b, "b2-c1")); /* b2 is even: diagonal */
    assert_true(has_move(&b, "d2-c1"));  /* d2 is even too */
}

static void end__five_captures_tigers_win(void **state) {
    (void)state;
    Board four = parse_board("T3T/5/5/5/T3T t 16 4");
    assert_int_equal(board_game_end(&four), GAME_END_NONE);
    Board five = parse_board("T3T/5/5/5/T3T s 15 5");
    assert_int_equal(board_game_end(&five), GAME_END_CAPTURES);
    assert_int_equal(game_end_result(GAME_END_CAPTURES), RESULT_TIGERS_WIN);
    expect_illegal(&five, "c3", "the game is over");
}

static void end__tigers_trapped_sheep_win(void **state) {
    (void)state;
    Board b = parse_board("5/SS1S1/SSS2/TTSS1/TTSS1 t 10 0");
    assert_int_equal(movegen_count(&b), 0);
    assert_int_equal(board_game_end(&b), GAME_END_TIGERS_TRAPPED);
    assert_int_equal(game_end_result(board_game_end(&b)), RESULT_SHEEP_WIN);
    int trapped;
    assert_int_equal(movegen_tiger_moves(&b, NULL, &trapped), 0);
    assert_int_equal(trapped, 4);
    /* The same board with sheep to move is not over: sheep still place. */
    b.side = SIDE_SHEEP;
    assert_int_equal(board_game_end(&b), GAME_END_NONE);
}

static void end__sheep_blocked_tigers_win(void **state) {
    (void)state;
    Board b = parse_board("SSSST/SSSSS/SSSSS/TTSSS/1TSSS s 0 0");
    assert_int_equal(board_game_end(&b), GAME_END_SHEEP_BLOCKED);
    assert_int_equal(game_end_result(GAME_END_SHEEP_BLOCKED), RESULT_TIGERS_WIN);
}

static void tiger_counts__trapped_and_mobility(void **state) {
    (void)state;
    /* a1 can only jump (over a2 to a3); e1, a5, e5 free. */
    Board b = make_board("a1 e1 a5 e5", "a2 b1 b2 c1 c3", SIDE_TIGERS, 15);
    int trapped;
    int moves = movegen_tiger_moves(&b, NULL, &trapped);
    assert_int_equal(moves, movegen_count(&b));
    assert_int_equal(trapped, 0);
    assert_int_equal(movegen_tiger_jumps(&b), 1);
    Board stuck = make_board("a1 e1 a5 e5", "a2 b1 b2 c1 c3 a3", SIDE_TIGERS, 14);
    movegen_tiger_moves(&stuck, NULL, &trapped);
    assert_int_equal(trapped, 1);
}

/* The tiger counts from the moves listed one tiger at a time (movegen_all_point_order): how
 * many, how many jumps, how many tigers with none. */
static void tiger_counts_from_list(Board b, int *moves, int *jumps, int *trapped) {
    b.side = SIDE_TIGERS;
    MoveList list;
    movegen_all_point_order(&b, &list);
    uint32_t movers = 0;
    *jumps = 0;
    for (int i = 0; i < list.count; i++) {
        *jumps += move_is_jump(list.moves[i]);
        movers |= 1u << move_from(list.moves[i]);
    }
    *moves = list.count;
    *trapped = TIGERS_TOTAL - popcount32(movers);
}

static void expect_tiger_counts(const Board *b) {
    int moves, jumps, trapped;
    tiger_counts_from_list(*b, &moves, &jumps, &trapped);
    int fast_jumps, fast_trapped, portable_jumps, portable_trapped;
    assert_int_equal(movegen_tiger_moves(b, &fast_jumps, &fast_trapped), moves);
    assert_int_equal(fast_jumps, jumps);
    assert_int_equal(fast_trapped, trapped);
    assert_int_equal(movegen_tiger_moves_portable(b, &portable_jumps, &portable_trapped), moves);
    assert_int_equal(portable_jumps, jumps);
    assert_int_equal(portable_trapped, trapped);
    assert_int_equal(movegen_tiger_jumps(b), jumps);
}

/* movegen_tiger_moves (vector lanes where the build has AVX2) and the portable loop against the
 * listed moves: positions of random games, either side to move, and boards of random pieces
 * (any 4 tigers and 0-20 sheep: trapped tigers and full edges that games rarely reach). */
static void tiger_counts__every_way_agrees_with_the_move_list(void **state) {
    (void)state;
    Rng rng = rng_seeded(26);
    for (int game = 0; game < 400; game++)
        for (int plies = 0; plies < 60; plies += 3) {
            Board b = random_position(&rng, plies);
            expect_tiger_counts(&b);
            b.side ^= 1;
            expect_tiger_counts(&b);
        }
    for (int n = 0; n < 20000; n++) {
        Board b = {.side = (uint8_t)rng_below(&rng, 2)};
        while (popcount32(b.tigers) < TIGERS_TOTAL)
            b.tigers |= 1u << rng_below(&rng, BOARD_POINTS);
        int sheep = (int)rng_below(&rng, SHEEP_TOTAL + 1);
        while (popcount32(b.sheep) < sheep)
            b.sheep |= (1u << rng_below(&rng, BOARD_POINTS)) & ~b.tigers;
        b.captured = (uint8_t)(SHEEP_TOTAL - sheep);
        expect_tiger_counts(&b);
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(start__sheep_place_on_any_of_21_points),
        cmocka_unit_test(placement__sheep_cannot_step_while_in_hand),
        cmocka_unit_test(placement__tigers_cannot_place),
        cmocka_unit_test(movement__sheep_step_along_lines_only),
        cmocka_unit_test(jumps__diagonal_only_from_even_points),
        cmocka_unit_test(jumps__allowed_during_placement_and_not_compulsory),
        cmocka_unit_test(jumps__never_over_a_tiger_off_the_board_or_onto_a_piece),
        cmocka_unit_test(steps__sheep_cannot_jump),
        cmocka_unit_test(end__five_captures_tigers_win),
        cmocka_unit_test(end__tigers_trapped_sheep_win),
        cmocka_unit_test(end__sheep_blocked_tigers_win),
        cmocka_unit_test(tiger_counts__trapped_and_mobility),
        cmocka_unit_test(tiger_counts__every_way_agrees_with_the_move_list),
    };
    return RUN_TESTS("rules", tests);
}
