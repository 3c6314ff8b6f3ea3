// SPDX-License-Identifier: MIT
// Helpers shared by the cmocka suites: parsing fixtures and seeded random games.
#pragma once

#include "board.h"
#include "movegen.h"
#include "rng.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

/* Parses text or fails the test, naming the text and the parser's message. */
static inline Board parse_board(const char *text) {
    Board b;
    Error err = {{0}};
    if (!board_from_text(text, &b, &err))
        fail_msg("cannot parse '%s': %s", text, err.text);
    return b;
}

static inline Move parse_move(const char *text) {
    Move m;
    Error err = {{0}};
    if (!move_from_text(text, &m, &err))
        fail_msg("cannot parse move '%s': %s", text, err.text);
    return m;
}

/* Plays up to plies random legal moves from the start (stopping when the game ends by the
 * rules) and returns the position reached. Same rng state, same position. */
static inline Board random_position(Rng *rng, int plies) {
    Board b = board_start();
    for (int i = 0; i < plies && board_game_end(&b) == GAME_END_NONE; i++) {
        MoveList list;
        movegen_all(&b, &list);
        board_make(&b, list.moves[rng_below(rng, (uint64_t)list.count)]);
    }
    return b;
}

/* Runs a group; `-t PATTERN` runs only the tests whose name matches (cmocka's filter). */
static inline int tslab_run_tests(const char *group, const struct CMUnitTest *tests, size_t count,
                            int argc, char **argv) {
    if (argc > 2 && !strcmp(argv[1], "-t"))
        cmocka_set_test_filter(argv[2]);
    return _cmocka_run_group_tests(group, tests, count, NULL, NULL);
}
/* The same with a group fixture (setup and teardown run once around the whole group). */
static inline int tslab_run_tests_setup(const char *group, const struct CMUnitTest *tests,
                                        size_t count, int argc, char **argv,
                                        CMFixtureFunction setup, CMFixtureFunction teardown) {
    if (argc > 2 && !strcmp(argv[1], "-t"))
        cmocka_set_test_filter(argv[2]);
    return _cmocka_run_group_tests(group, tests, count, setup, teardown);
}

#define RUN_TESTS(group, tests) tslab_run_tests(group, tests, sizeof tests / sizeof tests[0], argc, argv)
