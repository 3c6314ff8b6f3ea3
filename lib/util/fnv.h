// SPDX-License-Identifier: MIT
// FNV-1a, 64 bits: the hash that identifies a file's bytes or a run's words in the tools' files
// (a book's content hash, a tuning or booktest file's inputs and arguments). Not for security:
// it tells an edit from no edit.
#pragma once

#include <stddef.h>
#include <stdint.h>

#define FNV_OFFSET_BASIS 0xcbf29ce484222325ull
#define FNV_PRIME_64 0x100000001b3ull

/* hash extended by size bytes of data (start from FNV_OFFSET_BASIS). */
static inline uint64_t fnv_bytes(uint64_t hash, const void *data, size_t size) {
    const unsigned char *p = data;
    for (size_t i = 0; i < size; i++)
        hash = (hash ^ p[i]) * FNV_PRIME_64;
    return hash;
}

/* The hash of a list of words, each ended by its NUL byte (so "ab" "c" and "a" "bc" differ). */
static inline uint64_t fnv_words(int count, char *const *words) {
    uint64_t hash = FNV_OFFSET_BASIS;
    for (int i = 0; i < count; i++) {
        size_t length = 0;
        while (words[i][length])
            length++;
        hash = fnv_bytes(hash, words[i], length + 1);
    }
    return hash;
}
