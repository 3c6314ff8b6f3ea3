// SPDX-License-Identifier: MIT
// Saturating arithmetic for the clocks' and limits' microseconds and nodes: every value the
// options accept (a clock of 864000 s, nodestime of a billion, go movetime 2^50) gives a product
// that stops at the type's end instead of overflowing (undefined for a signed type). A limit
// that saturates is simply a limit no search reaches.
#pragma once

#include <stdint.h>

static inline int64_t saturate_mul(int64_t a, int64_t b) {
    int64_t product;
    if (__builtin_mul_overflow(a, b, &product))
        return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
    return product;
}

static inline int64_t saturate_add(int64_t a, int64_t b) {
    int64_t sum;
    if (__builtin_add_overflow(a, b, &sum))
        return a < 0 ? INT64_MIN : INT64_MAX;
    return sum;
}

/* a * b / c for a, b >= 0 and c > 0, as (a / c) * b + (a % c) * b / c: exact while it fits,
 * INT64_MAX beyond. */
static inline int64_t saturate_mul_div(int64_t a, int64_t b, int64_t c) {
    return saturate_add(saturate_mul(a / c, b), saturate_mul(a % c, b) / c);
}
