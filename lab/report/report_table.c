// SPDX-License-Identifier: MIT
#include "report_table.h"

#include "blunders.h"

#include "cli.h"
#include "report_booktest.h"
#include "report_tournament.h"
#include "report_tuning.h"
#include "sprt_keys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DIFFERENCE_SHOWN 48 /* the terminal's share of a long difference (JSON has it whole) */

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* A value as "%.2f" shows it, without a "-0.00" for a tiny negative one. */
static double shown(double value) { return fabs(value) < 0.005 ? 0.0 : value; }

/* An edited or damaged file's 1e300 is shown as unknown ("?"), never as 300 digits. */
static bool plausible(double value) { return run_summary_plausible(value); }

static void cell_started(const RunSummary *r, char *out, size_t size) {
    /* "2026-12-01T07:41:18Z" -> "2026-12-01 07:41" */
    snprintf(out, size, "%.10s %.5s", r->started, strlen(r->started) > 11 ? r->started + 11 : "");
}

static void cell_engines(const RunSummary *r, char *out, size_t size) {
    snprintf(out, size, "%s vs %s", r->engines[0], r->engines[1]);
}

static void cell_difference(const RunSummary *r, char *out, size_t size) {
    snprintf(out, size, "%s", r->difference);
}

static void cell_limits(const RunSummary *r, char *out, size_t size) {
    snprintf(out, size, "%s", r->limits[0] ? r->limits : "-");
}

static void cell_book(const RunSummary *r, char *out, size_t size) {
    snprintf(out, size, "%s", base_name(r->book));
}

static void cell_state(const RunSummary *r, char *out, size_t size) {
    snprintf(out, size, "%s", r->state);
}

static void cell_llr(const RunSummary *r, char *out, size_t size) {
    if (!r->has_sprt)
        snprintf(out, size, "-");
    else if (!plausible(r->llr) || !plausible(r->lower) || !plausible(r->upper))
        snprintf(out, size, "?");
    else /* the bounds were checked on reading (sprt_params_from_json) */
        snprintf(out, size, "%.2f (%.2f, %.2f) [%g, %g]", shown(r->llr), r->lower, r->upper,
                 r->sprt.elo0, r->sprt.elo1);
}

static void cell_elo(const RunSummary *r, char *out, size_t size) {
    if (!plausible(r->elo) || !plausible(r->elo_high - r->elo_low))
        snprintf(out, size, "?");
    else
        snprintf(out, size, "%+.2f +/- %.2f", r->elo, (r->elo_high - r->elo_low) / 2);
}

static void cell_nelo(const RunSummary *r, char *out, size_t size) {
    if (!plausible(r->nelo) || !plausible(r->nelo_high - r->nelo_low))
        snprintf(out, size, "?");
    else
        snprintf(out, size, "%+.2f +/- %.2f", r->nelo, (r->nelo_high - r->nelo_low) / 2);
}

static void cell_corrected(const RunSummary *r, char *out, size_t size) {
    if (!r->has_corrected)
        snprintf(out, size, "-");
    else if (!plausible(r->sprt_elo) || !plausible(r->sprt_elo_low) ||
             !plausible(r->sprt_elo_high))
        snprintf(out, size, "?");
    else
        snprintf(out, size, "%+.2f [%.2f, %.2f]", r->sprt_elo, r->sprt_elo_low, r->sprt_elo_high);
}

static void cell_ptnml(const RunSummary *r, char *out, size_t size) {
    snprintf(out, size, "[%llu, %llu, %llu, %llu, %llu]", (unsigned long long)r->ptnml[0],
             (unsigned long long)r->ptnml[1], (unsigned long long)r->ptnml[2],
             (unsigned long long)r->ptnml[3], (unsigned long long)r->ptnml[4]);
}

static void cell_pairs(const RunSummary *r, char *out, size_t size) {
    if (r->rounds)
        snprintf(out, size, "%lld/%lld", (long long)r->pairs, (long long)r->rounds);
    else
        snprintf(out, size, "%lld", (long long)r->pairs);
}

static void cell_duration(const RunSummary *r, char *out, size_t size) {
    cli_hms_text(r->seconds, out, size);
}

/* The commit, and the build's source identity when the file has one (two builds of one commit,
 * a dirty tree edited between runs, differ there). */
void report_commit_text(const char *commit, const char *source, char *out, size_t size) {
    if (source[0] && strcmp(source, "unknown"))
        snprintf(out, size, "%s %.8s", commit[0] ? commit : "-", source);
    else
        snprintf(out, size, "%s", commit[0] ? commit : "-");
}

static void cell_commit(const RunSummary *r, char *out, size_t size) {
    report_commit_text(r->commit, r->source, out, size);
}

static void cell_file(const RunSummary *r, char *out, size_t size) {
    snprintf(out, size, "%s", r->file);
}

const ReportColumn REPORT_COLUMNS[] = {
    {"started (UTC)", cell_started, 0, false},
    {"engines", cell_engines, 0, false},
    {"difference", cell_difference, DIFFERENCE_SHOWN, false},
    {"limits", cell_limits, 0, false},
    {"book", cell_book, 0, false},
    {"state", cell_state, 0, false},
    {"LLR (bounds) [elo0, elo1]", cell_llr, 0, false},
    {"Elo", cell_elo, 0, false},
    {"nElo", cell_nelo, 0, true},
    {"SPRT-corrected Elo", cell_corrected, 0, true},
    {"ptnml", cell_ptnml, 0, true},
    {"pairs", cell_pairs, 0, false},
    {"duration", cell_duration, 0, true},
    {"commit", cell_commit, 0, true},
    {"file", cell_file, 0, true},
};
const size_t REPORT_COLUMN_COUNT = sizeof REPORT_COLUMNS / sizeof REPORT_COLUMNS[0];

/* (report_table.h) */
void report_escape_text(const char *text, bool markdown, char *out, size_t size) {
    size_t used = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && used + 9 < size; p++) {
        bool c1 = p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
        if (markdown && (*p == '\n' || *p == '\r')) {
            out[used++] = ' ';
        } else if (markdown && *p == '|') {
            out[used++] = '\\';
            out[used++] = '|';
        } else if (*p < 0x20 || *p == 0x7f) {
            used += (size_t)snprintf(out + used, size - used, "\\x%02x", *p);
        } else if (c1) {
            used += (size_t)snprintf(out + used, size - used, "\\xc2\\x%02x", p[1]);
            p++;
        } else {
            out[used++] = (char)*p;
        }
    }
    out[used] = '\0';
}

void report_markdown_text(const char *text, char *out, size_t size) {
    char escaped[4 * REPORT_CELL];
    report_escape_text(text, true, escaped, sizeof escaped);
    size_t used = 0;
    for (const char *p = escaped; *p && used + 3 < size; p++) {
        /* Markup (a tag, an entity, a code span, emphasis, a link's "](") is escaped; a '['
         * alone starts nothing, and an intraword '_' nothing in GitHub's Markdown. '|' arrives
         * escaped already ("\|"): its backslash is kept as it is. */
        if (strchr("<>&`*~", *p) || (*p == ']' && p[1] == '(') || (*p == '\\' && p[1] != '|'))
            out[used++] = '\\';
        out[used++] = *p;
    }
    out[used] = '\0';
}

void report_code_span(const char *text, char *out, size_t size) {
    int longest = 0, run = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    char fence[16];
    int ticks = longest + 1 < (int)sizeof fence ? longest + 1 : (int)sizeof fence - 1;
    memset(fence, '`', (size_t)ticks);
    fence[ticks] = '\0';
    size_t length = strlen(text);
    const char *pad = length && (text[0] == '`' || text[length - 1] == '`') ? " " : "";
    snprintf(out, size, "%s%s%s%s%s", fence, pad, text, pad, fence);
}

/* A cell, its text escaped for the terminal, cut to the column's width ("..." marks the cut). */
static void terminal_cell(const ReportColumn *column, const RunSummary *run, char *out,
                          size_t size) {
    char raw[REPORT_CELL];
    column->cell(run, raw, sizeof raw);
    report_escape_text(raw, false, out, size);
    size_t most = column->terminal_width;
    if (most > 3 && strlen(out) > most && most < size)
        memcpy(out + most - 3, "...", 4);
}

/* A cell padded to its column's width, two spaces between columns; the last ends the line. */
static void put_cell(FILE *out, const char *text, size_t width, bool last) {
    if (last)
        fprintf(out, "%s\n", text);
    else
        fprintf(out, "%-*s  ", (int)width, text);
}

void report_aligned_print(FILE *out, const char *indent, int rows, int columns,
                          ReportCellText cell, const void *context) {
    size_t *width = calloc((size_t)columns, sizeof *width);
    if (!width)
        return;
    char text[REPORT_CELL];
    for (int row = 0; row < rows; row++)
        for (int c = 0; c < columns; c++) {
            cell(context, row, c, text, sizeof text);
            width[c] = strlen(text) > width[c] ? strlen(text) : width[c];
        }
    for (int row = 0; row < rows; row++) {
        fputs(indent, out);
        for (int c = 0; c < columns; c++) {
            cell(context, row, c, text, sizeof text);
            put_cell(out, text, width[c], c + 1 == columns);
        }
    }
    free(width);
}

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
        terminal_cell(c, &rows->list->entries[rows->runs[row - 1]].run, out, size);
}

void report_blunder_rate(double lost, double judged, char *out, size_t size) {
    snprintf(out, size, "%.0f/%.0f (%.2f%%)", lost, judged, judged > 0 ? 100 * lost / judged : 0.0);
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

/* 43697.4 -> "43,697". */
static void thousands(double value, char *out, size_t size) {
    char digits[32];
    snprintf(digits, sizeof digits, "%.0f", value);
    size_t n = strlen(digits), used = 0;
    for (size_t i = 0; i < n && used + 2 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0 && digits[i - 1] != '-')
            out[used++] = ',';
        out[used++] = digits[i];
    }
    out[used] = '\0';
}

static void md_run(const RunSummary *r, char *out, size_t size) {
    char first[RUN_SUMMARY_NAME + 16], second[RUN_SUMMARY_NAME + 16];
    report_code_span(r->engines[0], first, sizeof first);
    report_code_span(r->engines[1], second, sizeof second);
    snprintf(out, size, "%s vs %s", first, second);
}

static void md_difference(const RunSummary *r, char *out, size_t size) {
    snprintf(out, size, "%s", r->difference);
}

static void md_elo(const RunSummary *r, char *out, size_t size) {
    if (!plausible(r->elo) || !plausible(r->elo_high - r->elo_low))
        snprintf(out, size, "?");
    else
        snprintf(out, size, "%+.2f ± %.2f", r->elo, (r->elo_high - r->elo_low) / 2);
}

static void md_llr(const RunSummary *r, char *out, size_t size) {
    if (r->has_sprt && !plausible(r->llr))
        snprintf(out, size, "?");
    else if (r->has_sprt)
        snprintf(out, size, "%.2f", shown(r->llr));
    else
        snprintf(out, size, "-");
}

static void md_decision(const RunSummary *r, char *out, size_t size) {
    bool decided = !strcmp(r->state, "H0") || !strcmp(r->state, "H1");
    snprintf(out, size, "%s", decided ? r->state : r->has_sprt ? "none" : "-");
}

static void md_pairs(const RunSummary *r, char *out, size_t size) {
    snprintf(out, size, "%lld", (long long)r->pairs);
}

static void md_depth(const RunSummary *r, char *out, size_t size) {
    if (!plausible(r->depth[0]) || !plausible(r->depth[1]))
        snprintf(out, size, "?");
    else
        snprintf(out, size, "%.2f / %.2f", r->depth[0], r->depth[1]);
}

static void md_nodes(const RunSummary *r, char *out, size_t size) {
    char a[32], b[32];
    if (!plausible(r->nodes_per_move[0]) || !plausible(r->nodes_per_move[1])) {
        snprintf(out, size, "?");
        return;
    }
    thousands(r->nodes_per_move[0], a, sizeof a);
    thousands(r->nodes_per_move[1], b, sizeof b);
    snprintf(out, size, "%s / %s", a, b);
}

/* The ledger's columns (docs/experiments.md): what a reader compares across runs. */
static const ReportColumn MARKDOWN_COLUMNS[] = {
    {"variant vs base", md_run, 0, false},
    {"difference", md_difference, 0, false},
    {"limits", cell_limits, 0, false},
    {"Elo (95%)", md_elo, 0, false},
    {"LLR", md_llr, 0, false},
    {"SPRT", md_decision, 0, false},
    {"pairs", md_pairs, 0, false},
    {"depth (variant / base)", md_depth, 0, false},
    {"nodes a move (variant / base)", md_nodes, 0, false},
};

void report_table_markdown(FILE *out, const ReportList *list) {
    size_t columns = sizeof MARKDOWN_COLUMNS / sizeof MARKDOWN_COLUMNS[0];
    /* Tournaments alone: their own tables, no empty table of runs. */
    if (report_list_count(list->entries, list->count, REPORT_TOURNAMENT) == list->count) {
        report_tournaments_markdown(out, list->entries, list->count);
        return;
    }
    for (size_t c = 0; c < columns; c++)
        fprintf(out, "| %s ", MARKDOWN_COLUMNS[c].header);
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
            MARKDOWN_COLUMNS[c].cell(&e->run, raw, sizeof raw);
            report_escape_text(raw, true, cell, sizeof cell);
            fprintf(out, "| %s ", cell);
        }
        fputs("|\n", out);
    }
}

static cJSON *pair_json(double a, double b) {
    double values[2] = {a, b};
    return cJSON_CreateDoubleArray(values, 2);
}

cJSON *report_run_json(const RunSummary *r) {
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "file", r->file);
    cJSON_AddBoolToObject(item, "read", true);
    cJSON_AddStringToObject(item, "kind", "run");
    cJSON *engines = cJSON_AddArrayToObject(item, "engines");
    for (int e = 0; e < 2; e++)
        cJSON_AddItemToArray(engines, cJSON_CreateString(r->engines[e]));
    cJSON_AddStringToObject(item, "difference", r->difference);
    cJSON_AddStringToObject(item, "limits", r->limits);
    cJSON_AddStringToObject(item, "book", r->book);
    cJSON_AddStringToObject(item, "state", r->state);
    cJSON_AddNumberToObject(item, "pairs", (double)r->pairs);
    if (r->rounds)
        cJSON_AddNumberToObject(item, "rounds", (double)r->rounds);
    else
        cJSON_AddNullToObject(item, "rounds");
    cJSON_AddNumberToObject(item, "elo", r->elo);
    cJSON_AddItemToObject(item, "elo_ci95", pair_json(r->elo_low, r->elo_high));
    cJSON_AddNumberToObject(item, "nelo", r->nelo);
    cJSON_AddItemToObject(item, "nelo_ci95", pair_json(r->nelo_low, r->nelo_high));
    if (r->has_sprt) {
        cJSON_AddItemToObject(item, "sprt", sprt_params_to_json(&r->sprt));
        cJSON_AddNumberToObject(item, "llr", r->llr);
        cJSON_AddItemToObject(item, "llr_bounds", pair_json(r->lower, r->upper));
    } else {
        cJSON_AddNullToObject(item, "sprt");
        cJSON_AddNullToObject(item, "llr");
    }
    if (r->has_corrected) {
        cJSON_AddNumberToObject(item, "sprt_elo", r->sprt_elo);
        cJSON_AddItemToObject(item, "sprt_elo_ci95", pair_json(r->sprt_elo_low, r->sprt_elo_high));
    }
    double ptnml[5];
    for (int i = 0; i < 5; i++)
        ptnml[i] = (double)r->ptnml[i];
    cJSON_AddItemToObject(item, "ptnml", cJSON_CreateDoubleArray(ptnml, 5));
    cJSON_AddStringToObject(item, "started", r->started);
    cJSON_AddStringToObject(item, "updated", r->updated);
    cJSON_AddNumberToObject(item, "seconds", r->seconds);
    cJSON_AddStringToObject(item, "commit", r->commit);
    cJSON_AddStringToObject(item, "source", r->source);
    cJSON_AddStringToObject(item, "version", r->version);
    cJSON_AddStringToObject(item, "command", r->command);
    if (r->has_blunders) { /* per engine, per phase: the moves judged and the blunders */
        cJSON *by_engine = cJSON_AddArrayToObject(item, "blunders");
        for (int e = 0; e < 2; e++) {
            cJSON *engine = cJSON_CreateObject();
            for (int p = 0; p < GAME_PHASES; p++) {
                cJSON *phase = cJSON_AddObjectToObject(engine, GAME_PHASE_KEYS[p]);
                cJSON_AddNumberToObject(phase, "judged", r->blunders_judged[e][p]);
                cJSON_AddNumberToObject(phase, "blunders", r->blunders_lost[e][p]);
            }
            cJSON_AddItemToArray(by_engine, engine);
        }
    }
    return item;
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
