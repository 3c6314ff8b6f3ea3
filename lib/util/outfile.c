// SPDX-License-Identifier: MIT
#define _DEFAULT_SOURCE /* flock, realpath */
#include "outfile.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TEMPORARY_ATTEMPTS 100
#define LOCK_ATTEMPTS 40
#define LOCK_PAUSE_NS 50000000L /* 40 x 50 ms: 2 s at most */

const char *outfile_kind(mode_t mode) {
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/* The directory part of path into out ("." when there is none). */
static void directory_of(const char *path, char *out, size_t size) {
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, size, ".");
    else if (slash == path)
        snprintf(out, size, "/");
    else
        snprintf(out, size, "%.*s", (int)(slash - path), path);
}

bool outfile_check(const char *path, Error *err) {
    struct stat st;
    if (!path[0])
        return error_set(err, "an empty file name");
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return error_set(err, "%s: %s", path, strerror(errno));
        char dir[PATH_MAX];
        directory_of(path, dir, sizeof dir);
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
            return error_set(err, "%s: its directory %s does not exist", path, dir);
        return true;
    }
    if (S_ISLNK(st.st_mode) && stat(path, &st) != 0)
        return error_set(err, "%s is a symbolic link to a missing file", path);
    if (S_ISDIR(st.st_mode))
        return error_set(err, "%s is a directory", path);
    if (!S_ISREG(st.st_mode))
        return error_set(err,
                         "%s is not a regular file (%s): an output is written as a new file "
                         "renamed over the old one, which would replace it",
                         path, outfile_kind(st.st_mode));
    return true;
}

void outfile_abandon(OutFile *out) {
    if (out->f)
        fclose(out->f);
    if (out->temporary)
        unlink(out->temporary);
    free(out->temporary);
    free(out->target);
    *out = (OutFile){0};
}

/* A name beside target that nothing uses yet, created exclusively: TARGET.tmp.PID.N. */
static int create_temporary(const char *target, char **name, Error *err) {
    size_t size = strlen(target) + 64;
    *name = malloc(size);
    if (!*name) {
        error_set(err, "%s: out of memory", target);
        return -1;
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint32_t n = (uint32_t)now.tv_nsec ^ (uint32_t)((uintptr_t)name >> 4);
    int fd = -1;
    for (int attempt = 0; attempt < TEMPORARY_ATTEMPTS && fd < 0; attempt++) {
        snprintf(*name, size, "%s.tmp.%ld.%08x", target, (long)getpid(), n);
        /* 0666 less the umask, as a new file gets; a replaced file's mode is restored later. */
        fd = open(*name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
        n = n * 2654435761u + 1;
    }
    if (fd >= 0)
        return fd;
    if (errno == EEXIST)
        error_set(err, "%s: no free temporary name beside it", target);
    else
        error_set(err, "%s: cannot create a file beside it: %s", target, strerror(errno));
    free(*name);
    *name = NULL;
    return -1;
}

bool outfile_begin(OutFile *out, const char *path, Error *err) {
    *out = (OutFile){0};
    out->mode = -1;
    if (!outfile_check(path, err))
        return false;
    struct stat st;
    bool exists = lstat(path, &st) == 0;
    out->target = exists && S_ISLNK(st.st_mode) ? realpath(path, NULL) : strdup(path);
    if (!out->target)
        return error_set(err, "%s: %s", path, strerror(errno ? errno : ENOMEM));
    if (exists && stat(out->target, &st) == 0)
        out->mode = (int)(st.st_mode & 07777);
    int fd = create_temporary(out->target, &out->temporary, err);
    if (fd < 0) {
        outfile_abandon(out);
        return false;
    }
    out->f = fdopen(fd, "w");
    if (!out->f) {
        close(fd);
        outfile_abandon(out);
        return error_set(err, "%s: %s", path, strerror(errno));
    }
    return true;
}

/* Syncs target's directory, so that the rename itself survives a crash. File systems that
 * cannot sync a directory say EINVAL: the rename then stands as the system keeps it. */
static bool sync_directory(const char *target) {
    char dir[PATH_MAX];
    directory_of(target, dir, sizeof dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return true; /* nothing to sync through: the rename is done */
    bool ok = fsync(fd) == 0 || errno == EINVAL || errno == EROFS;
    close(fd);
    return ok;
}

bool outfile_commit(OutFile *out, Error *err) {
    if (!out->f)
        return error_set(err, "%s: not open", out->target ? out->target : "output");
    int fd = fileno(out->f), code = 0;
    /* The first failure's errno: a stream's earlier write error has none left, so EIO. */
    if (fflush(out->f) != 0 || ferror(out->f))
        code = errno ? errno : EIO;
    else if (out->mode >= 0 && fchmod(fd, (mode_t)out->mode) != 0)
        code = errno;
    else if (fsync(fd) != 0)
        code = errno;
    if (fclose(out->f) != 0 && !code)
        code = errno;
    out->f = NULL;
    if (code) {
        error_set(err, "%s: write failed: %s", out->target, strerror(code));
        outfile_abandon(out);
        return false;
    }
    if (rename(out->temporary, out->target) != 0) {
        error_set(err, "%s: cannot rename into place: %s", out->target, strerror(errno));
        outfile_abandon(out);
        return false;
    }
    bool synced = sync_directory(out->target);
    if (!synced)
        error_set(err, "%s: written, but its directory could not be synced: %s", out->target,
                  strerror(errno));
    free(out->temporary);
    out->temporary = NULL; /* renamed: nothing to remove */
    outfile_abandon(out);
    return synced;
}

bool outfile_write(const char *path, const void *data, size_t size, Error *err) {
    OutFile out;
    if (!outfile_begin(&out, path, err))
        return false;
    if (size && fwrite(data, 1, size, out.f) != size) {
        error_set(err, "%s: write failed: %s", out.target, strerror(errno));
        outfile_abandon(&out);
        return false;
    }
    return outfile_commit(&out, err);
}

void outfile_lock_init(OutLock *lock) { *lock = (OutLock){.fd = -1}; }

/* Opens PATH.lock as a lock may be opened: created if missing, never through a link, never
 * blocking on a FIFO, and only a regular file with no other name. -1 with the reason. */
static int open_lock_file(const char *lock_path, int flags, Error *err) {
    int fd = open(lock_path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (errno == ELOOP)
            error_set(err, "%s is a symbolic link: a lock is never written through one", lock_path);
        else
            error_set(err, "cannot open its lock %s: %s", lock_path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
        error_set(err, "%s is %s: not a lock file this tool made (remove it if no run uses it)",
                  lock_path,
                  S_ISREG(st.st_mode) ? "a file with other names (hard links)"
                                      : outfile_kind(st.st_mode));
        close(fd);
        return -1;
    }
    return fd;
}

/* Whether fd is still the file at lock_path: a lock taken on a file its last owner had just
 * removed locks nothing. */
static bool still_named(int fd, const char *lock_path) {
    struct stat a, b;
    return fstat(fd, &a) == 0 && lstat(lock_path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

/* The pid and name a lock file holds ("4242 abtest tune\n"), kept to plain characters: the file
 * is anyone's to write, and its text goes into messages. */
static void read_holder(int fd, OutLock *lock) {
    char text[64];
    ssize_t got = pread(fd, text, sizeof text - 1, 0);
    text[got > 0 ? got : 0] = '\0';
    text[strcspn(text, "\n")] = '\0';
    size_t digits = strspn(text, "0123456789");
    if (digits)
        snprintf(lock->owner, sizeof lock->owner, "%.*s", (int)digits, text);
    else
        snprintf(lock->owner, sizeof lock->owner, "?");
    const char *name = text + digits + (text[digits] == ' ');
    size_t kept = 0;
    for (; *name && kept + 1 < sizeof lock->holder; name++)
        if (isalnum((unsigned char)*name) || strchr(" -_", *name))
            lock->holder[kept++] = *name;
    lock->holder[kept] = '\0';
}

/* The lock's name for the file path names, malloc'd: beside the file itself, whichever name
 * reaches it (a symbolic link to it, a linked directory, "./"), so that two writers of one file
 * under two names meet at one lock. NULL when memory is short. */
static char *lock_path_of(const char *path) {
    char *target = realpath(path, NULL), dir[PATH_MAX], *resolved_dir = NULL;
    if (!target) { /* not there yet: its directory resolved, its name as given */
        directory_of(path, dir, sizeof dir);
        resolved_dir = realpath(dir, NULL);
    }
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    size_t size = (target         ? strlen(target)
                   : resolved_dir ? strlen(resolved_dir) + 1
                                  : 0) +
                  strlen(path) + 6;
    char *lock_path = malloc(size);
    if (lock_path && target)
        snprintf(lock_path, size, "%s.lock", target);
    else if (lock_path && resolved_dir)
        snprintf(lock_path, size, "%s/%s.lock", strcmp(resolved_dir, "/") ? resolved_dir : "",
                 name);
    else if (lock_path)
        snprintf(lock_path, size, "%s.lock", path);
    free(target);
    free(resolved_dir);
    return lock_path;
}

bool outfile_lock(OutLock *lock, const char *path, const char *holder, bool *busy, Error *err) {
    *busy = false;
    outfile_lock_init(lock);
    char *lock_path = lock_path_of(path);
    if (!lock_path)
        return error_set(err, "%s: out of memory", path);
    for (int attempt = 0; attempt < LOCK_ATTEMPTS; attempt++) {
        if (attempt)
            nanosleep(&(struct timespec){0, LOCK_PAUSE_NS}, NULL);
        int fd = open_lock_file(lock_path, O_RDWR | O_CREAT, err);
        if (fd < 0) {
            free(lock_path);
            return false;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            read_holder(fd, lock);
            *busy = true;
            close(fd);
            continue;
        }
        if (!still_named(fd, lock_path)) {
            close(fd);
            continue;
        }
        char text[64];
        int length = snprintf(text, sizeof text, "%ld %.31s\n", (long)getpid(), holder);
        if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)length, 0) != length) {
            /* The pid is only for messages: the lock itself holds. */
        }
        lock->fd = fd;
        lock->path = lock_path;
        return true;
    }
    if (*busy)
        error_set(err, "in use by process %s", lock->owner);
    else
        error_set(err, "in use (its lock %s changed hands %d times)", lock_path, LOCK_ATTEMPTS);
    free(lock_path);
    return false;
}

void outfile_unlock(OutLock *lock) {
    if (lock->fd >= 0) {
        /* Removed while held, so that the next writer never locks a file about to go. */
        if (lock->path && still_named(lock->fd, lock->path))
            unlink(lock->path);
        close(lock->fd);
    }
    free(lock->path);
    outfile_lock_init(lock);
}

bool outfile_lock_held(const char *path) {
    char *lock_path = lock_path_of(path);
    if (!lock_path)
        return false;
    Error ignored;
    int fd = open_lock_file(lock_path, O_RDONLY, &ignored);
    free(lock_path);
    if (fd < 0)
        return false;
    bool held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    return held;
}
