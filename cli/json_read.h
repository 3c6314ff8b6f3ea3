// SPDX-License-Identifier: MIT
// Reading the tools' own JSON files back, field by field, every value checked: the readers of
// the tuning and booktest files share them, so a hand-edited or damaged file gets one kind of
// message ("\"done\" is missing or not a number in [0, 1e+09]") whatever file it is. Each reader
// sets *out even on failure (0 or empty), and names the key in err.
#pragma once

#include "error.h"

#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A finite number within [min, max]. */
bool json_read_number(const cJSON *object, const char *key, double min, double max, double *out,
                      Error *err);

/* A whole number within [min, max]. */
bool json_read_whole(const cJSON *object, const char *key, double min, double max, int64_t *out,
                     Error *err);

/* A string shorter than size, copied. */
bool json_read_text(const cJSON *object, const char *key, char *out, size_t size, Error *err);

/* 16 lowercase hexadecimal digits (a hash as the tools write one). */
bool json_read_hex(const cJSON *object, const char *key, uint64_t *out, Error *err);

/* A list of count finite numbers. */
bool json_read_numbers(const cJSON *object, const char *key, int count, double *out, Error *err);

/* Lines of text ("a\nb\n") as a JSON list of strings, and back: a missing list reads as no
 * line; a line with a newline, or more than size holds, is refused. */
cJSON *json_lines(const char *lines);
bool json_read_lines(const cJSON *object, const char *key, char *out, size_t size, Error *err);

/* 16 hexadecimal digits as a JSON string. */
cJSON *json_hex(uint64_t value);

/* A whole document read by read (which fills into from the root), its errors prefixed with
 * path: "PATH: not valid JSON", "PATH: \"done\" is ...". */
typedef bool (*JsonReader)(const cJSON *root, void *into, Error *err);
bool json_read_document(const char *text, size_t length, const char *path, JsonReader read,
                        void *into, Error *err);

/* The same for the file at path, of at most max bytes (textfile_read's checks). */
bool json_read_file(const char *path, size_t max, JsonReader read, void *into, Error *err);
