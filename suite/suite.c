// SPDX-License-Identifier: MIT
#include "suite.h"

#include "cli.h"
#include "describe.h"
#include "embedded.h"
#include "flags.h"
#include "output.h"
#include "parse.h"
#include "tb_shared.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const BookEntry *entries;
    BenchRow *rows;
    int count;
    const SearchConfig *config;
    atomic_int next;  /* the next position to search: workers take them in turn */
    atomic_bool failed;
    Error err;        /* the first worker failure, written once under failed */
} SuiteJob;

static void *worker(void *arg) {
    SuiteJob *job = arg;
    Searcher *searcher = malloc(sizeof *searcher);
    Error err;
    if (!searcher || !cli_searcher_init(searcher, job->config, &err)) {
        if (!atomic_exchange(&job->failed, true))
            job->err = searcher ? err : (Error){"out of memory for a searcher"};
        free(searcher);
        return NULL;
    }
    for (int i; (i = atomic_fetch_add(&job->next, 1)) < job->count;) {
        job->rows[i].entry = job->entries[i];
        job->rows[i].result = search_run(searcher, &job->entries[i].board, NULL, 0);
        if (job->rows[i].result.failed && !atomic_exchange(&job->failed, true)) {
            error_set(&job->err, "%s: out of memory in the search", job->entries[i].id);
            break;
        }
    }
    searcher_destroy(searcher);
    free(searcher);
    return NULL;
}

bool bench_run(const BookEntry *entries, int count, const SearchConfig *config, int threads,
               BenchRun *run, Error *err) {
    memset(run, 0, sizeof *run);
    run->config = *config;
    run->count = count;
    run->rows = calloc((size_t)count, sizeof *run->rows);
    if (!run->rows)
        return error_set(err, "out of memory for %d results", count);
    SuiteJob job = {.entries = entries, .rows = run->rows, .count = count, .config = config};
    atomic_init(&job.next, 0);
    atomic_init(&job.failed, false);
    if (threads < 1)
        threads = 1;
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    if (!ids)
        return error_set(err, "out of memory for %d threads", threads);
    double start = cli_now_seconds(), cpu_start = cli_cpu_seconds();
    int started = 0;
    for (; started < threads; started++)
        if (pthread_create(&ids[started], NULL, worker, &job) != 0)
            break;
    for (int t = 0; t < started; t++)
        pthread_join(ids[t], NULL);
    free(ids);
    run->wall_seconds = cli_now_seconds() - start;
    run->cpu_seconds = cli_cpu_seconds() - cpu_start;
    if (started == 0)
        return error_set(err, "cannot start a thread");
    if (atomic_load(&job.failed)) {
        *err = job.err;
        return false;
    }
    for (int i = 0; i < count; i++)
        stats_add(&run->total, &run->rows[i].result.stats);
    run->signature = bench_signature(run->rows, count);
    return true;
}

void bench_measure_tablebase(BenchRun *run) {
    bench_tb_accuracy(run, cli_tablebase(NULL), &run->tablebase);
}

void bench_run_destroy(BenchRun *run) {
    free(run->rows);
    run->rows = NULL;
}

uint64_t bench_signature(const BenchRow *rows, int count) {
    uint64_t hash = 0xcbf29ce484222325ull;
    for (int i = 0; i < count; i++) {
        char line[BOOK_ID_MAX + MOVE_TEXT_MAX + 32], move[MOVE_TEXT_MAX];
        snprintf(line, sizeof line, "%s %s %d\n", rows[i].entry.id,
                 move_to_text(rows[i].result.move, move), rows[i].result.score);
        for (const char *p = line; *p; p++)
            hash = (hash ^ (unsigned char)*p) * 0x100000001b3ull;
    }
    return hash;
}

char *bench_hex(uint64_t value, char out[17]) {
    snprintf(out, 17, "%016" PRIx64, value);
    return out;
}

static double percent(uint64_t part, uint64_t whole) {
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void bench_print_run(const BenchRun *run, const char *source, FILE *out) {
    char config_text[512], hex[17];
    config_to_text(&run->config, config_text, sizeof config_text);
    fprintf(out, "bench: %d positions from %s, depth %d\nconfig: %s (hash %s)\n\n", run->count,
            source, run->config.depth, config_text, bench_hex(config_hash(&run->config), hex));
    fprintf(out, "%-8s %-6s %7s %5s %11s %8s %6s %9s %6s\n", "id", "move", "score", "depth",
            "nodes", "ms", "hit%", "cutoffs", "first%");
    for (int i = 0; i < run->count; i++) {
        const SearchResult *r = &run->rows[i].result;
        char move[MOVE_TEXT_MAX];
        fprintf(out, "%-8s %-6s %7d %5d %11" PRIu64 " %8.1f %6.1f %9" PRIu64 " %6.1f\n",
                run->rows[i].entry.id, move_to_text(r->move, move), r->score, r->depth,
                r->stats.nodes, r->seconds * 1000, 100 * stats_hit_rate(&r->stats),
                r->stats.cutoffs, 100 * stats_first_cutoff_rate(&r->stats));
    }
    const SearchStats *t = &run->total;
    double nps = run->wall_seconds > 0 ? (double)t->nodes / run->wall_seconds : 0;
    fprintf(out, "\ntotals: %" PRIu64 " nodes in %.3f s, %.0f nodes/s\n", t->nodes,
            run->wall_seconds, nps);
    for (size_t i = 0; i < STATS_FIELD_COUNT; i++)
        if (strcmp(STATS_FIELDS[i].name, "nodes") && strcmp(STATS_FIELDS[i].name, "depth"))
            fprintf(out, "  %-22s %" PRIu64 "\n", STATS_FIELDS[i].name,
                    stats_get(t, &STATS_FIELDS[i]));
    fprintf(out, "  cache hit rate         %.1f%%\n", 100 * stats_hit_rate(t));
    fprintf(out, "  first-move cutoffs     %.1f%%\n", 100 * stats_first_cutoff_rate(t));
    fprintf(out, "  leaves per node        %.1f%%\n", percent(t->leaves, t->nodes));
    bench_tb_print(&run->tablebase, out);
    fprintf(out, "signature: %s\n", bench_hex(run->signature, hex));
    fflush(out);
    bench_print_summary(run, stderr);
}

void bench_print_summary(const BenchRun *run, FILE *out) {
    double nps = run->wall_seconds > 0 ? (double)run->total.nodes / run->wall_seconds : 0;
    fprintf(out, "===========================\nTotal time (ms) : %.0f\nNodes searched  : %" PRIu64
                 "\nNodes/second    : %.0f\n",
            run->wall_seconds * 1000, run->total.nodes, nps);
    fflush(out);
}

cJSON *bench_run_json(const BenchRun *run) {
    cJSON *json = cJSON_CreateObject();
    char hex[17], config_text[512], position[BOARD_TEXT_MAX];
    config_to_text(&run->config, config_text, sizeof config_text);
    cJSON_AddStringToObject(json, "signature", bench_hex(run->signature, hex));
    cJSON_AddNumberToObject(json, "nodes", (double)run->total.nodes);
    cJSON_AddNumberToObject(json, "depth", run->config.depth);
    cJSON_AddNumberToObject(json, "seconds", run->wall_seconds);
    cJSON_AddNumberToObject(json, "cpu_seconds", run->cpu_seconds);
    cJSON_AddNumberToObject(json, "nodes_per_second",
                            run->wall_seconds > 0 ? (double)run->total.nodes / run->wall_seconds
                                                  : 0);
    cJSON_AddStringToObject(json, "config_text", config_text);
    cJSON_AddStringToObject(json, "config_hash", bench_hex(config_hash(&run->config), hex));
    cJSON_AddItemToObject(json, "config", describe_config_json(&run->config));
    cJSON *positions = cJSON_AddArrayToObject(json, "positions");
    for (int i = 0; i < run->count; i++) {
        cJSON *row = describe_search_json(&run->rows[i].result);
        cJSON_AddStringToObject(row, "id", run->rows[i].entry.id);
        cJSON_AddStringToObject(row, "position",
                                board_to_text(&run->rows[i].entry.board, position));
        cJSON_AddItemToArray(positions, row);
    }
    cJSON_AddItemToObject(json, "totals", describe_stats_json(&run->total));
    cJSON_AddItemToObject(json, "tablebase", bench_tb_json(&run->tablebase));
    return json;
}

/* The default data file `relative` into path (true), or false with *built_in when there is no
 * data root to look in: then the copy compiled into the program serves. A data root without the
 * file (TSLAB_DATA naming another directory, a checkout missing it) is an error (false, err set,
 * *built_in false): there, a file is expected. */
static bool default_file(const char *relative, char path[PATHS_MAX], bool *built_in, Error *err) {
    *built_in = !paths_has_data_root();
    return !*built_in && paths_data_file(relative, path, PATHS_MAX, err);
}

bool bench_default_suite(Book *book, char *source, size_t size, Error *err) {
    char path[PATHS_MAX];
    bool built_in;
    if (default_file(BENCH_DEFAULT_POSITIONS, path, &built_in, err)) {
        snprintf(source, size, "%s", path);
        return book_load(book, path, true, err);
    }
    if (!built_in)
        return false;
    snprintf(source, size, "%s", BENCH_BUILT_IN_POSITIONS);
    return book_parse_text(book, BENCH_EMBEDDED_POSITIONS, BENCH_EMBEDDED_POSITIONS_SIZE,
                           BENCH_BUILT_IN_POSITIONS, true, err);
}

bool bench_default_pin(PinFile *pin, char *source, size_t size, Error *err) {
    char path[PATHS_MAX];
    bool built_in;
    if (default_file(BENCH_DEFAULT_SIGNATURE, path, &built_in, err)) {
        snprintf(source, size, "%s", path);
        return pinfile_load(path, pin, err);
    }
    if (!built_in)
        return false;
    snprintf(source, size, "%s", BENCH_BUILT_IN_SIGNATURE);
    return pinfile_parse(BENCH_EMBEDDED_SIGNATURE, BENCH_EMBEDDED_SIGNATURE_SIZE,
                         BENCH_BUILT_IN_SIGNATURE, pin, err);
}

void bench_print_defaults(FILE *out) {
    char defaults[PATHS_MAX + 128];
    paths_describe_defaults(defaults, sizeof defaults);
    fprintf(out, "%s\n", defaults);
}

void bench_print_usage_tail(FILE *out) {
    bench_print_defaults(out);
    describe_print_options(out);
}

void bench_print_usage(const char *usage) {
    fputs(usage, stdout);
    bench_print_usage_tail(stdout);
}

void bench_load_positions(const char *path, Book *book) {
    Error err;
    if (!book_load(book, path, true, &err))
        die("%s", err.text);
}
