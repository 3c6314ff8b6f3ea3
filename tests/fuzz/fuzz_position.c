// SPDX-License-Identifier: MIT
// Position text: board_from_text must accept or refuse with a message, and what it accepts must
// be consistent and print back to text that parses to the same position.
#include "board.h"
#include "fuzz.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_string(data, size);
    Board b, again;
    Error err;
    if (text && board_from_text(text, &b, &err)) {
        char printed[BOARD_TEXT_MAX];
        if (!board_is_consistent(&b) || !board_from_text(board_to_text(&b, printed), &again, &err) ||
            !board_equal(&b, &again))
            abort();
        (void)board_game_end(&b);
    }
    free(text);
    return 0;
}
