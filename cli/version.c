// SPDX-License-Identifier: MIT
#include "version.h"

#ifndef TSLAB_GIT_COMMIT
#define TSLAB_GIT_COMMIT "unknown"
#endif

#ifndef TSLAB_SOURCE_ID
#define TSLAB_SOURCE_ID "unknown"
#endif

const char *version_git_commit(void) { return TSLAB_GIT_COMMIT; }

const char *version_source_id(void) { return TSLAB_SOURCE_ID; }

const char *version_text(void) { return "tslab " TSLAB_VERSION " (git " TSLAB_GIT_COMMIT ")"; }
