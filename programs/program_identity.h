// SPDX-License-Identifier: MIT
// What an engine program was when a run first met it: its default bench (node count and
// signature) and its file (path, size, modification time). The results file records it; a
// resumed run measures the program again and is refused, naming what changed, when anything
// differs, since its games would be mixed with another build's (abtest -allow-engine-change
// resumes anyway, for a deliberate change).
#pragma once

#include "error.h"
#include "program_reply.h"

#include <cJSON.h>
#include <stddef.h>
#include <stdint.h>

#define PROGRAM_PATH_MAX 4096
#define PROGRAM_MTIME_MAX 40

typedef struct {
    int64_t bench;                                     /* nodes of its bench (0: not measured) */
    char signature[PROGRAM_REPLY_SIGNATURE_LENGTH + 1]; /* its bench signature ("": none given) */
    char path[PROGRAM_PATH_MAX]; /* the file run: cmd found as execvp finds it, absolute */
    int64_t size;                /* bytes */
    /* last modified, UTC to the nanosecond: 2026-12-01T09:25:15.123456789Z */
    char mtime[PROGRAM_MTIME_MAX];
    /* The files its args= name (python3 args=engine.py: the script), the words that are regular
     * files from its dir, in order: their names and the FNV-1a hash of their bytes ("" and 0:
     * none, or a file written before they were kept). */
    char args_files[PROGRAM_PATH_MAX];
    uint64_t args_hash;
} ProgramIdentity;

/* Finds the file that `cmd` runs from working directory dir ("" or NULL: this process's), as
 * execvp does (a name without '/' is looked up in PATH), and sets path, size and mtime; then
 * args_files and args_hash from the words of args (program_args_split's). False with the reason
 * when there is no such executable file, or a file args names cannot be read. */
bool program_identity_stat(const char *cmd, const char *args, const char *dir,
                           ProgramIdentity *id, Error *err);

/* What differs from recorded to now, as "bench 9437566 -> 10689234 nodes, size 412304 ->
 * 412312 bytes" (a field recorded empty or 0, by a file written before it was kept, is not
 * compared). False, with out empty, when nothing differs. */
bool program_identity_changes(const ProgramIdentity *recorded, const ProgramIdentity *now,
                              char *out, size_t size);

/* {"bench", "signature", "path", "size", "mtime", "args_files", "args_hash"}; and back (the last
 * two may be missing: a file written before they were kept), every field checked (a missing
 * object, from a file written before it was kept, gives an empty identity). */
cJSON *program_identity_to_json(const ProgramIdentity *id);
bool program_identity_from_json(const cJSON *json, ProgramIdentity *id, Error *err);
