// SPDX-License-Identifier: MIT
// abtest book, the generator: score windows from each view (every kept position re-searched
// here through the library), ply ranges, self-play positions, last placements the tablebase
// calls undecided (probed here), the same book from the same seed, no two positions symmetric,
// the default book reproduced, and bad options refused by name.
#include "test_util.h"

#include <signal.h>
#include <sys/stat.h>

#include "book.h"
#include "movegen.h"
#include "search.h"
#include "symmetry.h"
#include "tablebase.h"

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define FULL_TABLEBASE TSLAB_SOURCE_DIR "/tablebase/sliding.tstb" /* make test builds it */

static char dir[256];

static int setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "book_gen");
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

/* Runs `abtest book OPTIONS -out DIR/NAME`; the exit status. */
static int make_book(const char *name, const char *options, char **out) {
    char command[1024];
    snprintf(command, sizeof command, ABTEST " book -out %s/%s %s 2>&1", dir, name, options);
    return test_run(command, out);
}

static void load(const char *name, Book *book) {
    char path[512];
    Error err;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!book_load(book, path, true, &err))
        fail_msg("%s", err.text);
}

/* Plies played to reach a placement-phase position: sheep placed, and as many tiger moves, one
 * fewer when the tigers are to move. */
static int placement_plies(const Board *b) {
    int placed = SHEEP_TOTAL - b->in_hand;
    return 2 * placed - (b->side == SIDE_TIGERS ? 1 : 0);
}

/* Every position of the book scores, by a depth-D search of its own, within [low, high] from
 * the side to move; its ply count lies in [plies_low, plies_high]; no two are symmetric. */
static void assert_book(const char *name, int depth, int low, int high, int plies_low,
                        int plies_high, int count) {
    Book book;
    load(name, &book);
    assert_int_equal(book.count, count);
    SearchConfig config = config_default();
    config.depth = depth;
    config.tt_bits = 16;
    Searcher searcher;
    Error err;
    assert_true(searcher_init(&searcher, &config, &err));
    uint64_t *keys = calloc((size_t)book.count, sizeof *keys);
    bool short_seen = false, long_seen = false;
    for (int i = 0; i < book.count; i++) {
        const Board *b = &book.entries[i].board;
        SearchResult r = search_run(&searcher, b, NULL, 0);
        int score = b->side == SIDE_TIGERS ? r.score : -r.score;
        if (score < low || score > high)
            fail_msg("%s line %d: score %d from the mover's side, outside %d..%d", name,
                     book.entries[i].line, score, low, high);
        int plies = placement_plies(b);
        assert_true(plies >= plies_low && plies <= plies_high);
        short_seen |= plies == plies_low;
        long_seen |= plies == plies_high;
        Board canonical = sym_canonical(b, NULL);
        keys[i] = board_key(&canonical);
        for (int j = 0; j < i; j++)
            if (keys[j] == keys[i])
                fail_msg("%s: lines %d and %d are symmetric", name, book.entries[j].line,
                         book.entries[i].line);
    }
    assert_true(short_seen && long_seen); /* the range is drawn from, both ends */
    free(keys);
    searcher_destroy(&searcher);
    book_destroy(&book);
}

/* A window away from 0, read from the side to move, as unbalanced books keep openings. (After
 * random plies the tigers are ahead: odd plies, tigers to move, fill such a window.) */
static void window__scores_from_the_mover_within_it(void **state) {
    (void)state;
    char *out;
    assert_int_equal(make_book("mover.txt",
                               "-positions 60 -plies 7..9 -depth 3 -margin 100..300 -view mover",
                               &out),
                     0);
    assert_non_null(strstr(out, "book: 60 positions written"));
    free(out);
    assert_book("mover.txt", 3, 100, 300, 7, 9, 60);
    char path[512];
    snprintf(path, sizeof path, "%s/mover.txt", dir);
    char *text = test_read_file(path);
    assert_non_null(strstr(text, "-margin 100..300 -view mover -source random\n"));
    assert_non_null(strstr(text, "depth-3 score (mover view)"));
    free(text);
}

/* From a fixed side: the sheep's view is the tigers' negated. */
static void window__fixed_side_is_the_tigers_score_or_its_negation(void **state) {
    (void)state;
    char *out;
    assert_int_equal(make_book("sheep.txt", "-positions 30 -plies 8 -depth 3 -margin -300..-30 "
                                            "-view sheep",
                               &out),
                     0);
    free(out);
    Book book;
    load("sheep.txt", &book);
    SearchConfig config = config_default();
    config.depth = 3;
    config.tt_bits = 16;
    Searcher searcher;
    Error err;
    assert_true(searcher_init(&searcher, &config, &err));
    for (int i = 0; i < book.count; i++) {
        SearchResult r = search_run(&searcher, &book.entries[i].board, NULL, 0);
        assert_true(-r.score >= -300 && -r.score <= -30);
    }
    searcher_destroy(&searcher);
    book_destroy(&book);
}

/* The same options and seed write the same file; another seed another one. Self-play positions
 * lie at the plies asked, past the random ones. */
static void determinism__same_seed_same_book(void **state) {
    (void)state;
    const char *options = "-positions 40 -plies 12..14 -source selfplay -random-plies 3 "
                          "-play-nodes 200 -nodes 1000 -margin 150";
    char *out, with_seed[512];
    assert_int_equal(make_book("self1.txt", options, &out), 0);
    free(out);
    assert_int_equal(make_book("self2.txt", options, &out), 0);
    free(out);
    snprintf(with_seed, sizeof with_seed, "%s -seed 2", options);
    assert_int_equal(make_book("self3.txt", with_seed, &out), 0);
    free(out);
    char path[512];
    snprintf(path, sizeof path, "%s/self1.txt", dir);
    char *one = test_read_file(path);
    snprintf(path, sizeof path, "%s/self2.txt", dir);
    char *two = test_read_file(path);
    snprintf(path, sizeof path, "%s/self3.txt", dir);
    char *three = test_read_file(path);
    assert_string_equal(one, two);
    assert_string_not_equal(one, three);
    assert_non_null(strstr(one, "-source selfplay -random-plies 3 -play-nodes 200"));
    free(one);
    free(two);
    free(three);
    Book book;
    load("self1.txt", &book);
    for (int i = 0; i < book.count; i++) {
        int plies = placement_plies(&book.entries[i].board);
        assert_true(plies >= 12 && plies <= 14);
    }
    book_destroy(&book);
}

/* The default book's command, run again, writes the default book's first positions line for
 * line: the generator's new options left the old books reproducible. */
static void default_book__reproduced(void **state) {
    (void)state;
    char *out;
    assert_int_equal(make_book("default_again.txt", "-positions 200 -plies 8 -seed 1", &out), 0);
    free(out);
    char path[512];
    snprintf(path, sizeof path, "%s/default_again.txt", dir);
    char *again = test_read_file(path);
    char *original = test_read_file(TSLAB_SOURCE_DIR "/openings/default.txt");
    /* Past the two header lines: the 200 positions with their ids, plies and scores. */
    const char *a = strstr(again, "\n# POSITION"), *b = strstr(original, "\n# POSITION");
    assert_non_null(a);
    assert_non_null(b);
    a = strchr(a + 1, '\n');
    b = strchr(b + 1, '\n');
    assert_true(strlen(b) > strlen(a));
    assert_memory_equal(a, b, strlen(a));
    free(again);
    free(original);
}

/* -source tablebase: each position is the last placement of a game (one sheep in hand, sheep
 * to move), and its placements reach sliding positions of different outcomes, as the tablebase
 * says when probed here. */
static void tablebase__last_placements_whose_outcome_turns_on_play(void **state) {
    (void)state;
    Error err;
    Tablebase *tb = tb_new(FULL_TABLEBASE, CAPTURES_TO_WIN, &err);
    if (!tb) {
        printf("test_book_gen: tablebase test skipped: %s (make tablebase)\n", err.text);
        skip();
    }
    char *out;
    assert_int_equal(make_book("tb.txt", "-positions 20 -source tablebase -random-plies 4 "
                                         "-nodes 1000 -margin 400",
                               &out),
                     0);
    assert_non_null(strstr(out, "decided whatever the sheep place"));
    free(out);
    Book book;
    load("tb.txt", &book);
    assert_int_equal(book.count, 20);
    for (int i = 0; i < book.count; i++) {
        const Board *b = &book.entries[i].board;
        assert_int_equal(b->in_hand, 1);
        assert_int_equal(b->side, SIDE_SHEEP);
        MoveList moves;
        movegen_all(b, &moves);
        bool outcomes[3] = {false, false, false};
        for (int m = 0; m < moves.count; m++) {
            Board child = *b;
            board_make(&child, moves.moves[m]);
            TbValue value = {TB_DRAW, -1};
            if (board_game_end(&child) == GAME_END_TIGERS_TRAPPED)
                value.outcome = TB_LOSS; /* the tigers, to move, have no move */
            else
                assert_true(tb_probe(tb, &child, &value));
            outcomes[value.outcome] = true;
        }
        assert_true(outcomes[0] + outcomes[1] + outcomes[2] >= 2);
    }
    book_destroy(&book);
    tb_free(tb);
}

static void errors__named(void **state) {
    (void)state;
    static const struct {
        const char *options, *message;
    } cases[] = {
        {"-margin 5..2", "book: -margin: '5..2': LOW is above HIGH"},
        {"-margin 1x", "book: -margin: '1x' is not an integer"},
        {"-margin ..4", "book: -margin: '..4' is not N or LOW..HIGH"},
        {"-plies 0..3", "book: -plies: '0..3': 0 is out of range 1..200"},
        {"-plies 9..3", "book: -plies: '9..3': LOW is above HIGH"},
        {"-view up", "book: -view: 'up' is not one of tigers|sheep|mover"},
        {"-source web", "book: -source: 'web' is not one of random|selfplay|tablebase"},
        {"-nodes 0", "book: -nodes: 0 is out of range"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out;
        int status = make_book("bad.txt", cases[i].options, &out);
        if (status != 2 || !strstr(out, cases[i].message))
            fail_msg("%s: exit %d, wanted '%s':\n%s", cases[i].options, status, cases[i].message,
                     out);
        free(out);
        char path[512];
        snprintf(path, sizeof path, "%s/bad.txt", dir);
        assert_int_equal(access(path, F_OK), -1);
    }
}


/* -out under the output discipline: a FIFO or a device node is refused at once (never replaced,
 * never blocked on), a directory before any search, a symbolic link written through (the link
 * kept), and a second run on a book being written refused by its lock. */
static void outputs__special_files_links_and_a_second_run(void **state) {
    (void)state;
    char command[2048], *out;
    snprintf(command, sizeof command, "cd %s && mkfifo fifo.txt && mknod null.txt c 1 3 && "
                                      "mkdir sub.txt && touch target.txt && ln -s target.txt "
                                      "link.txt", dir);
    assert_int_equal(system(command), 0);
    const struct {
        const char *out, *message;
    } refused[] = {
        {"fifo.txt", "is not a regular file (a FIFO)"},
        {"null.txt", "is not a regular file (a character device)"},
        {"sub.txt", "sub.txt is a directory"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        snprintf(command, sizeof command,
                 "cd %s && timeout 20 " ABTEST " book -out %s -positions 3 -depth 2 2>&1", dir,
                 refused[i].out);
        assert_int_equal(test_run(command, &out), 2);
        if (!strstr(out, refused[i].message) || strstr(out, "positions written"))
            fail_msg("-out %s: %s", refused[i].out, out);
        free(out);
    }
    struct stat st;
    snprintf(command, sizeof command, "%s/null.txt", dir);
    assert_int_equal(stat(command, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    snprintf(command, sizeof command, "%s/fifo.txt", dir);
    assert_int_equal(lstat(command, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(make_book("link.txt", "-positions 3 -depth 2", &out), 0);
    free(out);
    snprintf(command, sizeof command, "%s/link.txt", dir);
    assert_int_equal(lstat(command, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    Book book;
    load("target.txt", &book);
    assert_int_equal(book.count, 3);
    book_destroy(&book);
    /* A long run holds the lock; a second on the same -out is refused. Stopped, the first
     * leaves neither a book nor its temporary. */
    char path[512];
    snprintf(path, sizeof path, "%s/long.txt.lock", dir);
    snprintf(command, sizeof command,
             "cd %s && exec " ABTEST " book -out long.txt -positions 6000 -depth 4 "
             ">/dev/null 2>&1",
             dir);
    pid_t first = test_start_until(command, path, 20);
    assert_int_equal(access(path, F_OK), 0);
    assert_int_not_equal(make_book("long.txt", "-positions 3 -depth 2", &out), 0);
    assert_non_null(strstr(out, "long.txt is in use by another abtest book (process"));
    free(out);
    assert_int_equal(kill(first, SIGTERM), 0);
    int status;
    assert_int_equal(waitpid(first, &status, 0), first);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 128 + SIGTERM)
        fail_msg("the first run was not stopped by the signal (status %d)", status);
    snprintf(command, sizeof command, "ls %s | grep -c long.txt || true", dir);
    assert_int_equal(test_run(command, &out), 0);
    if (atoi(out) != 0)
        fail_msg("files of the stopped run were left: %s", out);
    free(out);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(window__scores_from_the_mover_within_it),
        cmocka_unit_test(window__fixed_side_is_the_tigers_score_or_its_negation),
        cmocka_unit_test(determinism__same_seed_same_book),
        cmocka_unit_test(default_book__reproduced),
        cmocka_unit_test(tablebase__last_placements_whose_outcome_turns_on_play),
        cmocka_unit_test(errors__named),
        cmocka_unit_test(outputs__special_files_links_and_a_second_run),
    };
    return tslab_run_tests_setup("book_gen", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 setup, teardown);
}
