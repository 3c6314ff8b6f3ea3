// SPDX-License-Identifier: MIT
#include "report_table.h"

#include "blunders.h"
#include "report_booktest.h"
#include "report_run.h"
#include "report_text.h"
#include "report_tournament.h"
#include "report_tuning.h"

#include <stdlib.h>
#include <string.h>

/* The runs' table: row 0 the headers, then the runs in the list's order. */
typedef struct {
    const ReportList *list;
    int *runs; /* the entries that are runs */
} RunRows;

static void run_cell(const void *context, int row, int column, char *out, size_t size) {
    const RunRows *rows = context;
    const ReportColumn *c = &REPORT_COLUMNS[column];
    if (row == 0)
        snprintf(out, size, "%s", c->header);
    else
        report_run_terminal_cell(c, &rows->list->entries[rows->runs[row - 1]].run, out, size);
}

/* "placement 3/812 (0.37%)": an engine's blunders of its moves judged in a phase. */
enum { BLUNDER_RATE = 64, BLUNDER_CELL = BLUNDER_RATE + 16 };

static void blunder_cell(const RunSummary *r, int engine, int phase, char *out, size_t size) {
    char rate[BLUNDER_RATE];
    report_blunder_rate(r->blunders_lost[engine][phase], r->blunders_judged[engine][phase], rate,
                        sizeof rate);
    snprintf(out, size, "%s %s", GAME_PHASE_KEYS[phase], rate);
}

/* A run's (or a tournament pairing's) engines, a line each, under the heading said once. */
static void blunder_lines(FILE *out, const RunSummary *r, bool *heading) {
    if (!r->has_blunders)
        return;
    if (!*heading)
        fprintf(out, "blunders against perfect play (of the moves judged):\n");
    *heading = true;
    char file[REPORT_CELL];
    report_escape_text(r->file, false, file, sizeof file);
    for (int e = 0; e < 2; e++) {
        char phase[2][BLUNDER_CELL];
        for (int p = 0; p < GAME_PHASES; p++)
            blunder_cell(r, e, p, phase[p], sizeof phase[p]);
        fprintf(out, "  %s: %s vs %s: %s: %s, %s\n", file, r->engines[0], r->engines[1],
                r->engines[e], phase[0], phase[1]);
    }
}

/* The runs and tournaments that judged their moves against perfect play (-blunders). */
static void blunders_print(FILE *out, const ReportList *list) {
    bool heading = false;
    for (int i = 0; i < list->count; i++) {
        const ReportEntry *entry = &list->entries[i];
        if (entry->kind == REPORT_RUN)
            blunder_lines(out, &entry->run, &heading);
        if (entry->kind == REPORT_TOURNAMENT)
            for (int p = 0; p < entry->tournament->pairing_count; p++)
                blunder_lines(out, &entry->tournament->pairings[p], &heading);
    }
}

void report_table_print(FILE *out, const ReportList *list) {
    int runs = report_list_count(list->entries, list->count, REPORT_RUN);
    int tunings = report_list_count(list->entries, list->count, REPORT_TUNING);
    int booktests = report_list_count(list->entries, list->count, REPORT_BOOKTEST);
    int tournaments = report_list_count(list->entries, list->count, REPORT_TOURNAMENT);
    int unread = report_list_count(list->entries, list->count, REPORT_UNREAD);
    fprintf(out, "report: %d run(s)", runs);
    if (tournaments)
        fprintf(out, ", %d tournament(s)", tournaments);
    if (tunings)
        fprintf(out, ", %d tuning(s)", tunings);
    if (booktests)
        fprintf(out, ", %d booktest(s)", booktests);
    fprintf(out, ", %d file(s) not read\n", unread);
    RunRows rows = {list, calloc((size_t)runs + 1, sizeof *rows.runs)};
    if (runs && rows.runs) {
        for (int i = 0, n = 0; i < list->count; i++)
            if (list->entries[i].kind == REPORT_RUN)
                rows.runs[n++] = i;
        report_aligned_print(out, "", runs + 1, (int)REPORT_COLUMN_COUNT, run_cell, &rows);
    }
    free(rows.runs);
    blunders_print(out, list);
    report_tournaments_print(out, list->entries, list->count);
    report_tunings_print(out, list->entries, list->count);
    report_booktests_print(out, list->entries, list->count);
    bool heading = false;
    for (int i = 0; i < list->count; i++) {
        const ReportEntry *e = &list->entries[i];
        if (e->kind != REPORT_UNREAD)
            continue;
        if (!heading)
            fprintf(out, "not read:\n");
        heading = true;
        char file[REPORT_CELL], reason[REPORT_CELL];
        report_escape_text(e->path, false, file, sizeof file);
        report_escape_text(e->reason, false, reason, sizeof reason);
        fprintf(out, "  %s: %s\n", file, reason);
    }
}

void report_table_markdown(FILE *out, const ReportList *list) {
    size_t columns = REPORT_MARKDOWN_COLUMN_COUNT;
    /* Tournaments alone: their own tables, no empty table of runs. */
    if (report_list_count(list->entries, list->count, REPORT_TOURNAMENT) == list->count) {
        report_tournaments_markdown(out, list->entries, list->count);
        return;
    }
    for (size_t c = 0; c < columns; c++)
        fprintf(out, "| %s ", REPORT_MARKDOWN_COLUMNS[c].header);
    fputs("|\n", out);
    for (size_t c = 0; c < columns; c++)
        fputs("|---", out);
    fputs("|\n", out);
    char raw[REPORT_CELL], cell[REPORT_CELL];
    for (int i = 0; i < list->count; i++) {
        const ReportEntry *e = &list->entries[i];
        if (e->kind == REPORT_TUNING || e->kind == REPORT_BOOKTEST || e->kind == REPORT_TOURNAMENT)
            continue; /* the ledger's table is of runs; tournaments follow it */
        if (e->kind == REPORT_UNREAD) {
            char reason[2 * REPORT_CELL], path[REPORT_CELL + 16];
            report_code_span(e->path, path, sizeof path);
            report_escape_text(path, true, cell, sizeof cell);
            report_markdown_text(e->reason, reason, sizeof reason);
            fprintf(out, "| %s: %s |", cell, reason);
            for (size_t c = 1; c < columns; c++)
                fputs(" |", out);
            fputc('\n', out);
            continue;
        }
        for (size_t c = 0; c < columns; c++) {
            REPORT_MARKDOWN_COLUMNS[c].cell(&e->run, raw, sizeof raw);
            report_escape_text(raw, true, cell, sizeof cell);
            fprintf(out, "| %s ", cell);
        }
        fputs("|\n", out);
    }
}

cJSON *report_table_json(const ReportList *list) {
    cJSON *array = cJSON_CreateArray();
    for (int i = 0; i < list->count; i++) {
        const ReportEntry *e = &list->entries[i];
        if (e->kind == REPORT_RUN) {
            cJSON_AddItemToArray(array, report_run_json(&e->run));
            continue;
        }
        if (e->kind == REPORT_TUNING) {
            cJSON_AddItemToArray(array, report_tuning_json(e));
            continue;
        }
        if (e->kind == REPORT_BOOKTEST) {
            cJSON_AddItemToArray(array, report_booktest_json(e));
            continue;
        }
        if (e->kind == REPORT_TOURNAMENT) {
            cJSON_AddItemToArray(array, report_tournament_json(e));
            continue;
        }
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "file", e->path);
        cJSON_AddBoolToObject(item, "read", false);
        cJSON_AddStringToObject(item, "reason", e->reason);
        cJSON_AddItemToArray(array, item);
    }
    return array;
}
