// SPDX-License-Identifier: MIT
#include "report_booktest.h"

#include "html_text.h"
#include "report_text.h"
#include "textbuf.h"

#include <math.h>
#include <string.h>

static const char CORNER[] = "Elo +/- 95% (pairs to SPRT [0, 5])";

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The line that says what the booktest is. */
static void about_text(const ReportEntry *e, char *out, size_t size) {
    const BooktestRecord *r = e->booktest;
    char each[RUN_SUMMARY_TEXT], commit[2 * PROVENANCE_TEXT_MAX];
    report_each_words(&r->arguments, each, sizeof each);
    report_commit_text(r->build.commit, r->build.source, commit, sizeof commit);
    snprintf(out, size, "%d book(s) x %d difference(s), %d pairs a cell, %s (%d of %d cells), "
             "each %s, commit %s",
             r->book_count, r->diff_count, r->pairs, e->state, r->done,
             r->book_count * r->diff_count, each[0] ? each : "-", commit);
}

/* A cell of the matrix: row 0 the differences, column 0 the books. */
static void matrix_text(const BooktestRecord *r, int row, int column, char *out, size_t size) {
    if (row == 0 && column == 0)
        snprintf(out, size, "%s", CORNER);
    else if (row == 0)
        snprintf(out, size, "%s", r->differences[column - 1]);
    else if (column == 0)
        snprintf(out, size, "%s", base_name(r->books[row - 1].path));
    else {
        int index = (row - 1) * r->diff_count + column - 1;
        const BooktestCell *c = &r->cells[index];
        if (index >= r->done)
            snprintf(out, size, "-");
        else if (c->expected_pairs > 0)
            snprintf(out, size, "%+.2f +/- %.2f (%.0f)", report_shown(c->estimate.elo, 2),
                     c->estimate.elo_high - c->estimate.elo, c->expected_pairs);
        else
            snprintf(out, size, "%+.2f +/- %.2f (-)", report_shown(c->estimate.elo, 2),
                     c->estimate.elo_high - c->estimate.elo);
    }
}

static void terminal_cell(const void *context, int row, int column, char *out, size_t size) {
    char raw[REPORT_CELL];
    matrix_text(context, row, column, raw, sizeof raw);
    report_escape_text(raw, false, out, size);
}

void report_booktests_print(FILE *out, const ReportEntry entries[], int count) {
    bool heading = false;
    for (int i = 0; i < count; i++) {
        if (entries[i].kind != REPORT_BOOKTEST)
            continue;
        if (!heading)
            fprintf(out, "booktests:\n");
        heading = true;
        const BooktestRecord *r = entries[i].booktest;
        char about[2 * RUN_SUMMARY_TEXT], file[REPORT_CELL], text[2 * REPORT_CELL];
        about_text(&entries[i], about, sizeof about);
        report_escape_text(entries[i].path, false, file, sizeof file);
        report_escape_text(about, false, text, sizeof text);
        fprintf(out, "  %s: %s\n", file, text);
        report_aligned_print(out, "    ", r->book_count + 1, r->diff_count + 1, terminal_cell, r);
    }
}

cJSON *report_booktest_json(const ReportEntry *e) {
    const BooktestRecord *r = e->booktest;
    char text[2 * RUN_SUMMARY_TEXT];
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "file", e->path);
    cJSON_AddBoolToObject(item, "read", true);
    cJSON_AddStringToObject(item, "kind", "booktest");
    cJSON_AddStringToObject(item, "state", e->state);
    cJSON_AddNumberToObject(item, "pairs", r->pairs);
    report_each_words(&r->arguments, text, sizeof text);
    cJSON_AddStringToObject(item, "each", text);
    cJSON *books = cJSON_AddArrayToObject(item, "books");
    for (int b = 0; b < r->book_count; b++) {
        cJSON *book = cJSON_CreateObject();
        cJSON_AddStringToObject(book, "path", r->books[b].path);
        cJSON_AddNumberToObject(book, "positions", r->books[b].positions);
        cJSON_AddItemToArray(books, book);
    }
    cJSON *differences = cJSON_AddArrayToObject(item, "differences");
    for (int d = 0; d < r->diff_count; d++)
        cJSON_AddItemToArray(differences, cJSON_CreateString(r->differences[d]));
    cJSON *cells = cJSON_AddArrayToObject(item, "cells");
    for (int i = 0; i < r->done; i++)
        cJSON_AddItemToArray(cells, booktest_cell_to_json(r, i));
    cJSON_AddStringToObject(item, "commit", r->build.commit);
    cJSON_AddStringToObject(item, "source", r->build.source);
    report_command_text("abtest booktest", &r->arguments, text, sizeof text);
    cJSON_AddStringToObject(item, "command", text);
    return item;
}

static void html_section(FILE *out, const ReportEntry *e, int index) {
    const BooktestRecord *r = e->booktest;
    fprintf(out, "<section class=\"booktest-detail\" id=\"booktest-%d\" data-file=\"", index);
    html_put_escaped(out, e->path);
    fprintf(out, "\" data-state=\"%s\" data-cells=\"%d\" data-done=\"%d\">\n<h3>", e->state,
            r->book_count * r->diff_count, r->done);
    html_put_escaped(out, e->path);
    fputs("</h3>\n<p>", out);
    char text[2 * RUN_SUMMARY_TEXT];
    about_text(e, text, sizeof text);
    html_put_escaped(out, text);
    fputs("</p>\n<table class=\"booktest-cells\">\n", out);
    for (int row = 0; row <= r->book_count; row++) {
        fputs("<tr>", out);
        for (int column = 0; column <= r->diff_count; column++) {
            matrix_text(r, row, column, text, sizeof text);
            int cell = (row - 1) * r->diff_count + column - 1;
            if (row == 0 || column == 0)
                fputs(row == 0 ? "<th>" : "<th data-book=\"", out);
            if (row > 0 && column == 0) {
                html_put_escaped(out, r->books[row - 1].path);
                fputs("\">", out);
            }
            if (row > 0 && column > 0 && cell < r->done)
                fprintf(out, "<td data-elo=\"%.2f\" data-expected-pairs=\"%.0f\">",
                        r->cells[cell].estimate.elo, r->cells[cell].expected_pairs);
            else if (row > 0 && column > 0)
                fputs("<td>", out);
            html_put_escaped(out, text);
            fputs(row == 0 || column == 0 ? "</th>" : "</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
    char command[2 * RUN_SUMMARY_TEXT + 8];
    report_command_text("build/abtest booktest", &r->arguments, command, sizeof command);
    bool finished = !strcmp(e->state, "finished");
    html_commands(out, command, finished ? NULL : "build/abtest booktest -resume ", e->path);
    fputs("</section>\n", out);
}

void report_booktests_html(FILE *out, const ReportEntry entries[], int count) {
    if (report_list_count(entries, count, REPORT_BOOKTEST) == 0)
        return;
    fputs("<h2>Booktests</h2>\n", out);
    for (int i = 0; i < count; i++)
        if (entries[i].kind == REPORT_BOOKTEST)
            html_section(out, &entries[i], i);
}
