// SPDX-License-Identifier: MIT
#include "job_json.h"

#include "settings_json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cJSON *job_json(const MatchSettings *settings, uint64_t book_hash, int64_t generation) {
    char hash[24];
    snprintf(hash, sizeof hash, "%016" PRIx64, book_hash);
    cJSON *json = cJSON_CreateObject(), *inner = settings_to_json(settings);
    if (!json || !inner) {
        cJSON_Delete(json);
        cJSON_Delete(inner);
        return NULL;
    }
    cJSON_AddItemToObject(json, "settings", inner); /* json owns it from here */
    if (!cJSON_AddStringToObject(json, "book_hash", hash) ||
        !cJSON_AddNumberToObject(json, "generation", (double)generation)) {
        cJSON_Delete(json);
        return NULL;
    }
    return json;
}

bool job_json_read(const cJSON *json, MatchSettings *settings, uint64_t *book_hash,
                   int64_t *generation, Error *err) {
    const cJSON *number = cJSON_GetObjectItemCaseSensitive(json, "generation");
    /* Far below 2^53: the double holds it exactly. */
    if (!cJSON_IsNumber(number) || number->valuedouble < 1 || number->valuedouble > 1e15 ||
        number->valuedouble != (double)(int64_t)number->valuedouble)
        return error_set(err, "the job from rank 0 has no generation (a whole number from 1)");
    *generation = (int64_t)number->valuedouble;
    const char *hash = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "book_hash"));
    char *end = NULL;
    if (!hash || strlen(hash) != 16 || strspn(hash, "0123456789abcdef") != 16)
        return error_set(err, "the job from rank 0 has no book hash of 16 hex digits");
    *book_hash = strtoull(hash, &end, 16);
    return settings_from_json(cJSON_GetObjectItemCaseSensitive(json, "settings"), settings, NULL,
                              err);
}
