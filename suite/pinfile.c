// SPDX-License-Identifier: MIT
#include "pinfile.h"

#include "eval.h"
#include "search.h"
#include "suite.h"
#include "textfile.h"

#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PINFILE_MAX_BYTES ((size_t)16 << 20)
#define COUNT_MAX 9007199254740992.0 /* 2^53: what a JSON number holds exactly */

static bool whole_number(const cJSON *object, const char *key, double min, double max,
                         double *out, Error *err) {
    *out = 0; /* defined on failure too: -O3's inlining otherwise warns at every caller */
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsNumber(item))
        return error_set(err, "\"%s\" is missing or not a number", key);
    double value = item->valuedouble;
    if (!isfinite(value) || value != floor(value) || value < min || value > max)
        return error_set(err, "\"%s\" is %g: a whole number in %.0f..%.0f is needed", key, value,
                         min, max);
    *out = value;
    return true;
}

static const char *string_at(const cJSON *object, const char *key, Error *err) {
    const char *value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(object, key));
    if (!value)
        error_set(err, "\"%s\" is missing or not a string", key);
    return value;
}

static bool config_from_text(const char *text, SearchConfig *config, Error *err) {
    if (!*text || strlen(text) >= 2048)
        return error_set(err, "\"config\" is empty or too long");
    *config = config_default();
    if (!config_apply_line(config, text, err))
        return false;
    if (config->movetime)
        return error_set(err, "\"config\" has a time limit: a pinned bench must be reproducible");
    return true;
}

static bool row_from_json(const cJSON *row, int index, PinnedRow *out, Error *err) {
    Error inner;
    double score, nodes;
    const char *id = string_at(row, "id", &inner);
    const char *position = id ? string_at(row, "position", &inner) : NULL;
    const char *move = position ? string_at(row, "move", &inner) : NULL;
    if (!move)
        return error_set(err, "position %d: %s", index + 1, inner.text);
    if (!*id || strlen(id) >= BOOK_ID_MAX || strpbrk(id, " \t\r\n"))
        return error_set(err, "position %d: id must be 1..%d characters without spaces",
                         index + 1, BOOK_ID_MAX - 1);
    memset(out, 0, sizeof *out);
    strcpy(out->entry.id, id);
    if (!board_from_text(position, &out->entry.board, &inner))
        return error_set(err, "position %d (%s): %s", index + 1, id, inner.text);
    if (board_game_end(&out->entry.board) != GAME_END_NONE)
        return error_set(err, "position %d (%s): the game is already over", index + 1, id);
    if (!move_from_text(move, &out->move, &inner) ||
        !board_check_move(&out->entry.board, out->move, &inner))
        return error_set(err, "position %d (%s): move: %s", index + 1, id, inner.text);
    move_to_text(out->move, out->move_text);
    if (!whole_number(row, "score", -SCORE_WIN, SCORE_WIN, &score, &inner) ||
        !whole_number(row, "nodes", 1, COUNT_MAX, &nodes, &inner))
        return error_set(err, "position %d (%s): %s", index + 1, id, inner.text);
    out->score = (int)score;
    out->nodes = (uint64_t)nodes;
    return true;
}

static int compare_ids(const void *a, const void *b) {
    return strcmp(((const PinnedRow *)a)->entry.id, ((const PinnedRow *)b)->entry.id);
}

static bool ids_unique(const PinFile *pin, Error *err) {
    PinnedRow *sorted = malloc((size_t)pin->count * sizeof *sorted);
    if (!sorted)
        return error_set(err, "out of memory");
    memcpy(sorted, pin->rows, (size_t)pin->count * sizeof *sorted);
    qsort(sorted, (size_t)pin->count, sizeof *sorted, compare_ids);
    bool ok = true;
    for (int i = 1; i < pin->count && ok; i++)
        if (!strcmp(sorted[i].entry.id, sorted[i - 1].entry.id))
            ok = error_set(err, "duplicate id '%s'", sorted[i].entry.id);
    free(sorted);
    return ok;
}

/* The signature of the pinned rows, as bench_signature computes it for a run. */
static uint64_t pinned_signature(const PinFile *pin) {
    BenchRow *rows = calloc((size_t)pin->count, sizeof *rows);
    if (!rows)
        return 0;
    for (int i = 0; i < pin->count; i++) {
        rows[i].entry = pin->rows[i].entry;
        rows[i].result.move = pin->rows[i].move;
        rows[i].result.score = pin->rows[i].score;
    }
    uint64_t signature = bench_signature(rows, pin->count);
    free(rows);
    return signature;
}

static bool parse_json(const cJSON *json, PinFile *pin, Error *err) {
    double format, depth, nodes;
    const char *config, *signature;
    if (!cJSON_IsObject(json))
        return error_set(err, "not a JSON object");
    if (!whole_number(json, "format", 0, 1000, &format, err))
        return false;
    if (format != PINFILE_FORMAT)
        return error_set(err, "signature format %.0f is not one this bench reads (%d)", format,
                         PINFILE_FORMAT);
    if (!whole_number(json, "depth", 1, SEARCH_MAX_DEPTH, &depth, err) ||
        !(config = string_at(json, "config", err)) ||
        !config_from_text(config, &pin->config, err) ||
        !whole_number(json, "nodes", 0, COUNT_MAX, &nodes, err) ||
        !(signature = string_at(json, "signature", err)))
        return false;
    pin->config.depth = (int)depth;
    pin->nodes = (uint64_t)nodes;
    char *end;
    if (strlen(signature) != 16 || (pin->signature = strtoull(signature, &end, 16), *end))
        return error_set(err, "\"signature\" must be 16 hexadecimal digits");
    const cJSON *positions = cJSON_GetObjectItemCaseSensitive(json, "positions");
    int count = cJSON_GetArraySize(positions);
    if (!cJSON_IsArray(positions) || count < 1 || count > PINFILE_MAX_POSITIONS)
        return error_set(err, "\"positions\" must list 1..%d positions", PINFILE_MAX_POSITIONS);
    pin->rows = calloc((size_t)count, sizeof *pin->rows);
    if (!pin->rows)
        return error_set(err, "out of memory");
    uint64_t total = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, positions) {
        if (!row_from_json(row, pin->count, &pin->rows[pin->count], err))
            return false;
        total += pin->rows[pin->count++].nodes;
    }
    if (!ids_unique(pin, err))
        return false;
    if (total != pin->nodes)
        return error_set(err, "\"nodes\" is %llu but the positions add up to %llu",
                         (unsigned long long)pin->nodes, (unsigned long long)total);
    uint64_t computed = pinned_signature(pin);
    if (computed != pin->signature)
        return error_set(err, "\"signature\" %s does not match the pinned ids, moves and scores "
                              "(%016llx): the file was edited or damaged",
                         signature, (unsigned long long)computed);
    return true;
}

bool pinfile_parse(const char *text, size_t length, const char *name, PinFile *pin, Error *err) {
    memset(pin, 0, sizeof *pin);
    cJSON *json = cJSON_ParseWithLength(text, length);
    Error inner;
    bool ok = json ? parse_json(json, pin, &inner) : error_set(&inner, "not valid JSON");
    cJSON_Delete(json);
    if (!ok) {
        pinfile_destroy(pin);
        return error_set(err, "%s: %s", name, inner.text);
    }
    return true;
}

bool pinfile_load(const char *path, PinFile *pin, Error *err) {
    char *text;
    size_t length;
    memset(pin, 0, sizeof *pin);
    if (!textfile_read(path, PINFILE_MAX_BYTES, true, &text, &length, err))
        return false;
    bool ok = pinfile_parse(text, length, path, pin, err);
    free(text);
    return ok;
}

void pinfile_destroy(PinFile *pin) {
    free(pin->rows);
    pin->rows = NULL;
    pin->count = 0;
}
