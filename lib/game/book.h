// SPDX-License-Identifier: MIT
// Position files: bench's suite and abtest's opening books share this format and this reader.
//
//   # a comment line            (skipped, as are blank lines)
//   T3T/5/5/5/T3T s 20 0 ; start the initial position
//   POSITION [; ID [COMMENT...]]
//   POSITION # a comment after a position (no id: the line number serves)
//
// The id is the first word after ';' (a position without one gets its line number as id); ids
// must be unique within a file. Every line is validated; an error names file, line and column.
#pragma once

#include "board.h"
#include "error.h"

#include <stddef.h>
#include <stdint.h>

#define BOOK_ID_MAX 48
#define BOOK_COMMENT_MAX 160
#define BOOK_LINE_MAX 1024

typedef struct {
    Board board;
    char id[BOOK_ID_MAX];
    char comment[BOOK_COMMENT_MAX];
    int line; /* 1-based line in the file */
} BookEntry;

typedef struct {
    BookEntry *entries;
    int count;
    int capacity;
    uint64_t content_hash; /* FNV-1a of the file's bytes: identifies the book in results */
} Book;

/* Parses one line. Returns true with *is_entry false for a blank or comment line, true with
 * *is_entry true and *entry filled for a position line, false with err ("col N: ...") otherwise.
 * With require_playable, a position whose game is already over is an error. */
bool book_parse_line(const char *line, int line_number, bool require_playable, BookEntry *entry,
                     bool *is_entry, Error *err);

/* Parses the text of a position file (length bytes, which may hold anything: a NUL byte is an
 * error) into book; errors say "NAME:LINE: ...". */
bool book_parse_text(Book *book, const char *text, size_t length, const char *name,
                     bool require_playable, Error *err);

/* Reads a whole file into book (which book_destroy releases). On any error returns false with
 * "PATH:LINE: ..." in err and leaves book empty. An empty file (no positions) is an error. */
bool book_load(Book *book, const char *path, bool require_playable, Error *err);

void book_destroy(Book *book);
