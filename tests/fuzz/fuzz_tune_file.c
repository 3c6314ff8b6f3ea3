// SPDX-License-Identifier: MIT
// abtest tune's tuning files: any bytes are read or refused; what is read is written back (as
// the tuner writes it) and reads again to the same record, to the bit: the reader reads what the
// writer writes. Seeds: files written by abtest tune (tests/fuzz/corpus/fuzz_tune_file).
#include "fuzz.h"
#include "json_text.h"
#include "tune_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    TuneRecord record;
    Error err;
    tune_record_init(&record);
    if (tune_record_parse((const char *)data, size, "fuzz", &record, &err) &&
        record.format == TUNE_FORMAT) {
        cJSON *json = tune_record_to_json(&record);
        char *text = json ? json_text(json) : NULL;
        TuneRecord again;
        tune_record_init(&again);
        if (text && !tune_record_parse(text, strlen(text), "again", &again, &err))
            abort(); /* the writer wrote what the reader refuses */
        cJSON *json_again = text ? tune_record_to_json(&again) : NULL;
        char *text_again = json_again ? json_text(json_again) : NULL;
        if (text && text_again && strcmp(text, text_again))
            abort(); /* a value changed on the way */
        free(text);
        free(text_again);
        cJSON_Delete(json);
        cJSON_Delete(json_again);
        tune_record_destroy(&again);
    }
    tune_record_destroy(&record);
    return 0;
}
