// SPDX-License-Identifier: MIT
#include "outputs.h"

#include "cli.h"
#include "paths.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTPUT_KINDS 4
#define MOVE_ASIDE_LIMIT 10000 /* NAME.1.EXT .. NAME.9999.EXT */

typedef struct {
    const char *option;
    const char *path; /* empty: not requested */
} Output;

static void outputs_of(const MatchSettings *s, Output out[OUTPUT_KINDS]) {
    out[0] = (Output){"-out", s->out_path};
    out[1] = (Output){"-pgnout", s->pgn_path};
    out[2] = (Output){"-plot", s->plot_path};
    out[3] = (Output){"-html", s->html_path};
}

/* Creates and removes a probe file beside path: the one sure test that the directory takes
 * new files (access() says yes to root on a read-only file system). */
static bool probe_directory(const char *option, const char *path, Error *err) {
    char probe[PATHS_MAX];
    if ((size_t)snprintf(probe, sizeof probe, "%s.probe.%ld", path, (long)getpid()) >=
        sizeof probe)
        return error_set(err, "%s %s: path too long", option, path);
    int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        return error_set(err, "%s %s: cannot create files there: %s", option, path,
                         strerror(errno));
    close(fd);
    unlink(probe);
    return true;
}

bool outputs_check_writable(const MatchSettings *s, Error *err) {
    Output outputs[OUTPUT_KINDS];
    outputs_of(s, outputs);
    for (int i = 0; i < OUTPUT_KINDS; i++) {
        const Output *o = &outputs[i];
        Error inner;
        if (!o->path[0])
            continue;
        if (!paths_make_parent(o->path, &inner) || !paths_check_output(o->path, &inner))
            return error_set(err, "%s %s: %s", o->option, o->path, inner.text);
        if (!probe_directory(o->option, o->path, err))
            return false;
    }
    /* An output that is also an input, or two outputs in one file, would destroy data. */
    const Output inputs[] = {{"-openings file", s->book_path}, {"-resume", s->resume_path}};
    for (int i = 0; i < OUTPUT_KINDS; i++) {
        if (!outputs[i].path[0])
            continue;
        for (int k = i + 1; k < OUTPUT_KINDS; k++)
            if (paths_same_file(outputs[i].path, outputs[k].path))
                return error_set(err, "%s and %s are the same file (%s)", outputs[i].option,
                                 outputs[k].option, outputs[i].path);
        for (size_t k = 0; k < sizeof inputs / sizeof inputs[0]; k++) {
            bool resumed_results = i == 0 && !strcmp(inputs[k].option, "-resume");
            if (!resumed_results && paths_same_file(outputs[i].path, inputs[k].path))
                return error_set(err, "%s %s is also %s: writing it would destroy the input",
                                 outputs[i].option, outputs[i].path, inputs[k].option);
        }
    }
    return true;
}

/* NAME.EXT with N inserted before the extension (NAME.N.EXT, or NAME.N without one). */
static void numbered(const char *path, int n, char *out, size_t size) {
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
        snprintf(out, size, "%s.%d", path, n);
    else
        snprintf(out, size, "%.*s.%d%s", (int)(dot - path), path, n, dot);
}

/* The state recorded in an existing results file: NULL when it is not one abtest can read, so
 * it holds nothing that -resume could continue. */
static char *recorded_state(const char *path, long long *pairs) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t length = 0, capacity = 0;
    for (size_t got = 1; got > 0;) {
        if (length + 4096 + 1 > capacity) {
            capacity = capacity ? 2 * capacity : 65536;
            char *grown = realloc(text, capacity);
            if (!grown)
                break;
            text = grown;
        }
        got = fread(text + length, 1, capacity - length - 1, f);
        length += got;
    }
    fclose(f);
    if (!text)
        return NULL;
    text[length] = '\0';
    cJSON *json = cJSON_Parse(text);
    free(text);
    const char *state = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "state"));
    const cJSON *count = cJSON_GetObjectItemCaseSensitive(json, "pairs");
    char *copy = state ? strdup(state) : NULL;
    *pairs = cJSON_IsNumber(count) ? (long long)count->valuedouble : 0;
    cJSON_Delete(json);
    return copy;
}

bool outputs_prepare_fresh(const MatchSettings *s, FILE *out, Error *err) {
    if (!outputs_check_writable(s, err))
        return false;
    Output outputs[OUTPUT_KINDS];
    outputs_of(s, outputs);
    if (s->out_path[0] && access(s->out_path, F_OK) == 0) {
        long long pairs = 0;
        char *state = recorded_state(s->out_path, &pairs);
        bool unfinished = state && (!strcmp(state, "running") || !strcmp(state, "interrupted"));
        free(state);
        if (unfinished)
            return error_set(err, "-out %s holds an unfinished run (%lld pairs): continue it with "
                                  "`%s -resume %s`, or move it away to start over",
                             s->out_path, pairs, cli_program(), s->out_path);
    }
    bool any = false;
    for (int i = 0; i < OUTPUT_KINDS; i++)
        any = any || (outputs[i].path[0] && access(outputs[i].path, F_OK) == 0);
    if (!any)
        return true;
    /* One number for all the files, the first that none of them uses yet. */
    int n = 1;
    for (; n < MOVE_ASIDE_LIMIT; n++) {
        bool free_number = true;
        for (int i = 0; i < OUTPUT_KINDS && free_number; i++) {
            char target[PATHS_MAX];
            if (!outputs[i].path[0])
                continue;
            numbered(outputs[i].path, n, target, sizeof target);
            free_number = access(target, F_OK) != 0;
        }
        if (free_number)
            break;
    }
    if (n == MOVE_ASIDE_LIMIT)
        return error_set(err, "%s: too many earlier runs moved aside already", s->out_path);
    for (int i = 0; i < OUTPUT_KINDS; i++) {
        char target[PATHS_MAX];
        if (!outputs[i].path[0] || access(outputs[i].path, F_OK) != 0)
            continue;
        numbered(outputs[i].path, n, target, sizeof target);
        if (rename(outputs[i].path, target) != 0)
            return error_set(err, "%s %s: cannot move the earlier file aside to %s: %s",
                             outputs[i].option, outputs[i].path, target, strerror(errno));
        fprintf(out, "note: %s existed (an earlier run): moved to %s\n", outputs[i].path, target);
    }
    return true;
}
