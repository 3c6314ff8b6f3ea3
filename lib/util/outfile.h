// SPDX-License-Identifier: MIT
// Files written whole or not at all, and the locks of the writers that run long: the one way
// every tool writes a file it or another tool reads back (results, tuning and booktest files,
// books, pins, pages, plots, the tablebase). A file is written to a new temporary beside it
// (created exclusively under a name no other writer uses), synced, then renamed over it: a
// reader, a second writer or a crash sees the old file or the new one, never a part, and a
// failed write leaves the old file as it was. Through a symbolic link the link's target is
// replaced and the link kept. Nothing here opens an existing output for writing, so a FIFO or a
// device named as an output is refused, never opened (and never blocked on).
#pragma once

#include "error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* What a file that is not a regular one is, for a refusal or a listing: "a directory",
 * "a FIFO", "a character device", "a block device", "a socket". */
const char *outfile_kind(mode_t mode);

/* Whether path may be written by replacing it: it does not exist (its directory does), is a
 * regular file, or is a symbolic link to one. A directory, FIFO, device or socket, or a link to
 * nothing, is refused with the reason; nothing is opened. */
bool outfile_check(const char *path, Error *err);

/* A file being written: stream into f, then outfile_commit (or outfile_abandon). */
typedef struct {
    FILE *f;
    char *target;    /* the file to replace: the path given, or the target of its link */
    char *temporary; /* TARGET.tmp.PID.N beside it (malloc'd) */
    int mode;        /* the mode it gets: the replaced file's, or 0666 less the umask */
} OutFile;

/* Creates the temporary for path (outfile_check first). False with the reason, nothing
 * created. */
bool outfile_begin(OutFile *out, const char *path, Error *err);

/* Flushes, syncs and closes the temporary and renames it over the target; any failure (a full
 * disk, an I/O error, a write error on the stream earlier) removes the temporary and leaves the
 * target as it was. out is finished either way. */
bool outfile_commit(OutFile *out, Error *err);

/* Removes the temporary: the target is left as it was. Safe on a finished or zeroed OutFile. */
void outfile_abandon(OutFile *out);

/* The whole of data[0..size) as path (begin, write, commit). */
bool outfile_write(const char *path, const void *data, size_t size, Error *err);

/* A writer's lock: PATH.lock beside its output, flock'd for as long as the writer runs, holding
 * its process id and what it is ("4242 abtest tune"). PATH is the file itself, whichever name
 * reaches it (a symbolic link, a linked directory): two writers of one file under two names
 * meet at one lock. */
typedef struct {
    int fd; /* -1: none held */
    char *path;
    char owner[24];  /* after a refusal as busy: the holder's process id as its file says */
    char holder[32]; /* and what it is ("abtest tune"; "" when the file names nothing) */
} OutLock;

/* Nothing held: what outfile_lock starts from and outfile_unlock accepts. */
void outfile_lock_init(OutLock *lock);

/* Takes PATH.lock. The lock file is opened without following a symbolic link and without
 * blocking, and must be a regular file with one link: a link, FIFO or device planted there is
 * refused, never truncated or written through. A lock held by another process (waited for 2 s,
 * the time a process killed a moment ago takes to let go) fails with "in use by process N";
 * *busy says so, lock->owner holds N ("?" when the file names none) and lock->holder what the
 * holder said it is (letters, digits, spaces, '-' and '_' kept). holder: what this writer is,
 * written after its pid. */
bool outfile_lock(OutLock *lock, const char *path, const char *holder, bool *busy, Error *err);

/* Removes and releases the lock. */
void outfile_unlock(OutLock *lock);

/* Whether another process holds PATH.lock now (never blocks: a FIFO or a link there is not a
 * lock). */
bool outfile_lock_held(const char *path);
