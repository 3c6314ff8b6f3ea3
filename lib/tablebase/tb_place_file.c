// SPDX-License-Identifier: MIT
#include "tb_place_file.h"

#include "outfile.h"
#include "tb_bytes.h"
#include "textfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER_BYTES 512
#define CHECKSUM_OFFSET 104

const char *const TB_PLACE_SIDE_NAMES[2] = {"sheep", "tigers"};

void tb_place_path(const char *dir, int in_hand, Side side, char *out, size_t size) {
    snprintf(out, size, "%s/h%02d-%s.tspl", dir, in_hand, TB_PLACE_SIDE_NAMES[side]);
}

bool tb_place_is_layer_name(const char *name) {
    size_t length = strlen(name);
    return length > 5 && !strcmp(name + length - 5, ".tspl");
}

static void encode_header(const TbLayer *layer, const TbPlaceFileInfo *info,
                          uint8_t out[HEADER_BYTES]) {
    memset(out, 0, HEADER_BYTES);
    memcpy(out, TB_PLACE_FILE_MAGIC, 8);
    tb_put_u32(out + 8, TB_PLACE_FILE_VERSION);
    tb_put_u32(out + 12, HEADER_BYTES);
    memcpy(out + 16, TB_RULES, strlen(TB_RULES));
    tb_put_u32(out + 80, (uint32_t)layer->win_captures);
    tb_put_u32(out + 84, (uint32_t)layer->in_hand);
    tb_put_u32(out + 88, (uint32_t)layer->side);
    tb_put_u64(out + 96, (uint64_t)layer->count);
    tb_put_u64(out + CHECKSUM_OFFSET, info->checksum);
    tb_put_u64(out + 112, info->below_checksum);
    for (int c = 0; c < TB_LEVELS; c++) {
        tb_put_u64(out + 120 + 24 * c, (uint64_t)layer->wins[c]);
        tb_put_u64(out + 128 + 24 * c, (uint64_t)layer->draws[c]);
        tb_put_u64(out + 136 + 24 * c, (uint64_t)layer->losses[c]);
    }
}

static uint64_t file_checksum(const uint8_t header[HEADER_BYTES], const uint8_t *values,
                              size_t bytes) {
    uint8_t zeroed[HEADER_BYTES];
    memcpy(zeroed, header, HEADER_BYTES);
    memset(zeroed + CHECKSUM_OFFSET, 0, 8);
    return tb_checksum_update(tb_checksum_update(TB_FNV_OFFSET, zeroed, HEADER_BYTES), values,
                              bytes);
}

bool tb_place_write(OutFile *out, const TbLayer *layer, TbPlaceFileInfo *info, Error *err) {
    uint8_t header[HEADER_BYTES];
    size_t bytes = tb_layer_bytes(layer);
    info->checksum = 0;
    encode_header(layer, info, header);
    info->checksum = file_checksum(header, layer->values, bytes);
    tb_put_u64(header + CHECKSUM_OFFSET, info->checksum);
    if (fwrite(header, 1, sizeof header, out->f) != sizeof header ||
        fwrite(layer->values, 1, bytes, out->f) != bytes) {
        error_set(err, "%s: cannot write: %s", out->target, strerror(errno));
        outfile_abandon(out);
        return false;
    }
    return outfile_commit(out, err);
}

/* The header's fields that say which file, format, rules, game and layer it is. */
static bool check_identity(const char *path, const uint8_t *h, size_t size, int in_hand, Side side,
                           int win_captures, Error *err) {
    char rules[65] = {0};
    if (size < HEADER_BYTES || memcmp(h, TB_PLACE_FILE_MAGIC, 8) != 0)
        return error_set(err, "%s: not a tslab placement layer (no TSLABPL header)", path);
    if (tb_get_u32(h + 8) != TB_PLACE_FILE_VERSION)
        return error_set(err, "%s: format version %" PRIu32 ", this build reads %d: solve it "
                              "again (bench tbplace)",
                         path, tb_get_u32(h + 8), TB_PLACE_FILE_VERSION);
    if (tb_get_u32(h + 12) != HEADER_BYTES)
        return error_set(err, "%s: header is damaged: header bytes %" PRIu32 ", not %d", path,
                         tb_get_u32(h + 12), HEADER_BYTES);
    memcpy(rules, h + 16, 64);
    if (strcmp(rules, TB_RULES) != 0)
        return error_set(err, "%s: made for other rules (\"%s\")", path, rules);
    if (tb_get_u32(h + 80) != (uint32_t)win_captures)
        return error_set(err,
                         "%s: captures to win is %" PRIu32 ": it solves another game than "
                         "the one of %d",
                         path, tb_get_u32(h + 80), win_captures);
    if (tb_get_u32(h + 84) != (uint32_t)in_hand || tb_get_u32(h + 88) != side)
        return error_set(err,
                         "%s: it holds the layer of %" PRIu32 " sheep in hand, side %" PRIu32
                         ", not %d in hand, %s to move",
                         path, tb_get_u32(h + 84), tb_get_u32(h + 88), in_hand,
                         TB_PLACE_SIDE_NAMES[side]);
    return true;
}

/* The file's identity checked against the layer asked for, then its positions and size. */
static bool check_header(const char *path, const uint8_t *h, size_t size, const TbLayer *layer,
                         Error *err) {
    if (!check_identity(path, h, size, layer->in_hand, layer->side, layer->win_captures, err))
        return false;
    if (tb_get_u64(h + 96) != (uint64_t)layer->count)
        return error_set(err, "%s: positions %" PRIu64 ", the layer has %lld: damaged", path,
                         tb_get_u64(h + 96), (long long)layer->count);
    if (size != HEADER_BYTES + tb_layer_bytes(layer))
        return error_set(err, "%s: %zu bytes, the layer's file has %zu: truncated or damaged", path,
                         size, HEADER_BYTES + tb_layer_bytes(layer));
    return true;
}

bool tb_place_file_is_for(const char *path, int in_hand, Side side, int win_captures, Error *err) {
    size_t size;
    uint8_t header[HEADER_BYTES] = {0};
    int fd = textfile_open(path, true, &size, err);
    if (fd < 0)
        return false;
    bool ok = (size < HEADER_BYTES || tb_read_exactly(fd, header, HEADER_BYTES, path, err)) &&
              check_identity(path, header, size, in_hand, side, win_captures, err);
    close(fd);
    return ok;
}

bool tb_place_read(const char *path, int in_hand, Side side, int win_captures,
                   uint64_t below_checksum, TbLayer *layer, TbPlaceFileInfo *info, Error *err) {
    if (!tb_layer_init(layer, in_hand, side, win_captures, err))
        return false;
    size_t size;
    uint8_t header[HEADER_BYTES] = {0};
    int fd = textfile_open(path, true, &size, err);
    bool ok = fd >= 0;
    if (ok && size < HEADER_BYTES)
        ok = check_header(path, header, size, layer, err); /* refuses it, saying why */
    ok = ok && tb_read_exactly(fd, header, HEADER_BYTES, path, err) &&
         check_header(path, header, size, layer, err) &&
         tb_read_exactly(fd, layer->values, tb_layer_bytes(layer), path, err);
    if (fd >= 0)
        close(fd);
    if (ok && file_checksum(header, layer->values, tb_layer_bytes(layer)) !=
                  tb_get_u64(header + CHECKSUM_OFFSET))
        ok = error_set(err, "%s: checksum mismatch: the file is damaged", path);
    if (ok && below_checksum && tb_get_u64(header + 112) != below_checksum)
        ok = error_set(err,
                       "%s: solved from a file of checksum %016" PRIx64 ", but the layer below "
                       "it now is %016" PRIx64 ": out of order (solve it again: bench tbplace)",
                       path, tb_get_u64(header + 112), below_checksum);
    /* What a checksum cannot vouch for (a forged file can carry a correct one). */
    if (ok && !tb_layer_count(layer))
        ok = error_set(err, "%s: a value is not win, draw or loss: damaged or forged", path);
    for (int c = 0; ok && c < TB_LEVELS; c++)
        if (tb_get_u64(header + 120 + 24 * c) != (uint64_t)layer->wins[c] ||
            tb_get_u64(header + 128 + 24 * c) != (uint64_t)layer->draws[c] ||
            tb_get_u64(header + 136 + 24 * c) != (uint64_t)layer->losses[c])
            ok = error_set(err, "%s: the header's counts at %d captured are not those of its "
                                "values: damaged or forged",
                           path, c);
    if (!ok) {
        tb_layer_free(layer);
        return false;
    }
    if (info)
        *info = (TbPlaceFileInfo){.checksum = tb_get_u64(header + CHECKSUM_OFFSET),
                                  .below_checksum = tb_get_u64(header + 112)};
    return true;
}
