// SPDX-License-Identifier: MIT
// The suite run (`bench`) and `bench pin`, which pins every best move, score and node count of
// the suite in a signature file (check_cmd.c checks a build against it). `bench bench`, the
// suite with Stockfish's arguments, is suite/stockfish_bench.c.
#include "run_cmd.h"

#include "cli.h"
#include "describe.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char run_usage[] =
    "usage: bench [-depth N] [-positions FILE] [key=value ...] [-threads N] [-json FILE]\n"
    "  Searches every position of the suite to a fixed depth, each from an empty cache, and\n"
    "  prints a table, the totals and the signature (a hash of every id, best move and score).\n";

static const char pin_usage[] =
    "usage: bench pin [-out FILE] [-depth N] [-positions FILE] [key=value ...] [-threads N]\n"
    "  Runs the suite and writes the signature file (default " BENCH_DEFAULT_SIGNATURE "):\n"
    "  depth, configuration, and per position id, position, best move, score and nodes.\n";

/* The depth of a run: -depth, else depth= among the options, else the bench default. */
static SearchConfig effective_config(const BenchArgs *args) {
    SearchConfig config = args->config;
    if (args->depth)
        config.depth = args->depth;
    else if (config.depth == 0)
        config.depth = BENCH_DEFAULT_DEPTH;
    return config;
}

/* Runs the suite (the positions of args, config's depth), prints it, and writes -json when
 * asked. Returns the exit code. */
static int run_suite(BenchArgs *args_in, const SearchConfig *config_in) {
    BenchArgs args = *args_in;
    SearchConfig config = *config_in;
    Book book;
    bench_load_suite(&args, &book);
    BenchRun run;
    Error err;
    if (!bench_run(book.entries, book.count, &config, args.threads, &run, &err))
        die("%s", err.text);
    bench_measure_tablebase(&run);
    bench_print_run(&run, args.positions, bench_table_stream(args.json));
    if (args.json) {
        cJSON *json = bench_run_json(&run);
        cJSON_AddStringToObject(json, "positions_file", args.positions);
        cJSON_AddNumberToObject(json, "threads", args.threads);
        bench_write_json(&args.plan, json, args.json, "bench");
    }
    bench_run_destroy(&run);
    book_destroy(&book);
    return 0;
}

int bench_run_main(int argc, char **argv) {
    BenchArgs args;
    const BenchCommand command = {.name = "bench", .usage = run_usage};
    bench_parse_args(&command, argc, argv, &args);
    SearchConfig config = effective_config(&args);
    return run_suite(&args, &config);
}


int bench_pin_main(int argc, char **argv) {
    BenchArgs args;
    const BenchCommand command = {.name = "pin", .usage = pin_usage, .allow_out = true};
    bench_parse_args(&command, argc, argv, &args);
    SearchConfig config = effective_config(&args);
    char default_out[PATHS_MAX];
    const char *out = bench_file_or_default(args.out, BENCH_DEFAULT_SIGNATURE, default_out);
    Book book;
    bench_load_suite(&args, &book);
    BenchRun run;
    Error err;
    /* The default signature file, and the suite read, join the plan before the search. */
    if (!args.out)
        output_plan_add(&args.plan, "-out", out, NULL);
    output_plan_input(&args.plan, "the suite", args.positions);
    if (!output_plan_check(&args.plan, &err))
        die("pin: %s", err.text);
    if (!bench_run(book.entries, book.count, &config, args.threads, &run, &err))
        die("pin: %s", err.text);
    char hex[17], config_text[512], position[BOARD_TEXT_MAX], move[MOVE_TEXT_MAX];
    config_to_text(&config, config_text, sizeof config_text);
    cJSON *json = cJSON_CreateObject();
    cJSON_AddNumberToObject(json, "format", 1);
    cJSON_AddStringToObject(json, "signature", bench_hex(run.signature, hex));
    cJSON_AddNumberToObject(json, "depth", config.depth);
    cJSON_AddStringToObject(json, "config", config_text);
    cJSON_AddStringToObject(json, "positions_file", args.positions);
    cJSON_AddNumberToObject(json, "nodes", (double)run.total.nodes);
    cJSON *positions = cJSON_AddArrayToObject(json, "positions");
    for (int i = 0; i < run.count; i++) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "id", run.rows[i].entry.id);
        cJSON_AddStringToObject(row, "position", board_to_text(&run.rows[i].entry.board, position));
        cJSON_AddStringToObject(row, "move", move_to_text(run.rows[i].result.move, move));
        cJSON_AddNumberToObject(row, "score", run.rows[i].result.score);
        cJSON_AddNumberToObject(row, "nodes", (double)run.rows[i].result.stats.nodes);
        cJSON_AddItemToArray(positions, row);
    }
    bench_write_json(&args.plan, json, out, "pin");
    printf("pinned %d positions at depth %d to %s\nsignature: %s\nnodes: %" PRIu64 "\n"
           "Bench: %" PRIu64 "   (the line for the commit message)\n",
           run.count, config.depth, out, hex, run.total.nodes, run.total.nodes);
    bench_run_destroy(&run);
    book_destroy(&book);
    return 0;
}

