// SPDX-License-Identifier: MIT
// The booktest file of `abtest booktest -json F` (docs/abtest.md, "A book's resolving power"):
// the run's arguments and their hash, every book's path, hash and size, the differences, the
// build and the base configuration's signature, and one cell per book and difference played so
// far, in play order (book by book), with its counts and the figures made from them, every
// number exact (cli/json_text.h). Reading checks the shape, the ranges and that every figure is
// what the cell's counts give (booktest_cell_finish; to 1e-9 of it, as another compiler rounds
// the last bits otherwise), so an edited cell is refused; that the
// books and arguments are still the run's is the resume's check (lab/run/booktest.c).
#pragma once

#include "provenance.h"
#include "settings.h"
#include "sprt.h"
#include "word_list.h"

#include <cJSON.h>

#define BOOKTEST_FORMAT 2
#define BOOKTEST_BOOKS_MAX 16
#define BOOKTEST_DIFFS_MAX 16
#define BOOKTEST_DIFF_TEXT 1024
#define BOOKTEST_CHANGES_MAX 2048
#define BOOKTEST_FILE_MAX (64u << 20) /* the most a reader takes */

/* What one book and one difference gave. */
typedef struct {
    Pentanomial penta;
    int64_t game_draws;
    int64_t plies; /* of every game, after the opening: the cell's cost at a node limit */
    SprtEstimate estimate;
    double pair_draw_ratio, game_draw_ratio, plies_per_game;
    double expected_pairs, pass_probability; /* 0 when the plan has no answer */
} BooktestCell;

typedef struct {
    char path[SETTINGS_PATH_MAX];
    uint64_t hash; /* FNV-1a of its bytes (Book's content_hash) */
    int positions;
} BooktestBook;

typedef struct {
    WordList arguments;
    BooktestBook books[BOOKTEST_BOOKS_MAX];
    int book_count;
    char differences[BOOKTEST_DIFFS_MAX][BOOKTEST_DIFF_TEXT];
    int diff_count;
    int pairs;
    BuildIdentity build;
    EngineSignature signature; /* of the -each configuration */
    char accepted_changes[BOOKTEST_CHANGES_MAX];
    BooktestCell cells[BOOKTEST_BOOKS_MAX * BOOKTEST_DIFFS_MAX]; /* book-major */
    int done;                                                    /* cells played */
} BooktestRecord;

/* Empty; booktest_record_destroy releases the arguments. */
void booktest_record_init(BooktestRecord *record);
void booktest_record_destroy(BooktestRecord *record);

/* A cell's figures from its counts (pentanomial, draws, plies) over pairs pairs: Elo and nElo
 * with their intervals, draw ratios, plies a game, and the expected pairs of an SPRT [0, 5]
 * normalized (alpha = beta = 0.05). */
void booktest_cell_finish(BooktestCell *cell, int pairs);

cJSON *booktest_record_to_json(const BooktestRecord *record);

/* One cell (cells[index]) as the file holds it: book, difference, counts and figures. */
cJSON *booktest_cell_to_json(const BooktestRecord *record, int index);

/* Reads text (named path in messages) into record (booktest_record_init'd). */
bool booktest_record_parse(const char *text, size_t length, const char *path,
                           BooktestRecord *record, Error *err);
/* The same from a parsed document (the report's reader: abtest report). */
bool booktest_record_from_json(const cJSON *root, BooktestRecord *record, Error *err);
bool booktest_record_load(const char *path, BooktestRecord *record, Error *err);

/* Whether path holds a booktest file with cells still to play (an OutputUnfinished). */
bool booktest_file_unfinished(const char *path, char *hint, size_t size);
