// SPDX-License-Identifier: MIT
// The tools' one copy of the default tablebase (docs/tablebase.md): opened on first use, checked
// once, shared read-only by every searcher and worker of the process.
#pragma once

#include "search.h"
#include "tablebase.h"

/* The default tablebase (paths_tablebase), opened once per process; thread-safe. NULL with err
 * saying where it looked and how to build it (`make tablebase`) when it is missing or damaged. */
const Tablebase *cli_tablebase(Error *err);

/* searcher_init, then, when config->egdb is on, the default tablebase attached; false with err
 * when egdb=on finds no tablebase. */
bool cli_searcher_init(Searcher *searcher, const SearchConfig *config, Error *err);
