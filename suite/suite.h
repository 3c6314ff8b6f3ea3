// SPDX-License-Identifier: MIT
// The bench suite, shared by bench and the engine: every position searched to a fixed depth from
// an empty cache, on N threads with results identical to one thread; the signature; the default
// suite and signature file, found on disk or built in.
#pragma once

#include "flags.h"

#include "book.h"
#include "config.h"
#include "paths.h"
#include "pinfile.h"
#include "search.h"
#include "tb_accuracy.h"

#include <cJSON.h>
#include <stdio.h>

/* Depth 10 since tslab 0.4, whose default has no pruning: 25.9 M nodes, 1.4x the CPU time of the
 * 0.3 default's bench at depth 11 (9.4 M nodes); at depth 11 it would be 74.5 M nodes and 3.3x.
 * Every engine program runs this bench at the start of a match (docs/bench.md has the runs). */
#define BENCH_DEFAULT_DEPTH 10
#define BENCH_DEFAULT_POSITIONS "bench/positions.txt"
#define BENCH_DEFAULT_SIGNATURE "bench/signature.json"
/* How the copies compiled into the program are named (in messages, JSON and pinned files). */
#define BENCH_BUILT_IN_POSITIONS "bench/positions.txt (built in)"
#define BENCH_BUILT_IN_SIGNATURE "bench/signature.json (built in)"

typedef struct {
    BookEntry entry;
    SearchResult result;
} BenchRow;

typedef struct BenchRun {
    SearchConfig config; /* depth included */
    BenchRow *rows;
    int count;
    SearchStats total;
    double wall_seconds;
    double cpu_seconds; /* of the whole process while the run lasted: every worker thread */
    uint64_t signature;
    BenchTbAccuracy tablebase; /* the sliding-phase positions against the default tablebase */
} BenchRun;

/* Searches entries[0..count) with config on threads workers (each with its own Searcher).
 * Results land in run->rows in entry order whatever the thread count. run->tablebase is left
 * unmeasured: bench_measure_tablebase fills it where it is shown (opening the tablebase costs a
 * program's bench 0.2 s of its 0.3 s at depth 6). */
bool bench_run(const BookEntry *entries, int count, const SearchConfig *config, int threads,
               BenchRun *run, Error *err);
void bench_run_destroy(BenchRun *run);

/* When the default tablebase is there, run->tablebase says how many of the run's sliding-phase
 * moves keep their value. */
void bench_measure_tablebase(BenchRun *run);

/* FNV-1a over "id move score\n" of every row: 16 hex digits pin every move and score. */
uint64_t bench_signature(const BenchRow *rows, int count);

/* The per-position table (of the positions read from source) and the totals (on out), then
 * Stockfish's summary on stderr, last:
 *   ===========================
 *   Total time (ms) : 5939
 *   Nodes searched  : 71420524
 *   Nodes/second    : 12025888
 * fishtest reads the first two from stderr; OpenBench reads nodes and nodes/second from the
 * last matching lines of stdout and stderr together. */
void bench_print_run(const BenchRun *run, const char *source, FILE *out);

/* Stockfish's three summary lines alone (after a line of '='), on out. */
void bench_print_summary(const BenchRun *run, FILE *out);

/* The run as JSON: signature, nodes, depth, config, positions (id, position, move, score, depth,
 * nodes, seconds, stats), totals. */
cJSON *bench_run_json(const BenchRun *run);

/* The default suite: bench/positions.txt where paths_data_file finds it (a checkout, an
 * installation, TSLAB_DATA), else, when there is no data root at all, the copy compiled into the
 * program (embedded.h); source names which. False with the message when the file is unreadable
 * or the data root found lacks it (TSLAB_DATA naming another directory, say). */
bool bench_default_suite(Book *book, char *source, size_t size, Error *err);

/* The default signature file, found or built in alike. */
bool bench_default_pin(PinFile *pin, char *source, size_t size, Error *err);




/* Where default data files come from, a line. */
void bench_print_defaults(FILE *out);

/* After a command's options in -help: bench_print_defaults, and the search options. */
void bench_print_usage_tail(FILE *out);

/* Prints a command's usage, then bench_print_usage_tail, on stdout. */
void bench_print_usage(const char *usage);

/* Loads the positions file or dies with the file:line message. */
void bench_load_positions(const char *path, Book *book);



/* The config hash as 16 hex digits. */
char *bench_hex(uint64_t value, char out[17]);
