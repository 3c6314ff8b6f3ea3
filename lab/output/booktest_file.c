// SPDX-License-Identifier: MIT
#include "booktest_file.h"

#include "cli.h"
#include "json_read.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The SPRT whose cost a cell estimates: fishtest's [0, 5] normalized, alpha = beta = 0.05. */
static const SprtParams PLAN_SPRT = {.elo0 = 0,
                                     .elo1 = 5,
                                     .alpha = 0.05,
                                     .beta = 0.05,
                                     .model = SPRT_MODEL_NORMALIZED,
                                     .overshoot = false};

void booktest_record_init(BooktestRecord *record) {
    memset(record, 0, sizeof *record);
    provenance_build_from_json(NULL, &record->build, NULL); /* unknown until set */
}

void booktest_record_destroy(BooktestRecord *record) {
    word_list_clear(&record->arguments);
    booktest_record_init(record);
}

void booktest_cell_finish(BooktestCell *cell, int pairs) {
    SprtSample sample = sprt_sample_pentanomial(&cell->penta);
    cell->estimate = sprt_estimate(&sample);
    cell->pair_draw_ratio = sprt_pair_draw_ratio(&cell->penta);
    cell->game_draw_ratio = pairs ? (double)cell->game_draws / (2.0 * pairs) : 0;
    cell->plies_per_game = pairs ? (double)cell->plies / (2.0 * pairs) : 0;
    sprt_plan_pairs(&PLAN_SPRT, cell->estimate.nelo, &cell->pass_probability,
                    &cell->expected_pairs);
}

/* The figures of a cell, in the order the file holds them (key, value). */
typedef struct {
    const char *key;
    double value;
} Figure;

#define CELL_FIGURES 9

static void cell_figures(const BooktestCell *c, Figure out[CELL_FIGURES]) {
    const SprtEstimate *e = &c->estimate;
    out[0] = (Figure){"elo", e->elo};
    out[1] = (Figure){"elo_error", e->elo_high - e->elo};
    out[2] = (Figure){"nelo", e->nelo};
    out[3] = (Figure){"nelo_error", e->nelo_high - e->nelo};
    out[4] = (Figure){"pair_draw_ratio", c->pair_draw_ratio};
    out[5] = (Figure){"game_draw_ratio", c->game_draw_ratio};
    out[6] = (Figure){"plies_per_game", c->plies_per_game};
    out[7] = (Figure){"expected_pairs", c->expected_pairs};
    out[8] = (Figure){"pass_probability", c->pass_probability};
}

static const char *const DETAIL_KEYS[6] = {"LL", "LD", "WL", "DD", "WD", "WW"};

static uint64_t *detail_cells(Pentanomial *p, int i) {
    uint64_t *cells[6] = {&p->ll, &p->ld, &p->wl, &p->dd, &p->wd, &p->ww};
    return cells[i];
}

cJSON *booktest_cell_to_json(const BooktestRecord *r, int index) {
    const BooktestCell *c = &r->cells[index];
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "book", r->books[index / r->diff_count].path);
    cJSON_AddStringToObject(item, "difference", r->differences[index % r->diff_count]);
    cJSON_AddNumberToObject(item, "pairs", r->pairs);
    double ptnml[5] = {(double)c->penta.ll, (double)c->penta.ld,
                       (double)(c->penta.wl + c->penta.dd), (double)c->penta.wd,
                       (double)c->penta.ww};
    cJSON_AddItemToObject(item, "ptnml", cJSON_CreateDoubleArray(ptnml, 5));
    Figure figures[CELL_FIGURES];
    cell_figures(c, figures);
    for (int i = 0; i < CELL_FIGURES; i++)
        cJSON_AddNumberToObject(item, figures[i].key, figures[i].value);
    cJSON *detail = cJSON_AddObjectToObject(item, "pentanomial_detail");
    Pentanomial penta = c->penta;
    for (int i = 0; i < 6; i++)
        cJSON_AddNumberToObject(detail, DETAIL_KEYS[i], (double)*detail_cells(&penta, i));
    cJSON_AddNumberToObject(item, "game_draws", (double)c->game_draws);
    cJSON_AddNumberToObject(item, "plies", (double)c->plies);
    return item;
}

cJSON *booktest_record_to_json(const BooktestRecord *r) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "tool", "tslab abtest booktest");
    cJSON_AddNumberToObject(root, "format", BOOKTEST_FORMAT);
    cJSON_AddStringToObject(root, "state",
                            r->done == r->book_count * r->diff_count ? "finished" : "running");
    cJSON_AddItemToObject(root, "build", provenance_build_to_json(&r->build));
    cJSON_AddItemToObject(root, "signature", provenance_signature_to_json(&r->signature));
    cJSON_AddItemToObject(root, "arguments", word_list_json(&r->arguments));
    cJSON_AddItemToObject(root, "arguments_hash", json_hex(r->arguments.hash));
    cJSON *books = cJSON_AddArrayToObject(root, "books");
    for (int b = 0; b < r->book_count; b++) {
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "path", r->books[b].path);
        cJSON_AddItemToObject(item, "hash", json_hex(r->books[b].hash));
        cJSON_AddNumberToObject(item, "positions", r->books[b].positions);
        cJSON_AddItemToArray(books, item);
    }
    cJSON *diffs = cJSON_AddArrayToObject(root, "differences");
    for (int d = 0; d < r->diff_count; d++)
        cJSON_AddItemToArray(diffs, cJSON_CreateString(r->differences[d]));
    cJSON_AddNumberToObject(root, "pairs", r->pairs);
    cJSON *cells = cJSON_AddArrayToObject(root, "cells");
    for (int i = 0; i < r->done; i++)
        cJSON_AddItemToArray(cells, booktest_cell_to_json(r, i));
    cJSON_AddItemToObject(root, "accepted_changes", json_lines(r->accepted_changes));
    return root;
}

static const cJSON *member(const cJSON *object, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

/* Whether a recorded figure is what the counts give. Not to the bit: a build of another compiler
 * rounds the last bits otherwise (a gcc file's Elo -12.16521457965764 is -12.165214579657565 for
 * clang, 6e-15 apart relative), and its files must read. Any edit that means something moves a
 * figure by far more than 1e-9 of it. */
#define FIGURE_TOLERANCE 1e-9
static bool figure_agrees(double recorded, double computed) {
    if (memcmp(&recorded, &computed, sizeof recorded) == 0)
        return true;
    double scale = fabs(computed) > 1 ? fabs(computed) : 1;
    return isfinite(recorded) && isfinite(computed) &&
           fabs(recorded - computed) <= FIGURE_TOLERANCE * scale;
}

/* One cell, in play order: its book and difference, its counts, and figures that are what the
 * counts give. */
static bool cell_from_json(const cJSON *item, BooktestRecord *r, int index, Error *err) {
    BooktestCell *c = &r->cells[index];
    memset(c, 0, sizeof *c);
    char book[SETTINGS_PATH_MAX], difference[BOOKTEST_DIFF_TEXT];
    int64_t pairs, value;
    if (!json_read_text(item, "book", book, sizeof book, err) ||
        !json_read_text(item, "difference", difference, sizeof difference, err) ||
        !json_read_whole(item, "pairs", r->pairs, r->pairs, &pairs, err))
        return false;
    if (strcmp(book, r->books[index / r->diff_count].path) ||
        strcmp(difference, r->differences[index % r->diff_count]))
        return error_set(err, "is not book %s with difference \"%s\", the cell due there",
                         r->books[index / r->diff_count].path,
                         r->differences[index % r->diff_count]);
    const cJSON *detail = member(item, "pentanomial_detail");
    uint64_t total = 0;
    for (int i = 0; i < 6; i++) {
        if (!json_read_whole(detail, DETAIL_KEYS[i], 0, r->pairs, &value, err))
            return false;
        *detail_cells(&c->penta, i) = (uint64_t)value;
        total += (uint64_t)value;
    }
    if (total != (uint64_t)r->pairs)
        return error_set(err, "its pentanomial counts %llu pairs, not %d",
                         (unsigned long long)total, r->pairs);
    if (!json_read_whole(item, "game_draws", 0, 2.0 * r->pairs, &c->game_draws, err) ||
        !json_read_whole(item, "plies", 0, 1e15, &c->plies, err))
        return false;
    booktest_cell_finish(c, r->pairs);
    Figure figures[CELL_FIGURES];
    cell_figures(c, figures);
    for (int i = 0; i < CELL_FIGURES; i++) {
        double recorded;
        if (!json_read_number(item, figures[i].key, -1e300, 1e300, &recorded, err))
            return false;
        if (!figure_agrees(recorded, figures[i].value))
            return error_set(err, "\"%s\" is %.17g where its counts give %.17g: the cell was "
                                  "edited",
                             figures[i].key, recorded, figures[i].value);
    }
    return true;
}

static bool lists_from_json(const cJSON *root, BooktestRecord *r, Error *err) {
    const cJSON *books = member(root, "books"), *diffs = member(root, "differences"), *item;
    if (!cJSON_IsArray(books) || cJSON_GetArraySize(books) < 1 ||
        cJSON_GetArraySize(books) > BOOKTEST_BOOKS_MAX)
        return error_set(err, "\"books\" is not a list of 1 to %d books", BOOKTEST_BOOKS_MAX);
    if (!cJSON_IsArray(diffs) || cJSON_GetArraySize(diffs) < 1 ||
        cJSON_GetArraySize(diffs) > BOOKTEST_DIFFS_MAX)
        return error_set(err, "\"differences\" is not a list of 1 to %d", BOOKTEST_DIFFS_MAX);
    cJSON_ArrayForEach(item, books) {
        BooktestBook *book = &r->books[r->book_count++];
        int64_t positions;
        Error inner;
        if (!json_read_text(item, "path", book->path, sizeof book->path, &inner) ||
            !json_read_hex(item, "hash", &book->hash, &inner) ||
            !json_read_whole(item, "positions", 1, 2147483647.0, &positions, &inner))
            return error_set(err, "book %d: %s", r->book_count, inner.text);
        book->positions = (int)positions;
    }
    cJSON_ArrayForEach(item, diffs) {
        const char *text = cJSON_GetStringValue(item);
        if (!text || strlen(text) >= BOOKTEST_DIFF_TEXT)
            return error_set(err, "\"differences\" holds something other than short texts");
        snprintf(r->differences[r->diff_count++], BOOKTEST_DIFF_TEXT, "%s", text);
    }
    return true;
}

bool booktest_record_from_json(const cJSON *root, BooktestRecord *r, Error *err) {
    const char *tool = cJSON_GetStringValue(member(root, "tool"));
    const cJSON *format = member(root, "format");
    if (cJSON_IsArray(root))
        return error_set(err, "a booktest file of format 1 (a list of cells, written before "
                              "booktest recorded its arguments): it cannot be resumed");
    if (!tool || strcmp(tool, "tslab abtest booktest") || !cJSON_IsNumber(format) ||
        format->valuedouble != BOOKTEST_FORMAT)
        return error_set(err, "not a booktest file of format %d", BOOKTEST_FORMAT);
    int64_t pairs;
    if (!word_list_from_json(root, "arguments", &r->arguments, err) ||
        !word_list_check_hash(root, "arguments_hash", &r->arguments, err) ||
        !json_read_whole(root, "pairs", 1, 10000000, &pairs, err) ||
        !lists_from_json(root, r, err) ||
        !provenance_build_from_json(member(root, "build"), &r->build, err) ||
        !provenance_signature_from_json(member(root, "signature"), &r->signature, err) ||
        !json_read_lines(root, "accepted_changes", r->accepted_changes,
                         sizeof r->accepted_changes, err))
        return false;
    r->pairs = (int)pairs;
    const cJSON *cells = member(root, "cells"), *item;
    if (!cJSON_IsArray(cells) || cJSON_GetArraySize(cells) > r->book_count * r->diff_count)
        return error_set(err, "\"cells\" is not a list of at most %d cells",
                         r->book_count * r->diff_count);
    cJSON_ArrayForEach(item, cells) {
        Error inner;
        if (!cell_from_json(item, r, r->done, &inner))
            return error_set(err, "cell %d: %s", r->done + 1, inner.text);
        r->done++;
    }
    const char *state = cJSON_GetStringValue(member(root, "state"));
    const char *expected = r->done == r->book_count * r->diff_count ? "finished" : "running";
    if (!state || strcmp(state, expected))
        return error_set(err, "\"state\" is not \"%s\" (%d of %d cells)", expected, r->done,
                         r->book_count * r->diff_count);
    return true;
}

static bool read_record(const cJSON *root, void *record, Error *err) {
    return booktest_record_from_json(root, record, err);
}

bool booktest_record_parse(const char *text, size_t length, const char *path,
                           BooktestRecord *record, Error *err) {
    return json_read_document(text, length, path, read_record, record, err);
}

bool booktest_record_load(const char *path, BooktestRecord *record, Error *err) {
    return json_read_file(path, BOOKTEST_FILE_MAX, read_record, record, err);
}

bool booktest_file_unfinished(const char *path, char *hint, size_t size) {
    BooktestRecord *record = malloc(sizeof *record);
    if (!record)
        return false;
    booktest_record_init(record);
    Error err;
    bool unfinished = booktest_record_load(path, record, &err) &&
                      record->done < record->book_count * record->diff_count;
    if (unfinished)
        snprintf(hint, size, "(%d of %d cells): continue it with `%s booktest -resume %s`",
                 record->done, record->book_count * record->diff_count, cli_program(), path);
    booktest_record_destroy(record);
    free(record);
    return unfinished;
}
