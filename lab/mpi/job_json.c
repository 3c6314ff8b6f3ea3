// SPDX-License-Identifier: MIT
#include "job_json.h"

#include "settings_json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *segment_json(const PairingSegment *segment) {
    cJSON *json = cJSON_CreateObject();
    cJSON *open = json ? cJSON_AddArrayToObject(json, "open") : NULL;
    if (!open || !cJSON_AddNumberToObject(json, "first_pair", (double)segment->first_pair) ||
        !cJSON_AddNumberToObject(json, "first_round", (double)segment->first_round)) {
        cJSON_Delete(json);
        return NULL;
    }
    for (int i = 0; i < segment->count; i++)
        cJSON_AddItemToArray(open, cJSON_CreateNumber(segment->open[i]));
    return json;
}

/* A whole number in [low, high] (far below 2^53: the double holds it exactly). */
static bool whole(const cJSON *number, double low, double high, int64_t *out) {
    if (!cJSON_IsNumber(number) || number->valuedouble < low || number->valuedouble > high ||
        number->valuedouble != (double)(int64_t)number->valuedouble)
        return false;
    *out = (int64_t)number->valuedouble;
    return true;
}

static bool whole_at(const cJSON *json, const char *key, double low, double high, int64_t *out) {
    return whole(cJSON_GetObjectItemCaseSensitive(json, key), low, high, out);
}

static bool segment_read(const cJSON *json, const MatchSettings *settings,
                         PairingSegment *segment, Error *err) {
    PairingList pairings;
    if (!settings_pairings(settings, &pairings, err))
        return false;
    const cJSON *open = cJSON_GetObjectItemCaseSensitive(json, "open");
    int count = cJSON_GetArraySize(open);
    if (!whole_at(json, "first_pair", 0, 1e15, &segment->first_pair) ||
        !whole_at(json, "first_round", 0, 1e15, &segment->first_round) || !cJSON_IsArray(open) ||
        count < 1 || count > pairings.count)
        return error_set(err, "the job from rank 0 has no segment (first_pair, first_round and "
                              "1 to %d open pairings)",
                         pairings.count);
    segment->count = count;
    for (int i = 0; i < count; i++) {
        int64_t index;
        if (!whole(cJSON_GetArrayItem(open, i), 0, pairings.count - 1, &index) ||
            (i > 0 && index <= segment->open[i - 1]))
            return error_set(err, "the job's segment: open pairing %d is not a pairing index "
                                  "above the one before it",
                             i + 1);
        segment->open[i] = (uint8_t)index;
    }
    return true;
}

cJSON *job_json(const MatchSettings *settings, const PairingSegment *segment, uint64_t book_hash,
                int64_t generation) {
    char hash[24];
    snprintf(hash, sizeof hash, "%016" PRIx64, book_hash);
    cJSON *json = cJSON_CreateObject(), *inner = settings_to_json(settings);
    cJSON *part = segment_json(segment);
    if (!json || !inner || !part) {
        cJSON_Delete(json);
        cJSON_Delete(inner);
        cJSON_Delete(part);
        return NULL;
    }
    cJSON_AddItemToObject(json, "settings", inner); /* json owns them from here */
    cJSON_AddItemToObject(json, "segment", part);
    if (!cJSON_AddStringToObject(json, "book_hash", hash) ||
        !cJSON_AddNumberToObject(json, "generation", (double)generation)) {
        cJSON_Delete(json);
        return NULL;
    }
    return json;
}

bool job_json_read(const cJSON *json, MatchSettings *settings, PairingSegment *segment,
                   uint64_t *book_hash, int64_t *generation, Error *err) {
    if (!whole_at(json, "generation", 1, 1e15, generation))
        return error_set(err, "the job from rank 0 has no generation (a whole number from 1)");
    const char *hash = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "book_hash"));
    char *end = NULL;
    if (!hash || strlen(hash) != 16 || strspn(hash, "0123456789abcdef") != 16)
        return error_set(err, "the job from rank 0 has no book hash of 16 hex digits");
    *book_hash = strtoull(hash, &end, 16);
    return settings_from_json(cJSON_GetObjectItemCaseSensitive(json, "settings"), settings, NULL,
                              err) &&
           segment_read(cJSON_GetObjectItemCaseSensitive(json, "segment"), settings, segment,
                        err);
}
