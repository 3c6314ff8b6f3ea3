// SPDX-License-Identifier: MIT
// Position files (bench suite and opening books): lines, ids, comments, and errors that name
// file, line and column.
#include "book.h"

#include "symmetry.h"

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *write_temp(const char *text) {
    static char path[64];
    snprintf(path, sizeof path, "/tmp/tslab_book_%d.txt", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void lines__ids_comments_and_line_numbers(void **state) {
    (void)state;
    const char *path = write_temp("# a comment\n"
                                  "\n"
                                  "T3T/5/5/5/T3T s 20 0 ; start the initial position\n"
                                  "  T3T/5/2S2/5/T3T t 19 0\n"
                                  "T3T/5/5/5/T2T1 s 20 0 ;   spaced   with a comment  \n"
                                  "T3T/5/5/5/1T2T s 20 0   # after a position: no id\n");
    Book book;
    Error err = {{0}};
    if (!book_load(&book, path, true, &err))
        fail_msg("%s", err.text);
    assert_int_equal(book.count, 4);
    assert_string_equal(book.entries[0].id, "start");
    assert_string_equal(book.entries[0].comment, "the initial position");
    assert_string_equal(book.entries[1].id, "4"); /* no id: its line number */
    assert_int_equal(book.entries[1].line, 4);
    assert_string_equal(book.entries[2].id, "spaced");
    assert_string_equal(book.entries[2].comment, "with a comment  ");
    assert_string_equal(book.entries[3].id, "6");
    assert_string_equal(book.entries[3].comment, "");
    assert_true(book.content_hash != 0);
    book_destroy(&book);
    unlink(path);
}

typedef struct {
    const char *text;
    const char *error;
    const char *why;
} BookRow;

static const BookRow rows[] = {
    {"T3T/5/5/5/T3T s 21 0\n", ":1: col 17: sheep in hand is 21, at most 20", "bad position"},
    {"# c\nT3T/5/5/5/T3T s 20 0\n  T3T/5/5/5/T3T s 21 0\n", ":3: col 19: sheep in hand is 21",
     "column counts leading blanks"},
    {"T3T/5/5/5/T3T s 20 0 ; a\nT3T/5/5/5/T3T t 19 1 ; a\n",
     ":2: duplicate id 'a' (first on line 1)", "duplicate id"},
    {"T3T/5/5/5/T3T s 15 5\n", ":1: col 1: the game is already over (five captures)",
     "game over"},
    {"# only comments\n\n", ": no positions in the file", "empty"},
    {"hello\n", ":1: col 1: unexpected 'h'", "garbage line"},
};

static void errors__name_file_line_and_column(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *path = write_temp(rows[i].text);
        Book book;
        Error err = {{0}};
        if (book_load(&book, path, true, &err))
            fail_msg("row %zu (%s): accepted", i, rows[i].why);
        if (!strstr(err.text, path) || !strstr(err.text, rows[i].error))
            fail_msg("row %zu (%s): '%s', expected '%s'", i, rows[i].why, err.text,
                     rows[i].error);
        assert_int_equal(book.count, 0);
        unlink(path);
    }
    Book book;
    Error err = {{0}};
    assert_false(book_load(&book, "/nonexistent/book.txt", true, &err));
    assert_non_null(strstr(err.text, "/nonexistent/book.txt: cannot open"));
}

static void game_over__allowed_when_not_required_playable(void **state) {
    (void)state;
    BookEntry entry;
    bool is_entry;
    Error err = {{0}};
    assert_true(book_parse_line("T3T/5/5/5/T3T s 15 5", 1, false, &entry, &is_entry, &err));
    assert_true(is_entry);
    assert_true(book_parse_line("   # x", 2, true, &entry, &is_entry, &err));
    assert_false(is_entry);
}

static void bench_suite__is_valid_and_covers_its_categories(void **state) {
    (void)state;
    Book book;
    Error err = {{0}};
    if (!book_load(&book, TSLAB_SOURCE_DIR "/bench/positions.txt", true, &err))
        fail_msg("%s", err.text);
    assert_true(book.count >= 40 && book.count <= 80);
    int movement = 0, four = 0, symmetric = 0;
    for (int i = 0; i < book.count; i++) {
        const Board *b = &book.entries[i].board;
        movement += b->in_hand == 0;
        four += b->captured == 4;
        bool all = true;
        for (Symmetry s = 1; s < SYMMETRIES; s++) {
            Board image = sym_board(s, b);
            all = all && board_equal(&image, b);
        }
        symmetric += all;
    }
    assert_true(movement >= 30); /* the sliding phase, for accuracy against the tablebase */
    assert_true(four >= 4);
    assert_true(symmetric >= 4);
    book_destroy(&book);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines__ids_comments_and_line_numbers),
        cmocka_unit_test(errors__name_file_line_and_column),
        cmocka_unit_test(game_over__allowed_when_not_required_playable),
        cmocka_unit_test(bench_suite__is_valid_and_covers_its_categories),
    };
    return RUN_TESTS("book", tests);
}
