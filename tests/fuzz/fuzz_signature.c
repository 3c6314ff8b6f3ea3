// SPDX-License-Identifier: MIT
// bench signature files: any bytes are read back or refused; an accepted file has a depth the
// search can run and legal pinned moves.
#include "fuzz.h"
#include "pinfile.h"
#include "search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    PinFile pin;
    Error err;
    if (pinfile_parse((const char *)data, size, "fuzz", &pin, &err)) {
        if (pin.config.depth < 1 || pin.config.depth > SEARCH_MAX_DEPTH || pin.count < 1)
            abort();
        for (int i = 0; i < pin.count; i++)
            if (!board_check_move(&pin.rows[i].entry.board, pin.rows[i].move, &err))
                abort();
        pinfile_destroy(&pin);
    }
    return 0;
}
