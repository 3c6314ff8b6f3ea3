// SPDX-License-Identifier: MIT
// A small seeded generator (splitmix64): the same seed gives the same stream on every machine.
// State lives in the caller's struct, so each game or test owns its own stream.
#pragma once

#include <stdint.h>

typedef struct {
    uint64_t state;
} Rng;

static inline Rng rng_seeded(uint64_t seed) { return (Rng){seed}; }

static inline uint64_t rng_next(Rng *rng) {
    uint64_t z = (rng->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A stream of its own for item `index` of a seeded sequence (a pair, a simulated run): the
 * index mixed through one splitmix step keeps neighbouring items apart, and the stream depends
 * on (seed, index) only, whatever runs it. */
static inline Rng rng_for_index(uint64_t seed, int64_t index) {
    Rng mix = rng_seeded(seed ^ ((uint64_t)index * 0x9e3779b97f4a7c15ull));
    return rng_seeded(rng_next(&mix));
}

/* Uniform integer in [0, bound), bound > 0 (rejection sampling, so no modulo bias). */
static inline uint64_t rng_below(Rng *rng, uint64_t bound) {
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do
        x = rng_next(rng);
    while (x >= limit);
    return x % bound;
}
