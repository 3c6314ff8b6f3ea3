// SPDX-License-Identifier: MIT
#include "tablebase.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "TSLABTB\n"
#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)

struct Tablebase {
    TbIndex *index;
    const uint8_t *entries;
    void *map;
    size_t map_bytes;
    TbHeader header;
};

/* FNV-1a 64 over the entries taken as little-endian 64-bit words (the last one zero-padded): one
 * multiplication per 8 bytes of the 88 MB file. */
static uint64_t checksum(const uint8_t *bytes, size_t count) {
    uint64_t hash = FNV_OFFSET;
    for (size_t i = 0; i < count; i += 8) {
        uint64_t word = 0;
        for (size_t k = 0; k < 8 && i + k < count; k++)
            word |= (uint64_t)bytes[i + k] << 8 * k;
        hash = (hash ^ word) * FNV_PRIME;
    }
    return hash;
}

static void put_u32(uint8_t *at, uint32_t v) {
    for (int i = 0; i < 4; i++)
        at[i] = (uint8_t)(v >> 8 * i);
}

static void put_u64(uint8_t *at, uint64_t v) {
    for (int i = 0; i < 8; i++)
        at[i] = (uint8_t)(v >> 8 * i);
}

static uint32_t get_u32(const uint8_t *at) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | at[i];
    return v;
}

static uint64_t get_u64(const uint8_t *at) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | at[i];
    return v;
}

/* The four counts of (captured, side) sit at 120 + 32 * (captured * 2 + side). */
static int64_t *count_field(TbCounts *c, int captured, int side, int field) {
    int64_t *fields[4] = {&c->positions[captured][side], &c->wins[captured][side],
                          &c->losses[captured][side], &c->draws[captured][side]};
    return fields[field];
}

static void encode_header(const TbHeader *h, uint8_t out[TB_HEADER_BYTES]) {
    memset(out, 0, TB_HEADER_BYTES);
    memcpy(out, MAGIC, 8);
    put_u32(out + 8, TB_FILE_VERSION);
    put_u32(out + 12, TB_HEADER_BYTES);
    memcpy(out + 16, TB_RULES, strlen(TB_RULES));
    put_u32(out + 80, (uint32_t)h->win_captures);
    put_u32(out + 84, (uint32_t)h->entry_bytes);
    put_u64(out + 88, (uint64_t)h->entries);
    put_u32(out + 96, (uint32_t)h->counts.longest_plies);
    put_u64(out + 104, (uint64_t)h->counts.longest_index);
    put_u64(out + 112, h->checksum);
    TbCounts counts = h->counts;
    for (int captured = 0; captured < TB_LEVELS; captured++)
        for (int side = 0; side < 2; side++)
            for (int field = 0; field < 4; field++)
                put_u64(out + 120 + 32 * (captured * 2 + side) + 8 * field,
                        (uint64_t)*count_field(&counts, captured, side, field));
}

bool tb_write(const char *path, const TbIndex *index, int win_captures, const TbCode *codes,
              Error *err) {
    TbHeader h = {.version = TB_FILE_VERSION,
                  .win_captures = win_captures,
                  .entry_bytes = 1,
                  .entries = tb_gen_classes(index, win_captures)};
    tb_count(index, win_captures, codes, &h.counts);
    for (int64_t i = 0; i < h.entries; i++)
        if (codes[i] > UINT8_MAX)
            h.entry_bytes = 2;
    size_t bytes = (size_t)h.entries * (size_t)h.entry_bytes;
    uint8_t *entries = malloc(bytes);
    if (!entries)
        return error_set(err, "%s: out of memory for %zu bytes", path, bytes);
    for (int64_t i = 0; i < h.entries; i++) {
        if (h.entry_bytes == 1)
            entries[i] = (uint8_t)codes[i];
        else
            entries[2 * i] = (uint8_t)codes[i], entries[2 * i + 1] = (uint8_t)(codes[i] >> 8);
    }
    h.checksum = checksum(entries, bytes);
    uint8_t header[TB_HEADER_BYTES];
    encode_header(&h, header);
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(temporary, "wb");
    if (!f) {
        free(entries);
        return error_set(err, "%s: cannot create: %s", temporary, strerror(errno));
    }
    bool ok = fwrite(header, 1, sizeof header, f) == sizeof header &&
              fwrite(entries, 1, bytes, f) == bytes && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int saved = errno;
    ok = fclose(f) == 0 && ok;
    free(entries);
    if (ok && rename(temporary, path) == 0)
        return true;
    saved = ok ? errno : saved;
    remove(temporary);
    return error_set(err, "%s: cannot write: %s", path, strerror(saved));
}

bool tb_read_header(const char *path, const uint8_t *h, size_t size, TbHeader *out, Error *err) {
    char rules[65] = {0};
    if (size < TB_HEADER_BYTES || memcmp(h, MAGIC, 8) != 0)
        return error_set(err, "%s: not a tslab tablebase (no TSLABTB header)", path);
    if (get_u32(h + 8) != TB_FILE_VERSION || get_u32(h + 12) != TB_HEADER_BYTES)
        return error_set(err,
                         "%s: format version %u, this build reads %d: rebuild it with "
                         "`make tablebase`",
                         path, get_u32(h + 8), TB_FILE_VERSION);
    memcpy(rules, h + 16, 64);
    if (strcmp(rules, TB_RULES) != 0)
        return error_set(err, "%s: made for other rules (\"%s\")", path, rules);
    *out = (TbHeader){.version = TB_FILE_VERSION,
                      .win_captures = (int)get_u32(h + 80),
                      .entry_bytes = (int)get_u32(h + 84),
                      .entries = (int64_t)get_u64(h + 88),
                      .checksum = get_u64(h + 112)};
    out->counts.longest_plies = (int)get_u32(h + 96);
    out->counts.longest_index = (int64_t)get_u64(h + 104);
    for (int captured = 0; captured < TB_LEVELS; captured++)
        for (int side = 0; side < 2; side++)
            for (int field = 0; field < 4; field++)
                *count_field(&out->counts, captured, side, field) =
                    (int64_t)get_u64(h + 120 + 32 * (captured * 2 + side) + 8 * field);
    if (out->win_captures < 1 || out->win_captures > TB_LEVELS ||
        (out->entry_bytes != 1 && out->entry_bytes != 2))
        return error_set(err, "%s: header is damaged (captures %d, entry bytes %d)", path,
                         out->win_captures, out->entry_bytes);
    int64_t expected = 0;
    for (int captured = 0; captured < out->win_captures; captured++)
        expected += 2 * TB_CLASSES_PER_SIDE[captured];
    size_t bytes = (size_t)expected * (size_t)out->entry_bytes;
    if (out->entries != expected || size != TB_HEADER_BYTES + bytes)
        return error_set(err,
                         "%s: %zu bytes, but %lld entries of %d bytes need %zu: truncated or "
                         "damaged",
                         path, size, (long long)expected, out->entry_bytes,
                         TB_HEADER_BYTES + bytes);
    return true;
}

Tablebase *tb_open(const char *path, Error *err) {
    Tablebase *tb = calloc(1, sizeof *tb);
    if (!tb) {
        error_set(err, "%s: out of memory", path);
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        error_set(err, "%s: cannot open: %s", path, strerror(errno));
        goto fail;
    }
    tb->map_bytes = (size_t)st.st_size;
    tb->map = tb->map_bytes ? mmap(NULL, tb->map_bytes, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    if (tb->map == MAP_FAILED) {
        tb->map = NULL;
        error_set(err, "%s: cannot map: %s", path, tb->map_bytes ? strerror(errno) : "empty file");
        goto fail;
    }
    if (!tb_read_header(path, tb->map, tb->map_bytes, &tb->header, err))
        goto fail;
    size_t bytes = tb->map_bytes - TB_HEADER_BYTES;
    tb->index = tb_index_new();
    if (!tb->index) {
        error_set(err, "%s: out of memory for the index", path);
        goto fail;
    }
    tb->entries = (const uint8_t *)tb->map + TB_HEADER_BYTES;
    if (checksum(tb->entries, bytes) != tb->header.checksum) {
        error_set(err, "%s: checksum mismatch: the entries are damaged", path);
        goto fail;
    }
    close(fd);
    return tb;
fail:
    if (fd >= 0)
        close(fd);
    tb_close(tb);
    return NULL;
}

void tb_close(Tablebase *tb) {
    if (!tb)
        return;
    if (tb->map)
        munmap(tb->map, tb->map_bytes);
    tb_index_free(tb->index);
    free(tb);
}

const TbHeader *tb_header(const Tablebase *tb) { return &tb->header; }
const TbIndex *tb_index(const Tablebase *tb) { return tb->index; }

TbValue tb_probe_after(const Tablebase *tb, const Board *b, Move m) {
    Board child = *b;
    board_make(&child, m);
    TbValue after = {TB_LOSS, 0}; /* the winning capture */
    if (child.captured < tb->header.win_captures && !tb_probe(tb, &child, &after))
        after = (TbValue){TB_DRAW, -1}; /* cannot happen: a sliding position stays in the phase */
    return after;
}

TbCode tb_code_at(const Tablebase *tb, int64_t i) {
    if (tb->header.entry_bytes == 1)
        return tb->entries[i];
    return (TbCode)(tb->entries[2 * i] | tb->entries[2 * i + 1] << 8);
}

bool tb_probe(const Tablebase *tb, const Board *b, TbValue *out) {
    if (b->captured >= tb->header.win_captures)
        return false;
    int64_t i = tb_index_of(tb->index, b, NULL);
    if (i < 0)
        return false;
    *out = tb_value_of(tb_code_at(tb, i));
    return true;
}
