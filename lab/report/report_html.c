// SPDX-License-Identifier: MIT
#include "report_html.h"

#include "blunders.h"

#include "describe.h"
#include "html_text.h"
#include "output.h"
#include "paths.h"
#include "report_booktest.h"
#include "report_run.h"
#include "report_tournament.h"
#include "report_tuning.h"
#include "svg_chart.h"
#include "textfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RELOAD_SECONDS 10
#define DETAILS_MAX_BYTES ((size_t)64 << 20)

static const char STYLE[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em;border-top:1px solid #ccc;"
    "padding-top:1em}table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;white-space:nowrap}"
    "th{background:#f3f3f3}tr.run td.state-H1{background:#d8f5d8}"
    "tr.run td.state-H0{background:#f8d8d8}tr.run td.state-running{background:#fff3c4}"
    "tr.run td.state-stopped,tr.run td.state-interrupted{background:#eee}"
    ".charts{display:flex;flex-wrap:wrap;gap:1em}figure.chart{margin:0;width:560px}"
    "svg{width:100%;height:auto;background:#fcfcfc}.frame{fill:none;stroke:#bbb}"
    ".line{fill:none;stroke:#1f5fbf;stroke-width:1.5}.band{fill:#1f5fbf;opacity:.18}"
    ".level{stroke:#c33;stroke-dasharray:4 3}.level-label,.axis,.value{font-size:11px;"
    "fill:#555}.chart-title{font-size:12px;font-weight:bold}.bar{fill:#1f5fbf}"
    ".point{fill:#1f5fbf}"
    ".tick{stroke:#bbb}.final{font-size:11px;font-weight:bold;fill:#1f5fbf}"
    "pre{background:#f6f6f6;padding:.5em;white-space:pre-wrap;word-break:break-all}"
    ".wide{overflow-x:auto}td.difference{white-space:normal;min-width:20em;max-width:32em}"
    "td.wraps{white-space:normal;min-width:7em;max-width:12em}"
    "dl{display:grid;grid-template-columns:max-content auto;gap:2px 1em}dt{font-weight:bold}";

static const cJSON *member(const cJSON *object, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

static double number(const cJSON *object, const char *key) {
    const cJSON *item = member(object, key);
    return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

static void run_row(FILE *out, const RunSummary *run, int index) {
    fprintf(out, "<tr class=\"run\" id=\"row-%d\" data-file=\"", index);
    html_put_escaped(out, run->file);
    fprintf(out, "\" data-state=\"%s\" data-pairs=\"%lld\" data-elo=\"%.2f\" data-nelo=\"%.2f\"",
            run->state, (long long)run->pairs, run->elo, run->nelo);
    if (run->has_sprt)
        fprintf(out, " data-llr=\"%.2f\"", run->llr);
    fputc('>', out);
    char cell[REPORT_CELL];
    for (size_t c = 0; c < REPORT_COLUMN_COUNT; c++) {
        if (REPORT_COLUMNS[c].section_only)
            continue;
        REPORT_COLUMNS[c].cell(run, cell, sizeof cell);
        const char *header = REPORT_COLUMNS[c].header;
        if (!strcmp(header, "state"))
            fprintf(out, "<td class=\"state-%s\">", run->state);
        else if (!strcmp(header, "difference"))
            fputs("<td class=\"difference\">", out);
        else if (!strcmp(header, "limits") || !strncmp(header, "LLR", 3))
            fputs("<td class=\"wraps\">", out); /* the table fits 1400 px */
        else
            fputs("<td>", out);
        if (c == 0)
            fprintf(out, "<a href=\"#run-%d\">", index);
        html_put_escaped(out, cell);
        fputs(c == 0 ? "</a></td>" : "</td>", out);
    }
    fputs("</tr>\n", out);
}

/* The trajectory's points as columns; false when there is none. */
typedef struct {
    double *pairs, *llr, *elo, *low, *high;
    int count;
} Trajectory;

static bool trajectory_of(const cJSON *details, Trajectory *t) {
    memset(t, 0, sizeof *t);
    const cJSON *list = member(details, "trajectory"), *point;
    int n = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
    if (n == 0)
        return false;
    double *block = calloc((size_t)n * 5, sizeof *block);
    if (!block)
        return false;
    *t = (Trajectory){block, block + n, block + 2 * n, block + 3 * n, block + 4 * n, 0};
    cJSON_ArrayForEach(point, list) {
        double values[5] = {number(point, "pairs"), number(point, "llr"), number(point, "elo"),
                            number(point, "elo_low"), number(point, "elo_high")};
        bool finite = true;
        for (int k = 0; k < 5; k++)
            finite &= isfinite(values[k]) || k == 1; /* no LLR without an SPRT */
        if (!finite)
            continue;
        t->pairs[t->count] = values[0];
        t->llr[t->count] = values[1];
        t->elo[t->count] = values[2];
        t->low[t->count] = values[3];
        t->high[t->count] = values[4];
        t->count++;
    }
    if (t->count == 0) { /* no usable point: nothing to draw, nothing kept */
        free(block);
        memset(t, 0, sizeof *t);
    }
    return t->count > 0;
}

static void charts(FILE *out, const RunSummary *run, const cJSON *details) {
    fputs("<div class=\"charts\">\n", out);
    Trajectory t;
    if (trajectory_of(details, &t)) {
        if (run->has_sprt) {
            const double levels[] = {run->lower, 0, run->upper};
            const char *const labels[] = {"H0", "", "H1"};
            SvgLineChart llr = {.css_class = "llr",
                                .title = "LLR against its bounds",
                                .x = t.pairs,
                                .y = t.llr,
                                .count = t.count,
                                .levels = levels,
                                .level_labels = labels,
                                .level_count = 3};
            svg_line_chart(out, &llr);
        }
        const double zero[] = {0};
        const char *const zero_label[] = {""};
        SvgLineChart elo = {.css_class = "elo",
                            .title = "Elo with its 95% interval",
                            .x = t.pairs,
                            .y = t.elo,
                            .band_low = t.low,
                            .band_high = t.high,
                            .count = t.count,
                            .levels = zero,
                            .level_labels = zero_label,
                            .level_count = 1,
                            /* the range from the last 80% of the run: the first intervals are
                             * the widest (-302 to +14 where a run ended at -69) */
                            .range_skip = 0.2};
        svg_line_chart(out, &elo);
        free(t.pairs);
    }
    const char *const ptnml_labels[] = {"0", "0.5", "1", "1.5", "2"};
    double ptnml[5];
    for (int i = 0; i < 5; i++)
        ptnml[i] = (double)run->ptnml[i];
    svg_bar_chart(out, "ptnml", "Pentanomial: pairs by points of the first engine", ptnml_labels,
                  ptnml, 5);
    fputs("</div>\n", out);
}

static void side_rows(FILE *out, const RunSummary *run, const cJSON *details) {
    static const struct {
        const char *key, *side;
    } sides[] = {{"first_as_tigers", "tigers"}, {"first_as_sheep", "sheep"}};
    fputs("<table class=\"sides\"><tr><th>first engine as</th><th>wins</th><th>draws</th>"
          "<th>losses</th></tr>\n",
          out);
    for (size_t i = 0; i < sizeof sides / sizeof *sides; i++) {
        const cJSON *wdl = member(details, sides[i].key);
        fprintf(out, "<tr data-side=\"%s\"><td>", sides[i].side);
        html_put_escaped(out, run->engines[0]);
        fprintf(out, " as %s</td><td>%.0f</td><td>%.0f</td><td>%.0f</td></tr>\n", sides[i].side,
                number(wdl, "wins"), number(wdl, "draws"), number(wdl, "losses"));
    }
    fputs("</table>\n", out);
}

static void end_rows(FILE *out, const cJSON *details) {
    const cJSON *ends = member(details, "end_reasons"), *end;
    fputs("<table class=\"ends\"><tr><th>end</th><th>games</th></tr>\n", out);
    cJSON_ArrayForEach(end, ends) {
        if (!cJSON_IsNumber(end) || end->valuedouble == 0)
            continue;
        fputs("<tr><td>", out);
        html_put_escaped(out, end->string);
        fprintf(out, "</td><td>%.0f</td></tr>\n", end->valuedouble);
    }
    fputs("</table>\n", out);
}

static void engine_rows(FILE *out, const cJSON *details) {
    const cJSON *engines = member(details, "engines"), *engine;
    fputs("<table class=\"engines\"><tr><th>engine</th><th>depth</th><th>nodes a move</th>"
          "<th>ms a move</th><th>time used (s)</th><th>forfeits</th></tr>\n",
          out);
    cJSON_ArrayForEach(engine, engines) {
        const cJSON *name = member(engine, "name");
        double forfeits = 0;
        static const char *const kinds[] = {"time_losses", "disconnects", "stalls",
                                            "illegal_moves"};
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
            forfeits += isfinite(number(engine, kinds[k])) ? number(engine, kinds[k]) : 0;
        fputs("<tr><td>", out);
        html_put_escaped(out, cJSON_IsString(name) ? name->valuestring : "?");
        fprintf(out,
                "</td><td>%.2f</td><td>%.0f</td><td>%.3f</td><td>%.1f</td><td>%.0f</td></tr>\n",
                number(engine, "average_depth"), number(engine, "average_nodes_per_move"),
                number(engine, "mean_time_per_move_ms"), number(engine, "time_used_us") / 1e6,
                forfeits);
    }
    fputs("</table>\n", out);
}

/* abtest -blunders: per engine and phase its blunders against perfect play by kind, of the
 * moves judged, and its games with one or more. */
static void blunder_rows(FILE *out, const cJSON *details) {
    const cJSON *engines = member(details, "engines"), *engine;
    if (!member(cJSON_GetArrayItem(engines, 0), "blunders"))
        return;
    fputs("<table class=\"blunders\"><tr><th>engine</th><th>phase</th><th>moves judged</th>"
          "<th>blunders</th><th>win to draw</th><th>win to loss</th><th>draw to loss</th>"
          "<th>games with one</th></tr>\n",
          out);
    cJSON_ArrayForEach(engine, engines) {
        const cJSON *name = member(engine, "name"), *blunders = member(engine, "blunders");
        const cJSON *games = member(blunders, "games_by_blunders");
        double judged_games = 0;
        for (int bin = 0; bin < BLUNDER_GAME_BINS; bin++)
            judged_games += number(games, BLUNDER_GAME_KEYS[bin]);
        for (int p = 0; p < GAME_PHASES; p++) {
            const cJSON *counts = member(blunders, GAME_PHASE_KEYS[p]);
            double judged = 0, kinds[TB_VERDICTS] = {0};
            for (int v = TB_VERDICT_KEPT; v < TB_VERDICTS; v++)
                judged += kinds[v] = number(counts, TB_VERDICT_KEYS[v]);
            double lost = judged - kinds[TB_VERDICT_KEPT];
            fputs("<tr><td>", out);
            html_put_escaped(out, cJSON_IsString(name) ? name->valuestring : "?");
            fprintf(out,
                    "</td><td>%s</td><td>%.0f</td><td>%.0f (%.2f%%)</td><td>%.0f</td><td>%.0f</td>"
                    "<td>%.0f</td>",
                    GAME_PHASE_KEYS[p], judged, lost, judged > 0 ? 100 * lost / judged : 0.0,
                    kinds[TB_VERDICT_WIN_TO_DRAW], kinds[TB_VERDICT_WIN_TO_LOSS],
                    kinds[TB_VERDICT_DRAW_TO_LOSS]);
            if (p == 0)
                fprintf(out, "<td rowspan=\"%d\">%.0f of %.0f</td>", GAME_PHASES,
                        judged_games - number(games, BLUNDER_GAME_KEYS[0]), judged_games);
            fputs("</tr>\n", out);
        }
    }
    fputs("</table>\n", out);
}

static void definition(FILE *out, const char *term, const char *value) {
    fprintf(out, "<dt>%s</dt><dd>", term);
    html_put_escaped(out, value[0] ? value : "-");
    fputs("</dd>\n", out);
}

static void run_detail(FILE *out, const RunSummary *run, const cJSON *details, int index) {
    fprintf(out, "<section class=\"run-detail\" id=\"run-%d\" data-file=\"", index);
    html_put_escaped(out, run->file);
    fputs("\">\n<h2>", out);
    html_put_escaped(out, run->engines[0]);
    fputs(" vs ", out);
    html_put_escaped(out, run->engines[1]);
    fputs(" &mdash; ", out);
    html_put_escaped(out, run->file);
    fputs("</h2>\n<dl>\n", out);
    char text[REPORT_CELL];
    definition(out, "difference", run->difference);
    definition(out, "limits", run->limits);
    definition(out, "book", run->book);
    definition(out, "state", run->state);
    for (size_t c = 0; c < REPORT_COLUMN_COUNT; c++) {
        const char *header = REPORT_COLUMNS[c].header;
        if (strstr(header, "LLR") || strstr(header, "Elo") || !strcmp(header, "pairs") ||
            !strcmp(header, "duration") || !strcmp(header, "ptnml")) {
            REPORT_COLUMNS[c].cell(run, text, sizeof text);
            definition(out, header, text);
        }
    }
    definition(out, "started (UTC)", run->started);
    definition(out, "updated (UTC)", run->updated);
    definition(out, "commit", run->commit);
    definition(out, "version", run->version);
    fputs("</dl>\n", out);
    charts(out, run, details);
    side_rows(out, run, details);
    end_rows(out, details);
    engine_rows(out, details);
    blunder_rows(out, details);
    bool unfinished = !strcmp(run->state, "interrupted") || !strcmp(run->state, "stopped");
    html_commands(out, run->command, unfinished ? "build/abtest -resume " : NULL, run->file);
    fputs("</section>\n", out);
}

/* The page states, for tests and for a reader, what the browser drew: each chart's drawn width
 * in pixels, and the runs' table's width against the room it has (wider: it scrolls sideways),
 * set once the page has been laid out. */
static const char DRAWN_SCRIPT[] =
    "<script>window.addEventListener('load',function(){document.querySelectorAll("
    "'figure.chart svg').forEach(function(s){var b=s.getBoundingClientRect(),l=s.querySelector"
    "('.line,.bar');s.setAttribute('data-drawn-width',Math.round(b.width));if(l){var g=l."
    "getBBox();s.setAttribute('data-mark-width',Math.round(g.width));}});var t=document."
    "querySelector('table.runs');if(t){document.body.setAttribute('data-runs-width',Math.ceil("
    "t.getBoundingClientRect().width));document.body.setAttribute('data-runs-room',t."
    "parentNode.clientWidth);}document.body.setAttribute('data-drawn','yes');});</script>\n";

void report_html_page(FILE *out, const ReportEntry entries[], int count, bool live,
                      ReportDetails details, void *context) {
    int runs = report_list_count(entries, count, REPORT_RUN);
    int unread = report_list_count(entries, count, REPORT_UNREAD);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n", out);
    if (live)
        fprintf(out, "<meta http-equiv=\"refresh\" content=\"%d\">\n", RELOAD_SECONDS);
    fprintf(out, "<title>tslab report: %d run(s)</title>\n<style>%s</style></head>\n<body>\n", runs,
            STYLE);
    int tunings = report_list_count(entries, count, REPORT_TUNING);
    int booktests = report_list_count(entries, count, REPORT_BOOKTEST);
    int tournaments = report_list_count(entries, count, REPORT_TOURNAMENT);
    fprintf(out,
            "<h1>tslab report</h1>\n<p class=\"summary\" data-runs=\"%d\" data-tunings=\"%d\" "
            "data-booktests=\"%d\" data-unread=\"%d\" data-tournaments=\"%d\">%d run(s)",
            runs, tunings, booktests, unread, tournaments, runs);
    if (tournaments)
        fprintf(out, ", %d tournament(s)", tournaments);
    if (tunings)
        fprintf(out, ", %d tuning(s)", tunings);
    if (booktests)
        fprintf(out, ", %d booktest(s)", booktests);
    fprintf(out, ", %d file(s) not read%s</p>\n", unread,
            live ? "; the run is live: this page reloads itself" : "");
    /* The runs' table, unless the page holds only tournaments (their sections have theirs). */
    if (runs || !tournaments) {
        fputs("<div class=\"wide\"><table class=\"runs\"><thead><tr>", out);
        for (size_t c = 0; c < REPORT_COLUMN_COUNT; c++)
            if (!REPORT_COLUMNS[c].section_only)
                fprintf(out, "<th>%s</th>", REPORT_COLUMNS[c].header);
        fputs("</tr></thead><tbody>\n", out);
        for (int i = 0; i < count; i++)
            if (entries[i].kind == REPORT_RUN)
                run_row(out, &entries[i].run, i);
        fputs("</tbody></table></div>\n", out);
    }
    report_tournaments_html(out, entries, count);
    report_tunings_html_table(out, entries, count);
    report_booktests_html(out, entries, count);
    if (unread) {
        fputs("<h2>Not read</h2><ul class=\"unread\">\n", out);
        for (int i = 0; i < count; i++) {
            if (entries[i].kind != REPORT_UNREAD)
                continue;
            fputs("<li data-file=\"", out);
            html_put_escaped(out, entries[i].run.file);
            fputs("\">", out);
            html_put_escaped(out, entries[i].run.file);
            fputs(": ", out);
            html_put_escaped(out, entries[i].reason);
            fputs("</li>\n", out);
        }
        fputs("</ul>\n", out);
    }
    for (int i = 0; i < count; i++) {
        if (entries[i].kind != REPORT_RUN)
            continue;
        bool owned = false;
        cJSON *json = details(context, &entries[i], &owned);
        run_detail(out, &entries[i].run, json, i);
        if (owned)
            cJSON_Delete(json);
    }
    report_tunings_html_sections(out, entries, count);
    fputs(DRAWN_SCRIPT, out);
    fputs("</body></html>\n", out);
}

bool report_html_write_entries(const OutputPlan *outputs, const char *path,
                               const ReportEntry entries[], int count, bool live,
                               ReportDetails details, void *context, Error *err) {
    OutFile page;
    if (!output_begin(outputs, &page, path, err))
        return false;
    report_html_page(page.f, entries, count, live, details, context);
    return outfile_commit(&page, err);
}

/* A run's results file, read again (NULL when it no longer reads). */
static cJSON *load_details(void *context, const ReportEntry *entry, bool *owned) {
    (void)context;
    char *text;
    size_t length;
    Error ignored;
    *owned = true;
    if (!textfile_read(entry->path, DETAILS_MAX_BYTES, true, &text, &length, &ignored))
        return NULL;
    cJSON *json = cJSON_ParseWithLength(text, length);
    free(text);
    return json;
}

bool report_html_write(const OutputPlan *outputs, const char *path, const ReportList *list,
                       bool live, Error *err) {
    return report_html_write_entries(outputs, path, list->entries, list->count, live, load_details,
                                     NULL, err);
}
