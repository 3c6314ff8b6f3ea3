// SPDX-License-Identifier: MIT
// Where the tools find their default data (the bench suite and its pinned signature, the default
// opening book), and creating the directories an output file needs. Defaults are looked for, in
// this order:
//   1. $TSLAB_DATA, when set (nothing else is tried);
//   2. the tslab checkout containing the current directory (a developer at work);
//   3. the checkout containing the running program (build/bench started from elsewhere);
//   4. the installed data beside the program, <bin>/../share/tslab (`make install`).
// Files the user names on the command line are never looked up: they are paths as given.
#pragma once

#include "error.h"

#include <stdbool.h>
#include <stddef.h>

#define PATHS_MAX 4096

/* The default data file `relative` (e.g. "bench/positions.txt") into out: the short relative
 * form when the current directory is the data root, else an absolute path. Returns false with
 * err saying where it looked when no data root has the file. */
bool paths_data_file(const char *relative, char *out, size_t size, Error *err);

/* Whether a data root was found (any of the four above): without one, a tool may fall back on
 * data compiled into it (the bench suite). */
bool paths_has_data_root(void);

/* Where the default data file `relative` goes (whether or not it exists yet): the data root's
 * copy. For tools that create defaults (`bench tbgen`). */
bool paths_data_target(const char *relative, char *out, size_t size, Error *err);

/* The tablebase to open: `given` when not NULL, else the default TB_DEFAULT_FILE under the data
 * root; when that is missing, err says where it looked and how to build it (`make tablebase`). */
bool paths_tablebase(const char *given, char *out, size_t size, Error *err);

/* One line for -help saying where defaults come from, e.g.
 * "defaults: /opt/tslab/share/tslab (installed beside the program; TSLAB_DATA overrides)". */
void paths_describe_defaults(char *out, size_t size);

/* True when a and b name the same file: the same inode if both exist, else the same resolved
 * directory and name. */
bool paths_same_file(const char *a, const char *b);

/* Creates the directories above path that do not exist yet (mkdir -p of its directory part).
 * Fails with the directory and the system's reason. */
bool paths_make_parent(const char *path, Error *err);
