// SPDX-License-Identifier: MIT
#define _DEFAULT_SOURCE
#include "tablebase.h"

#include "outfile.h"
#include "tb_bytes.h"
#include "tb_verify.h"
#include "textfile.h"

#include <sys/mman.h>

#include <errno.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The entries are read into memory, not mapped: a mapped file that someone truncates while a run
 * probes it kills the process with SIGBUS; a copy cannot change under the reader. */
struct Tablebase {
    TbIndex *index;
    uint8_t *entries; /* the file's bytes after its header (alloc_entries) */
    TbEntries view;   /* the same, as tb_entries_at reads them */
    TbHeader header;
};

#define CHECKSUM_OFFSET 112

static uint64_t file_checksum(const uint8_t header[TB_HEADER_BYTES], const uint8_t *entries,
                              size_t bytes) {
    uint8_t zeroed[TB_HEADER_BYTES];
    memcpy(zeroed, header, TB_HEADER_BYTES);
    memset(zeroed + CHECKSUM_OFFSET, 0, 8);
    return tb_checksum_update(tb_checksum_update(TB_FNV_OFFSET, zeroed, TB_HEADER_BYTES), entries,
                              bytes);
}

/* The four counts of (captured, side) sit at 120 + 32 * (captured * 2 + side). */
static int64_t *count_field(TbCounts *c, int captured, int side, int field) {
    int64_t *fields[4] = {&c->positions[captured][side], &c->wins[captured][side],
                          &c->losses[captured][side], &c->draws[captured][side]};
    return fields[field];
}

static void encode_header(const TbHeader *h, uint8_t out[TB_HEADER_BYTES]) {
    memset(out, 0, TB_HEADER_BYTES);
    memcpy(out, TB_FILE_MAGIC, 8);
    tb_put_u32(out + 8, TB_FILE_VERSION);
    tb_put_u32(out + 12, TB_HEADER_BYTES);
    memcpy(out + 16, TB_RULES, strlen(TB_RULES));
    tb_put_u32(out + 80, (uint32_t)h->win_captures);
    tb_put_u32(out + 84, (uint32_t)h->entry_bytes);
    tb_put_u64(out + 88, (uint64_t)h->entries);
    tb_put_u32(out + 96, (uint32_t)h->counts.longest_plies);
    tb_put_u64(out + 104, (uint64_t)h->counts.longest_index);
    tb_put_u64(out + CHECKSUM_OFFSET, h->checksum);
    TbCounts counts = h->counts;
    for (int captured = 0; captured < TB_LEVELS; captured++)
        for (int side = 0; side < 2; side++)
            for (int field = 0; field < 4; field++)
                tb_put_u64(out + 120 + 32 * (captured * 2 + side) + 8 * field,
                        (uint64_t)*count_field(&counts, captured, side, field));
}

bool tb_write(OutFile *out, const TbIndex *index, int win_captures, const TbCode *codes,
              Error *err) {
    const char *path = out->target;
    TbHeader h = {.version = TB_FILE_VERSION,
                  .win_captures = win_captures,
                  .entry_bytes = 1,
                  .entries = tb_gen_classes(index, win_captures)};
    tb_count(index, win_captures, codes, &h.counts);
    for (int64_t i = 0; i < h.entries; i++)
        if (codes[i] > UINT8_MAX)
            h.entry_bytes = 2;
    /* A count outside this range is a bug upstream; said rather than passed to malloc (gcc's
     * range analysis, in the profile-generating build of make pgo, refuses the unchecked size). */
    if (h.entries <= 0 || (uint64_t)h.entries > PTRDIFF_MAX / 2) {
        error_set(err, "%s: %lld entries cannot be written", path, (long long)h.entries);
        outfile_abandon(out);
        return false;
    }
    size_t bytes = (size_t)h.entries * (size_t)h.entry_bytes;
    uint8_t *entries = malloc(bytes);
    if (!entries) {
        error_set(err, "%s: out of memory for %zu bytes", path, bytes);
        outfile_abandon(out);
        return false;
    }
    for (int64_t i = 0; i < h.entries; i++) {
        if (h.entry_bytes == 1)
            entries[i] = (uint8_t)codes[i];
        else
            entries[2 * i] = (uint8_t)codes[i], entries[2 * i + 1] = (uint8_t)(codes[i] >> 8);
    }
    uint8_t header[TB_HEADER_BYTES];
    encode_header(&h, header);
    h.checksum = file_checksum(header, entries, bytes);
    tb_put_u64(header + CHECKSUM_OFFSET, h.checksum);
    bool ok = fwrite(header, 1, sizeof header, out->f) == sizeof header &&
              fwrite(entries, 1, bytes, out->f) == bytes;
    free(entries);
    if (!ok) {
        error_set(err, "%s: cannot write: %s", path, strerror(errno));
        outfile_abandon(out);
        return false;
    }
    return outfile_commit(out, err);
}

/* The counts of one level and side, as the header holds them at 120 + 32 * (captured * 2 +
 * side): positions, wins, losses, draws. They must be what the game has, split into three
 * parts that sum to it; nothing at the levels the game does not reach. */
static bool check_level_counts(const char *path, const uint8_t *h, int win_captures,
                               int captured, int side, Error *err) {
    uint64_t fields[4];
    for (int field = 0; field < 4; field++)
        fields[field] = tb_get_u64(h + 120 + 32 * (captured * 2 + side) + 8 * field);
    uint64_t positions = captured < win_captures ? (uint64_t)TB_CLASSES_PER_SIDE[captured] : 0;
    bool ok = fields[0] == positions;
    for (int field = 1; field < 4; field++)
        ok = ok && fields[field] <= positions;
    if (ok && fields[1] + fields[2] + fields[3] == positions)
        return true;
    return error_set(err,
                     "%s: header is damaged: %d captured, %s to move: %llu positions (%llu wins, "
                     "%llu losses, %llu draws), the game has %llu",
                     path, captured, side == SIDE_SHEEP ? "sheep" : "tigers",
                     (unsigned long long)fields[0], (unsigned long long)fields[1],
                     (unsigned long long)fields[2], (unsigned long long)fields[3],
                     (unsigned long long)positions);
}

bool tb_read_header(const char *path, const uint8_t *h, size_t size, TbHeader *out, Error *err) {
    char rules[65] = {0};
    if (size < TB_HEADER_BYTES || memcmp(h, TB_FILE_MAGIC, 8) != 0)
        return error_set(err, "%s: not a tslab tablebase (no TSLABTB header)", path);
    if (tb_get_u32(h + 8) != TB_FILE_VERSION)
        return error_set(err,
                         "%s: format version %u, this build reads %d: rebuild it with "
                         "`make tablebase`",
                         path, tb_get_u32(h + 8), TB_FILE_VERSION);
    if (tb_get_u32(h + 12) != TB_HEADER_BYTES)
        return error_set(err, "%s: header is damaged: it gives its size as %u bytes, format "
                              "version %d has %d",
                         path, tb_get_u32(h + 12), TB_FILE_VERSION, TB_HEADER_BYTES);
    memcpy(rules, h + 16, 64);
    if (strcmp(rules, TB_RULES) != 0)
        return error_set(err, "%s: made for other rules (\"%s\")", path, rules);
    /* Every field read as the unsigned number it is, checked before it becomes an int. */
    uint32_t win_captures = tb_get_u32(h + 80), entry_bytes = tb_get_u32(h + 84);
    uint32_t longest_plies = tb_get_u32(h + 96);
    uint64_t entries = tb_get_u64(h + 88), longest_index = tb_get_u64(h + 104);
    if (win_captures < 1 || win_captures > TB_LEVELS || (entry_bytes != 1 && entry_bytes != 2))
        return error_set(err, "%s: header is damaged (captures %u, entry bytes %u)", path,
                         win_captures, entry_bytes);
    int64_t expected = 0;
    for (uint32_t captured = 0; captured < win_captures; captured++)
        expected += 2 * TB_CLASSES_PER_SIDE[captured];
    if (entries != (uint64_t)expected)
        return error_set(err, "%s: header is damaged: it lists %llu entries, the game that %u "
                              "captures win has %lld",
                         path, (unsigned long long)entries, win_captures, (long long)expected);
    size_t bytes = TB_HEADER_BYTES + (size_t)expected * entry_bytes;
    if (size != bytes)
        return error_set(err, "%s: %zu bytes, but its %lld entries of %u byte(s) need %zu: "
                              "truncated or damaged",
                         path, size, (long long)expected, entry_bytes, bytes);
    /* No win: longest 0 at index -1 (all ones). A win takes an odd number of plies. */
    bool no_win = longest_plies == 0 && longest_index == UINT64_MAX;
    if (!no_win && (longest_plies > TB_PLIES_MAX || longest_plies % 2 == 0 ||
                    longest_index >= (uint64_t)expected))
        return error_set(err, "%s: header is damaged: longest win %u plies at entry %llu (a win "
                              "takes an odd number of plies, at most %d, at an entry below %lld)",
                         path, longest_plies, (unsigned long long)longest_index, TB_PLIES_MAX,
                         (long long)expected);
    *out = (TbHeader){.version = TB_FILE_VERSION,
                      .win_captures = (int)win_captures,
                      .entry_bytes = (int)entry_bytes,
                      .entries = expected,
                      .checksum = tb_get_u64(h + CHECKSUM_OFFSET)};
    out->counts.longest_plies = (int)longest_plies;
    out->counts.longest_index = no_win ? -1 : (int64_t)longest_index;
    for (int captured = 0; captured < TB_LEVELS; captured++)
        for (int side = 0; side < 2; side++) {
            if (!check_level_counts(path, h, (int)win_captures, captured, side, err))
                return false;
            for (int field = 0; field < 4; field++)
                *count_field(&out->counts, captured, side, field) =
                    (int64_t)tb_get_u64(h + 120 + 32 * (captured * 2 + side) + 8 * field);
        }
    return true;
}

/* Memory for the entries on 2 MiB boundaries, with huge pages asked for: the read then faults
 * in 2 MiB pages instead of 4 KiB ones (system time of `bench tbprobe -info` 0.06-0.08 s ->
 * 0.03-0.04 s). */
static uint8_t *alloc_entries(size_t bytes) {
    size_t huge = (size_t)2 << 20, rounded = (bytes + huge - 1) / huge * huge;
    uint8_t *entries = aligned_alloc(huge, rounded ? rounded : huge);
#ifdef MADV_HUGEPAGE
    if (entries)
        madvise(entries, rounded, MADV_HUGEPAGE);
#endif
    return entries;
}

/* What the checksum cannot vouch for (a forged file can carry a correct one): the counts of the
 * header are those of the entries, the longest win is where it says, and no entry holds a
 * distance beyond it (a loss lasts at most one ply longer than the longest win) or beyond what
 * the search can score (TB_PLIES_MAX). */
static bool check_entries(const Tablebase *tb, const char *path, Error *err) {
    const TbHeader *h = &tb->header;
    TbCounts counts;
    tb_count_entries(tb->index, h->win_captures, &tb->view, &counts);
    if (counts.longest_distance > h->counts.longest_plies + 1 ||
        counts.longest_distance > TB_PLIES_MAX)
        return error_set(err, "%s: an entry holds a distance of %d plies, but the header's "
                              "longest win of %d allows at most %d (and the search scores at "
                              "most %d): damaged or forged",
                         path, counts.longest_distance, h->counts.longest_plies,
                         h->counts.longest_plies + 1, TB_PLIES_MAX);
    if (memcmp(counts.wins, h->counts.wins, sizeof counts.wins) ||
        memcmp(counts.losses, h->counts.losses, sizeof counts.losses) ||
        memcmp(counts.draws, h->counts.draws, sizeof counts.draws) ||
        counts.longest_plies != h->counts.longest_plies ||
        counts.longest_index != h->counts.longest_index)
        return error_set(err, "%s: the header's counts or longest win are not those of its "
                              "entries: damaged or forged",
                         path);
    return true;
}

/* Checked last, so that a damaged file says what is damaged before which game it claims. */
static bool check_game(const Tablebase *tb, const char *path, int win_captures, Error *err) {
    if (tb->header.win_captures == win_captures)
        return true;
    if (win_captures == CAPTURES_TO_WIN)
        return error_set(err, "%s solves the game that %d captures win, not this one (bench "
                              "tbgen -captures is for tests)",
                         path, tb->header.win_captures);
    return error_set(err, "%s solves the game that %d captures win, not the one of %d",
                     path, tb->header.win_captures, win_captures);
}

Tablebase *tb_new(const char *path, int win_captures, Error *err) {
    Tablebase *tb = calloc(1, sizeof *tb);
    if (!tb) {
        error_set(err, "%s: out of memory", path);
        return NULL;
    }
    size_t size;
    uint8_t header[TB_HEADER_BYTES] = {0};
    int fd = textfile_open(path, true, &size, err);
    if (fd < 0)
        goto fail;
    if (size < TB_HEADER_BYTES) {
        tb_read_header(path, header, size, &tb->header, err); /* refuses it, saying why */
        goto fail;
    }
    if (!tb_read_exactly(fd, header, TB_HEADER_BYTES, path, err) ||
        !tb_read_header(path, header, size, &tb->header, err))
        goto fail;
    size_t bytes = size - TB_HEADER_BYTES;
    tb->entries = alloc_entries(bytes);
    if (!tb->entries) {
        error_set(err, "%s: out of memory for its %zu bytes", path, bytes);
        goto fail;
    }
    if (!tb_read_exactly(fd, tb->entries, bytes, path, err))
        goto fail;
    tb->view = (TbEntries){NULL, tb->entries, tb->header.entry_bytes};
    if (file_checksum(header, tb->entries, bytes) != tb->header.checksum) {
        error_set(err, "%s: checksum mismatch: the file is damaged", path);
        goto fail;
    }
    tb->index = tb_index_new();
    if (!tb->index) {
        error_set(err, "%s: out of memory for the index", path);
        goto fail;
    }
    if (!check_entries(tb, path, err) || !check_game(tb, path, win_captures, err))
        goto fail;
    close(fd);
    return tb;
fail:
    if (fd >= 0)
        close(fd);
    tb_free(tb);
    return NULL;
}

void tb_free(Tablebase *tb) {
    if (!tb)
        return;
    free(tb->entries);
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

TbCode tb_code_at(const Tablebase *tb, int64_t i) { return tb_entries_at(&tb->view, i); }

bool tb_probe(const Tablebase *tb, const Board *b, TbValue *out) {
    if (b->captured >= tb->header.win_captures)
        return false;
    int64_t i = tb_index_of(tb->index, b, NULL);
    if (i < 0)
        return false;
    *out = tb_value_of(tb_code_at(tb, i));
    return true;
}
