// SPDX-License-Identifier: MIT
// The sliding-phase tablebase file: writing it (atomically) and probing it (memory-mapped).
//
// Format (all numbers little-endian; docs/tablebase.md):
//   0   8 bytes  magic "TSLABTB\n"
//   8   u32      format version (1: the index of tb_index.h)
//   12  u32      header bytes (512)
//   16  64 bytes the rules, NUL-padded (TB_RULES)
//   80  u32      captures that win (5: the real game)
//   84  u32      bytes per entry (1 or 2)
//   88  u64      entries (positions up to symmetry)
//   96  u32      longest win in plies
//   104 u64      a position with it (its index)
//   112 u64      checksum: FNV-1a 64 of the entries as little-endian 64-bit words
//   120 u64[40]  per captured 0..4, side to move (sheep, tigers): positions, wins, losses, draws
//   512          the entries: per class, 0 for a draw, else plies + 1 (tb_value.h)
#pragma once

#include "tb_gen.h"

#define TB_FILE_VERSION 1
#define TB_HEADER_BYTES 512
#define TB_RULES "tigers and sheep, 5x5, 4 tigers, 20 sheep; no move loses"
#define TB_DEFAULT_FILE "tablebase/sliding.tstb" /* under the data root (cli/paths.h) */

typedef struct {
    int version, win_captures, entry_bytes;
    int64_t entries;
    uint64_t checksum;
    TbCounts counts; /* longest_plies and longest_index included */
} TbHeader;

typedef struct Tablebase Tablebase;

/* Writes the solution of tb_generate to path: a temporary file beside it, synced, renamed over
 * it, so a reader never sees half a file. */
bool tb_write(const char *path, const TbIndex *index, int win_captures, const TbCode *codes,
              Error *err);

/* Reads and checks a header (the file's first TB_HEADER_BYTES of size bytes): magic, version,
 * rules, captures, entry size, and that the entry count is that game's and the size holds them
 * exactly. Errors start with `name`. */
bool tb_read_header(const char *name, const uint8_t *bytes, size_t size, TbHeader *out,
                    Error *err);

/* Maps a tablebase file and checks it: magic, version, rules, size, and the checksum over every
 * entry, then builds the index: `bench tbprobe -info`, which does little else, takes 0.2 s.
 * Errors name the file and what is wrong. */
Tablebase *tb_open(const char *path, Error *err);
void tb_close(Tablebase *tb);

const TbHeader *tb_header(const Tablebase *tb);
const TbIndex *tb_index(const Tablebase *tb);

/* The value of b for its side to move; false when b is not in the file (sheep in hand, or the
 * game over by captures). Thread-safe: one index computation and one read. */
bool tb_probe(const Tablebase *tb, const Board *b, TbValue *out);

/* The value move m (legal in b, a position in the file) leaves the opponent: a loss in 0 after
 * the winning capture. */
TbValue tb_probe_after(const Tablebase *tb, const Board *b, Move m);

/* The code of a class (tb_value.h). */
TbCode tb_code_at(const Tablebase *tb, int64_t class_index);
