// SPDX-License-Identifier: MIT
// Move text: move_from_text accepts or refuses; an accepted move prints back to itself, and its
// legality can be asked of any position.
#include "board.h"
#include "fuzz.h"
#include "move.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_string(data, size);
    Move m, again;
    Error err;
    if (text && move_from_text(text, &m, &err)) {
        char printed[MOVE_TEXT_MAX];
        if (!move_from_text(move_to_text(m, printed), &again, &err) || again != m)
            abort();
        Board start = board_start();
        (void)board_check_move(&start, m, &err);
    }
    free(text);
    return 0;
}
