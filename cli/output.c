// SPDX-License-Identifier: MIT
#include "output.h"

#include "json_text.h"
#include "paths.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MOVE_ASIDE_LIMIT 10000 /* NAME.1.EXT .. NAME.9999.EXT */

static void add_role(OutputRole roles[], int *count, bool *overflow, const char *option,
                     const char *path, OutputUnfinished unfinished) {
    if (*count == OUTPUT_PLAN_MAX) {
        *overflow = true;
        return;
    }
    roles[(*count)++] = (OutputRole){option, path, unfinished};
}

void output_plan_add(OutputPlan *plan, const char *option, const char *path,
                     OutputUnfinished unfinished) {
    if (path && path[0] && strcmp(path, "-"))
        add_role(plan->outputs, &plan->output_count, &plan->overflow, option, path, unfinished);
}

void output_plan_input(OutputPlan *plan, const char *option, const char *path) {
    if (path && path[0])
        add_role(plan->inputs, &plan->input_count, &plan->overflow, option, path, NULL);
}

/* Creates a file beside path and removes it: the directory takes new files. */
static bool probe(const OutputRole *o, Error *err) {
    OutFile trial;
    Error inner;
    if (!outfile_begin(&trial, o->path, &inner))
        return error_set(err, "%s %s: %s", o->option, o->path, inner.text);
    outfile_abandon(&trial);
    return true;
}

bool output_plan_check(const OutputPlan *plan, Error *err) {
    if (plan->overflow)
        return error_set(err, "more than %d files to check", OUTPUT_PLAN_MAX);
    for (int i = 0; i < plan->output_count; i++) {
        const OutputRole *o = &plan->outputs[i];
        Error inner;
        if (!paths_make_parent(o->path, &inner) || !outfile_check(o->path, &inner))
            return error_set(err, "%s %s: %s", o->option, o->path, inner.text);
        for (int k = 0; k < plan->input_count; k++)
            if (paths_same_file(o->path, plan->inputs[k].path))
                return error_set(err, "%s %s is also %s: writing it would destroy the input",
                                 o->option, o->path, plan->inputs[k].option);
        for (int k = 0; k < i; k++)
            if (paths_same_file(o->path, plan->outputs[k].path))
                return error_set(err, "%s and %s are the same file (%s)", plan->outputs[k].option,
                                 o->option, o->path);
        if (!probe(o, err))
            return false;
    }
    return true;
}

/* NAME.EXT with N inserted before the extension (NAME.N.EXT, or NAME.N without one), malloc'd. */
static char *numbered(const char *path, int n) {
    size_t size = strlen(path) + 16;
    char *out = malloc(size);
    if (!out)
        return NULL;
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
        snprintf(out, size, "%s.%d", path, n);
    else
        snprintf(out, size, "%.*s.%d%s", (int)(dot - path), path, n, dot);
    return out;
}

static bool exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

/* The first N that no output's NAME.N.EXT uses yet; 0 when none is free (or memory ran out). */
static int free_number(const OutputPlan *plan) {
    for (int n = 1; n < MOVE_ASIDE_LIMIT; n++) {
        bool free_for_all = true;
        for (int i = 0; i < plan->output_count && free_for_all; i++) {
            char *target = numbered(plan->outputs[i].path, n);
            if (!target)
                return 0;
            free_for_all = !exists(target);
            free(target);
        }
        if (free_for_all)
            return n;
    }
    return 0;
}

bool output_plan_move_aside(const OutputPlan *plan, FILE *notes, Error *err) {
    bool any = false;
    for (int i = 0; i < plan->output_count; i++) {
        const OutputRole *o = &plan->outputs[i];
        char hint[1024];
        if (!exists(o->path))
            continue;
        any = true;
        if (o->unfinished && o->unfinished(o->path, hint, sizeof hint))
            return error_set(err, "%s %s holds an unfinished run %s, or move it away to start "
                                  "over",
                             o->option, o->path, hint);
    }
    if (!any)
        return true;
    int n = free_number(plan);
    if (!n)
        return error_set(err, "%s: too many earlier runs moved aside already",
                         plan->outputs[0].path);
    for (int i = 0; i < plan->output_count; i++) {
        const OutputRole *o = &plan->outputs[i];
        if (!exists(o->path))
            continue;
        char *target = numbered(o->path, n);
        if (!target)
            return error_set(err, "out of memory");
        bool moved = rename(o->path, target) == 0;
        if (moved)
            fprintf(notes, "note: %s existed (an earlier run): moved to %s\n", o->path, target);
        else
            error_set(err, "%s %s: cannot move the earlier file aside to %s: %s", o->option,
                      o->path, target, strerror(errno));
        free(target);
        if (!moved)
            return false;
    }
    return true;
}

bool output_lock(OutLock *lock, const char *option, const char *path, const char *tool,
                 const char *harm, Error *err) {
    Error inner;
    bool busy;
    if (!paths_make_parent(path, &inner))
        return error_set(err, "%s %s: %s", option, path, inner.text);
    if (outfile_lock(lock, path, tool, &busy, &inner))
        return true;
    if (busy) /* named as the holder says it is: a match's file may be a tune's -out */
        return error_set(err, "%s %s is in use by another %s (process %s): two runs on one file "
                              "would %s",
                         option, path, lock->holder[0] ? lock->holder : tool, lock->owner, harm);
    return error_set(err, "%s %s: %s", option, path, inner.text);
}

bool output_write_text(const char *text, const char *path, Error *err) {
    if (!strcmp(path, "-")) {
        bool ok = fputs(text, stdout) >= 0 && fflush(stdout) == 0;
        return ok ? true : error_set(err, "cannot write to standard output: %s", strerror(errno));
    }
    Error inner;
    if (!paths_make_parent(path, &inner))
        return error_set(err, "%s", inner.text);
    return outfile_write(path, text, strlen(text), err);
}

bool output_write_json(const cJSON *json, const char *path, Error *err) {
    if (!strcmp(path, "-")) {
        bool ok = json_text_write(stdout, json) && fputc('\n', stdout) != EOF &&
                  fflush(stdout) == 0;
        return ok ? true : error_set(err, "cannot write JSON to standard output: %s",
                                     strerror(errno));
    }
    Error inner;
    if (!paths_make_parent(path, &inner))
        return error_set(err, "%s", inner.text);
    OutFile out;
    if (!outfile_begin(&out, path, err))
        return false;
    if (!json_text_write(out.f, json) || fputc('\n', out.f) == EOF) {
        error_set(err, "%s: write failed: %s", out.target, strerror(errno));
        outfile_abandon(&out);
        return false;
    }
    return outfile_commit(&out, err);
}

bool output_stdout_ok(Error *err) {
    if (fflush(stdout) != 0 || ferror(stdout))
        return error_set(err, "writing to standard output failed: %s",
                         errno ? strerror(errno) : "an I/O error");
    return true;
}
