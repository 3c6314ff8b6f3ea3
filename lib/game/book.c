// SPDX-License-Identifier: MIT
#include "book.h"

#include "textfile.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_blank(const char *p) {
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

bool book_parse_line(const char *line, int line_number, bool require_playable, BookEntry *entry,
                     bool *is_entry, Error *err) {
    *is_entry = false;
    const char *start = skip_blank(line);
    if (*start == '\0' || *start == '#' || *start == '\n' || *start == '\r')
        return true;
    size_t offset = (size_t)(start - line); /* columns in errors count from the line start */
    /* The position ends at the line's end, at ';' (an id follows) or at '#' (a comment). */
    size_t position_length = strcspn(start, ";#\r\n");
    const char *semicolon = start[position_length] == ';' ? start + position_length : NULL;
    while (position_length > 0 && isspace((unsigned char)start[position_length - 1]))
        position_length--;
    char position[BOARD_TEXT_INPUT_MAX + 2];
    if (position_length > BOARD_TEXT_INPUT_MAX)
        return error_set(err, "col %zu: position text longer than %d characters", offset + 1,
                         BOARD_TEXT_INPUT_MAX);
    memcpy(position, start, position_length);
    position[position_length] = '\0';
    BookEntry parsed;
    memset(&parsed, 0, sizeof parsed);
    Error inner;
    if (!board_from_text(position, &parsed.board, &inner)) {
        /* Shift "col N" by the leading blanks so the column is the line's. */
        int col;
        const char *rest;
        if (sscanf(inner.text, "col %d:", &col) == 1 && (rest = strchr(inner.text, ':')))
            return error_set(err, "col %zu:%s", (size_t)col + offset, rest + 1);
        return error_set(err, "%s", inner.text);
    }
    if (require_playable) {
        GameEnd end = board_game_end(&parsed.board);
        if (end != GAME_END_NONE)
            return error_set(err, "col %zu: the game is already over (%s)", offset + 1,
                             game_end_name(end));
    }
    if (semicolon) {
        const char *id = skip_blank(semicolon + 1);
        size_t id_length = strcspn(id, " \t\r\n");
        if (id_length >= BOOK_ID_MAX)
            return error_set(err, "col %zu: id longer than %d characters",
                             (size_t)(id - line) + 1, BOOK_ID_MAX - 1);
        memcpy(parsed.id, id, id_length);
        parsed.id[id_length] = '\0';
        const char *comment = skip_blank(id + id_length);
        size_t comment_length = strcspn(comment, "\r\n");
        if (comment_length >= BOOK_COMMENT_MAX)
            comment_length = BOOK_COMMENT_MAX - 1;
        memcpy(parsed.comment, comment, comment_length);
        parsed.comment[comment_length] = '\0';
    }
    if (parsed.id[0] == '\0')
        snprintf(parsed.id, sizeof parsed.id, "%d", line_number);
    parsed.line = line_number;
    *entry = parsed;
    *is_entry = true;
    return true;
}

void book_destroy(Book *book) {
    free(book->entries);
    memset(book, 0, sizeof *book);
}

static bool append(Book *book, const BookEntry *entry) {
    if (book->count == book->capacity) {
        int capacity = book->capacity ? book->capacity * 2 : 256;
        BookEntry *grown = realloc(book->entries, (size_t)capacity * sizeof *grown);
        if (!grown)
            return false;
        book->entries = grown;
        book->capacity = capacity;
    }
    book->entries[book->count++] = *entry;
    return true;
}

/* Ids must be unique: results and diffs name positions by id. Sorting a copy keeps this
 * O(n log n) for books of 100,000+ positions. */
static int compare_ids(const void *a, const void *b) {
    const BookEntry *const *x = a, *const *y = b;
    int order = strcmp((*x)->id, (*y)->id);
    return order ? order : (*x)->line - (*y)->line;
}

static bool check_unique_ids(const Book *book, const char *path, Error *err) {
    const BookEntry **sorted = malloc((size_t)book->count * sizeof *sorted);
    if (!sorted)
        return error_set(err, "%s: out of memory", path);
    for (int i = 0; i < book->count; i++)
        sorted[i] = &book->entries[i];
    qsort(sorted, (size_t)book->count, sizeof *sorted, compare_ids);
    bool ok = true;
    for (int i = 1; i < book->count && ok; i++)
        if (!strcmp(sorted[i]->id, sorted[i - 1]->id))
            ok = error_set(err, "%s:%d: duplicate id '%s' (first on line %d)", path,
                           sorted[i]->line, sorted[i]->id, sorted[i - 1]->line);
    free(sorted);
    return ok;
}

bool book_parse_text(Book *book, const char *text, size_t length, const char *name,
                     bool require_playable, Error *err) {
    memset(book, 0, sizeof *book);
    const char *nul = memchr(text, '\0', length);
    if (nul)
        return error_set(err, "%s: a NUL byte at offset %zu (not a text file?)", name,
                         (size_t)(nul - text));
    uint64_t hash = 0xcbf29ce484222325ull; /* FNV-1a of the file's bytes */
    for (size_t i = 0; i < length; i++)
        hash = (hash ^ (unsigned char)text[i]) * 0x100000001b3ull;
    bool ok = true;
    int line_number = 0;
    for (const char *line = text; ok && line < text + length; line_number++) {
        const char *newline = memchr(line, '\n', (size_t)(text + length - line));
        size_t line_length = newline ? (size_t)(newline - line) : (size_t)(text + length - line);
        char copy[BOOK_LINE_MAX + 1];
        if (line_length > BOOK_LINE_MAX) {
            ok = error_set(err, "%s:%d: line longer than %d characters", name, line_number + 1,
                           BOOK_LINE_MAX);
            break;
        }
        memcpy(copy, line, line_length);
        copy[line_length] = '\0';
        line = newline ? newline + 1 : text + length;
        BookEntry entry;
        bool is_entry;
        Error inner;
        if (!book_parse_line(copy, line_number + 1, require_playable, &entry, &is_entry, &inner))
            ok = error_set(err, "%s:%d: %s", name, line_number + 1, inner.text);
        else if (is_entry && !append(book, &entry))
            ok = error_set(err, "%s:%d: out of memory", name, line_number + 1);
    }
    if (ok && book->count == 0)
        ok = error_set(err, "%s: no positions in the file", name);
    if (ok)
        ok = check_unique_ids(book, name, err);
    if (!ok) {
        book_destroy(book);
        return false;
    }
    book->content_hash = hash;
    return true;
}

bool book_load(Book *book, const char *path, bool require_playable, Error *err) {
    memset(book, 0, sizeof *book);
    char *text;
    size_t length;
    if (!textfile_read(path, TEXTFILE_MAX_BYTES, false, &text, &length, err))
        return false;
    bool ok = book_parse_text(book, text, length, path, require_playable, err);
    free(text);
    return ok;
}
