// SPDX-License-Identifier: MIT
// Reading a whole text file with limits, for every file the tools read (books, the bench suite
// and signature, results files): a directory is refused, at most max_bytes are read (so
// /dev/zero or an endless pipe ends with an error, not an endless allocation), and a NUL byte is
// an error naming its line and column (a text file never holds one; C strings would silently end
// there).
#pragma once

#include "error.h"

#include <stdbool.h>
#include <stddef.h>

/* The limit the tools use: far above any real book (the default is 1.9 MB for 50,000
 * positions) or results file. */
#define TEXTFILE_MAX_BYTES ((size_t)256 << 20)

/* Opens path for reading as every tool reads its inputs (the tablebase's binary file too): never
 * blocking on a FIFO without a writer, a directory refused, and with regular_only anything but a
 * regular file refused. Returns the descriptor (blocking, close-on-exec) with the file's size in
 * *size (0 when not a regular file), or -1 with "PATH: ..." in err. */
int textfile_open(const char *path, bool regular_only, size_t *size, Error *err);

/* Reads path into a malloc'd NUL-terminated *text (the caller frees it) of *length bytes. With
 * regular_only, anything but a regular file (a FIFO, a device) is refused before reading: state
 * files come from disk, while a book may come from a pipe. On error returns false with
 * "PATH: ..." in err and *text NULL. */
bool textfile_read(const char *path, size_t max_bytes, bool regular_only, char **text,
                   size_t *length, Error *err);
