// SPDX-License-Identifier: MIT
#include "report_tuning.h"

#include "html_text.h"
#include "report_text.h"
#include "svg_chart.h"
#include "textbuf.h"

#include <stdlib.h>
#include <string.h>

#define PARAMETERS_SHOWN 72 /* the terminal's share of a long parameter list (JSON has it all) */

static const char *const HEADERS[] = {"file", "iterations", "state", "each",
                                      "parameters: now (start)", "commit"};
#define COLUMNS ((int)(sizeof HEADERS / sizeof *HEADERS))

static void parameters_text(const TuneRecord *r, char *out, size_t size) {
    TextBuf buf = textbuf(out, size);
    for (int i = 0; i < r->count; i++)
        textbuf_printf(&buf, "%s%s %.2f (%g)", i ? ", " : "", r->params[i].name,
                       r->params[i].value, r->params[i].start);
}

static void cell_text(const ReportEntry *e, int column, char *out, size_t size) {
    const TuneRecord *r = e->tuning;
    switch (column) {
    case 0:
        snprintf(out, size, "%s", e->path);
        break;
    case 1:
        snprintf(out, size, "%lld of %lld", (long long)r->done, (long long)r->iterations);
        break;
    case 2:
        snprintf(out, size, "%s", e->state);
        break;
    case 3:
        report_each_words(&r->arguments, out, size);
        if (!out[0])
            snprintf(out, size, "-");
        break;
    case 4:
        parameters_text(r, out, size);
        break;
    default:
        report_commit_text(r->build.commit, r->build.source, out, size);
    }
}

/* The table's rows: row 0 the headers, then the tunings in the list's order. */
typedef struct {
    const ReportEntry *entries;
    int *tunings;
} TuningRows;

static void terminal_cell(const void *context, int row, int column, char *out, size_t size) {
    const TuningRows *rows = context;
    char raw[REPORT_CELL];
    if (row == 0)
        snprintf(raw, sizeof raw, "%s", HEADERS[column]);
    else
        cell_text(&rows->entries[rows->tunings[row - 1]], column, raw, sizeof raw);
    report_escape_text(raw, false, out, size);
    if (column == 4 && strlen(out) > PARAMETERS_SHOWN && PARAMETERS_SHOWN < size)
        memcpy(out + PARAMETERS_SHOWN - 3, "...", 4);
}

void report_tunings_print(FILE *out, const ReportEntry entries[], int count) {
    int n = report_list_count(entries, count, REPORT_TUNING);
    TuningRows rows = {entries, calloc((size_t)n + 1, sizeof *rows.tunings)};
    if (n && rows.tunings) {
        for (int i = 0, k = 0; i < count; i++)
            if (entries[i].kind == REPORT_TUNING)
                rows.tunings[k++] = i;
        fprintf(out, "tunings:\n");
        report_aligned_print(out, "", n + 1, COLUMNS, terminal_cell, &rows);
    }
    free(rows.tunings);
}

cJSON *report_tuning_json(const ReportEntry *e) {
    const TuneRecord *r = e->tuning;
    char text[2 * RUN_SUMMARY_TEXT];
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "file", e->path);
    cJSON_AddBoolToObject(item, "read", true);
    cJSON_AddStringToObject(item, "kind", "tuning");
    cJSON_AddStringToObject(item, "state", e->state);
    cJSON_AddNumberToObject(item, "iterations", (double)r->iterations);
    cJSON_AddNumberToObject(item, "done", (double)r->done);
    report_each_words(&r->arguments, text, sizeof text);
    cJSON_AddStringToObject(item, "each", text);
    cJSON *params = cJSON_AddArrayToObject(item, "params");
    for (int i = 0; i < r->count; i++)
        cJSON_AddItemToArray(params, tune_param_to_json(&r->params[i]));
    cJSON_AddStringToObject(item, "commit", r->build.commit);
    cJSON_AddStringToObject(item, "source", r->build.source);
    report_command_text("abtest tune", &r->arguments, text, sizeof text);
    cJSON_AddStringToObject(item, "command", text);
    return item;
}

static void html_row(FILE *out, const ReportEntry *e, int index) {
    fprintf(out, "<tr class=\"tuning\" data-file=\"");
    html_put_escaped(out, e->path);
    fprintf(out, "\" data-state=\"%s\" data-done=\"%lld\" data-iterations=\"%lld\">", e->state,
            (long long)e->tuning->done, (long long)e->tuning->iterations);
    char cell[2 * RUN_SUMMARY_TEXT];
    for (int c = 0; c < COLUMNS; c++) {
        cell_text(e, c, cell, sizeof cell);
        fputs(c == 4 ? "<td class=\"difference\">" : "<td>", out);
        if (c == 0)
            fprintf(out, "<a href=\"#tuning-%d\">", index);
        html_put_escaped(out, cell);
        fputs(c == 0 ? "</a></td>" : "</td>", out);
    }
    fputs("</tr>\n", out);
}

/* Each parameter's theta over the iterations, from its start (iteration 0), the start a level. */
static void trajectory_charts(FILE *out, const TuneRecord *r) {
    int64_t points = r->done + 1;
    double *block = malloc(sizeof *block * (size_t)points * 2);
    if (!block)
        return;
    double *x = block, *y = block + points;
    fputs("<div class=\"charts\">\n", out);
    for (int i = 0; i < r->count; i++) {
        const SpsaParam *p = &r->params[i];
        x[0] = 0;
        y[0] = p->start;
        for (int64_t k = 0; k < r->done; k++) {
            x[k + 1] = (double)(k + 1);
            y[k + 1] = r->steps[k].theta[i];
        }
        char title[SPSA_NAME_MAX + 32];
        snprintf(title, sizeof title, "%s: theta by iteration", p->name);
        const double levels[] = {p->start};
        const char *const labels[] = {"start"};
        SvgLineChart chart = {.css_class = "theta",
                              .title = title,
                              .x = x,
                              .y = y,
                              .count = (int)points,
                              .levels = levels,
                              .level_labels = labels,
                              .level_count = 1,
                              .x_unit = "iterations"};
        svg_line_chart(out, &chart);
    }
    fputs("</div>\n", out);
    free(block);
}

static void definition(FILE *out, const char *term, const char *value) {
    fprintf(out, "<dt>%s</dt><dd>", term);
    html_put_escaped(out, value[0] ? value : "-");
    fputs("</dd>\n", out);
}

static void html_section(FILE *out, const ReportEntry *e, int index) {
    const TuneRecord *r = e->tuning;
    fprintf(out, "<section class=\"tuning-detail\" id=\"tuning-%d\" data-file=\"", index);
    html_put_escaped(out, e->path);
    fputs("\">\n<h2>tuning &mdash; ", out);
    html_put_escaped(out, e->path);
    fputs("</h2>\n<dl>\n", out);
    char text[2 * RUN_SUMMARY_TEXT];
    for (int c = 1; c < COLUMNS; c++)
        if (c != 4) {
            cell_text(e, c, text, sizeof text);
            definition(out, HEADERS[c], text);
        }
    fputs("</dl>\n<table class=\"params\"><tr><th>parameter</th><th>now</th><th>start</th>"
          "<th>min</th><th>max</th></tr>\n",
          out);
    for (int i = 0; i < r->count; i++) {
        const SpsaParam *p = &r->params[i];
        fputs("<tr data-param=\"", out);
        html_put_escaped(out, p->name);
        fprintf(out, "\" data-value=\"%.17g\"><td>", p->value);
        html_put_escaped(out, p->name);
        fprintf(out, "</td><td>%.3f</td><td>%g</td><td>%g</td><td>%g</td></tr>\n", p->value,
                p->start, p->min, p->max);
    }
    fputs("</table>\n", out);
    trajectory_charts(out, r);
    char command[2 * RUN_SUMMARY_TEXT + 8];
    report_command_text("build/abtest tune", &r->arguments, command, sizeof command);
    html_commands(out, command, strcmp(e->state, "finished") ? "build/abtest tune -resume " : NULL,
                  e->path);
    fputs("</section>\n", out);
}

void report_tunings_html_table(FILE *out, const ReportEntry entries[], int count) {
    if (report_list_count(entries, count, REPORT_TUNING) == 0)
        return;
    fputs("<h2>Tunings</h2>\n<div class=\"wide\"><table class=\"tunings\"><thead><tr>", out);
    for (int c = 0; c < COLUMNS; c++)
        fprintf(out, "<th>%s</th>", HEADERS[c]);
    fputs("</tr></thead><tbody>\n", out);
    for (int i = 0; i < count; i++)
        if (entries[i].kind == REPORT_TUNING)
            html_row(out, &entries[i], i);
    fputs("</tbody></table></div>\n", out);
}

void report_tunings_html_sections(FILE *out, const ReportEntry entries[], int count) {
    for (int i = 0; i < count; i++)
        if (entries[i].kind == REPORT_TUNING)
            html_section(out, &entries[i], i);
}
