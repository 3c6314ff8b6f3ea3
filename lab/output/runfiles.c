// SPDX-License-Identifier: MIT
#include "runfiles.h"

#include "output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Locks PATH.lock (cli/output.h): a second abtest on the same file is refused. */
static bool lock_one(RunFiles *files, int index, const char *option, const char *path,
                     Error *err) {
    return output_lock(&files->locks[index], option, path, "abtest",
                       "interleave their records", err);
}

void runfiles_init(RunFiles *files) {
    memset(files, 0, sizeof *files);
    outfile_lock_init(&files->locks[0]);
    outfile_lock_init(&files->locks[1]);
    files->saved_pairs = -1;
}

bool runfiles_lock(RunFiles *files, const MatchSettings *s, Error *err) {
    files->settings = s;
    /* Checked before locking: two outputs in one file would otherwise meet as two locks. */
    if (!outputs_check_writable(s, &files->outputs, err))
        return false;
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
    }
    Error inner;
    files->pgn = output_open_records(&files->outputs.plan, path, !resuming, &inner);
    if (!files->pgn)
        return error_set(err, "-pgnout %s", inner.text);
    return true;
}

bool runfiles_checkpoint(RunFiles *files, MatchTotals *totals, TournamentTotals *tour,
                         const RatingList *rating, RunState state, const Book *book,
                         const char *command) {
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
    cJSON *json = tour ? results_tournament_to_json(s, totals, tour, rating, state,
                                                    book->content_hash, book->count, command)
                       : results_to_json(s, totals, state, book->content_hash, book->count,
                                         command);
    Error err;
    bool ok = json && output_write_json(&files->outputs.plan, json, s->out_path, &err);
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
        outfile_unlock(&files->locks[i]);
}
