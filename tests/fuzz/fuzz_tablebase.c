// SPDX-License-Identifier: MIT
// Tablebase file headers: any bytes are read or refused with a message naming the file, and a
// header that is accepted describes a file of exactly the size it was given.
#include "fuzz.h"
#include "tablebase.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    TbHeader header;
    Error err;
    if (!tb_read_header("fuzz.tstb", data, size, &header, &err)) {
        if (strncmp(err.text, "fuzz.tstb: ", 11) != 0)
            abort();
        return 0;
    }
    if (size != TB_HEADER_BYTES + (size_t)header.entries * (size_t)header.entry_bytes)
        abort();
    return 0;
}
