// SPDX-License-Identifier: MIT
// Position and move text: accepted forms, round trips, and a table of malformed inputs.
#include "board.h"

#include "test_util.h"

#include <stdio.h>

typedef struct {
    const char *text;
    const char *error; /* substring of the expected message; NULL = accepted */
    const char *why;
} TextRow;

static const TextRow board_rows[] = {
    {"T3T/5/5/5/T3T s 20 0", NULL, "the start"},
    {"T3T/5/5/5/T3T s 20 0  ", NULL, "trailing spaces are not garbage"},
    {"T3T/5/5/5/T3T t 15 5", NULL, "game over by captures is still well-formed"},
    {"T3T/5/5/5/T3T s 0 20", NULL, "captured 20: the limit"},
    {"T3T/5/5/5/T3T s 0 21", "col 19: sheep captured is 21, at most 20", "captured 21"},
    {"T3T/5/5/5/T3T s 21 0", "col 17: sheep in hand is 21, at most 20", "in hand 21"},
    {"T3T/5/5/5/T3T s 20 1", "col 20: 0 sheep on the board + 20 in hand + 1 captured = 21",
     "sheep add to 21"},
    {"T3T/5/5/5/T3T s 19 0", "= 19, expected 20", "sheep add to 19"},
    {"TSSSS/SSSSS/SSSSS/SSSS1/TTTSS s 0 0", NULL, "20 sheep on the board: the limit"},
    {"TSSSS/SSSSS/SSSSS/SSSSS/TTTSS s 0 0", "col 1: 21 sheep on the board, at most 20",
     "21 sheep on the board"},
    {"5/5/5/5/5 s 20 0", "col 1: 0 tigers, expected 4", "no tigers"},
    {"T3T/5/5/5/T4 s 20 0", "col 1: 3 tigers, expected 4", "3 tigers"},
    {"TTTTT/5/5/5/5 s 20 0", "col 1: 5 tigers, expected 4", "5 tigers"},
    {"T4T/5/5/5/T3T s 20 0", "col 3: rank 5 has more than 5 points", "6 points in a rank"},
    {"T2T/5/5/5/T3T s 20 0", "col 4: rank 5 has 4 points, expected 5", "4 points in a rank"},
    {"5/5/5/5/5/5 s 20 0", "col 10: more than 5 ranks", "6 ranks"},
    {"T3T/5/5/T3T s 20 0", "col 12: 4 ranks, expected 5", "4 ranks"},
    {"T5/5/5/5/T3T s 20 0", "col 2: rank 5 has more than 5 points", "digit 5 after a piece"},
    {"T3T/6/5/5/T3T s 20 0", "col 5: run of empty points '6' out of range 1..5", "digit 6"},
    {"T3T/0S4/5/5/T3T s 20 0", "col 5: run of empty points '0' out of range 1..5", "digit 0"},
    {"T3T/23/5/5/T3T s 20 0", "col 6: two digits in a row", "split run"},
    {"T3T/5/5/5/T3X s 20 0", "col 13: unexpected 'X' in the board", "bad piece letter"},
    {"t3t/5/5/5/T3T s 20 0", "col 1: unexpected 't'", "lower-case piece"},
    {"T3T/5/5/5/T3T x 20 0", "col 15: side to move must be s or t, found 'x'", "bad side"},
    {"T3T/5/5/5/T3T", "col 14: expected a space before the side to move", "no fields"},
    {"T3T/5/5/5/T3T s", "col 16: expected a space before the sheep in hand", "no hand"},
    {"T3T/5/5/5/T3T s 20", "col 19: expected a space before the sheep captured", "no captured"},
    {"T3T/5/5/5/T3T s 20 ", "col 20: missing the sheep captured", "space, then nothing"},
    {"T3T/5/5/5/T3T s -1 0", "col 17: expected the sheep in hand", "negative"},
    {"T3T/5/5/5/T3T s 1000 0", "col 17: sheep in hand has too many digits", "4 digits"},
    {"T3T/5/5/5/T3T s 20 0 x", "col 22: unexpected text after the captured count", "garbage"},
    {"T3T/5/5/5/T3T s 20 0x", "col 21: unexpected text after the captured count", "glued"},
    {"", "col 1: empty position text", "empty"},
};

static void board_text__table_of_inputs(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof board_rows / sizeof board_rows[0]; i++) {
        const TextRow *row = &board_rows[i];
        Board b;
        Error err = {{0}};
        bool ok = board_from_text(row->text, &b, &err);
        if (row->error == NULL && !ok)
            fail_msg("row %zu (%s): '%s' rejected: %s", i, row->why, row->text, err.text);
        if (row->error != NULL && ok)
            fail_msg("row %zu (%s): '%s' accepted", i, row->why, row->text);
        if (row->error != NULL && !strstr(err.text, row->error))
            fail_msg("row %zu (%s): message '%s', expected '%s'", i, row->why, err.text,
                     row->error);
        if (ok)
            assert_true(board_is_consistent(&b));
    }
}

static void board_text__overlong_input_rejected(void **state) {
    (void)state;
    char text[400];
    memset(text, ' ', sizeof text);
    memcpy(text, "T3T/5/5/5/T3T s 20 0", 20);
    text[BOARD_TEXT_INPUT_MAX] = '\0'; /* at the limit: trailing spaces, accepted */
    Board b;
    Error err = {{0}};
    assert_true(board_from_text(text, &b, &err));
    text[BOARD_TEXT_INPUT_MAX] = ' ';
    text[BOARD_TEXT_INPUT_MAX + 1] = '\0';
    assert_false(board_from_text(text, &b, &err));
    assert_non_null(strstr(err.text, "col 129: position text longer than 128 characters"));
}

static void board_text__failure_leaves_output_untouched(void **state) {
    (void)state;
    Board b = board_start(), before = b;
    Error err = {{0}};
    assert_false(board_from_text("T3T/5/5/5/T3T s 21 0", &b, &err));
    assert_true(board_equal(&b, &before));
}

static void board_text__round_trip_over_random_games(void **state) {
    (void)state;
    Rng rng = rng_seeded(2026);
    for (int game = 0; game < 300; game++) {
        Board b = random_position(&rng, (int)rng_below(&rng, 120));
        char text[BOARD_TEXT_MAX], again[BOARD_TEXT_MAX];
        board_to_text(&b, text);
        Board parsed = parse_board(text);
        assert_int_equal(board_key(&parsed), board_key(&b));
        assert_int_equal(parsed.captured, b.captured);
        assert_string_equal(board_to_text(&parsed, again), text);
    }
    char text[BOARD_TEXT_MAX];
    Board start = board_start();
    assert_string_equal(board_to_text(&start, text), "T3T/5/5/5/T3T s 20 0");
}

typedef struct {
    const char *text;
    const char *canonical; /* NULL = rejected */
    const char *error;
    const char *why;
} MoveRow;

static const MoveRow move_rows[] = {
    {"c3", "c3", NULL, "placement"},
    {"a1-b2", "a1-b2", NULL, "step"},
    {"a1xc3", "a1xc3", NULL, "jump"},
    {"a1b2", "a1-b2", NULL, "compact step"},
    {"a1c3", "a1xc3", NULL, "compact jump"},
    {"e5xe3", "e5xe3", NULL, "jump down a file"},
    {"a1-c3", NULL, "col 3: '-' marks a step", "dash on a jump"},
    {"a1xb2", NULL, "col 3: 'x' marks a jump", "x on a step"},
    {"f1", NULL, "col 1: expected a file a..e, found 'f'", "file f"},
    {"a6", NULL, "col 2: expected a rank 1..5, found '6'", "rank 6"},
    {"a", NULL, "col 2: expected a rank 1..5, found end of text", "half a point"},
    {"", NULL, "col 1: expected a file a..e, found end of text", "empty"},
    {"a1-a4", NULL, "a1-a4 is not a step or a jump along a line", "three apart"},
    {"a1b3", NULL, "a1b3 is not a step or a jump along a line", "knight's move"},
    {"a1a1", NULL, "not a step or a jump", "null move"},
    {"a1-b2x", NULL, "col 6: unexpected 'x' after the move", "trailing text"},
    {"a1-", NULL, "col 4: expected a file a..e, found end of text", "dangling dash"},
};

static void move_text__table_of_inputs(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof move_rows / sizeof move_rows[0]; i++) {
        const MoveRow *row = &move_rows[i];
        Move m;
        Error err = {{0}};
        bool ok = move_from_text(row->text, &m, &err);
        char text[MOVE_TEXT_MAX];
        if (row->canonical && !ok)
            fail_msg("row %zu (%s): '%s' rejected: %s", i, row->why, row->text, err.text);
        if (!row->canonical && ok)
            fail_msg("row %zu (%s): '%s' accepted", i, row->why, row->text);
        if (row->canonical && strcmp(move_to_text(m, text), row->canonical))
            fail_msg("row %zu (%s): formatted as '%s'", i, row->why, text);
        if (!row->canonical && !strstr(err.text, row->error))
            fail_msg("row %zu (%s): message '%s', expected '%s'", i, row->why, err.text,
                     row->error);
    }
}

static void move_text__round_trip_of_every_generated_move(void **state) {
    (void)state;
    Rng rng = rng_seeded(7);
    for (int game = 0; game < 200; game++) {
        Board b = random_position(&rng, (int)rng_below(&rng, 100));
        MoveList list;
        movegen_all(&b, &list);
        for (int i = 0; i < list.count; i++) {
            char text[MOVE_TEXT_MAX];
            assert_int_equal(parse_move(move_to_text(list.moves[i], text)), list.moves[i]);
        }
    }
}

/* Every 16-bit code: a well-formed one names points on the board; any other is refused by
 * board_check_move as "not a move", whatever the position (another rank's game record may hold
 * any code). Every generated move is well-formed. */
static void move_code__every_code_checked_or_refused(void **state) {
    (void)state;
    Board start = board_start();
    Board tigers = parse_board("T3T/5/2S2/5/T3T t 19 0");
    int well_formed = 0;
    for (uint32_t code = 0; code <= UINT16_MAX; code++) {
        Move m = (Move)code;
        Error err;
        if (move_is_well_formed(m)) {
            well_formed++;
            assert_true(move_to(m) < 25);
            assert_true(move_is_place(m) || move_from(m) < 25);
            continue;
        }
        assert_false(board_check_move(&start, m, &err));
        assert_non_null(strstr(err.text, "is not a move"));
        assert_false(board_check_move(&tigers, m, &err));
        assert_non_null(strstr(err.text, "is not a move"));
    }
    /* 25 placements, and 25 * 24 ordered pairs of points, as steps or jumps. */
    assert_int_equal(well_formed, 25 + 2 * 25 * 24);
    Rng rng = rng_seeded(9);
    for (int game = 0; game < 100; game++) {
        Board b = random_position(&rng, (int)rng_below(&rng, 100));
        MoveList list;
        movegen_all(&b, &list);
        for (int i = 0; i < list.count; i++)
            assert_true(move_is_well_formed(list.moves[i]));
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(board_text__table_of_inputs),
        cmocka_unit_test(board_text__overlong_input_rejected),
        cmocka_unit_test(board_text__failure_leaves_output_untouched),
        cmocka_unit_test(board_text__round_trip_over_random_games),
        cmocka_unit_test(move_text__table_of_inputs),
        cmocka_unit_test(move_text__round_trip_of_every_generated_move),
        cmocka_unit_test(move_code__every_code_checked_or_refused),
    };
    return RUN_TESTS("notation", tests);
}
