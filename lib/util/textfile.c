// SPDX-License-Identifier: MIT
#include "textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK_BYTES 65536

/* Line and column (1-based) of byte offset in text. */
static void line_and_column(const char *text, size_t offset, size_t *line, size_t *column) {
    *line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < offset; i++)
        if (text[i] == '\n') {
            (*line)++;
            line_start = i + 1;
        }
    *column = offset - line_start + 1;
}

int textfile_open(const char *path, bool regular_only, size_t *size, Error *err) {
    *size = 0;
    /* Non-blocking open: a FIFO without a writer must not hang a refusal. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        error_set(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        error_set(err, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (S_ISDIR(st.st_mode) || (regular_only && !S_ISREG(st.st_mode))) {
        error_set(err, "%s: %s", path, S_ISDIR(st.st_mode) ? "is a directory"
                                       : "is not a regular file (a FIFO or a device)");
        close(fd);
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (S_ISREG(st.st_mode))
        *size = (size_t)st.st_size;
    return fd;
}

bool textfile_read(const char *path, size_t max_bytes, bool regular_only, char **text,
                   size_t *length, Error *err) {
    *text = NULL;
    *length = 0;
    size_t size;
    int fd = textfile_open(path, regular_only, &size, err);
    if (fd < 0)
        return false;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return error_set(err, "%s: cannot open: %s", path, strerror(errno));
    }
    /* Grown as it is read: a pipe or a device has no size to trust. */
    char *buffer = NULL;
    size_t used = 0, capacity = 0;
    bool ok = true;
    for (;;) {
        if (used + CHUNK_BYTES + 1 > capacity) {
            size_t grown_capacity = capacity ? 2 * capacity : 2 * CHUNK_BYTES;
            char *grown = realloc(buffer, grown_capacity);
            if (!grown) {
                ok = error_set(err, "%s: out of memory after %zu bytes", path, used);
                break;
            }
            buffer = grown;
            capacity = grown_capacity;
        }
        size_t got = fread(buffer + used, 1, CHUNK_BYTES, f);
        const char *nul = memchr(buffer + used, '\0', got);
        used += got;
        if (nul) { /* stop at once: /dev/zero is endless */
            size_t line, column;
            line_and_column(buffer, (size_t)(nul - buffer), &line, &column);
            ok = error_set(err, "%s:%zu: col %zu: a NUL byte (not a text file?)", path, line,
                           column);
            break;
        }
        if (used > max_bytes) {
            ok = error_set(err, "%s: larger than %zu bytes (not a file the tools read?)", path,
                           max_bytes);
            break;
        }
        if (got < CHUNK_BYTES) {
            if (ferror(f))
                ok = error_set(err, "%s: read error: %s", path, strerror(errno));
            break;
        }
    }
    fclose(f);
    if (ok)
        buffer[used] = '\0';
    if (!ok) {
        free(buffer);
        return false;
    }
    *text = buffer;
    *length = used;
    return true;
}
