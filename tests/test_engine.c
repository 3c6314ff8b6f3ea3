// SPDX-License-Identifier: MIT
// build/engine, the engine protocol: every command, its answers checked against the in-process
// search and bench, and bad lines answered with an error while the engine goes on.
#include "test_util.h"

#include "game.h"
#include "search.h"
#include "suite.h"

#include <inttypes.h>

#define ENGINE TSLAB_BUILD_DIR "/engine"

/* Runs the engine on the given input lines (printf format, \n-separated) and returns what it
 * printed (malloc'd); fails unless it exits with status 0. */
static char *talk(const char *input) {
    char path[256], command[512];
    snprintf(path, sizeof path, "/tmp/tslab_engine_input_%d", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(input, f);
    fclose(f);
    snprintf(command, sizeof command, "timeout 60 %s < %s 2>/dev/null", ENGINE, path);
    char *out = NULL;
    int status = test_run(command, &out);
    unlink(path);
    if (status != 0)
        fail_msg("engine exited with %d on:\n%s\noutput:\n%s", status, input, out);
    return out;
}

static int count_lines_starting(const char *text, const char *prefix) {
    int count = 0;
    size_t length = strlen(prefix);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1
                                                                         : NULL)
        count += !strncmp(line, prefix, length);
    return count;
}

/* The last line starting with prefix, copied into out without its newline. */
static bool last_line(const char *text, const char *prefix, char *out, size_t size) {
    const char *found = NULL;
    size_t length = strlen(prefix);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1
                                                                         : NULL)
        if (!strncmp(line, prefix, length))
            found = line;
    if (!found)
        return false;
    snprintf(out, size, "%.*s", (int)strcspn(found, "\n"), found);
    return true;
}

static void uci__one_option_line_per_table_row_then_uciok(void **state) {
    (void)state;
    char *out = talk("uci\nisready\nquit\n");
    assert_int_equal(count_lines_starting(out, "option name "),
                     (int)CONFIG_OPTION_COUNT + 2); /* every row, nodestime and preset */
    assert_non_null(strstr(out, "option name tm_soft type spin default 60 min 1 max 10000\n"));
    assert_non_null(strstr(out, "option name nodestime type spin default 0 min 0 max "));
    assert_non_null(strstr(out, "id name tslab-engine "));
    assert_non_null(strstr(out, "option name killers type check default true\n"));
    assert_non_null(strstr(out, "option name tt_bits type spin default 20 min 1 max 30\n"));
    assert_non_null(strstr(out, "option name depth type spin default 0 min 0 max 64\n"));
    assert_non_null(strstr(out, "option name replace type combo default twotier var twotier "));
    assert_non_null(strstr(out, "uciok\nreadyok\n"));
    free(out);
}

/* go depth N: one info line per pass, and the move, score and nodes the in-process search
 * gives the same configuration from the same game (history included). */
static void go__same_move_score_and_nodes_as_the_search_core(void **state) {
    (void)state;
    char *out = talk("setoption name killers value false\nsetoption name tt_bits value 16\n"
                     "position startpos moves c3 a1-b2 d4\ngo depth 6\n");
    SearchConfig config = config_default();
    Error err;
    assert_true(config_apply_line(&config, "killers=off tt_bits=16 depth=6", &err));
    Game game;
    Board start = board_start();
    assert_true(game_init(&game, &start, &err));
    const char *moves[] = {"c3", "a1-b2", "d4"};
    for (int i = 0; i < 3; i++)
        assert_true(game_play(&game, parse_move(moves[i]), &err));
    Searcher searcher;
    assert_true(searcher_init(&searcher, &config, &err));
    SearchResult r = search_run(&searcher, game_current(&game), game.positions, game.plies);
    searcher_destroy(&searcher);
    char expected[256], line[1024], move[MOVE_TEXT_MAX];
    snprintf(expected, sizeof expected, "bestmove %s", move_to_text(r.move, move));
    assert_true(last_line(out, "bestmove ", line, sizeof line));
    assert_string_equal(line, expected);
    /* One per pass, then the whole search's line before bestmove. */
    assert_int_equal(count_lines_starting(out, "info depth "), 7);
    snprintf(expected, sizeof expected, "info depth 6 nodes %" PRIu64 " nps ", r.stats.nodes);
    assert_non_null(strstr(out, expected));
    /* Tigers to move: the side to move's score is the tigers' score. */
    snprintf(expected, sizeof expected, "info depth 6 score cp %d nodes %" PRIu64 " ", r.score,
             r.stats.nodes);
    assert_non_null(strstr(out, expected));
    assert_true(last_line(out, "info depth 6 score", line, sizeof line));
    assert_memory_equal(line, expected, strlen(expected));
    assert_non_null(strstr(line, " pv "));
    game_destroy(&game);
    free(out);
}

/* go wtime/btime under setoption nodestime: the time manager's budget counted in nodes, so the
 * engine's search is exactly the in-process search given the same clock (the tigers' btime
 * here, the side to move), on any machine and load. */
static void go__clock_under_nodestime_as_the_search_core(void **state) {
    (void)state;
    char *out = talk("setoption name nodestime value 40\nsetoption name tm_soft value 20\n"
                     "position startpos moves c3\ngo wtime 5000 btime 2000 winc 20 binc 30\n");
    SearchConfig config = config_default();
    Error err;
    assert_true(config_apply_line(&config, "tm_soft=20 depth=64", &err));
    Game game;
    Board start = board_start();
    assert_true(game_init(&game, &start, &err));
    assert_true(game_play(&game, parse_move("c3"), &err));
    Searcher searcher;
    assert_true(searcher_init(&searcher, &config, &err));
    SearchClock clock = {true, 2000, 30, 0, 40};
    search_set_clock(&searcher, &clock);
    SearchResult r = search_run(&searcher, game_current(&game), game.positions, game.plies);
    searcher_destroy(&searcher);
    char expected[256];
    snprintf(expected, sizeof expected, "info depth %d nodes %" PRIu64 " nps ", r.depth,
             r.stats.nodes);
    assert_non_null(strstr(out, expected));
    /* The budget: share (2000 - 1) / 30 + 30 = 96.633 ms, hard 3x (289.899 ms = 11595 nodes). */
    assert_true(r.stats.nodes <= 11596);
    game_destroy(&game);
    free(out);
}

/* A forced win is written as UCI's mate in the winner's moves, positive for the side to move. */
static void go__wins_as_mate_in_moves(void **state) {
    (void)state;
    char *out = talk("position fen T3T/S4/5/5/T3T t 15 4\ngo depth 4\n");
    char line[1024];
    assert_true(last_line(out, "info depth 1 score", line, sizeof line));
    assert_non_null(strstr(line, " score mate 1 "));
    assert_true(last_line(out, "bestmove ", line, sizeof line));
    assert_string_equal(line, "bestmove a5xa3");
    free(out);
    /* The sheep after a placement that does not block: they lose in one tiger move. */
    out = talk("position fen T3T/S4/5/5/T3T s 15 4 moves c3\ngo depth 3\n");
    assert_true(last_line(out, "info depth 1 score", line, sizeof line));
    assert_non_null(strstr(line, " score mate 1 ")); /* tigers to move, they win */
    free(out);
    out = talk("position fen T3T/S4/5/5/T3T s 15 4\ngo depth 2\n");
    assert_true(last_line(out, "bestmove ", line, sizeof line));
    assert_string_equal(line, "bestmove a3");
    free(out);
}

static void go__nodes_limit_and_infinite_with_stop(void **state) {
    (void)state;
    /* A limit set as an option is what go without limits of its own uses. */
    char *limited = talk("setoption name depth value 3\ngo\n");
    assert_int_equal(count_lines_starting(limited, "info depth 3 score"), 1);
    assert_int_equal(count_lines_starting(limited, "info depth 4 "), 0);
    free(limited);
    char *out = talk("go nodes 3000\ngo infinite\nstop\nisready\nquit\n");
    assert_int_equal(count_lines_starting(out, "bestmove "), 2);
    char line[1024];
    assert_true(last_line(out, "readyok", line, sizeof line));
    free(out);
    /* A game that is over has no move. */
    out = talk("position fen 5/SS1S1/SSS2/TTSS1/TTSS1 t 10 0\ngo depth 3\n");
    assert_non_null(strstr(out, "info string the game is over: tigers trapped\nbestmove none\n"));
    free(out);
}

/* bench takes Stockfish's arguments in Stockfish's order; "current" is the position set. */
static void bench__signature_and_stockfish_lines_of_the_suite(void **state) {
    (void)state;
    char *out = talk("setoption name preset value plain\nbench 16 1 4\nquit\n");
    SearchConfig config = config_default();
    Error err;
    assert_true(config_apply_line(&config, "preset=plain depth=4", &err));
    char path[PATHS_MAX];
    assert_true(paths_data_file(BENCH_DEFAULT_POSITIONS, path, sizeof path, &err));
    Book book;
    assert_true(book_load(&book, path, true, &err));
    BenchRun run;
    assert_true(bench_run(book.entries, book.count, &config, 1, &run, &err));
    char expected[PATHS_MAX + 128], hex[17];
    snprintf(expected, sizeof expected,
             "info string bench: %d positions from %s, depth 4, signature %s\n", run.count, path,
             bench_hex(run.signature, hex));
    assert_non_null(strstr(out, expected));
    /* A line per position, in the suite's order, as in process. */
    const char *cursor = out;
    for (int i = 0; i < run.count; i++) {
        const SearchResult *r = &run.rows[i].result;
        char move[MOVE_TEXT_MAX];
        snprintf(expected, sizeof expected,
                 "info string bench position %s move %s score %d depth %d nodes %" PRIu64 "\n",
                 run.rows[i].entry.id, move_to_text(r->move, move), r->score, r->depth,
                 r->stats.nodes);
        cursor = strstr(cursor, expected);
        if (!cursor)
            fail_msg("no line '%s' after the previous position's", expected);
    }
    snprintf(expected, sizeof expected, "\nNodes searched  : %" PRIu64 "\n", run.total.nodes);
    assert_non_null(strstr(out, expected));
    assert_non_null(strstr(out, "===========================\nTotal time (ms) : "));
    bench_run_destroy(&run);
    book_destroy(&book);
    free(out);
    out = talk("position fen T3T/S4/5/5/T3T s 15 4\nbench 16 1 2 current\n");
    assert_non_null(
        strstr(out, "info string bench: 1 positions from the current position, depth 2, signature "));
    free(out);
}

/* Every malformed line is answered with an error and changes nothing; the engine stays up. */
static void bad_lines__error_answer_and_the_engine_goes_on(void **state) {
    (void)state;
    static const char *const bad[] = {
        "frobnicate",
        "position",
        "position sideways",
        "position fen",
        "position fen T3T/5/5/5/T3T s 2 0",
        "position fen T3T/5/5/5/T3T s 20 0 junk",
        "position startpos moves c3 c3",
        "position startpos moves zz",
        "position startpos moves a1-b2",
        "go depth",
        "go depth 0",
        "go depth 99",
        "go nodes -5",
        "go nodes 12x",
        "go nodes 0",        /* a limit of 0 would search until stop */
        "go movetime 0",
        "go btime 1000",     /* the start: the sheep move, and only the tigers' clock is given */
        "go btime 1000 binc 100 movestogo 10",
        "go sideways 4",
        "setoption",
        "setoption name",
        "setoption name killers",
        "setoption name killers value maybe",
        "setoption name killer value true",
        "setoption name depth value 99",
        "setoption name tt_bits value 99",
        "setoption name preset value nosuch",
        /* A value longer than any option's, which cut to fit would be depth=0 (no limit). */
        "setoption name depth value 000000000000000000000000000000000000000000000000000000000000"
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        "0000000000000000000000000000000000000000000000000000000000000000000000000000003",
        "bench 0",
        "bench 16 1 0",
        "bench 16 1 4 default sideways",
        "bench 16 1 4 /nonexistent/positions.txt",
        "bench 1 2 3 4 5 6",
    };
    size_t count = sizeof bad / sizeof bad[0];
    char input[8192] = "";
    for (size_t i = 0; i < count; i++) {
        strcat(input, bad[i]);
        strcat(input, "\n");
    }
    /* Still the start position and the defaults: the same move as a fresh engine. */
    strcat(input, "go depth 4\nisready\n");
    char *out = talk(input);
    assert_int_equal(count_lines_starting(out, "info string error: "), (int)count);
    char *fresh = talk("go depth 4\n");
    char line[256], fresh_line[256];
    assert_true(last_line(out, "bestmove ", line, sizeof line));
    assert_true(last_line(fresh, "bestmove ", fresh_line, sizeof fresh_line));
    assert_string_equal(line, fresh_line);
    assert_non_null(strstr(out, "readyok\n"));
    free(out);
    free(fresh);
    /* A line of more words than any fixed table would hold: read whole (the first move is
     * what is wrong with it). */
    size_t words = 6000;
    char *many = malloc(64 + 3 * words);
    assert_non_null(many);
    strcpy(many, "position startpos moves");
    for (size_t i = 0; i < words; i++)
        strcat(many + strlen(many), " zz");
    strcat(many, "\nisready\n");
    out = talk(many);
    assert_non_null(strstr(out, "info string error: position: move 1 'zz'"));
    free(out);
    free(many);
    /* Garbage bytes, a NUL, a very long line, and end of input without quit. */
    static const char tail[] = "\n\1\2\3\nisready\n";
    size_t long_line = 300000;
    char *garbage = malloc(long_line + sizeof tail);
    assert_non_null(garbage);
    memset(garbage, 'x', long_line);
    memcpy(garbage + long_line, tail, sizeof tail);
    out = talk(garbage);
    assert_non_null(strstr(out, "readyok\n"));
    free(out);
    free(garbage);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(uci__one_option_line_per_table_row_then_uciok),
        cmocka_unit_test(go__same_move_score_and_nodes_as_the_search_core),
        cmocka_unit_test(go__clock_under_nodestime_as_the_search_core),
        cmocka_unit_test(go__wins_as_mate_in_moves),
        cmocka_unit_test(go__nodes_limit_and_infinite_with_stop),
        cmocka_unit_test(bench__signature_and_stockfish_lines_of_the_suite),
        cmocka_unit_test(bad_lines__error_answer_and_the_engine_goes_on),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
