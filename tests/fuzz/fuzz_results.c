// SPDX-License-Identifier: MIT
// abtest results files: any bytes are read back or refused; what is accepted has counts that
// agree (results_parse checks them) and settings that pass the command line's checks. The same
// bytes go through abtest report's reader (a results, tuning or booktest file, by its "tool")
// and, when it reads them, through its table, JSON and web page: a report never crashes on a
// file, however damaged. Seeds: results files (a match's and a gauntlet's), and a tuning and a booktest file.
#include "fuzz.h"
#include "report_html.h"
#include "report_table.h"
#include "results_load.h"

static cJSON *the_details(void *context, const ReportEntry *entry, bool *owned) {
    (void)entry;
    *owned = false;
    return context;
}

static void report(const uint8_t *data, size_t size) {
    cJSON *json = cJSON_ParseWithLength((const char *)data, size);
    if (!json)
        return;
    ReportEntry entry = {0};
    Error err;
    entry.path = strdup("fuzz.json");
    entry.run.file = entry.path;
    if (entry.path && report_entry_read(&entry, json, &err)) {
        uint64_t pairs = 0;
        for (int i = 0; i < 5; i++)
            pairs += entry.run.ptnml[i];
        if (entry.kind == REPORT_RUN && pairs != (uint64_t)entry.run.pairs)
            abort();
        ReportList list = {.entries = &entry, .count = 1, .capacity = 1};
        FILE *sink = fopen("/dev/null", "w");
        if (sink) {
            report_table_print(sink, &list);
            report_table_markdown(sink, &list);
            report_html_page(sink, &entry, 1, false, the_details, json);
            fclose(sink);
        }
        cJSON_Delete(report_table_json(&list));
    }
    report_entry_release(&entry);
    cJSON_Delete(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ResultsFile file;
    Error err;
    if (results_parse((const char *)data, size, "fuzz", &file, &err)) {
        /* -rounds is each pairing's pairs: a match has one pairing. */
        int pairings = file.settings.tournament == TOURNAMENT_MATCH ? 1
                                                                      : file.tournament.pairings.count;
        if (!settings_check(&file.settings, &err) ||
            file.totals.pairs > file.settings.rounds * pairings)
            abort();
        results_file_destroy(&file);
    }
    report(data, size);
    return 0;
}
