// SPDX-License-Identifier: MIT
#include "word_list.h"

#include "fnv.h"
#include "json_read.h"

#include <stdlib.h>
#include <string.h>

void word_list_clear(WordList *list) {
    for (int i = 0; i < list->count; i++)
        free(list->words[i]);
    list->count = 0;
    list->hash = fnv_words(0, NULL);
}

bool word_list_set(WordList *list, int count, char *const *words, Error *err) {
    word_list_clear(list);
    if (count > WORD_LIST_MAX)
        return error_set(err, "more than %d arguments", WORD_LIST_MAX);
    for (int i = 0; i < count; i++) {
        list->words[i] = strdup(words[i]);
        if (!list->words[i]) {
            word_list_clear(list);
            return error_set(err, "out of memory");
        }
        list->count++;
    }
    list->hash = fnv_words(count, words);
    return true;
}

cJSON *word_list_json(const WordList *list) {
    cJSON *json = cJSON_CreateArray();
    for (int i = 0; json && i < list->count; i++)
        cJSON_AddItemToArray(json, cJSON_CreateString(list->words[i]));
    return json;
}

bool word_list_from_json(const cJSON *object, const char *key, WordList *list, Error *err) {
    const cJSON *json = cJSON_GetObjectItemCaseSensitive(object, key), *item;
    char *words[WORD_LIST_MAX];
    int count = 0;
    word_list_clear(list);
    if (!cJSON_IsArray(json) || cJSON_GetArraySize(json) > WORD_LIST_MAX)
        return error_set(err, "\"%s\" is not a list of at most %d words", key, WORD_LIST_MAX);
    cJSON_ArrayForEach(item, json) {
        if (!cJSON_IsString(item))
            return error_set(err, "\"%s\" is not a list of words", key);
        words[count++] = item->valuestring;
    }
    return word_list_set(list, count, words, err);
}

bool word_list_check_hash(const cJSON *object, const char *key, const WordList *list, Error *err) {
    uint64_t recorded;
    if (!json_read_hex(object, key, &recorded, err))
        return false;
    if (recorded != list->hash)
        return error_set(err, "\"arguments\" do not match their recorded hash: the run's "
                              "arguments were edited in the file");
    return true;
}
