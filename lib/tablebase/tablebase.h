// SPDX-License-Identifier: MIT
// The sliding-phase tablebase file: writing it (atomically), reading it (into memory, every field
// checked) and probing it.
//
// Format (all numbers little-endian; docs/tablebase.md):
//   0   8 bytes  magic "TSLABTB\n"
//   8   u32      format version (2: the index of tb_index.h, the checksum over the header too)
//   12  u32      header bytes (512)
//   16  64 bytes the rules, NUL-padded (TB_RULES)
//   80  u32      captures that win (5: the real game)
//   84  u32      bytes per entry (1 or 2)
//   88  u64      entries (positions up to symmetry)
//   96  u32      longest win in plies
//   104 u64      the first position with it (its index; all ones when there is no win)
//   112 u64      checksum: FNV-1a 64 of the header (this field zero) and then the entries, as
//                little-endian 64-bit words
//   120 u64[40]  per captured 0..4, side to move (sheep, tigers): positions, wins, losses, draws
//   512          the entries: per class, 0 for a draw, else plies + 1 (tb_value.h)
#pragma once

#include "outfile.h"

#include "tb_gen.h"

#define TB_FILE_VERSION 2
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

#define TB_FILE_MAGIC "TSLABTB\n" /* a sliding file's first 8 bytes */

/* Writes the solution of tb_generate into out (begun: a temporary beside its target) and
 * commits it, so a reader never sees half a file; on failure out is abandoned. */
bool tb_write(OutFile *out, const TbIndex *index, int win_captures, const TbCode *codes,
              Error *err);

/* Reads and checks a header (the file's first TB_HEADER_BYTES of size bytes): magic, version,
 * header size, rules, captures, entry size; that the entry count is that game's and the size
 * holds them exactly; that the longest win is a possible one (odd, at most TB_PLIES_MAX, at an
 * entry of the file); and that each level's counts are that game's positions, split into wins,
 * losses and draws. Errors start with `name`. */
bool tb_read_header(const char *name, const uint8_t *bytes, size_t size, TbHeader *out,
                    Error *err);

/* Reads a tablebase file into memory and checks it: the header as tb_read_header does, the
 * checksum over header and entries, that the header's counts and longest win are those of the
 * entries and that no entry holds a distance beyond it (so nothing the search cannot score gets
 * in); then builds the index. Only a regular file is read (a FIFO is refused at once). Once open,
 * changes to the file (a truncation) do not reach it. `bench tbprobe -info`, which does little
 * else, takes 0.21-0.25 s (0.20 s when the file was mapped and only its checksum checked).
 * win_captures is the game the caller plays (CAPTURES_TO_WIN for the rules, 1-4 for a test game):
 * a file of another game is refused, since its values are wrong for this game's positions.
 * Errors name the file and what is wrong. */
Tablebase *tb_new(const char *path, int win_captures, Error *err);
void tb_free(Tablebase *tb);

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
