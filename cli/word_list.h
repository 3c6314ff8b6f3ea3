// SPDX-License-Identifier: MIT
// A run's words as its file records them (the tuning and booktest files' "arguments"): copied,
// hashed with fnv_words, written as a JSON list of strings and read back. The hash, written
// beside the list, is how a resume tells a hand-edited list from the run's own.
#pragma once

#include "error.h"

#include <cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#define WORD_LIST_MAX 256

typedef struct {
    int count;
    char *words[WORD_LIST_MAX]; /* malloc'd */
    uint64_t hash;              /* fnv_words of the words */
} WordList;

/* Releases the words; the list is empty (and may be set again). A zeroed list is empty. */
void word_list_clear(WordList *list);

/* Copies count words and sets their hash. False when they are too many or memory runs out
 * (the list is then empty). */
bool word_list_set(WordList *list, int count, char *const *words, Error *err);

/* The words as a JSON list of strings. */
cJSON *word_list_json(const WordList *list);

/* The list of strings object[key], copied and hashed; err names the key. */
bool word_list_from_json(const cJSON *object, const char *key, WordList *list, Error *err);

/* Whether object[key], 16 hexadecimal digits, is the list's hash: a list edited by hand in a
 * file is refused ("\"arguments\" do not match their recorded hash ..."). */
bool word_list_check_hash(const cJSON *object, const char *key, const WordList *list, Error *err);
