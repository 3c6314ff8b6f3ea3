// SPDX-License-Identifier: MIT
// Position files (books and the bench suite): any bytes parse or are refused with a message.
#include "book.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Book book;
    Error err;
    if (book_parse_text(&book, (const char *)data, size, "fuzz", true, &err)) {
        for (int i = 0; i < book.count; i++)
            if (!board_is_consistent(&book.entries[i].board) || !book.entries[i].id[0])
                abort();
        book_destroy(&book);
    }
    return 0;
}
