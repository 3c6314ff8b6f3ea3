// SPDX-License-Identifier: MIT
// The search against plain minimax, under every combination of toggles, on positions from many
// pseudo-random games; limits; repetitions; wins.
#include "search.h"
#include "reference.h"

#include "game.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#define POSITIONS 24
#define EXACT_DEPTH 4 /* deeper, in-line repetitions could make cached scores path-dependent */

typedef struct {
    Board positions[POSITIONS];
} Fixture;

static int setup(void **state) {
    Fixture *f = malloc(sizeof *f);
    Rng rng = rng_seeded(4242);
    for (int i = 0; i < POSITIONS; i++) {
        /* Spread over placement and movement: 0..100 random plies, games still running. */
        do
            f->positions[i] = random_position(&rng, (int)rng_below(&rng, 101));
        while (board_game_end(&f->positions[i]) != GAME_END_NONE);
    }
    *state = f;
    return 0;
}

static int teardown(void **state) {
    free(*state);
    return 0;
}

static SearchResult run(const SearchConfig *config, const Board *b, const Board *history,
                        int history_length) {
    Searcher *s = malloc(sizeof *s);
    Error err = {{0}};
    if (!searcher_init(s, config, &err))
        fail_msg("searcher_init: %s", err.text);
    SearchResult result = search_run(s, b, history, history_length);
    searcher_destroy(s);
    free(s);
    return result;
}

/* Plain minimax's score, failing the test if it could not run. */
static int reference_score(const SearchConfig *config, const Board *b, int depth,
                           const Board *history, int history_length, Move *best) {
    int score = 0; /* search_reference writes nothing on failure */
    if (!search_reference(config, b, depth, history, history_length, &score, best, NULL))
        fail_msg("search_reference: out of memory");
    return score;
}

/* Every search here must agree with plain minimax: no pruning (test_variants covers it). */
static SearchConfig with(const char *tokens) { return config_without_pruning(tokens); }

/* The exactness matrix of the option table (every combination of the exact features' matrix
 * values: cache kinds and policies, symmetry, killers, hint, jump ordering, history, PVS,
 * aspiration), each at depths 1..4 on every position, must give the reference score and move. A
 * searcher is reused across searches, which the used-searcher test shows changes nothing. */
static void every_configuration__matches_plain_minimax(void **state) {
    Fixture *f = *state;
    int reference[POSITIONS][EXACT_DEPTH + 1];
    Move reference_move[POSITIONS][EXACT_DEPTH + 1];
    SearchConfig base = config_default();
    for (int p = 0; p < POSITIONS; p++)
        for (int d = 1; d <= EXACT_DEPTH; d++)
            reference[p][d] =
                reference_score(&base, &f->positions[p], d, NULL, 0, &reference_move[p][d]);
    int checked = 0, configurations = 0;
    SearchStats total = {0};
    Searcher *s = malloc(sizeof *s);
    for (size_t c = 0; c < config_matrix_size(); c++) {
        SearchConfig config;
        char tokens[512];
        if (!config_matrix_entry(c, &config, tokens, sizeof tokens))
            continue;
        configurations++;
        config.tt_bits = 12;
        config.depth = EXACT_DEPTH;
        Error err = {{0}};
        if (!searcher_init(s, &config, &err))
            fail_msg("searcher_init: %s", err.text);
        for (int d = 1; d <= EXACT_DEPTH; d++) {
            s->config.depth = d;
            for (int p = 0; p < POSITIONS; p++) {
                SearchResult r = search_run(s, &f->positions[p], NULL, 0);
                if (r.score != reference[p][d] || r.move != reference_move[p][d]) {
                    char text[BOARD_TEXT_MAX], got[MOVE_TEXT_MAX], want[MOVE_TEXT_MAX];
                    fail_msg("%s depth %d on %s: %s %d, reference %s %d", tokens, d,
                             board_to_text(&f->positions[p], text), move_to_text(r.move, got),
                             r.score, move_to_text(reference_move[p][d], want), reference[p][d]);
                }
                stats_add(&total, &r.stats);
                checked++;
            }
        }
        searcher_destroy(s);
    }
    free(s);
    /* The exact features did their work (re-searches happened), and still matched. */
    assert_true(total.pvs_researches > 0);
    assert_true(total.aspiration_researches > 0);
    print_message("%d searches in %d configurations matched plain minimax (%llu PVS and %llu "
                  "aspiration re-searches)\n",
                  checked, configurations, (unsigned long long)total.pvs_researches,
                  (unsigned long long)total.aspiration_researches);
}

/* The returned move scores what the search says: minimax of the child one ply shallower. */
/* cache_depth leaves the cache out of the shallowest nodes: fewer cutoffs, never another
 * answer. Every table kind and both symmetries, cache_depth 2 to 4, at depths 1..4. */
static void cache_depth__matches_plain_minimax(void **state) {
    Fixture *f = *state;
    SearchConfig base = config_default();
    static const char *const variants[] = {"cache_depth=2", "cache_depth=3 symmetry=off",
                                           "cache_depth=2 cache=tiny", "cache_depth=4 cache=map"};
    for (int d = 1; d <= EXACT_DEPTH; d++)
        for (int p = 0; p < POSITIONS; p++) {
            Move want;
            int reference = reference_score(&base, &f->positions[p], d, NULL, 0, &want);
            for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
                char tokens[128];
                snprintf(tokens, sizeof tokens, "%s depth=%d", variants[v], d);
                SearchConfig config = with(tokens);
                SearchResult r = run(&config, &f->positions[p], NULL, 0);
                if (r.score != reference || r.move != want)
                    fail_msg("%s on position %d: %d, reference %d", tokens, p, r.score,
                             reference);
            }
        }
    /* and it does leave them out: fewer probes than with every node cached */
    SearchConfig all = with("depth=6"), deep = with("depth=6 cache_depth=2");
    SearchResult a = run(&all, &f->positions[0], NULL, 0), b = run(&deep, &f->positions[0], NULL, 0);
    assert_true(b.stats.cache_probes < a.stats.cache_probes);
}

static void returned_move__has_the_best_score(void **state) {
    Fixture *f = *state;
    SearchConfig config = with("depth=5");
    for (int p = 0; p < POSITIONS; p++) {
        SearchResult r = run(&config, &f->positions[p], NULL, 0);
        if (score_is_win(r.score))
            continue;
        Board child = f->positions[p];
        board_make(&child, r.move);
        int history_score = reference_score(&config, &child, 4, &f->positions[p], 1, NULL);
        assert_int_equal(history_score, r.score);
    }
}

static void any_legal_hint__gives_the_same_score(void **state) {
    Fixture *f = *state;
    SearchConfig config = with("depth=4");
    for (int p = 0; p < POSITIONS; p += 3) {
        SearchResult plain = run(&config, &f->positions[p], NULL, 0);
        MoveList list;
        movegen_all(&f->positions[p], &list);
        for (int i = 0; i < list.count; i++) {
            Searcher *s = malloc(sizeof *s);
            assert_true(searcher_init(s, &config, NULL));
            s->root_hint = list.moves[i];
            SearchResult hinted = search_run(s, &f->positions[p], NULL, 0);
            assert_int_equal(hinted.score, plain.score);
            assert_int_equal(hinted.move, plain.move);
            searcher_destroy(s);
            free(s);
        }
    }
}

/* A node-limited search that cuts pass k short leaves the cache as passes 1..k-1 left it. */
static void unfinished_pass__stores_nothing(void **state) {
    (void)state;
    Board root = board_start();
    SearchConfig depth_limited = with("cache=map depth=5");
    SearchConfig node_limited = with("cache=map nodes=4000");
    Searcher *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_true(searcher_init(a, &node_limited, NULL));
    SearchResult cut = search_run(a, &root, NULL, 0);
    assert_true(cut.stopped);
    depth_limited.depth = cut.depth;
    assert_true(searcher_init(b, &depth_limited, NULL));
    SearchResult full = search_run(b, &root, NULL, 0);
    assert_int_equal(full.move, cut.move);
    assert_int_equal(full.score, cut.score);
    size_t live_a = 0, live_b = 0;
    for (size_t i = 0; i < a->tt.slot_count; i++) {
        const TTEntry *e = &a->tt.slots[i];
        if (e->gen == 0 || e->gen < a->tt.gen_first)
            continue;
        live_a++;
        const TTEntry *match = tt_probe(&b->tt, e->tag);
        assert_non_null(match);
        assert_int_equal(match->lower, e->lower);
        assert_int_equal(match->upper, e->upper);
    }
    for (size_t i = 0; i < b->tt.slot_count; i++)
        live_b += b->tt.slots[i].gen != 0 && b->tt.slots[i].gen >= b->tt.gen_first;
    assert_int_equal(live_a, live_b);
    searcher_destroy(a);
    searcher_destroy(b);
    free(a);
    free(b);
}

/* A searcher that has served many searches (its generation counter near the wrap) gives the
 * same result, node for node, as a fresh one: results never depend on a worker's history. */
static void used_searcher__same_result_as_fresh(void **state) {
    Fixture *f = *state;
    SearchConfig config = with("nodes=20000");
    for (int p = 0; p < POSITIONS; p += 3) {
        SearchResult fresh = run(&config, &f->positions[p], NULL, 0);
        for (int offset = 1; offset <= 8; offset++) {
            Searcher *s = malloc(sizeof *s);
            assert_true(searcher_init(s, &config, NULL));
            s->tt.gen_first = s->tt.gen_current = (uint16_t)(UINT16_MAX - offset * 4);
            SearchResult used = search_run(s, &f->positions[p], NULL, 0);
            assert_int_equal(used.move, fresh.move);
            assert_int_equal(used.score, fresh.score);
            assert_int_equal(used.stats.nodes, fresh.stats.nodes);
            searcher_destroy(s);
            free(s);
        }
    }
}

static void node_limit__deterministic_and_respected_per_pass(void **state) {
    Fixture *f = *state;
    SearchConfig config = with("nodes=20000");
    for (int p = 0; p < POSITIONS; p += 4) {
        SearchResult one = run(&config, &f->positions[p], NULL, 0);
        SearchResult two = run(&config, &f->positions[p], NULL, 0);
        assert_int_equal(one.move, two.move);
        assert_int_equal(one.score, two.score);
        assert_int_equal(one.stats.nodes, two.stats.nodes);
        assert_true(one.depth >= 1);
        /* The budget is checked at every node once pass 1 is done. */
        assert_true(one.stats.nodes <= 20001 || one.depth == 1);
    }
}

static void time_limit__respected(void **state) {
    (void)state;
    Board root = board_start();
    SearchConfig config = with("movetime=100");
    SearchResult r = run(&config, &root, NULL, 0);
    assert_true(r.depth >= 1);
    assert_true(r.move != MOVE_NONE);
    /* Generously bounded: this is a correctness test, not a benchmark. */
    assert_true(r.seconds < 2.0);
}

/* A cycle from tests/test_game.c: b2-c1 a1-b1 c1-b2 b1-a1 returns to the start. */
static void build_cycle(Board positions[5]) {
    static const char *const cycle[] = {"b2-c1", "a1-b1", "c1-b2", "b1-a1"};
    positions[0] = parse_board("TSSST/SSSSS/SSSSS/SS2S/T3T s 0 4");
    for (int i = 0; i < 4; i++) {
        positions[i + 1] = positions[i];
        board_make(&positions[i + 1], parse_move(cycle[i]));
    }
}

static void repetition__behind_takes_it_ahead_avoids_it(void **state) {
    (void)state;
    Board p[5];
    build_cycle(p);
    /* Sheep to move at p[4] (== p[0]); b2-c1 repeats p[1]: a draw, better than the 4 captures
     * the evaluation holds against them. */
    for (int depth = 1; depth <= 4; depth++) {
        SearchConfig config = with("depth=1");
        config.depth = depth;
        SearchResult r = run(&config, &p[4], p, 4);
        if (score_is_win(r.score))
            continue;
        assert_int_equal(r.score, 0);
        assert_int_equal(r.move, parse_move("b2-c1"));
        assert_int_equal(reference_score(&config, &p[4], depth, p, 4, NULL), 0);
    }
    /* Tigers to move at p[1], ahead by 4 captures: a1-b1 would repeat p[2]; they avoid it. */
    Board history[4] = {p[1], p[2], p[3], p[4]};
    Board root = p[1];
    SearchConfig config = with("depth=1");
    /* Without the history, a1-b1 is the move at depth 1 ... */
    SearchResult free_run = run(&config, &root, NULL, 0);
    assert_int_equal(free_run.move, parse_move("a1-b1"));
    assert_int_equal(free_run.stats.repetitions, 0);
    /* ... with it, a1-b1 would repeat p[2] and throw the advantage away. */
    SearchResult r = run(&config, &root, history, 4);
    assert_true(r.score > 0);
    assert_true(r.move != parse_move("a1-b1"));
    assert_int_equal(r.stats.repetitions, 1);
}

/* A score decided by repeating a position between the root and a node holds only on that line,
 * so it is not cached: otherwise ordering features, which change the order lines are met in,
 * changed scores. On bench's trap1 the old code gave c1-d1 276 at depth 8 with the hint and
 * c1-b1 278 without it. Under the 0.2 ordering: with history on as well, the second case of the
 * caveat (docs/search.md: a cached score that misses a repetition another line meets, which no
 * rule here removes) shows at depth 10 (c1-b1 278 with the hint, e4-e3 276 without). */
static void line_dependent_scores__not_cached(void **state) {
    (void)state;
    Board trap1 = parse_board("STSTS/SSSST/SSSS1/SSS1S/S1T1S t 0 3");
    for (int depth = 7; depth <= 11; depth++) {
        SearchConfig with_hint = with("preset=tslab-0.2"),
                     without = with("preset=tslab-0.2 hint=off");
        with_hint.depth = without.depth = depth;
        SearchResult a = run(&with_hint, &trap1, NULL, 0), b = run(&without, &trap1, NULL, 0);
        if (a.move != b.move || a.score != b.score) {
            char ma[MOVE_TEXT_MAX], mb[MOVE_TEXT_MAX];
            fail_msg("depth %d: %s %d with the hint, %s %d without", depth,
                     move_to_text(a.move, ma), a.score, move_to_text(b.move, mb), b.score);
        }
    }
}

static void wins__capture_taken_and_shortest_preferred(void **state) {
    (void)state;
    Board b = parse_board("T3T/S4/5/5/T3T t 15 4");
    SearchConfig config = with("depth=5");
    SearchResult r = run(&config, &b, NULL, 0);
    assert_int_equal(r.move, parse_move("a5xa3"));
    assert_int_equal(r.win, RESULT_TIGERS_WIN);
    assert_int_equal(r.win_in, 1);
    assert_int_equal(r.score, SCORE_WIN - 1);
    assert_int_equal(r.depth, 1); /* deepening stops once a pass finds the forced win */
    assert_int_equal(reference_score(&config, &b, 3, NULL, 0, NULL), SCORE_WIN - 1);
    /* Sheep to move facing that capture: they lose in 2 whatever they place, unless they block
     * a3; the search finds it. */
    Board sheep = parse_board("T3T/S4/5/5/T3T s 15 4");
    SearchResult defence = run(&config, &sheep, NULL, 0);
    assert_int_equal(defence.move, parse_move("a3"));
}

static void over_position__no_move_and_the_winner(void **state) {
    (void)state;
    SearchConfig config = with("depth=3");
    Board trapped = parse_board("5/SS1S1/SSS2/TTSS1/TTSS1 t 10 0");
    SearchResult r = run(&config, &trapped, NULL, 0);
    assert_int_equal(r.move, MOVE_NONE);
    assert_int_equal(r.win, RESULT_SHEEP_WIN);
    assert_int_equal(r.win_in, 0);
}

static void no_limit__rejected(void **state) {
    (void)state;
    SearchConfig config = config_default();
    Searcher *s = malloc(sizeof *s);
    Error err = {{0}};
    assert_false(searcher_init(s, &config, &err));
    assert_non_null(strstr(err.text, "no search limit"));
    free(s);
}

/* A stop that arrives after a search has finished (as when a game ends while its worker is
 * stopped) ends that search only: the next one reaches its full depth. */
static void late_stop__does_not_cut_the_next_search(void **state) {
    (void)state;
    SearchConfig config = with("depth=7");
    Searcher *s = malloc(sizeof *s);
    Error err = {{0}};
    if (!searcher_init(s, &config, &err))
        fail_msg("searcher_init: %s", err.text);
    Board start = board_start();
    SearchResult first = search_run(s, &start, NULL, 0);
    search_stop(s); /* late: nothing runs */
    SearchResult second = search_run(s, &start, NULL, 0);
    assert_int_equal(first.depth, 7);
    assert_int_equal(second.depth, 7);
    assert_false(second.stopped);
    assert_int_equal(second.stats.nodes, first.stats.nodes);
    searcher_destroy(s);
    free(s);
}

/* Out of memory for the line's keys is an error the caller sees (failed, no move), not a
 * "stopped" search, and plain minimax says it could not run instead of returning 0. The limit
 * on address space is set in a child process; AddressSanitizer needs its own address space, so
 * the case is skipped under it. */
static void out_of_memory__reported_as_a_failure(void **state) {
    (void)state;
#if TEST_ADDRESS_SANITIZER
    skip();
#else
    enum { HISTORY = 4000000 }; /* 32 MB of keys */
    Board *history = malloc((size_t)HISTORY * sizeof *history);
    assert_non_null(history);
    Board start = board_start();
    for (int i = 0; i < HISTORY; i++)
        history[i] = start;
    SearchConfig config = with("depth=2 cache=none");
    Searcher *s = malloc(sizeof *s);
    Error err = {{0}};
    if (!searcher_init(s, &config, &err))
        fail_msg("searcher_init: %s", err.text);
    pid_t child = fork();
    if (child == 0) {
        long pages = 0, page = sysconf(_SC_PAGESIZE);
        FILE *statm = fopen("/proc/self/statm", "r");
        if (!statm || fscanf(statm, "%ld", &pages) != 1)
            _exit(2);
        fclose(statm);
        struct rlimit limit = {(rlim_t)(pages * page) + (8 << 20), RLIM_INFINITY};
        if (setrlimit(RLIMIT_AS, &limit) != 0)
            _exit(3);
        SearchResult r = search_run(s, &start, history, HISTORY);
        int score;
        bool reference_ran = search_reference(&config, &start, 2, history, HISTORY, &score, NULL,
                                              NULL);
        _exit(r.failed && r.move == MOVE_NONE && !r.stopped && !reference_ran ? 0 : 1);
    }
    int status;
    waitpid(child, &status, 0);
    searcher_destroy(s);
    free(s);
    free(history);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
#endif
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(every_configuration__matches_plain_minimax, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(cache_depth__matches_plain_minimax, setup, teardown),
        cmocka_unit_test_setup_teardown(returned_move__has_the_best_score, setup, teardown),
        cmocka_unit_test_setup_teardown(any_legal_hint__gives_the_same_score, setup, teardown),
        cmocka_unit_test(unfinished_pass__stores_nothing),
        cmocka_unit_test_setup_teardown(node_limit__deterministic_and_respected_per_pass, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(used_searcher__same_result_as_fresh, setup, teardown),
        cmocka_unit_test(time_limit__respected),
        cmocka_unit_test(repetition__behind_takes_it_ahead_avoids_it),
        cmocka_unit_test(line_dependent_scores__not_cached),
        cmocka_unit_test(wins__capture_taken_and_shortest_preferred),
        cmocka_unit_test(over_position__no_move_and_the_winner),
        cmocka_unit_test(no_limit__rejected),
        cmocka_unit_test(late_stop__does_not_cut_the_next_search),
        cmocka_unit_test(out_of_memory__reported_as_a_failure),
    };
    return RUN_TESTS("search", tests);
}
