// SPDX-License-Identifier: MIT
#define _DEFAULT_SOURCE /* flock, DT_* */
#include "report_list.h"

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

static ReportEntry *new_entry(ReportList *list, Error *err) {
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
    return &list->entries[list->count++];
}

static bool add_file(ReportList *list, const char *path, Error *err) {
    ReportEntry *entry = new_entry(list, err);
    if (!entry)
        return false;
    Error why;
    entry->read = run_summary_load(path, &entry->run, &why);
    snprintf(entry->reason, sizeof entry->reason, "%s", entry->read ? "" : why.text);
    return true;
}

static bool ends_with(const char *text, const char *end) {
    size_t n = strlen(text), m = strlen(end);
    return n >= m && !strcmp(text + n - m, end);
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool add_directory(ReportList *list, const char *path, int depth, Error *err) {
    DIR *dir = opendir(path);
    if (!dir)
        return error_set(err, "%s: %s", path, strerror(errno));
    char **names = NULL;
    size_t count = 0, capacity = 0;
    bool ok = true;
    for (struct dirent *d; ok && (d = readdir(dir));) {
        if (d->d_name[0] == '.')
            continue;
        if (count == capacity) {
            capacity = capacity ? 2 * capacity : 64;
            char **grown = realloc(names, sizeof *grown * capacity);
            ok = grown != NULL;
            names = ok ? grown : names;
        }
        if (ok) {
            names[count] = strdup(d->d_name);
            ok = names[count] != NULL;
            count += ok;
        }
    }
    closedir(dir);
    if (!ok)
        error_set(err, "out of memory");
    if (count)
        qsort(names, count, sizeof *names, by_name);
    for (size_t i = 0; ok && i < count; i++) {
        char child[RUN_SUMMARY_TEXT];
        struct stat st;
        if ((size_t)snprintf(child, sizeof child, "%s/%s", path, names[i]) >= sizeof child ||
            stat(child, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode) && depth < DIRECTORY_DEPTH_MAX)
            ok = add_directory(list, child, depth + 1, err);
        else if (S_ISREG(st.st_mode) && ends_with(names[i], ".json"))
            ok = add_file(list, child, err);
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
    if (S_ISDIR(st.st_mode)) {
        char trimmed[RUN_SUMMARY_TEXT];
        snprintf(trimmed, sizeof trimmed, "%s", path);
        size_t n = strlen(trimmed);
        while (n > 1 && trimmed[n - 1] == '/')
            trimmed[--n] = '\0';
        return add_directory(list, trimmed, 0, err);
    }
    return add_file(list, path, err);
}

/* Whether a process holds PATH.lock (a shared lock is refused while abtest holds its own). */
static bool lock_held(const char *path) {
    char lock_path[RUN_SUMMARY_TEXT + 8];
    snprintf(lock_path, sizeof lock_path, "%s.lock", path);
    int fd = open(lock_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    return held;
}

void report_list_check_running(ReportList *list) {
    for (int i = 0; i < list->count; i++) {
        RunSummary *run = &list->entries[i].run;
        if (list->entries[i].read && !strcmp(run->state, "running") && !lock_held(run->file))
            snprintf(run->state, sizeof run->state, "stopped");
    }
}

static bool state_matches(const char *state, const char *wanted) {
    bool decided = !strcmp(state, "H0") || !strcmp(state, "H1");
    if (!strcmp(wanted, "decided"))
        return decided;
    if (!strcmp(wanted, "undecided"))
        return !decided;
    return !strcmp(state, wanted);
}

void report_list_filter(ReportList *list, const char *engine, const char *state) {
    int kept = 0;
    for (int i = 0; i < list->count; i++) {
        const ReportEntry *e = &list->entries[i];
        bool keep = e->read ? (!engine || !strcmp(e->run.engines[0], engine) ||
                               !strcmp(e->run.engines[1], engine)) &&
                                  (!state || state_matches(e->run.state, state))
                            : !engine && !state;
        if (keep)
            list->entries[kept++] = *e;
    }
    list->count = kept;
}

/* Read files first, by start date (oldest first; the caller reverses the dates for newest
 * first), then by name. */
static int compare_runs(const ReportEntry *x, const ReportEntry *y, int date_sign) {
    if (x->read != y->read)
        return x->read ? -1 : 1;
    int by_date = x->read ? date_sign * strcmp(x->run.started, y->run.started) : 0;
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
    free(list->entries);
    *list = (ReportList){0};
}
