// SPDX-License-Identifier: MIT
// The tools' version and the git commit they were built from (compiled into version.o alone, so
// a new commit only relinks).
#pragma once

#define TSLAB_VERSION "0.5.0"

/* The commit the build came from: 12 hex digits, "-dirty" appended when the tree had
 * uncommitted changes, or "unknown" outside a git checkout. */
const char *version_git_commit(void);

/* The identity of the code this build plays with: 16 hex digits of a hash of every source file,
 * the compiler's version and the flags (Makefile), or "unknown" for a build made without it. */
const char *version_source_id(void);

/* "tslab 0.4.0 (git 0123456789ab)", for -version and reports. */
const char *version_text(void);
