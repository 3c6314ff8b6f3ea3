// SPDX-License-Identifier: MIT
// What the tablebase files share byte by byte: little-endian fields and their checksum, FNV-1a 64
// over the bytes taken as little-endian 64-bit words (the last one zero-padded): one
// multiplication per 8 bytes of a file of gigabytes.
#pragma once

#include "error.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define TB_FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define TB_FNV_PRIME UINT64_C(0x100000001b3)

static inline uint64_t tb_checksum_update(uint64_t hash, const uint8_t *bytes, size_t count) {
    size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Whole words straight from memory, the same value: about 30 ms -> 15 ms for the 88 MB
     * sliding file (perf record of `bench tbprobe -info`); what is left is the chain of
     * multiplications. */
    for (; i + 8 <= count; i += 8) {
        uint64_t word;
        memcpy(&word, bytes + i, 8);
        hash = (hash ^ word) * TB_FNV_PRIME;
    }
#endif
    for (; i < count; i += 8) {
        uint64_t word = 0;
        for (size_t k = 0; k < 8 && i + k < count; k++)
            word |= (uint64_t)bytes[i + k] << 8 * k;
        hash = (hash ^ word) * TB_FNV_PRIME;
    }
    return hash;
}

static inline void tb_put_u32(uint8_t *at, uint32_t v) {
    for (int i = 0; i < 4; i++)
        at[i] = (uint8_t)(v >> 8 * i);
}

static inline void tb_put_u64(uint8_t *at, uint64_t v) {
    for (int i = 0; i < 8; i++)
        at[i] = (uint8_t)(v >> 8 * i);
}

static inline uint32_t tb_get_u32(const uint8_t *at) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | at[i];
    return v;
}

static inline uint64_t tb_get_u64(const uint8_t *at) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | at[i];
    return v;
}

/* Reads exactly count bytes; false with a message when the file ends or fails first. */
static inline bool tb_read_exactly(int fd, uint8_t *into, size_t count, const char *path,
                                   Error *err) {
    size_t done = 0;
    while (done < count) {
        ssize_t n = read(fd, into + done, count - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return error_set(err, "%s: read error: %s", path, strerror(errno));
        if (n == 0)
            return error_set(err, "%s: ended after %zu of %zu bytes: truncated while it was "
                                  "read?",
                             path, done, count);
        done += (size_t)n;
    }
    return true;
}
