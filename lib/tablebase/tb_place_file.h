// SPDX-License-Identifier: MIT
// A placement layer's file: written atomically, read with every field checked.
//
// Format (numbers little-endian; docs/tablebase.md):
//   0   8 bytes  magic "TSLABPL\n"
//   8   u32      format version (1)
//   12  u32      header bytes (512)
//   16  64 bytes the rules, NUL-padded (TB_RULES)
//   80  u32      captures that win (5: the real game)
//   84  u32      sheep in hand (1..20)
//   88  u32      side to move (0 sheep, 1 tigers)
//   96  u64      positions (the layer's classes)
//   104 u64      checksum: FNV-1a 64 of the header (this field zero), then the values, as
//                little-endian 64-bit words (tb_bytes.h)
//   112 u64      the checksum of the file it was solved from (the layer below, or the sliding
//                file under 1 sheep in hand): a layer read with another below it is refused
//   120 u64[15]  per captured 0..4: wins, draws, losses (for the side to move)
//   240          zeros to 512 (no time nor thread count: a layer's file is the same bytes
//                whatever solved it)
//   512          the values, 2 bits a position, four to a byte (tb_place.h)
#pragma once

#include "outfile.h"
#include "tb_place.h"

#define TB_PLACE_FILE_VERSION 1
#define TB_PLACE_FILE_MAGIC "TSLABPL\n" /* a layer's first 8 bytes */
#define TB_PLACE_DIR "tablebase/placement" /* under the data root, as the sliding file */
#define TB_PLACE_PATH_MAX 1100              /* a directory's path and a layer's file name */

/* "sheep", "tigers": the side to move as file names and messages say it. */
extern const char *const TB_PLACE_SIDE_NAMES[2];

/* The file name of layer (in_hand, side) under a directory: DIR/h04-sheep.tspl. */
void tb_place_path(const char *dir, int in_hand, Side side, char *out, size_t size);

/* Whether a file name (no directory) is a layer's (hNN-sheep.tspl, hNN-tigers.tspl) or any other
 * placement file (.tspl): the files a layers' directory holds as inputs. */
bool tb_place_is_layer_name(const char *name);

typedef struct {
    uint64_t checksum, below_checksum;
} TbPlaceFileInfo;

/* Writes the layer (solved: its counts set) into out (begun: a temporary beside its target)
 * and commits it: synced, renamed over the target; on failure out is abandoned. info's
 * checksum is computed; below_checksum is written as given. */
bool tb_place_write(OutFile *out, const TbLayer *layer, TbPlaceFileInfo *info, Error *err);

/* Whether path's header says it is a placement layer of this build's format and rules, of
 * (in_hand, side) in the game of win_captures: its first 512 bytes read, nothing else. False
 * with the field that differs. */
bool tb_place_file_is_for(const char *path, int in_hand, Side side, int win_captures, Error *err);

/* Reads the file of layer (in_hand, side) of the game of win_captures into layer (which it
 * initialises), checking everything: magic, version, header size, rules, the game, the layer
 * (in hand and side), the size, the checksum, every value (no unset one) and the counts against
 * the values. below_checksum (when not 0) must be what the file was solved from. Errors name the
 * file and the field. */
bool tb_place_read(const char *path, int in_hand, Side side, int win_captures,
                   uint64_t below_checksum, TbLayer *layer, TbPlaceFileInfo *info, Error *err);
