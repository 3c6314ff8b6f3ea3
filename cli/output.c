// SPDX-License-Identifier: MIT
#include "output.h"

#include "json_text.h"
#include "paths.h"
#include "tablebase.h"
#include "tb_place_file.h"

#include <errno.h>
#include <fcntl.h>
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

void output_plan_input_dir(OutputPlan *plan, const char *option, const char *dir, const char *what,
                           OutputDirMember member) {
    if (!dir || !dir[0])
        return;
    if (plan->input_dir_count == OUTPUT_PLAN_DIRS) {
        plan->overflow = true;
        return;
    }
    plan->input_dirs[plan->input_dir_count++] = (OutputDirRole){option, dir, what, member};
}

/* Whether path names a file of the input directory d: in it (the same directory, however
 * named) and of its kind. */
static bool in_input_dir(const char *path, const OutputDirRole *d) {
    char parent[PATHS_MAX];
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    if (!d->member(name))
        return false;
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else if (slash == path)
        snprintf(parent, sizeof parent, "/");
    else
        snprintf(parent, sizeof parent, "%.*s", (int)(slash - path), path);
    return paths_same_file(parent, d->path);
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

/* The kinds of tablebase file, by their first 8 bytes, and the command that writes each. */
static const struct {
    const char *magic, *name, *writer;
} TABLEBASE_KINDS[] = {{TB_FILE_MAGIC, "a sliding tablebase", "tbgen"},
                       {TB_PLACE_FILE_MAGIC, "a placement layer", "tbplace"}};

/* The kind of tablebase file path is (an index of TABLEBASE_KINDS), -1 for any other file
 * (opened without blocking: outfile_check has refused anything but a regular file). */
static int tablebase_kind(const char *path) {
    char head[8] = {0};
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    bool read_whole = read(fd, head, sizeof head) == (ssize_t)sizeof head;
    close(fd);
    for (int k = 0; read_whole && k < (int)(sizeof TABLEBASE_KINDS / sizeof TABLEBASE_KINDS[0]);
         k++)
        if (!memcmp(head, TABLEBASE_KINDS[k].magic, sizeof head))
            return k;
    return -1;
}

/* Whether path is a file of the kind the plan writes (replaced, not moved aside). */
static bool plan_writes_kind_of(const OutputPlan *plan, const char *path) {
    int kind = tablebase_kind(path);
    return kind >= 0 && plan->tablebase_magic &&
           !strcmp(TABLEBASE_KINDS[kind].magic, plan->tablebase_magic);
}

bool output_plan_check(OutputPlan *plan, Error *err) {
    plan->checked = false;
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
        for (int k = 0; k < plan->input_dir_count; k++)
            if (in_input_dir(o->path, &plan->input_dirs[k]))
                return error_set(err,
                                 "%s %s is one of %s in %s %s: writing it would destroy "
                                 "an input",
                                 o->option, o->path, plan->input_dirs[k].what,
                                 plan->input_dirs[k].option, plan->input_dirs[k].path);
        int kind = tablebase_kind(o->path);
        if (kind >= 0 && !plan_writes_kind_of(plan, o->path))
            return error_set(err, "%s %s is %s: an input of the tools, which only bench %s "
                                  "writes, never another output",
                             o->option, o->path, TABLEBASE_KINDS[kind].name,
                             TABLEBASE_KINDS[kind].writer);
        for (int k = 0; k < i; k++)
            if (paths_same_file(o->path, plan->outputs[k].path))
                return error_set(err, "%s and %s are the same file (%s)", plan->outputs[k].option,
                                 o->option, o->path);
        if (!probe(o, err))
            return false;
    }
    plan->checked = true;
    return true;
}

bool output_plan_single(OutputPlan *plan, const char *option, const char *path, Error *err) {
    *plan = (OutputPlan){0};
    output_plan_add(plan, option, path, NULL);
    return output_plan_check(plan, err);
}

/* Whether path may be opened as an output of plan: "-" always, a file when the checked plan
 * holds it. */
static bool planned(const OutputPlan *plan, const char *path, Error *err) {
    if (!strcmp(path, "-"))
        return true;
    for (int i = 0; plan && plan->checked && i < plan->output_count; i++)
        if (!strcmp(plan->outputs[i].path, path))
            return true;
    return error_set(err,
                     "%s: not an output of the command's checked plan (cli/output.h): "
                     "nothing written",
                     path);
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
    if (!plan->checked)
        return error_set(err, "the outputs were not checked before moving any aside");
    for (int i = 0; i < plan->output_count; i++) {
        const OutputRole *o = &plan->outputs[i];
        char hint[1024];
        if (!exists(o->path) || plan_writes_kind_of(plan, o->path))
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
        if (!exists(o->path) || plan_writes_kind_of(plan, o->path))
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

bool output_begin(const OutputPlan *plan, OutFile *out, const char *path, Error *err) {
    Error inner;
    if (!planned(plan, path, err))
        return false;
    if (!paths_make_parent(path, &inner))
        return error_set(err, "%s", inner.text);
    return outfile_begin(out, path, err);
}

FILE *output_open_records(const OutputPlan *plan, const char *path, bool fresh, Error *err) {
    if (!planned(plan, path, err))
        return NULL;
    FILE *f = fopen(path, fresh ? "w" : "a");
    if (!f)
        error_set(err, "%s: cannot open: %s", path, strerror(errno));
    return f;
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

bool output_write_text(const OutputPlan *plan, const char *text, const char *path, Error *err) {
    if (!strcmp(path, "-")) {
        bool ok = fputs(text, stdout) >= 0 && fflush(stdout) == 0;
        return ok ? true : error_set(err, "cannot write to standard output: %s", strerror(errno));
    }
    OutFile out;
    if (!output_begin(plan, &out, path, err))
        return false;
    if (fputs(text, out.f) < 0) {
        error_set(err, "%s: write failed: %s", out.target, strerror(errno));
        outfile_abandon(&out);
        return false;
    }
    return outfile_commit(&out, err);
}

bool output_write_json(const OutputPlan *plan, const cJSON *json, const char *path, Error *err) {
    if (!strcmp(path, "-")) {
        bool ok = json_text_write(stdout, json) && fputc('\n', stdout) != EOF &&
                  fflush(stdout) == 0;
        return ok ? true : error_set(err, "cannot write JSON to standard output: %s",
                                     strerror(errno));
    }
    OutFile out;
    if (!output_begin(plan, &out, path, err))
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
