// SPDX-License-Identifier: MIT
// abtest booktest's files: any bytes are read or refused (a cell whose figures are not what its
// counts give is refused); what is read is written back and reads again to the same text, to the
// bit. Seeds: files written by abtest booktest (tests/fuzz/corpus/fuzz_booktest_file).
#include "booktest_file.h"
#include "fuzz.h"
#include "json_text.h"

static BooktestRecord first, again;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Error err;
    booktest_record_init(&first);
    if (booktest_record_parse((const char *)data, size, "fuzz", &first, &err)) {
        cJSON *json = booktest_record_to_json(&first);
        char *text = json ? json_text(json) : NULL;
        booktest_record_init(&again);
        if (text && !booktest_record_parse(text, strlen(text), "again", &again, &err))
            abort(); /* the writer wrote what the reader refuses */
        cJSON *json_again = text ? booktest_record_to_json(&again) : NULL;
        char *text_again = json_again ? json_text(json_again) : NULL;
        if (text && text_again && strcmp(text, text_again))
            abort();
        free(text);
        free(text_again);
        cJSON_Delete(json);
        cJSON_Delete(json_again);
        booktest_record_destroy(&again);
    }
    booktest_record_destroy(&first);
    return 0;
}
