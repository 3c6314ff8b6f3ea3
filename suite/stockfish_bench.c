// SPDX-License-Identifier: MIT
// `bench bench [ttSize] [threads] [limit] [fenFile] [limitType]`: the suite run with Stockfish's
// positional arguments, so that frameworks that run `./engine bench` (OpenBench) or
// `./engine bench 16 1 13 default depth` (fishtest) get what they expect.
#include "stockfish_bench.h"

#include "cli.h"
#include "parse.h"
#include "suite.h"

#include <stdio.h>
#include <string.h>

/* A table slot is 16 bytes, so a megabyte holds 2^16 of them. */
#define SLOTS_PER_MB_BITS 16

static const char stockfish_usage[] =
    "usage: bench bench [ttSize] [threads] [limit] [fenFile] [limitType]\n"
    "  The suite run with Stockfish's arguments, in Stockfish's order:\n"
    "  ttSize     MB of cache table (default 16 = 2^20 slots of 16 bytes, tt_bits=20); rounded\n"
    "             down to a power of two\n"
    "  threads    positions searched in parallel (default 1); unlike Stockfish, each search is\n"
    "             single-threaded, so results and node counts do not depend on it\n"
    "  limit      the depth (default 10), the nodes or the milliseconds per position\n"
    "  fenFile    default (the suite) or a positions file; 'current' does not apply (a tool\n"
    "             has no current position)\n"
    "  limitType  depth (default), nodes or movetime; movetime results depend on the machine;\n"
    "             perft and eval do not apply (see bench perft, bench search)\n"
    "  Prints the table and, last, on stderr: Total time (ms), Nodes searched, Nodes/second.\n";

/* floor(log2(megabytes)) + 16: the table bits for a size in MB. */
static int tt_bits_for_megabytes(int megabytes) {
    int bits = 0;
    while ((2 << bits) <= megabytes)
        bits++;
    return bits + SLOTS_PER_MB_BITS;
}

bool bench_stockfish_parse(int argc, char **argv, SearchConfig *config, int *threads,
                           const char **positions, bool *current, Error *err) {
    Error inner;
    *positions = NULL;
    *current = false;
    if (argc > 5)
        return error_set(err, "at most 5 arguments (ttSize threads limit fenFile limitType)");
    int megabytes;
    if (argc > 0) {
        if (!parse_int(argv[0], 1, 1 << 20, &megabytes, &inner))
            return error_set(err, "ttSize: %s", inner.text);
        config->tt_bits = tt_bits_for_megabytes(megabytes);
        const OptionSpec *bits = config_find("tt_bits");
        if (config->tt_bits > bits->max)
            return error_set(err, "ttSize %d MB: at most %lld MB (tt_bits=%lld)", megabytes,
                             1LL << (bits->max - SLOTS_PER_MB_BITS), (long long)bits->max);
    }
    if (argc > 1 && !parse_int(argv[1], 1, 1024, threads, &inner))
        return error_set(err, "threads: %s", inner.text);
    int64_t limit = BENCH_DEFAULT_DEPTH;
    if (argc > 2 && !parse_int64(argv[2], 1, INT64_C(1) << 40, &limit, &inner))
        return error_set(err, "limit: %s", inner.text);
    if (argc > 3 && strcmp(argv[3], "default")) {
        if (!strcmp(argv[3], "current"))
            *current = true;
        else
            *positions = argv[3];
    }
    const char *type = argc > 4 ? argv[4] : "depth";
    config->depth = 0;
    config->nodes = 0;
    config->movetime = 0;
    if (!strcmp(type, "depth")) {
        if (limit > SEARCH_MAX_DEPTH)
            return error_set(err, "depth %lld: at most %d", (long long)limit, SEARCH_MAX_DEPTH);
        config->depth = (int)limit;
    } else if (!strcmp(type, "nodes")) {
        config->nodes = limit;
    } else if (!strcmp(type, "movetime")) {
        config->movetime = limit;
    } else if (!strcmp(type, "perft") || !strcmp(type, "eval")) {
        return error_set(err, "limitType %s does not apply here (perft: bench perft DEPTH; a "
                              "position's evaluation: bench search depth=1)", type);
    } else {
        return error_set(err, "limitType '%s' is not one of depth, nodes, movetime", type);
    }
    return true;
}

int bench_stockfish_main(int argc, char **argv) {
    if (argc > 0 && (!strcmp(argv[0], "-help") || !strcmp(argv[0], "--help"))) {
        bench_print_usage(stockfish_usage);
        return 0;
    }
    int threads = 1;
    const char *positions;
    bool current;
    SearchConfig config = config_default();
    config.tt_bits = tt_bits_for_megabytes(16);
    Error err;
    if (!bench_stockfish_parse(argc, argv, &config, &threads, &positions, &current, &err))
        die("%s\n%s", err.text, stockfish_usage);
    if (current)
        die("fenFile 'current' does not apply: a tool has no current position "
            "(give a positions file, or use bench search -fen POSITION)");
    Book book;
    char source[PATHS_MAX];
    if (positions) {
        bench_load_positions(positions, &book);
        snprintf(source, sizeof source, "%s", positions);
    } else if (!bench_default_suite(&book, source, sizeof source, &err)) {
        die("%s", err.text);
    }
    BenchRun run;
    if (!bench_run(book.entries, book.count, &config, threads, &run, &err))
        die("%s", err.text);
    bench_measure_tablebase(&run);
    bench_print_run(&run, source, stdout);
    bench_run_destroy(&run);
    book_destroy(&book);
    return 0;
}
