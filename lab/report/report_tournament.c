// SPDX-License-Identifier: MIT
#include "report_tournament.h"

#include "blunders.h"
#include "html_text.h"
#include "report_run.h"
#include "svg_chart.h"
#include "textbuf.h"

#include <math.h>
#include <string.h>

/* The runs' table's columns a pairing shows (the others are the run's). */
static const char *const PAIRING_HEADERS[] = {"engines", "difference", "state",
                                              "LLR (bounds) [elo0, elo1]", "Elo", "nElo",
                                              "ptnml", "pairs"};
#define PAIRING_COLUMNS (int)(sizeof PAIRING_HEADERS / sizeof PAIRING_HEADERS[0])

static const ReportColumn *pairing_column(int column) {
    for (size_t c = 0; c < REPORT_COLUMN_COUNT; c++)
        if (!strcmp(REPORT_COLUMNS[c].header, PAIRING_HEADERS[column]))
            return &REPORT_COLUMNS[c];
    return &REPORT_COLUMNS[0]; /* not reached: every header is a column's */
}

static const char *const RATING_HEADERS[] = {"rank", "engine", "Elo", "95%", "nElo",
                                             "pairs", "score", "draws"};
#define RATING_COLUMNS (int)(sizeof RATING_HEADERS / sizeof RATING_HEADERS[0])

/* A cell of the rating list (row 0: the headers), unescaped. */
static void rating_text(const TournamentSummary *t, int row, int column, char *out,
                        size_t size) {
    if (row == 0) {
        snprintf(out, size, "%s", RATING_HEADERS[column]);
        return;
    }
    const RatedEngine *e = &t->rating[row - 1];
    bool anchor = !strcmp(e->name, t->anchor);
    switch (column) {
    case 0: snprintf(out, size, "%d", row); break;
    case 1: snprintf(out, size, "%s", e->name); break;
    case 2:
        snprintf(out, size, "%+.1f", report_shown(e->elo, 1));
        break;
    case 3:
        if (anchor)
            snprintf(out, size, "(anchor)");
        else
            snprintf(out, size, "[%+.1f, %+.1f]", report_shown(e->elo_low, 1),
                     report_shown(e->elo_high, 1));
        break;
    case 4:
        snprintf(out, size, "%+.1f", report_shown(e->nelo, 1));
        break;
    case 5: snprintf(out, size, "%lld", (long long)e->pairs); break;
    case 6: snprintf(out, size, "%.1f%%", 100 * e->score); break;
    default: snprintf(out, size, "%.1f%%", 100 * e->draw_ratio); break;
    }
}

static void rating_cell(const void *context, int row, int column, char *out, size_t size) {
    char raw[REPORT_CELL];
    rating_text(context, row, column, raw, sizeof raw);
    report_escape_text(raw, false, out, size);
}

static void pairing_cell(const void *context, int row, int column, char *out, size_t size) {
    const TournamentSummary *t = context;
    const ReportColumn *c = pairing_column(column);
    char raw[REPORT_CELL];
    if (row == 0)
        snprintf(raw, sizeof raw, "%s", c->header);
    else
        c->cell(&t->pairings[row - 1], raw, sizeof raw);
    report_escape_text(raw, false, out, size);
}

/* The line that says what the tournament is. */
static void about_text(const TournamentSummary *t, char *out, size_t size) {
    TextBuf buf = textbuf(out, size);
    const LadderLine *lines = t->ladder_lines;
    if (t->ladder_steps && !t->ladder_gauntlet)
        textbuf_printf(&buf, "ladder of %s vs %s, %d steps", lines[0].first, lines[0].second,
                       t->ladder_steps);
    else if (t->ladder_steps)
        textbuf_printf(&buf, "ladder of a gauntlet against %s, %d candidates, %d steps",
                       lines[0].second, t->ladder_line_count, t->ladder_steps);
    else
        textbuf_printf(&buf, "%s of %d engines", t->kind, t->engine_count);
    if (!strcmp(t->kind, "gauntlet"))
        textbuf_printf(&buf, " (%d seed%s)", t->seeds, t->seeds == 1 ? "" : "s");
    if (t->family[0] && (strcmp(t->kind, "ladder") || t->ladder_gauntlet))
        textbuf_printf(&buf, ", candidates decided by SPRTs under -family %s%s", t->family,
                       t->ladder_gauntlet ? " at each step" : "");
    /* A gauntlet's lines: " (NAME, slope: verdict; ...)". */
    for (int i = 0; i < t->ladder_line_count; i++) {
        if (t->ladder_gauntlet)
            textbuf_printf(&buf, "%s%s", i ? "; " : " (", lines[i].first);
        if (lines[i].has_slope)
            textbuf_printf(&buf, ", %+.1f Elo a doubling of the limit [%+.1f, %+.1f]",
                           report_shown(lines[i].slope, 1), report_shown(lines[i].slope_low, 1),
                           report_shown(lines[i].slope_high, 1));
        textbuf_printf(&buf, ": %s", lines[i].verdict);
    }
    if (t->ladder_gauntlet)
        textbuf_printf(&buf, ")");
    char commit[2 * RUN_SUMMARY_SHORT];
    report_commit_text(t->run.commit, t->run.source, commit, sizeof commit);
    textbuf_printf(&buf, ", %d pairings, %lld pairs, %s, limits %s, book %s, started %s, commit %s",
                   t->pairing_count, (long long)t->run.pairs, t->run.state, t->run.limits,
                   t->run.book, t->run.started, commit);
}

/* Why a tournament has no rating: a pairing without a pair yet, or the fit's reason. */
static const char *no_rating_text(const TournamentSummary *t, char *out, size_t size) {
    if (t->rating_failure[0])
        snprintf(out, size, "Not rated: %s.", t->rating_failure);
    else
        snprintf(out, size, "No rating yet: a pairing has no pair.");
    return out;
}

void report_tournaments_print(FILE *out, const ReportEntry entries[], int count) {
    bool heading = false;
    for (int i = 0; i < count; i++) {
        if (entries[i].kind != REPORT_TOURNAMENT)
            continue;
        if (!heading)
            fprintf(out, "tournaments:\n");
        heading = true;
        const TournamentSummary *t = entries[i].tournament;
        char about[2 * RUN_SUMMARY_TEXT], file[REPORT_CELL], text[2 * REPORT_CELL];
        about_text(t, about, sizeof about);
        report_escape_text(entries[i].path, false, file, sizeof file);
        report_escape_text(about, false, text, sizeof text);
        fprintf(out, "  %s: %s\n", file, text);
        if (t->rated)
            report_aligned_print(out, "    ", t->engine_count + 1, RATING_COLUMNS, rating_cell, t);
        else if (!t->ladder_steps) /* a ladder's steps share no engine: no joint rating */
            fprintf(out, "    %s\n", no_rating_text(t, text, sizeof text));
        fprintf(out, "    pairings (each from its first engine's side):\n");
        report_aligned_print(out, "    ", t->pairing_count + 1, PAIRING_COLUMNS, pairing_cell, t);
    }
}

/* A ladder's line as the report's JSON gives it: its steps, slope and verdict. */
static cJSON *ladder_line_json(const TournamentSummary *t, const LadderLine *line) {
    cJSON *json = cJSON_CreateObject();
    cJSON *steps = cJSON_AddArrayToObject(json, "steps");
    for (int k = 0; k < t->ladder_steps; k++) {
        cJSON *step = cJSON_CreateObject();
        cJSON_AddStringToObject(step, "limit", t->ladder_limit[k]);
        cJSON_AddNumberToObject(step, "log2_size", t->ladder_x[k]);
        cJSON_AddNumberToObject(step, "elo", line->elo[k]); /* NaN: null */
        const double interval[2] = {line->low[k], line->high[k]};
        cJSON_AddItemToObject(step, "elo_ci95", cJSON_CreateDoubleArray(interval, 2));
        cJSON_AddItemToArray(steps, step);
    }
    cJSON_AddNumberToObject(json, "elo_per_doubling", line->slope);
    const double interval[2] = {line->slope_low, line->slope_high};
    cJSON_AddItemToObject(json, "elo_per_doubling_ci95", cJSON_CreateDoubleArray(interval, 2));
    cJSON_AddStringToObject(json, "verdict", line->verdict);
    return json;
}

cJSON *report_tournament_json(const ReportEntry *entry) {
    const TournamentSummary *t = entry->tournament;
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "file", t->run.file);
    cJSON_AddBoolToObject(item, "read", true);
    cJSON_AddStringToObject(item, "kind", "tournament");
    cJSON_AddStringToObject(item, "tournament", t->kind);
    cJSON_AddNumberToObject(item, "seeds", t->seeds);
    cJSON_AddStringToObject(item, "family", t->family);
    cJSON_AddStringToObject(item, "state", t->run.state);
    cJSON_AddNumberToObject(item, "pairs", (double)t->run.pairs);
    cJSON *engines = cJSON_AddArrayToObject(item, "engines");
    for (int e = 0; e < t->engine_count; e++)
        cJSON_AddItemToArray(engines, cJSON_CreateString(t->engines[e]));
    if (t->rated) {
        cJSON *rating = cJSON_AddArrayToObject(item, "rating");
        for (int r = 0; r < t->engine_count; r++) {
            const RatedEngine *e = &t->rating[r];
            cJSON *rated = cJSON_CreateObject();
            cJSON_AddNumberToObject(rated, "rank", r + 1);
            cJSON_AddStringToObject(rated, "name", e->name);
            cJSON_AddNumberToObject(rated, "elo", e->elo);
            const double interval[2] = {e->elo_low, e->elo_high};
            cJSON_AddItemToObject(rated, "elo_ci95", cJSON_CreateDoubleArray(interval, 2));
            cJSON_AddNumberToObject(rated, "nelo", e->nelo);
            cJSON_AddNumberToObject(rated, "pairs", (double)e->pairs);
            cJSON_AddNumberToObject(rated, "score", e->score);
            cJSON_AddNumberToObject(rated, "draw_ratio", e->draw_ratio);
            cJSON_AddItemToArray(rating, rated);
        }
    } else {
        cJSON_AddNullToObject(item, "rating");
    }
    if (t->ladder_steps && !t->ladder_gauntlet) {
        cJSON_AddItemToObject(item, "ladder", ladder_line_json(t, &t->ladder_lines[0]));
    } else if (t->ladder_steps) {
        cJSON *candidates =
            cJSON_AddArrayToObject(cJSON_AddObjectToObject(item, "ladder"), "candidates");
        for (int i = 0; i < t->ladder_line_count; i++) {
            cJSON *line = ladder_line_json(t, &t->ladder_lines[i]);
            cJSON_AddStringToObject(line, "engine", t->ladder_lines[i].first);
            cJSON_AddStringToObject(line, "seed", t->ladder_lines[i].second);
            cJSON_AddItemToArray(candidates, line);
        }
    }
    cJSON *pairings = cJSON_AddArrayToObject(item, "pairings");
    for (int p = 0; p < t->pairing_count; p++)
        cJSON_AddItemToArray(pairings, report_run_json(&t->pairings[p]));
    cJSON_AddStringToObject(item, "started", t->run.started);
    cJSON_AddNumberToObject(item, "seconds", t->run.seconds);
    cJSON_AddStringToObject(item, "commit", t->run.commit);
    cJSON_AddStringToObject(item, "source", t->run.source);
    cJSON_AddStringToObject(item, "command", t->run.command);
    return item;
}

/* rows x columns of cell as an HTML table of class css_class (row 0: the headers). */
static void html_table(FILE *out, const char *css_class, int rows, int columns,
                       ReportCellText cell, const void *context) {
    fprintf(out, "<table class=\"%s\">\n", css_class);
    char text[REPORT_CELL];
    for (int row = 0; row < rows; row++) {
        fputs("<tr>", out);
        for (int column = 0; column < columns; column++) {
            cell(context, row, column, text, sizeof text);
            fputs(row == 0 ? "<th>" : "<td>", out);
            html_put_escaped(out, text);
            fputs(row == 0 ? "</th>" : "</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

/* The rating as a chart: each engine's Elo with its interval, strongest first. */
static void rating_chart(FILE *out, const TournamentSummary *t) {
    const char *labels[RUN_SUMMARY_ENGINES];
    double elo[RUN_SUMMARY_ENGINES], low[RUN_SUMMARY_ENGINES], high[RUN_SUMMARY_ENGINES];
    for (int r = 0; r < t->engine_count; r++) {
        labels[r] = t->rating[r].name;
        elo[r] = t->rating[r].elo;
        low[r] = t->rating[r].elo_low;
        high[r] = t->rating[r].elo_high;
    }
    char title[2 * RUN_SUMMARY_NAME];
    snprintf(title, sizeof title, "Rating: Elo with 95%% intervals, %s at 0", t->anchor);
    fputs("<div class=\"charts\">", out);
    svg_interval_chart(out, "rating", title, labels, elo, low, high, t->engine_count);
    fputs("</div>\n", out);
}

/* A ladder line's chart: each played step's Elo and 95% interval against log2 of its limit, a
 * line at zero; then the steps' figures. */
static void ladder_chart(FILE *out, const TournamentSummary *t, const LadderLine *line) {
    double x[RUN_SUMMARY_LADDER_STEPS], y[RUN_SUMMARY_LADDER_STEPS];
    double low[RUN_SUMMARY_LADDER_STEPS], high[RUN_SUMMARY_LADDER_STEPS];
    int count = 0;
    const char *first = "", *last = "";
    for (int k = 0; k < t->ladder_steps; k++) {
        if (!isfinite(line->elo[k]))
            continue;
        first = count ? first : t->ladder_limit[k];
        last = t->ladder_limit[k];
        x[count] = t->ladder_x[k];
        y[count] = line->elo[k];
        low[count] = line->low[k];
        high[count] = line->high[k];
        count++;
    }
    static const double zero[1] = {0};
    static const char *const zero_label[1] = {"0"};
    char title[2 * RUN_SUMMARY_NAME + 64];
    snprintf(title, sizeof title, "%s%s%s%sElo (95%% interval) against the limit, log scale",
             t->ladder_gauntlet ? line->first : "", t->ladder_gauntlet ? " vs " : "",
             t->ladder_gauntlet ? line->second : "", t->ladder_gauntlet ? ": " : "");
    SvgLineChart chart = {.css_class = "ladder",
                          .title = title,
                          .x = x,
                          .y = y,
                          .band_low = low,
                          .band_high = high,
                          .count = count,
                          .levels = zero,
                          .level_labels = zero_label,
                          .level_count = 1,
                          .x_unit = "log scale",
                          .x_first_label = first,
                          .x_last_label = last};
    fputs("<div class=\"charts\">", out);
    if (count)
        svg_line_chart(out, &chart);
    fputs("</div>\n<p class=\"ladder-steps\">", out);
    if (t->ladder_gauntlet) {
        html_put_escaped(out, line->first);
        fputs(": ", out);
    }
    fputs("Steps: ", out);
    for (int k = 0; k < t->ladder_steps; k++) {
        char step[96];
        if (isfinite(line->elo[k]))
            snprintf(step, sizeof step, "%s%s (2^%.2f) %+.1f [%+.1f, %+.1f]", k ? "; " : "",
                     t->ladder_limit[k], t->ladder_x[k], report_shown(line->elo[k], 1),
                     report_shown(line->low[k], 1), report_shown(line->high[k], 1));
        else
            snprintf(step, sizeof step, "%s%s %s", k ? "; " : "", t->ladder_limit[k],
                     isinf(line->elo[k]) ? "?" : "not played");
        html_put_escaped(out, step);
    }
    fputs("</p>\n", out);
}

/* abtest -blunders in a tournament: each engine's blunders against perfect play over all its
 * pairings, per phase, of its moves judged (each pairing's are in the text report). */
typedef struct {
    const TournamentSummary *t;
    double judged[RUN_SUMMARY_ENGINES][GAME_PHASES], lost[RUN_SUMMARY_ENGINES][GAME_PHASES];
} EngineBlunders;

static bool engine_blunders(const TournamentSummary *t, EngineBlunders *totals) {
    memset(totals, 0, sizeof *totals);
    totals->t = t;
    bool judged = false;
    for (int p = 0; p < t->pairing_count; p++) {
        const RunSummary *pairing = &t->pairings[p];
        judged |= pairing->has_blunders;
        for (int side = 0; side < 2 && pairing->has_blunders; side++)
            for (int e = 0; e < t->engine_count; e++)
                if (!strcmp(t->engines[e], pairing->engines[side]))
                    for (int phase = 0; phase < GAME_PHASES; phase++) {
                        totals->judged[e][phase] += pairing->blunders_judged[side][phase];
                        totals->lost[e][phase] += pairing->blunders_lost[side][phase];
                    }
    }
    return judged;
}

static void blunder_total_cell(const void *context, int row, int column, char *out,
                               size_t size) {
    const EngineBlunders *totals = context;
    char raw[REPORT_CELL];
    int e = row - 1, phase = column - 1;
    if (row == 0)
        snprintf(raw, sizeof raw, "%s", column ? GAME_PHASE_KEYS[phase] : "engine");
    else if (column == 0)
        snprintf(raw, sizeof raw, "%s", totals->t->engines[e]);
    else
        report_blunder_rate(totals->lost[e][phase], totals->judged[e][phase], raw, sizeof raw);
    report_escape_text(raw, false, out, size);
}

static void html_section(FILE *out, const ReportEntry *entry, int index) {
    const TournamentSummary *t = entry->tournament;
    fprintf(out, "<section class=\"tournament-detail\" id=\"tournament-%d\" data-file=\"", index);
    html_put_escaped(out, t->run.file);
    fprintf(out, "\" data-state=\"%s\" data-pairs=\"%lld\" data-pairings=\"%d\">\n<h3>",
            t->run.state, (long long)t->run.pairs, t->pairing_count);
    html_put_escaped(out, t->kind);
    fputs(" &mdash; ", out);
    html_put_escaped(out, t->run.file);
    fputs("</h3>\n<p>", out);
    char text[2 * RUN_SUMMARY_TEXT];
    about_text(t, text, sizeof text);
    html_put_escaped(out, text);
    fputs("</p>\n", out);
    if (t->ladder_steps) {
        for (int i = 0; i < t->ladder_line_count; i++)
            ladder_chart(out, t, &t->ladder_lines[i]);
    } else if (t->rated) {
        html_table(out, "rating", t->engine_count + 1, RATING_COLUMNS, rating_cell, t);
        rating_chart(out, t);
    } else {
        char why[2 * REPORT_CELL];
        fputs("<p>", out);
        html_put_escaped(out, no_rating_text(t, why, sizeof why));
        fputs("</p>\n", out);
    }
    fputs("<p>Pairings, each from its first engine's side:</p>\n<div class=\"wide\">", out);
    html_table(out, "pairings", t->pairing_count + 1, PAIRING_COLUMNS, pairing_cell, t);
    fputs("</div>\n", out);
    EngineBlunders totals;
    if (engine_blunders(t, &totals)) {
        fputs("<p>Blunders against perfect play, of each engine's moves judged over its "
              "pairings:</p>\n",
              out);
        html_table(out, "blunders", t->engine_count + 1, 1 + GAME_PHASES, blunder_total_cell,
                   &totals);
    }
    bool unfinished = !strcmp(t->run.state, "interrupted") || !strcmp(t->run.state, "stopped");
    html_commands(out, t->run.command, unfinished ? "build/abtest -resume " : NULL, t->run.file);
    fputs("</section>\n", out);
}

void report_tournaments_html(FILE *out, const ReportEntry entries[], int count) {
    if (report_list_count(entries, count, REPORT_TOURNAMENT) == 0)
        return;
    fputs("<h2>Tournaments</h2>\n", out);
    for (int i = 0; i < count; i++)
        if (entries[i].kind == REPORT_TOURNAMENT)
            html_section(out, &entries[i], i);
}

/* The text chart's width in characters between its bars. */
#define TEXT_CHART_WIDTH 48

/* One engine's row of the text chart: '[' at the interval's low end, ']' at its high end, '-'
 * between, 'o' at the Elo, ':' at zero where nothing else is. */
static void text_chart_row(const RatedEngine *e, double x0, double x1, char row[]) {
    memset(row, ' ', TEXT_CHART_WIDTH);
    row[TEXT_CHART_WIDTH] = '\0';
#define AT(x) ((int)lround(((x) - x0) / (x1 - x0) * (TEXT_CHART_WIDTH - 1)))
    if (x0 < 0 && x1 > 0)
        row[AT(0.0)] = ':';
    int low = AT(e->elo_low), high = AT(e->elo_high);
    for (int c = low + 1; c < high; c++)
        row[c] = '-';
    if (high > low) {
        row[low] = '[';
        row[high] = ']';
    }
    row[AT(e->elo)] = 'o';
#undef AT
}

/* A ladder's step as a cell: its Elo and interval, with its limit when it is not the column's. */
static void ladder_step_cell(const TournamentSummary *t, const LadderLine *line, int k,
                             const char *column, char *out, size_t size) {
    TextBuf buf = textbuf(out, size);
    if (strcmp(t->ladder_limit[k], column))
        textbuf_printf(&buf, "%s: ", t->ladder_limit[k]);
    if (isfinite(line->elo[k]))
        textbuf_printf(&buf, "%+.1f [%+.1f, %+.1f]", report_shown(line->elo[k], 1),
                       report_shown(line->low[k], 1), report_shown(line->high[k], 1));
    else
        textbuf_printf(&buf, "%s", isinf(line->elo[k]) ? "?" : "not played");
}

/* A ladder line as the table's row. */
static void ladder_row(FILE *out, const TournamentSummary *t, const LadderLine *line,
                       const TournamentSummary *first, int steps) {
    char raw[2 * REPORT_CELL], text[2 * REPORT_CELL];
    char one[RUN_SUMMARY_NAME + 40], other[RUN_SUMMARY_NAME + 40]; /* names as code spans */
    report_code_span(line->first, one, sizeof one);
    report_code_span(line->second, other, sizeof other);
    snprintf(raw, sizeof raw, "%s vs %s", one, other);
    report_escape_text(raw, true, text, sizeof text);
    fprintf(out, "| %s |", text);
    for (int k = 0; k < steps; k++) {
        raw[0] = '\0';
        if (k < t->ladder_steps)
            ladder_step_cell(t, line, k, k < first->ladder_steps ? first->ladder_limit[k] : "",
                             raw, sizeof raw);
        report_markdown_text(raw, text, sizeof text);
        fprintf(out, " %s |", text);
    }
    if (line->has_slope)
        fprintf(out, " %+.1f [%+.1f, %+.1f] |", report_shown(line->slope, 1),
                report_shown(line->slope_low, 1), report_shown(line->slope_high, 1));
    else
        fputs(isinf(line->slope) ? " ? |" : " - |", out);
    report_markdown_text(line->verdict, text, sizeof text);
    fprintf(out, " %s | %lld |", text, (long long)t->run.pairs);
    report_code_span(t->run.file, one, sizeof one);
    report_escape_text(one, true, text, sizeof text);
    fprintf(out, " %s |\n", text);
}

/* Every ladder given as one table, a row a ladder (a gauntlet's: a row a candidate): its steps'
 * Elo (the columns are the first ladder's limits), the slope, what the steps decided, the pairs
 * and the file. */
static void ladders_markdown(FILE *out, const ReportEntry entries[], int count) {
    const TournamentSummary *first = NULL;
    int steps = 0;
    for (int i = 0; i < count; i++)
        if (entries[i].kind == REPORT_TOURNAMENT && entries[i].tournament->ladder_steps) {
            first = first ? first : entries[i].tournament;
            int k = entries[i].tournament->ladder_steps;
            steps = k > steps ? k : steps;
        }
    if (!first)
        return;
    fputs("\n| ladder |", out);
    for (int k = 0; k < steps; k++)
        fprintf(out, " %s |", k < first->ladder_steps ? first->ladder_limit[k] : "");
    fputs(" Elo a doubling | verdict | pairs | file |\n|---|", out);
    for (int k = 0; k < steps; k++)
        fputs("---|", out);
    fputs("---|---|---|---|\n", out);
    for (int i = 0; i < count; i++) {
        const TournamentSummary *t = entries[i].tournament;
        if (entries[i].kind != REPORT_TOURNAMENT || !t->ladder_steps)
            continue;
        for (int l = 0; l < t->ladder_line_count; l++)
            ladder_row(out, t, &t->ladder_lines[l], first, steps);
    }
}

void report_tournaments_markdown(FILE *out, const ReportEntry entries[], int count) {
    ladders_markdown(out, entries, count);
    for (int i = 0; i < count; i++) {
        if (entries[i].kind != REPORT_TOURNAMENT || entries[i].tournament->ladder_steps)
            continue; /* a ladder is a row of the table above */
        const TournamentSummary *t = entries[i].tournament;
        char about[2 * RUN_SUMMARY_TEXT], text[4 * REPORT_CELL], file[2 * REPORT_CELL];
        char file_span[REPORT_CELL + 16];
        about_text(t, about, sizeof about);
        report_markdown_text(about, text, sizeof text);
        report_code_span(t->run.file, file_span, sizeof file_span);
        report_escape_text(file_span, true, file, sizeof file);
        fprintf(out, "\n%s: %s\n\n", file, text);
        if (!t->rated) {
            char why[2 * REPORT_CELL], escaped[4 * REPORT_CELL];
            report_markdown_text(no_rating_text(t, why, sizeof why), escaped, sizeof escaped);
            fprintf(out, "%s\n", escaped);
            continue;
        }
        for (int column = 0; column < RATING_COLUMNS; column++)
            fprintf(out, "| %s ", RATING_HEADERS[column]);
        fputs("|\n", out);
        for (int column = 0; column < RATING_COLUMNS; column++)
            fputs("|---", out);
        fputs("|\n", out);
        char raw[REPORT_CELL];
        for (int row = 1; row <= t->engine_count; row++) {
            for (int column = 0; column < RATING_COLUMNS; column++) {
                char span[REPORT_CELL + 16];
                rating_text(t, row, column, raw, sizeof raw);
                if (column == 1) /* a name: shown as it is, never as markup */
                    report_code_span(raw, span, sizeof span);
                report_escape_text(column == 1 ? span : raw, true, text, sizeof text);
                fprintf(out, "| %s ", text);
            }
            fputs("|\n", out);
        }
        /* The chart: every interval on one scale, strongest first. */
        double x0 = 0, x1 = 0;
        int name_width = 0;
        for (int r = 0; r < t->engine_count; r++) {
            x0 = fmin(x0, t->rating[r].elo_low);
            x1 = fmax(x1, t->rating[r].elo_high);
            int width = (int)strlen(t->rating[r].name);
            name_width = width > name_width ? width : name_width;
        }
        if (x1 <= x0)
            x1 = x0 + 1;
        /* A fence longer than any run of backticks in a name: no name ends the block. */
        char fence[REPORT_CELL + 4] = "```";
        for (int r = 0; r < t->engine_count; r++) {
            char span[REPORT_CELL + 16];
            report_code_span(t->rating[r].name, span, sizeof span);
            size_t ticks = strspn(span, "`"); /* its longest run and one */
            while (strlen(fence) < ticks && strlen(fence) + 1 < sizeof fence)
                strcat(fence, "`");
        }
        fprintf(out,
                "\n%stext\nElo, 95%% intervals ('o' the estimate, ':' %s's 0), %+.0f to "
                "%+.0f\n",
                fence, t->anchor, x0, x1);
        for (int r = 0; r < t->engine_count; r++) {
            char bar[TEXT_CHART_WIDTH + 1];
            text_chart_row(&t->rating[r], x0, x1, bar);
            report_escape_text(t->rating[r].name, false, text, sizeof text);
            fprintf(out, "%-*s |%s| %+.1f\n", name_width, text, bar,
                    report_shown(t->rating[r].elo, 1));
        }
        fprintf(out, "%s\n", fence);
    }
}
