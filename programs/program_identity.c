// SPDX-License-Identifier: MIT
#define _XOPEN_SOURCE 700 /* realpath */
#include "program_identity.h"

#include "fnv.h"
#include "program_process.h"
#include "textfile.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* dir/name into out (name alone when dir is empty or name is absolute); false when too long. */
static bool join(const char *dir, const char *name, char *out, size_t size) {
    int n = dir && *dir && name[0] != '/' ? snprintf(out, size, "%s/%s", dir, name)
                                          : snprintf(out, size, "%s", name);
    return n >= 0 && (size_t)n < size;
}

static bool is_executable_file(const char *path, struct stat *st) {
    return stat(path, st) == 0 && S_ISREG(st->st_mode) && access(path, X_OK) == 0;
}

/* The file execvp would run for cmd, whose working directory is dir: a name with a '/' is a path
 * (relative to dir), one without is looked up in PATH (whose relative entries are relative to dir
 * too), as execvp does. */
static bool find_program(const char *cmd, const char *dir, char *out, struct stat *st) {
    if (strchr(cmd, '/'))
        return join(dir, cmd, out, PROGRAM_PATH_MAX) && is_executable_file(out, st);
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *entry = path;; entry++) {
        const char *end = strchr(entry, ':');
        size_t length = end ? (size_t)(end - entry) : strlen(entry);
        char candidate[PROGRAM_PATH_MAX], where[PROGRAM_PATH_MAX];
        /* An empty entry is the working directory. */
        int n = snprintf(where, sizeof where, "%.*s", (int)length, length ? entry : ".");
        if (n > 0 && (size_t)n < sizeof where && join(where, cmd, candidate, sizeof candidate)) {
            char full[PROGRAM_PATH_MAX];
            if (join(dir, candidate, full, sizeof full) && is_executable_file(full, st)) {
                memcpy(out, full, PROGRAM_PATH_MAX);
                return true;
            }
        }
        if (!end)
            return false;
        entry = end;
    }
}

/* Adds name, then the bytes of the regular file at path, to *hash, read in blocks (a script or
 * a weights file alike: any bytes). */
static bool hash_file(const char *path, const char *name, uint64_t *hash, Error *err) {
    size_t size;
    Error inner;
    int fd = textfile_open(path, true, &size, &inner);
    if (fd < 0)
        return error_set(err, "args=: %s", inner.text);
    *hash = fnv_bytes(*hash, name, strlen(name) + 1);
    char block[1 << 16];
    ssize_t got;
    while ((got = read(fd, block, sizeof block)) > 0)
        *hash = fnv_bytes(*hash, block, (size_t)got);
    int saved = errno;
    close(fd);
    if (got < 0)
        return error_set(err, "args=: %s: %s", path, strerror(saved));
    return true;
}

/* args_files and args_hash: every word of args that names a regular file from dir. */
static bool stat_args_files(const char *args, const char *dir, ProgramIdentity *id, Error *err) {
    char copy[PROGRAM_PATH_MAX], *words[ENGINE_ARGS_MAX];
    snprintf(copy, sizeof copy, "%s", args ? args : "");
    int count = program_args_split(copy, words, ENGINE_ARGS_MAX);
    uint64_t hash = FNV_OFFSET_BASIS;
    size_t used = 0;
    for (int i = 0; i < count; i++) {
        char path[PROGRAM_PATH_MAX];
        struct stat st;
        if (!join(dir, words[i], path, sizeof path) || stat(path, &st) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (!hash_file(path, words[i], &hash, err))
            return false;
        int n = snprintf(id->args_files + used, sizeof id->args_files - used, "%s%s",
                         used ? " " : "", words[i]);
        if (n > 0)
            used = used + (size_t)n < sizeof id->args_files ? used + (size_t)n : used;
    }
    id->args_hash = used ? hash : 0;
    return true;
}

bool program_identity_stat(const char *cmd, const char *args, const char *dir,
                           ProgramIdentity *id, Error *err) {
    char found[PROGRAM_PATH_MAX];
    struct stat st;
    if (!find_program(cmd, dir, found, &st))
        return error_set(err, "cannot find the executable file that '%s' runs%s%s", cmd,
                         dir && *dir ? " in dir=" : "", dir && *dir ? dir : "");
    if (!realpath(found, id->path))
        return error_set(err, "%s: %s", found, strerror(errno));
    id->size = (int64_t)st.st_size;
    struct tm utc;
    char seconds[20]; /* 2026-12-01T09:25:15 */
    if (!gmtime_r(&st.st_mtim.tv_sec, &utc) ||
        !strftime(seconds, sizeof seconds, "%Y-%m-%dT%H:%M:%S", &utc))
        return error_set(err, "%s: a modification time out of range", id->path);
    snprintf(id->mtime, sizeof id->mtime, "%s.%09uZ", seconds,
             (unsigned)(st.st_mtim.tv_nsec % 1000000000));
    return stat_args_files(args, dir, id, err);
}

/* Appends ", WHAT" (or WHAT first) to out. */
static void add_change(char *out, size_t size, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void add_change(char *out, size_t size, const char *format, ...) {
    size_t used = strlen(out);
    if (used && used + 2 < size) {
        memcpy(out + used, ", ", 3);
        used += 2;
    }
    va_list args;
    va_start(args, format);
    vsnprintf(out + used, size - used, format, args);
    va_end(args);
}

bool program_identity_changes(const ProgramIdentity *recorded, const ProgramIdentity *now,
                              char *out, size_t size) {
    out[0] = '\0';
    if (recorded->bench && recorded->bench != now->bench)
        add_change(out, size, "bench %" PRId64 " -> %" PRId64 " nodes", recorded->bench,
                   now->bench);
    if (recorded->signature[0] && strcmp(recorded->signature, now->signature))
        add_change(out, size, "bench signature %s -> %s", recorded->signature,
                   now->signature[0] ? now->signature : "none");
    if (recorded->path[0] && strcmp(recorded->path, now->path))
        add_change(out, size, "file %s -> %s", recorded->path, now->path);
    if (recorded->size && recorded->size != now->size)
        add_change(out, size, "size %" PRId64 " -> %" PRId64 " bytes", recorded->size, now->size);
    if (recorded->mtime[0] && strcmp(recorded->mtime, now->mtime))
        add_change(out, size, "modified %s -> %s", recorded->mtime, now->mtime);
    if (recorded->args_hash && recorded->args_hash != now->args_hash)
        add_change(out, size, "args= files %s (bytes hashed %016" PRIx64 ") -> %s (%016" PRIx64
                              ")",
                   recorded->args_files, recorded->args_hash,
                   now->args_files[0] ? now->args_files : "none", now->args_hash);
    return out[0] != '\0';
}

cJSON *program_identity_to_json(const ProgramIdentity *id) {
    cJSON *json = cJSON_CreateObject();
    cJSON_AddNumberToObject(json, "bench", (double)id->bench);
    cJSON_AddStringToObject(json, "signature", id->signature);
    cJSON_AddStringToObject(json, "path", id->path);
    cJSON_AddNumberToObject(json, "size", (double)id->size);
    cJSON_AddStringToObject(json, "mtime", id->mtime);
    char hash[17] = "";
    if (id->args_hash)
        snprintf(hash, sizeof hash, "%016" PRIx64, id->args_hash);
    cJSON_AddStringToObject(json, "args_files", id->args_files);
    cJSON_AddStringToObject(json, "args_hash", hash);
    return json;
}

/* A whole number in [0, max] at key into *out. */
static bool whole_at(const cJSON *json, const char *key, double max, int64_t *out, Error *err) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, key);
    double value = cJSON_IsNumber(item) ? item->valuedouble : -1;
    if (!(value >= 0 && value <= max) || value != floor(value))
        return error_set(err, "\"seen\": \"%s\" must be a whole number, 0..%.0f", key, max);
    *out = (int64_t)value;
    return true;
}

/* A string of at most size - 1 characters at key, whose characters are all in allowed (NULL:
 * any printable). */
static bool text_at(const cJSON *json, const char *key, char *out, size_t size, const char *allowed,
                    Error *err) {
    const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, key));
    if (!text || strlen(text) >= size)
        return error_set(err, "\"seen\": \"%s\" must be a string of at most %zu characters", key,
                         size - 1);
    for (const char *p = text; *p; p++)
        if (allowed ? !strchr(allowed, *p) : (unsigned char)*p < 0x20)
            return error_set(err, "\"seen\": \"%s\" holds an unexpected character", key);
    memcpy(out, text, strlen(text) + 1);
    return true;
}

bool program_identity_from_json(const cJSON *json, ProgramIdentity *id, Error *err) {
    memset(id, 0, sizeof *id);
    if (!json)
        return true;
    if (!cJSON_IsObject(json))
        return error_set(err, "\"seen\" must be an object");
    if (!whole_at(json, "bench", (double)PROGRAM_REPLY_NODES_MAX, &id->bench, err) ||
        !whole_at(json, "size", 9007199254740992.0, &id->size, err) ||
        !text_at(json, "signature", id->signature, sizeof id->signature, "0123456789abcdef", err) ||
        !text_at(json, "path", id->path, sizeof id->path, NULL, err) ||
        !text_at(json, "mtime", id->mtime, sizeof id->mtime, "0123456789-:.TZ", err))
        return false;
    if (id->signature[0] && strlen(id->signature) != PROGRAM_REPLY_SIGNATURE_LENGTH)
        return error_set(err, "\"seen\": \"signature\" must be 16 hex digits or empty");
    /* A file written before the args= files were kept has neither. */
    if (!cJSON_GetObjectItemCaseSensitive(json, "args_hash"))
        return true;
    char hash[17];
    if (!text_at(json, "args_files", id->args_files, sizeof id->args_files, NULL, err) ||
        !text_at(json, "args_hash", hash, sizeof hash, "0123456789abcdef", err))
        return false;
    if (hash[0] && strlen(hash) != 16)
        return error_set(err, "\"seen\": \"args_hash\" must be 16 hex digits or empty");
    id->args_hash = hash[0] ? strtoull(hash, NULL, 16) : 0;
    return true;
}
