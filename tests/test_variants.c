// SPDX-License-Identifier: MIT
// The tree-changing search variants (pruning kind): each must do something, and the right thing.
// The exact variants (history, PVS, aspiration) are checked against plain minimax in
// tests/test_search.c through the exactness matrix.
#include "search.h"

#include "book.h"
#include "test_util.h"

/* Each variant alone (the defaults turn several on, which would otherwise be measured
 * together). */
static SearchConfig with(const char *tokens) { return config_without_pruning(tokens); }

static SearchResult run(const char *tokens, const char *position) {
    SearchConfig config = with(tokens);
    Board b = parse_board(position);
    Searcher *s = malloc(sizeof *s);
    Error err = {{0}};
    if (!searcher_init(s, &config, &err))
        fail_msg("searcher_init: %s", err.text);
    SearchResult r = search_run(s, &b, NULL, 0);
    searcher_destroy(s);
    free(s);
    return r;
}

/* Totals over the bench suite's first positions at a depth, for node comparisons. */
static SearchStats suite_stats(const char *tokens, int count) {
    Book book;
    Error err;
    if (!book_load(&book, TSLAB_SOURCE_DIR "/bench/positions.txt", true, &err))
        fail_msg("%s", err.text);
    SearchConfig config = with(tokens);
    Searcher *s = malloc(sizeof *s);
    if (!searcher_init(s, &config, &err))
        fail_msg("searcher_init: %s", err.text);
    SearchStats total = {0};
    for (int i = 0; i < count && i < book.count; i++) {
        SearchResult r = search_run(s, &book.entries[i].board, NULL, 0);
        stats_add(&total, &r.stats);
    }
    searcher_destroy(s);
    free(s);
    book_destroy(&book);
    return total;
}

static void assert_move(const SearchResult *r, const char *expected, const char *what) {
    char text[MOVE_TEXT_MAX];
    if (strcmp(move_to_text(r->move, text), expected))
        fail_msg("%s: %s, expected %s", what, text, expected);
}

/* Capture sequences behind the horizon (bench suite positions): at depth 2 without quiescence
 * the search misjudges a position where a jump follows the horizon; with qsearch=on it chooses
 * what the depth-3 search chooses, with the same score. */
static void qsearch__sees_the_capture_behind_the_horizon(void **state) {
    (void)state;
    static const struct {
        const char *position, *plain, *right;
        int score;
    } rows[] = {
        {"S2T1/TSST1/2SS1/TSSSS/4S t 9 1", "a4-a3", "a2-a3", 238},
        {"SSSTS/SSSTS/S2S1/SS1T1/2T2 t 6 2", "d4-c3", "d2-c3", 328},
        {"2T1T/S3S/1S1SS/1T3/4T t 15 0", "b2xb4", "e5-d4", 158},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        SearchResult plain = run("depth=2", rows[i].position);
        SearchResult quiet = run("depth=2 qsearch=on", rows[i].position);
        SearchResult deeper = run("depth=3", rows[i].position);
        assert_move(&plain, rows[i].plain, "depth 2");
        assert_move(&quiet, rows[i].right, "depth 2 with qsearch");
        assert_move(&deeper, rows[i].right, "depth 3");
        assert_int_equal(quiet.score, rows[i].score);
        assert_int_equal(deeper.score, rows[i].score);
        assert_true(quiet.stats.qsearch_nodes > 0);
    }
}

/* A sheep placement whose refutation (a tiger jump) lies one ply beyond depth 2: with
 * jump_extension=on the jump is searched deeper and the depth-3 choice is made. */
static void jump_extension__searches_captures_deeper(void **state) {
    (void)state;
    const char *position = "T4/S1ST1/S4/T4/4T s 17 0";
    SearchResult plain = run("depth=2", position);
    SearchResult extended = run("depth=2 jump_extension=on", position);
    SearchResult deeper = run("depth=3", position);
    assert_move(&plain, "a1", "depth 2");
    assert_move(&extended, "c5", "depth 2 with jump_extension");
    assert_move(&deeper, "c5", "depth 3");
    assert_int_equal(extended.score, deeper.score);
    assert_true(extended.stats.extensions > 0);
    assert_int_equal(plain.stats.extensions, 0);
}

/* LMR reduces the tree on the suite and re-searches reduced moves that beat alpha. */
static void lmr__fewer_nodes_and_researches(void **state) {
    (void)state;
    SearchStats off = suite_stats("depth=7", 20);
    SearchStats on = suite_stats("depth=7 lmr=on", 20);
    assert_true(on.nodes < off.nodes);
    assert_true(on.lmr_reductions > 0);
    assert_true(on.lmr_researches > 0);
    assert_true(on.lmr_researches < on.lmr_reductions);
    assert_int_equal(off.lmr_reductions, 0);
    /* From a depth beyond the search, nothing is reduced: the same tree as off. */
    SearchStats never = suite_stats("depth=7 lmr=on lmr_depth=64", 20);
    assert_int_equal(never.nodes, off.nodes);
}

/* The null move is never tried where the rule excludes it. */
static void nullmove__excluded_positions(void **state) {
    (void)state;
    static const struct {
        const char *position;
        bool excluded;
        const char *why;
    } rows[] = {
        {"STSSS/T2SS/SSTSS/SS1SS/SSSTS s 0 2", true, "sheep sliding"},
        {"STSSS/T2SS/SSTSS/SS1SS/SSSTS t 0 2", false, "tigers with moves"},
        {"T3T/5/5/5/T3T s 20 0", false, "sheep placing"},
        {"SSSST/TSSSS/SSSSS/SS1SS/SSTT1 t 0 1", true, "tigers with two moves"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        Board b = parse_board(rows[i].position);
        if (search_nullmove_excluded(&b) != rows[i].excluded)
            fail_msg("%s (%s): excluded %d", rows[i].position, rows[i].why, !rows[i].excluded);
    }
    /* A side with no move is never given a pass. */
    Board trapped = parse_board("TSSST/SSSSS/S1SSS/SSSSS/TSSST t 0 0");
    assert_int_equal(movegen_count(&trapped), 0);
    assert_true(search_nullmove_excluded(&trapped));
}

/* The null move prunes (cutoffs happen, the tree shrinks) in the placement phase. */
static void nullmove__cuts_and_shrinks_the_tree(void **state) {
    (void)state;
    SearchStats off = suite_stats("depth=7", 20);
    SearchStats on = suite_stats("depth=7 nullmove=on", 20);
    assert_true(on.nullmove_tries > 0);
    assert_true(on.nullmove_cutoffs > 0);
    assert_true(on.nodes < off.nodes);
}

/* Futility skips quiet moves at depth 1 when the margin cannot reach alpha; with a margin no
 * evaluation gap reaches, nothing is skipped and the tree is the plain one. */
static void futility__prunes_within_its_margin_only(void **state) {
    (void)state;
    SearchStats off = suite_stats("depth=6", 20);
    SearchStats on = suite_stats("depth=6 futility=30", 20);
    SearchStats huge = suite_stats("depth=6 futility=10000", 20);
    assert_true(on.futility_prunes > 0);
    assert_true(on.nodes < off.nodes);
    assert_int_equal(huge.futility_prunes, 0);
    assert_int_equal(huge.nodes, off.nodes);
}

/* Every variant at once still returns a legal move and finishes its depth. */
static void all_variants__legal_moves(void **state) {
    (void)state;
    const char *tokens = "depth=6 history=on pvs=on aspiration=30 lmr=on qsearch=on nullmove=on "
                         "futility=40 jump_extension=on";
    Book book;
    Error err;
    if (!book_load(&book, TSLAB_SOURCE_DIR "/bench/positions.txt", true, &err))
        fail_msg("%s", err.text);
    for (int i = 0; i < book.count; i++) {
        SearchConfig config = with(tokens);
        Searcher *s = malloc(sizeof *s);
        assert_true(searcher_init(s, &config, &err));
        SearchResult r = search_run(s, &book.entries[i].board, NULL, 0);
        if (!board_check_move(&book.entries[i].board, r.move, &err))
            fail_msg("%s: %s", book.entries[i].id, err.text);
        assert_true(r.depth >= 1);
        searcher_destroy(s);
        free(s);
    }
    book_destroy(&book);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(qsearch__sees_the_capture_behind_the_horizon),
        cmocka_unit_test(jump_extension__searches_captures_deeper),
        cmocka_unit_test(lmr__fewer_nodes_and_researches),
        cmocka_unit_test(nullmove__excluded_positions),
        cmocka_unit_test(nullmove__cuts_and_shrinks_the_tree),
        cmocka_unit_test(futility__prunes_within_its_margin_only),
        cmocka_unit_test(all_variants__legal_moves),
    };
    return RUN_TESTS("variants", tests);
}
