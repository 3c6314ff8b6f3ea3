// SPDX-License-Identifier: MIT
#include "json_read.h"

#include "textfile.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cJSON *member(const cJSON *object, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

bool json_read_number(const cJSON *object, const char *key, double min, double max, double *out,
                      Error *err) {
    *out = 0;
    const cJSON *item = member(object, key);
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble) || item->valuedouble < min ||
        item->valuedouble > max)
        return error_set(err, "\"%s\" is missing or not a number in [%g, %g]", key, min, max);
    *out = item->valuedouble;
    return true;
}

bool json_read_whole(const cJSON *object, const char *key, double min, double max, int64_t *out,
                     Error *err) {
    double value;
    *out = 0;
    if (!json_read_number(object, key, min, max, &value, err))
        return false;
    if (value != floor(value))
        return error_set(err, "\"%s\" is %g, not a whole number", key, value);
    *out = (int64_t)value;
    return true;
}

bool json_read_text(const cJSON *object, const char *key, char *out, size_t size, Error *err) {
    out[0] = '\0';
    const char *text = cJSON_GetStringValue(member(object, key));
    if (!text || strlen(text) >= size)
        return error_set(err, "\"%s\" is missing or longer than %zu characters", key, size - 1);
    memcpy(out, text, strlen(text) + 1);
    return true;
}

bool json_read_hex(const cJSON *object, const char *key, uint64_t *out, Error *err) {
    *out = 0;
    const char *text = cJSON_GetStringValue(member(object, key));
    if (!text || strlen(text) != 16 || strspn(text, "0123456789abcdef") != 16)
        return error_set(err, "\"%s\" is not 16 hexadecimal digits", key);
    *out = strtoull(text, NULL, 16);
    return true;
}

bool json_read_numbers(const cJSON *object, const char *key, int count, double *out, Error *err) {
    const cJSON *list = member(object, key), *item;
    for (int i = 0; i < count; i++)
        out[i] = 0;
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) != count)
        return error_set(err, "\"%s\" does not hold %d values", key, count);
    int i = 0;
    cJSON_ArrayForEach(item, list) {
        if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
            return error_set(err, "\"%s\" holds something other than a finite number", key);
        out[i++] = item->valuedouble;
    }
    return true;
}

cJSON *json_lines(const char *lines) {
    cJSON *list = cJSON_CreateArray();
    for (const char *line = lines; list && *line;) {
        size_t length = strcspn(line, "\n");
        char *text = malloc(length + 1);
        if (!text)
            break;
        memcpy(text, line, length);
        text[length] = '\0';
        cJSON_AddItemToArray(list, cJSON_CreateString(text));
        free(text);
        line += length + (line[length] == '\n');
    }
    return list;
}

bool json_read_lines(const cJSON *object, const char *key, char *out, size_t size, Error *err) {
    out[0] = '\0';
    const cJSON *list = member(object, key), *item;
    if (!list)
        return true;
    if (!cJSON_IsArray(list))
        return error_set(err, "\"%s\" is not a list", key);
    size_t used = 0;
    cJSON_ArrayForEach(item, list) {
        const char *text = cJSON_GetStringValue(item);
        size_t length = text ? strlen(text) : 0;
        if (!text || strchr(text, '\n') || used + length + 2 > size)
            return error_set(err, "\"%s\" holds something other than at most %zu bytes of lines",
                             key, size - 1);
        memcpy(out + used, text, length);
        used += length;
        out[used++] = '\n';
        out[used] = '\0';
    }
    return true;
}

cJSON *json_hex(uint64_t value) {
    char text[20];
    snprintf(text, sizeof text, "%016" PRIx64, value);
    return cJSON_CreateString(text);
}

bool json_read_document(const char *text, size_t length, const char *path, JsonReader read,
                        void *into, Error *err) {
    cJSON *root = cJSON_ParseWithLength(text, length);
    Error inner;
    bool ok = root ? read(root, into, &inner) : error_set(&inner, "not valid JSON");
    cJSON_Delete(root);
    if (!ok)
        return error_set(err, "%s: %s", path, inner.text);
    return true;
}

bool json_read_file(const char *path, size_t max, JsonReader read, void *into, Error *err) {
    char *text;
    size_t length;
    if (!textfile_read(path, max, true, &text, &length, err))
        return false;
    bool ok = json_read_document(text, length, path, read, into, err);
    free(text);
    return ok;
}
