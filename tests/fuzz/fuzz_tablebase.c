// SPDX-License-Identifier: MIT
// Tablebase file headers: the input is a file's size (8 bytes, little-endian) and its header
// (the rest, zero-padded to 512 bytes). Any bytes are read or refused with a message naming the
// file; a header that is accepted describes a file of exactly that size whose every field is
// possible (a longest win at an entry of the file, at most TB_PLIES_MAX, counts that add up),
// so nothing read from it can index out of the file. Seeds: the small game's header and forged
// fields (tests/fuzz/corpus/fuzz_tablebase, made as tests/test_tb_file.c forges them).
#include "fuzz.h"
#include "tablebase.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 8)
        return 0;
    uint64_t claimed = 0;
    for (int i = 7; i >= 0; i--)
        claimed = claimed << 8 | data[i];
    uint8_t header[TB_HEADER_BYTES] = {0};
    size_t given = size - 8 < TB_HEADER_BYTES ? size - 8 : TB_HEADER_BYTES;
    memcpy(header, data + 8, given);
    TbHeader h;
    Error err;
    if (!tb_read_header("fuzz.tstb", header, (size_t)claimed, &h, &err)) {
        if (strncmp(err.text, "fuzz.tstb: ", 11) != 0)
            abort();
        return 0;
    }
    if (claimed != TB_HEADER_BYTES + (uint64_t)h.entries * (uint64_t)h.entry_bytes)
        abort();
    const TbCounts *c = &h.counts;
    if (c->longest_index >= h.entries || c->longest_index < -1 || c->longest_plies < 0 ||
        c->longest_plies > TB_PLIES_MAX || (c->longest_index == -1) != (c->longest_plies == 0))
        abort();
    for (int captured = 0; captured < TB_LEVELS; captured++)
        for (int side = 0; side < 2; side++)
            if (c->wins[captured][side] < 0 || c->losses[captured][side] < 0 ||
                c->draws[captured][side] < 0 ||
                c->wins[captured][side] + c->losses[captured][side] + c->draws[captured][side] !=
                    c->positions[captured][side])
                abort();
    return 0;
}
