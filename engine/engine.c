// SPDX-License-Identifier: MIT
// build/engine (installed as tslab-engine): the search core behind the engine protocol on
// stdin/stdout (engine/protocol.h, docs/engine.md). `engine bench [ttSize threads limit fenFile
// limitType]` runs the bench suite with Stockfish's arguments and exits, as frameworks expect.
#include "protocol.h"

#include "cli.h"
#include "stockfish_bench.h"
#include "version.h"

#include <stdio.h>
#include <string.h>

static const char engine_usage[] =
    "usage: engine                 speak the engine protocol on stdin/stdout (docs/engine.md)\n"
    "       engine bench [ttSize] [threads] [limit] [fenFile] [limitType]\n"
    "                              the bench suite with Stockfish's arguments, then exit\n"
    "       engine -version\n";

int main(int argc, char **argv) {
    cli_init(argv[0]);
    if (argc >= 2 && !strcmp(argv[1], "bench"))
        return bench_stockfish_main(argc - 2, argv + 2);
    if (argc >= 2 && (!strcmp(argv[1], "-version") || !strcmp(argv[1], "--version"))) {
        printf("%s\n", version_text());
        return 0;
    }
    if (argc >= 2 && (!strcmp(argv[1], "-help") || !strcmp(argv[1], "--help"))) {
        fputs(engine_usage, stdout);
        return 0;
    }
    if (argc >= 2)
        die("unknown argument '%s'\n%s", argv[1], engine_usage);
    EngineSession session;
    Error err;
    if (!protocol_init(&session, stdout, &err))
        die("%s", err.text);
    protocol_run(&session, stdin);
    protocol_destroy(&session);
    return 0;
}
