// SPDX-License-Identifier: MIT
#include "runfiles.h"

#include "paths.h"
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCK_ATTEMPTS 40
#define LOCK_PAUSE_NS 50000000L /* 40 x 50 ms: 2 s at most */

/* Locks PATH.lock; the file holds the owner's process id for the message of the next one. */
static bool lock_one(RunFiles *files, int index, const char *option, const char *path,
                     Error *err) {
    char *lock_path = files->lock_paths[index];
    snprintf(lock_path, sizeof files->lock_paths[index], "%s.lock", path);
    Error inner;
    if (!paths_make_parent(lock_path, &inner))
        return error_set(err, "%s %s: %s", option, path, inner.text);
    int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return error_set(err, "%s %s: cannot create its lock %s: %s", option, path, lock_path,
                         strerror(errno));
    /* A process killed a moment ago (kill -9) releases its lock as it is torn down: wait for
     * that, briefly, before calling the file busy. */
    bool locked = false;
    for (int attempt = 0; attempt < LOCK_ATTEMPTS && !locked; attempt++) {
        locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
        if (!locked && attempt + 1 < LOCK_ATTEMPTS)
            nanosleep(&(struct timespec){0, LOCK_PAUSE_NS}, NULL);
    }
    if (!locked) {
        char owner[32] = "";
        ssize_t got = read(fd, owner, sizeof owner - 1);
        owner[got > 0 ? got : 0] = '\0';
        owner[strcspn(owner, "\n")] = '\0';
        close(fd);
        return error_set(err, "%s %s is in use by another abtest (process %s): two runs on one "
                              "file would interleave their records",
                         option, path, owner[0] ? owner : "?");
    }
    char pid[32];
    int length = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || write(fd, pid, (size_t)length) != length) {
        /* The pid is only for messages: the lock itself holds. */
    }
    files->locks[index] = fd;
    return true;
}

void runfiles_init(RunFiles *files) {
    memset(files, 0, sizeof *files);
    files->locks[0] = files->locks[1] = -1;
    files->saved_pairs = -1;
}

bool runfiles_lock(RunFiles *files, const MatchSettings *s, Error *err) {
    files->settings = s;
    if (s->out_path[0] && !lock_one(files, 0, "-out", s->out_path, err))
        return false;
    if (s->pgn_path[0] && !lock_one(files, 1, "-pgnout", s->pgn_path, err)) {
        runfiles_destroy(files);
        return false;
    }
    return true;
}

bool runfiles_open_records(RunFiles *files, bool resuming, uint64_t pgn_bytes, Error *err) {
    const char *path = files->settings->pgn_path;
    if (!path[0])
        return true;
    if (resuming) {
        struct stat st;
        bool exists = stat(path, &st) == 0;
        if (!exists && pgn_bytes > 0)
            return error_set(err, "-pgnout %s: missing, but the results file covers %llu bytes "
                                  "of records",
                             path, (unsigned long long)pgn_bytes);
        /* Cutting back never extends: a shorter file is not this run's records. */
        if (exists && (uint64_t)st.st_size < pgn_bytes)
            return error_set(err, "-pgnout %s: %lld bytes, but the results file covers %llu: "
                                  "not this run's records (or damaged)",
                             path, (long long)st.st_size, (unsigned long long)pgn_bytes);
        if (exists && truncate(path, (off_t)pgn_bytes) != 0)
            return error_set(err, "-pgnout %s: cannot cut back to %llu bytes for resume: %s", path,
                             (unsigned long long)pgn_bytes, strerror(errno));
        files->pgn = fopen(path, "a");
    } else {
        files->pgn = fopen(path, "w");
    }
    if (!files->pgn)
        return error_set(err, "-pgnout %s: cannot open: %s", path, strerror(errno));
    return true;
}

bool runfiles_checkpoint(RunFiles *files, MatchTotals *totals, RunState state,
                         const Book *book, const char *command) {
    const MatchSettings *s = files->settings;
    if (files->pgn) {
        if (fflush(files->pgn) != 0 || fsync(fileno(files->pgn)) != 0) {
            error_set(&files->save_error, "%s: writing the game records failed: %s", s->pgn_path,
                      strerror(errno));
            files->save_failed = true;
            return false;
        }
        totals->pgn_bytes = (uint64_t)ftello(files->pgn);
    }
    if (!s->out_path[0]) {
        files->saved_pairs = totals->pairs;
        return true;
    }
    cJSON *json = results_to_json(s, totals, state, book->content_hash, book->count, command);
    Error err;
    bool ok = json && report_write_json(json, s->out_path, &err);
    cJSON_Delete(json);
    if (!ok) {
        error_set(&files->save_error, "%s", json ? err.text : "out of memory");
        files->save_failed = true;
        return false;
    }
    files->saved_pairs = totals->pairs;
    return true;
}

void runfiles_destroy(RunFiles *files) {
    if (files->pgn)
        fclose(files->pgn);
    files->pgn = NULL;
    for (int i = 0; i < 2; i++)
        if (files->locks[i] >= 0) {
            unlink(files->lock_paths[i]);
            close(files->locks[i]);
            files->locks[i] = -1;
        }
}
