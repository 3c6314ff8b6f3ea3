// SPDX-License-Identifier: MIT
#include "report_run.h"

#include "blunders.h"
#include "cli.h"
#include "sprt_keys.h"

#include <string.h>

#define DIFFERENCE_SHOWN 48 /* the terminal's share of a long difference (JSON has it whole) */

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

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
        snprintf(out, size, "%.2f (%.2f, %.2f) [%g, %g]", report_shown(r->llr, 2), r->lower,
                 r->upper, r->sprt.elo0, r->sprt.elo1);
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
    else if (!plausible(r->sprt_elo) || !plausible(r->sprt_elo_low) || !plausible(r->sprt_elo_high))
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

/* (report_run.h) */
void report_run_terminal_cell(const ReportColumn *column, const RunSummary *run, char *out,
                              size_t size) {
    char raw[REPORT_CELL];
    column->cell(run, raw, sizeof raw);
    report_escape_text(raw, false, out, size);
    size_t most = column->terminal_width;
    if (most > 3 && strlen(out) > most && most < size)
        memcpy(out + most - 3, "...", 4);
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
        snprintf(out, size, "%.2f", report_shown(r->llr, 2));
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
const ReportColumn REPORT_MARKDOWN_COLUMNS[] = {
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

const size_t REPORT_MARKDOWN_COLUMN_COUNT =
    sizeof REPORT_MARKDOWN_COLUMNS / sizeof REPORT_MARKDOWN_COLUMNS[0];

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
