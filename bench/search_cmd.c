// SPDX-License-Identifier: MIT
// `bench search -fen POSITION [key=value ...] [-json FILE]`: one search, reported in full.
#include "search_cmd.h"

#include "bench_args.h"
#include "cli.h"
#include "describe.h"
#include "flags.h"
#include "output.h"
#include "tb_shared.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEARCH_DEFAULT_DEPTH 8

#define TEXT(x) #x
#define NUMBER_TEXT(x) TEXT(x)
static const char search_synopsis[] =
    "usage: bench search [-fen POSITION] [key=value ...] [-json FILE]\n"
    "  Searches one position (default: the start) and prints the best move, the score\n"
    "  (tigers' view), the depth, the principal variation, nodes, time and counters.\n"
    "  With no limit given, depth=" NUMBER_TEXT(SEARCH_DEFAULT_DEPTH) ".\n";

int bench_search_main(int argc, char **argv) {
    SearchConfig config = config_default();
    const char *fen = NULL, *json_path = NULL;
    Error err;
    const CliFlag flags[] = {
        {"-fen", CLI_FLAG_TEXT, &fen, 0, 0, "POSITION", "the position (default: the start)"},
        {"-json", CLI_FLAG_TEXT, &json_path, 0, 0, "FILE",
         "also write the result as JSON ('-': stdout)"},
    };
    CliCommand command = {.name = "search",
                          .subcommand = "search",
                          .synopsis = search_synopsis,
                          .flags = flags,
                          .count = sizeof flags / sizeof flags[0]};
    if (!bench_parse_search_command(&command, argc, argv, &config, SEARCH_DEFAULT_DEPTH))
        return 0;
    Board root = board_start();
    if (fen && !board_from_text(fen, &root, &err))
        die("search: -fen '%s': %s", fen, err.text);
    OutputPlan plan; /* checked before the search */
    if (!output_plan_single(&plan, "-json", json_path, &err))
        die("search: %s", err.text);

    Searcher *searcher = malloc(sizeof *searcher);
    if (!searcher)
        die("search: out of memory");
    if (!cli_searcher_init(searcher, &config, &err))
        die("search: %s", err.text);
    SearchResult result = search_run(searcher, &root, NULL, 0);
    searcher_destroy(searcher);
    free(searcher);
    if (result.failed)
        die("search: out of memory in the search");

    FILE *out = bench_table_stream(json_path); /* keep stdout pure JSON with -json - */
    char text[BOARD_TEXT_MAX], move[MOVE_TEXT_MAX], win[32], pv[SEARCH_MAX_PLY * 7];
    char config_text[512];
    config_to_text(&config, config_text, sizeof config_text);
    fprintf(out, "position: %s\n", board_to_text(&root, text));
    fprintf(out, "config:   %s\n", config_text);
    fprintf(out, "move:     %s\n", move_to_text(result.move, move));
    fprintf(out, "score:    %d%s%s\n", result.score, result.win ? "  " : "",
            describe_win_text(&result, win));
    fprintf(out, "depth:    %d%s\n", result.depth, result.stopped ? " (a deeper pass was cut short)" : "");
    fprintf(out, "pv:       %s\n", describe_moves_text(result.pv, result.pv_length, pv, sizeof pv));
    fprintf(out, "nodes:    %" PRIu64 "  time %.3f s  %.0f nodes/s\n", result.stats.nodes,
            result.seconds, result.seconds > 0 ? (double)result.stats.nodes / result.seconds : 0);
    for (size_t i = 0; i < STATS_FIELD_COUNT; i++)
        fprintf(out, "  %-22s %" PRIu64 "\n", STATS_FIELDS[i].name,
                stats_get(&result.stats, &STATS_FIELDS[i]));
    fprintf(out, "  cache hit rate         %.1f%%\n  first-move cutoffs     %.1f%%\n",
            100 * stats_hit_rate(&result.stats), 100 * stats_first_cutoff_rate(&result.stats));
    if (json_path) {
        cJSON *json = describe_search_json(&result);
        cJSON_AddStringToObject(json, "position", text);
        cJSON_AddItemToObject(json, "config", describe_config_json(&config));
        bench_write_json(&plan, json, json_path, "search");
    }
    return 0;
}
