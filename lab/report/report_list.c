// SPDX-License-Identifier: MIT
#define _DEFAULT_SOURCE /* flock, DT_* */
#include "report_list.h"

#include "outfile.h"
#include "textbuf.h"
#include "textfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIRECTORY_DEPTH_MAX 8
/* The largest file any of the three readers takes (a long tuning's history is the bulk). */
#define REPORT_FILE_MAX TUNE_FILE_MAX

static ReportEntry *new_entry(ReportList *list, const char *path, Error *err) {
    if (list->count == list->capacity) {
        int capacity = list->capacity ? 2 * list->capacity : 32;
        ReportEntry *grown = realloc(list->entries, sizeof *grown * (size_t)capacity);
        if (!grown) {
            error_set(err, "out of memory");
            return NULL;
        }
        list->entries = grown;
        list->capacity = capacity;
    }
    ReportEntry *entry = &list->entries[list->count];
    memset(entry, 0, sizeof *entry);
    entry->path = strdup(path);
    if (!entry->path) {
        error_set(err, "out of memory");
        return NULL;
    }
    entry->run.file = entry->path;
    list->count++;
    return entry;
}

/* An entry that is not a run, with why. */
static bool add_unread(ReportList *list, const char *path, const char *reason, Error *err) {
    ReportEntry *entry = new_entry(list, path, err);
    if (!entry)
        return false;
    snprintf(entry->reason, sizeof entry->reason, "%s", reason);
    return true;
}

static const char TUNING_TOOL[] = "tslab abtest tune", BOOKTEST_TOOL[] = "tslab abtest booktest";

bool report_entry_read(ReportEntry *entry, const cJSON *json, Error *why) {
    const char *tool = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "tool"));
    if (tool && !strcmp(tool, TUNING_TOOL)) {
        if (!(entry->tuning = malloc(sizeof *entry->tuning)))
            return error_set(why, "out of memory");
        tune_record_init(entry->tuning);
        Error inner;
        if (!tune_record_from_json(json, entry->tuning, &inner))
            return error_set(why, "a tuning file that does not read: %s", inner.text);
        entry->kind = REPORT_TUNING;
        bool done = entry->tuning->done >= entry->tuning->iterations;
        snprintf(entry->state, sizeof entry->state, done ? "finished" : "unfinished");
        return true;
    }
    if (tool && !strcmp(tool, BOOKTEST_TOOL)) {
        if (!(entry->booktest = malloc(sizeof *entry->booktest)))
            return error_set(why, "out of memory");
        booktest_record_init(entry->booktest);
        Error inner;
        if (!booktest_record_from_json(json, entry->booktest, &inner))
            return error_set(why, "a booktest file that does not read: %s", inner.text);
        entry->kind = REPORT_BOOKTEST;
        const BooktestRecord *r = entry->booktest;
        bool done = r->done == r->book_count * r->diff_count;
        snprintf(entry->state, sizeof entry->state, done ? "finished" : "unfinished");
        return true;
    }
    if (run_summary_is_tournament(json)) {
        if (!(entry->tournament = malloc(sizeof *entry->tournament)))
            return error_set(why, "out of memory");
        entry->tournament->run.file = entry->run.file;
        if (!tournament_summary_from_json(json, entry->tournament, why)) {
            free(entry->tournament);
            entry->tournament = NULL;
            return false;
        }
        entry->kind = REPORT_TOURNAMENT;
        snprintf(entry->state, sizeof entry->state, "%s", entry->tournament->run.state);
        return true;
    }
    if (!run_summary_from_json(json, &entry->run, why))
        return false;
    entry->kind = REPORT_RUN;
    return true;
}

/* A file: read when it is a regular one, else listed with what it is (never opened). */
static bool add_file(ReportList *list, const char *path, const struct stat *st, Error *err) {
    if (!S_ISREG(st->st_mode)) {
        char reason[64];
        snprintf(reason, sizeof reason, "%s, not a results file: not read",
                 outfile_kind(st->st_mode));
        return add_unread(list, path, reason, err);
    }
    ReportEntry *entry = new_entry(list, path, err);
    if (!entry)
        return false;
    char *text;
    size_t length;
    Error why;
    if (!textfile_read(entry->path, REPORT_FILE_MAX, true, &text, &length, &why)) {
        snprintf(entry->reason, sizeof entry->reason, "%s", why.text);
        return true;
    }
    cJSON *json = cJSON_ParseWithLength(text, length);
    free(text);
    if (!json) {
        snprintf(entry->reason, sizeof entry->reason, "not JSON");
        return true;
    }
    bool read = report_entry_read(entry, json, &why);
    cJSON_Delete(json);
    if (!read)
        snprintf(entry->reason, sizeof entry->reason, "%s", why.text);
    return true;
}

static bool ends_with(const char *text, const char *end) {
    size_t n = strlen(text), m = strlen(end);
    return n >= m && !strcmp(text + n - m, end);
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the directory was walked already; if not, it is now marked walked. */
static bool walked_before(ReportList *list, const struct stat *st, bool *seen, Error *err) {
    for (int i = 0; i < list->walked_count; i++)
        if (list->walked[i].device == (unsigned long long)st->st_dev &&
            list->walked[i].inode == (unsigned long long)st->st_ino) {
            *seen = true;
            return true;
        }
    *seen = false;
    if (list->walked_count == list->walked_capacity) {
        int capacity = list->walked_capacity ? 2 * list->walked_capacity : 16;
        ReportDirectory *grown = realloc(list->walked, sizeof *grown * (size_t)capacity);
        if (!grown)
            return error_set(err, "out of memory");
        list->walked = grown;
        list->walked_capacity = capacity;
    }
    list->walked[list->walked_count++] =
        (ReportDirectory){(unsigned long long)st->st_dev, (unsigned long long)st->st_ino};
    return true;
}

/* The names in dir, sorted (malloc'd, *count of them); NULL with *count 0 when there are none
 * or the directory cannot be read (*error then holds the system's reason). */
static char **directory_names(const char *path, size_t *count, int *error) {
    *count = 0;
    *error = 0;
    DIR *dir = opendir(path);
    if (!dir) {
        *error = errno;
        return NULL;
    }
    char **names = NULL;
    size_t capacity = 0;
    for (struct dirent *d; (d = readdir(dir));) {
        if (d->d_name[0] == '.')
            continue;
        if (*count == capacity) {
            capacity = capacity ? 2 * capacity : 64;
            char **grown = realloc(names, sizeof *grown * capacity);
            if (!grown) {
                *error = ENOMEM;
                break;
            }
            names = grown;
        }
        if (!(names[*count] = strdup(d->d_name))) {
            *error = ENOMEM;
            break;
        }
        (*count)++;
    }
    closedir(dir);
    if (*count)
        qsort(names, *count, sizeof *names, by_name);
    return names;
}

static bool add_directory(ReportList *list, const char *path, const struct stat *st, int depth,
                          Error *err) {
    bool seen;
    if (!walked_before(list, st, &seen, err))
        return false;
    if (seen)
        return true; /* a link back to a directory already walked (ln -s . self) */
    size_t count;
    int error;
    char **names = directory_names(path, &count, &error);
    if (error == ENOMEM)
        return error_set(err, "out of memory");
    bool ok = true;
    if (error) {
        char reason[RUN_SUMMARY_TEXT];
        snprintf(reason, sizeof reason, "a directory that cannot be read: %s", strerror(error));
        ok = add_unread(list, path, reason, err);
    }
    for (size_t i = 0; ok && i < count; i++) {
        size_t length = strlen(path) + strlen(names[i]) + 2;
        char *child = malloc(length);
        if (!child) {
            ok = error_set(err, "out of memory");
            break;
        }
        snprintf(child, length, "%s/%s", path, names[i]);
        struct stat child_st;
        bool json = ends_with(names[i], ".json");
        if (stat(child, &child_st) != 0) {
            if (json) {
                char reason[RUN_SUMMARY_TEXT];
                snprintf(reason, sizeof reason, "cannot be read: %s", strerror(errno));
                ok = add_unread(list, child, reason, err);
            }
        } else if (S_ISDIR(child_st.st_mode)) {
            if (depth < DIRECTORY_DEPTH_MAX)
                ok = add_directory(list, child, &child_st, depth + 1, err);
        } else if (json) {
            ok = add_file(list, child, &child_st, err);
        }
        free(child);
    }
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
    return ok;
}

bool report_list_add(ReportList *list, const char *path, Error *err) {
    struct stat st;
    if (stat(path, &st) != 0)
        return error_set(err, "%s: %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return add_file(list, path, &st, err);
    size_t length = strlen(path);
    char *trimmed = strdup(path);
    if (!trimmed)
        return error_set(err, "out of memory");
    while (length > 1 && trimmed[length - 1] == '/')
        trimmed[--length] = '\0';
    bool ok = add_directory(list, trimmed, &st, 0, err);
    free(trimmed);
    return ok;
}

void report_list_check_running(ReportList *list) {
    for (int i = 0; i < list->count; i++) {
        ReportEntry *e = &list->entries[i];
        if (e->kind == REPORT_RUN && !strcmp(e->run.state, "running") &&
            !outfile_lock_held(e->path))
            snprintf(e->run.state, sizeof e->run.state, "stopped");
        if (e->kind == REPORT_TOURNAMENT && !strcmp(e->state, "running") &&
            !outfile_lock_held(e->path)) {
            snprintf(e->state, sizeof e->state, "stopped");
            snprintf(e->tournament->run.state, sizeof e->tournament->run.state, "stopped");
        }
        if ((e->kind == REPORT_TUNING || e->kind == REPORT_BOOKTEST) &&
            !strcmp(e->state, "unfinished") && outfile_lock_held(e->path))
            snprintf(e->state, sizeof e->state, "running");
    }
}

int report_list_count(const ReportEntry entries[], int count, ReportKind kind) {
    int n = 0;
    for (int i = 0; i < count; i++)
        n += entries[i].kind == kind;
    return n;
}

void report_command_text(const char *tool, const WordList *arguments, char *out, size_t size) {
    TextBuf buf = textbuf(out, size);
    textbuf_printf(&buf, "%s", tool);
    for (int i = 0; i < arguments->count; i++)
        textbuf_printf(&buf, " %s", arguments->words[i]);
}

void report_each_words(const WordList *arguments, char *out, size_t size) {
    TextBuf words = textbuf(out, size);
    for (int i = 0; i < arguments->count; i++) {
        if (strcmp(arguments->words[i], "-each"))
            continue;
        while (i + 1 < arguments->count && arguments->words[i + 1][0] != '-')
            textbuf_printf(&words, "%s%s", words.used ? " " : "", arguments->words[++i]);
    }
}

void report_entry_release(ReportEntry *e) {
    free(e->path);
    if (e->tuning)
        tune_record_destroy(e->tuning);
    if (e->booktest)
        booktest_record_destroy(e->booktest);
    if (e->tournament)
        tournament_summary_destroy(e->tournament);
    free(e->tuning);
    free(e->booktest);
    free(e->tournament);
}

static bool state_matches(const char *state, const char *wanted) {
    bool decided = !strcmp(state, "H0") || !strcmp(state, "H1") || !strcmp(state, "decided");
    if (!strcmp(wanted, "decided"))
        return decided;
    if (!strcmp(wanted, "undecided"))
        return !decided;
    return !strcmp(state, wanted);
}

static bool has_engine(const TournamentSummary *t, const char *engine) {
    for (int e = 0; e < t->engine_count; e++)
        if (!strcmp(t->engines[e], engine))
            return true;
    return false;
}

void report_list_filter(ReportList *list, const char *engine, const char *state) {
    int kept = 0;
    for (int i = 0; i < list->count; i++) {
        const ReportEntry *e = &list->entries[i];
        bool keep = e->kind == REPORT_RUN        ? (!engine || !strcmp(e->run.engines[0], engine) ||
                                             !strcmp(e->run.engines[1], engine)) &&
                                                (!state || state_matches(e->run.state, state))
                    : e->kind == REPORT_TOURNAMENT ? (!engine || has_engine(e->tournament, engine)) &&
                                                         (!state || state_matches(e->state, state))
                                                   : !engine && !state;
        if (keep)
            list->entries[kept++] = *e;
        else
            report_entry_release(&list->entries[i]);
    }
    list->count = kept;
}

/* The order of the kinds: runs, tournaments, tunings, booktests, files not read. */
static int kind_rank(ReportKind kind) {
    static const ReportKind ORDER[] = {REPORT_RUN, REPORT_TOURNAMENT, REPORT_TUNING,
                                       REPORT_BOOKTEST, REPORT_UNREAD};
    int rank = 0, last = (int)(sizeof ORDER / sizeof ORDER[0]) - 1;
    while (rank < last && ORDER[rank] != kind)
        rank++;
    return rank;
}

/* When a run or tournament started ("" for the other kinds). */
static const char *started_of(const ReportEntry *e) {
    return e->kind == REPORT_RUN          ? e->run.started
           : e->kind == REPORT_TOURNAMENT ? e->tournament->run.started
                                          : "";
}

/* By kind; runs by start date (oldest first; the caller reverses the dates for newest first);
 * then by name. */
static int compare_runs(const ReportEntry *x, const ReportEntry *y, int date_sign) {
    if (x->kind != y->kind)
        return kind_rank(x->kind) - kind_rank(y->kind);
    int by_date = date_sign * strcmp(started_of(x), started_of(y));
    return by_date ? by_date : strcmp(x->run.file, y->run.file);
}

static int compare_newest(const void *a, const void *b) { return compare_runs(a, b, -1); }
static int compare_oldest(const void *a, const void *b) { return compare_runs(a, b, 1); }

void report_list_sort(ReportList *list, bool newest_first) {
    if (list->count > 1)
        qsort(list->entries, (size_t)list->count, sizeof *list->entries,
              newest_first ? compare_newest : compare_oldest);
}

void report_list_free(ReportList *list) {
    for (int i = 0; i < list->count; i++)
        report_entry_release(&list->entries[i]);
    free(list->entries);
    free(list->walked);
    *list = (ReportList){0};
}
