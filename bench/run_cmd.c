// SPDX-License-Identifier: MIT
// The suite run (`bench`), `bench pin` and `bench check`: pinning every best move and score of
// the suite in a signature file and checking a build against it.
#include "commands.h"

#include "cli.h"
#include "report.h"
#include "suite.h"

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

static const char check_usage[] =
    "usage: bench check [FILE] [-threads N] [-json FILE]\n"
    "  Re-runs what the signature file (default " BENCH_DEFAULT_SIGNATURE ") says and compares.\n"
    "  Exit 0 when every move and score matches; otherwise lists each change and exits 1.\n"
    "  Changed node counts are reported but are not a failure.\n";

/* The depth of a run: -depth, else depth= among the options, else the bench default. */
static SearchConfig effective_config(const BenchArgs *args) {
    SearchConfig config = args->config;
    if (args->depth)
        config.depth = args->depth;
    else if (config.depth == 0)
        config.depth = BENCH_DEFAULT_DEPTH;
    return config;
}

int bench_run_main(int argc, char **argv) {
    BenchArgs args;
    bench_parse_args("bench", argc, argv, false, false, run_usage, &args);
    SearchConfig config = effective_config(&args);
    Book book;
    bench_load_positions(args.positions, &book);
    BenchRun run;
    Error err;
    if (!bench_run(book.entries, book.count, &config, args.threads, &run, &err))
        die("%s", err.text);
    bench_print_run(&run, bench_table_stream(args.json));
    if (args.json) {
        cJSON *json = bench_run_json(&run);
        cJSON_AddStringToObject(json, "positions_file", args.positions);
        cJSON_AddNumberToObject(json, "threads", args.threads);
        bench_write_json(json, args.json, "bench");
    }
    bench_run_free(&run);
    book_free(&book);
    return 0;
}

int bench_pin_main(int argc, char **argv) {
    BenchArgs args;
    bench_parse_args("pin", argc, argv, true, false, pin_usage, &args);
    SearchConfig config = effective_config(&args);
    const char *out = args.out ? args.out : BENCH_DEFAULT_SIGNATURE;
    Book book;
    bench_load_positions(args.positions, &book);
    BenchRun run;
    Error err;
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
    bench_write_json(json, out, "pin");
    printf("pinned %d positions at depth %d to %s\nsignature: %s\nnodes: %" PRIu64 "\n",
           run.count, config.depth, out, hex, run.total.nodes);
    bench_run_free(&run);
    book_free(&book);
    return 0;
}

/* One pinned position. */
typedef struct {
    char move[MOVE_TEXT_MAX];
    int score;
    double nodes;
} Pinned;

static const char *json_string(const cJSON *object, const char *key, const char *path, int index) {
    const char *value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(object, key));
    if (!value)
        die("check: %s: position %d: missing string \"%s\"", path, index, key);
    return value;
}

static double json_number(const cJSON *object, const char *key, const char *path, int index) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsNumber(item))
        die("check: %s: %s%d: missing number \"%s\"", path, index >= 0 ? "position " : "",
            index, key);
    return item->valuedouble;
}

static char *read_whole_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        die("check: %s: cannot open: %s", path, strerror(errno));
    char *text = NULL;
    size_t length = 0, capacity = 0;
    for (;;) {
        if (length + 4096 + 1 > capacity) {
            capacity = capacity ? capacity * 2 : 65536;
            char *grown = realloc(text, capacity);
            if (!grown)
                die("check: %s: out of memory", path);
            text = grown;
        }
        size_t got = fread(text + length, 1, capacity - length - 1, f);
        length += got;
        if (got == 0)
            break;
    }
    fclose(f);
    text[length] = '\0';
    return text;
}

int bench_check_main(int argc, char **argv) {
    BenchArgs args;
    bench_parse_args("check", argc, argv, false, true, check_usage, &args);
    if (args.has_config_tokens || args.depth || strcmp(args.positions, BENCH_DEFAULT_POSITIONS))
        die("check: the signature file says what to run; options other than -threads and -json "
            "are not allowed");
    const char *path = args.file ? args.file : BENCH_DEFAULT_SIGNATURE;
    char *text = read_whole_file(path);
    cJSON *pin = cJSON_Parse(text);
    free(text);
    if (!pin)
        die("check: %s: not valid JSON (near: %.30s)", path, cJSON_GetErrorPtr());

    /* The configuration and positions come from the file itself. */
    SearchConfig config = config_default();
    char config_text[1024];
    snprintf(config_text, sizeof config_text, "%s", json_string(pin, "config", path, -1));
    Error err;
    for (char *token = strtok(config_text, " "); token; token = strtok(NULL, " "))
        if (!config_apply(&config, token, &err))
            die("check: %s: config: %s", path, err.text);
    config.depth = (int)json_number(pin, "depth", path, -1);
    const cJSON *positions = cJSON_GetObjectItemCaseSensitive(pin, "positions");
    int count = cJSON_GetArraySize(positions);
    if (!cJSON_IsArray(positions) || count == 0)
        die("check: %s: no \"positions\" array", path);
    BookEntry *entries = calloc((size_t)count, sizeof *entries);
    Pinned *pinned = calloc((size_t)count, sizeof *pinned);
    if (!entries || !pinned)
        die("check: out of memory");
    for (int i = 0; i < count; i++) {
        const cJSON *row = cJSON_GetArrayItem(positions, i);
        snprintf(entries[i].id, sizeof entries[i].id, "%s", json_string(row, "id", path, i));
        const char *position = json_string(row, "position", path, i);
        if (!board_from_text(position, &entries[i].board, &err))
            die("check: %s: position %d (%s): %s", path, i, entries[i].id, err.text);
        snprintf(pinned[i].move, sizeof pinned[i].move, "%s", json_string(row, "move", path, i));
        pinned[i].score = (int)json_number(row, "score", path, i);
        pinned[i].nodes = json_number(row, "nodes", path, i);
    }
    double pinned_nodes = json_number(pin, "nodes", path, -1);
    char pinned_signature[32];
    snprintf(pinned_signature, sizeof pinned_signature, "%s", json_string(pin, "signature", path, -1));
    cJSON_Delete(pin);

    BenchRun run;
    if (!bench_run(entries, count, &config, args.threads, &run, &err))
        die("check: %s", err.text);
    FILE *out = bench_table_stream(args.json);
    cJSON *changed = cJSON_CreateArray();
    int node_changes = 0;
    for (int i = 0; i < count; i++) {
        char move[MOVE_TEXT_MAX];
        const SearchResult *r = &run.rows[i].result;
        move_to_text(r->move, move);
        node_changes += (double)r->stats.nodes != pinned[i].nodes;
        if (!strcmp(move, pinned[i].move) && r->score == pinned[i].score)
            continue;
        fprintf(out, "changed: %-8s move %s -> %s, score %d -> %d\n", entries[i].id,
                pinned[i].move, move, pinned[i].score, r->score);
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "id", entries[i].id);
        cJSON_AddStringToObject(row, "old_move", pinned[i].move);
        cJSON_AddStringToObject(row, "new_move", move);
        cJSON_AddNumberToObject(row, "old_score", pinned[i].score);
        cJSON_AddNumberToObject(row, "new_score", r->score);
        cJSON_AddItemToArray(changed, row);
    }
    int changes = cJSON_GetArraySize(changed);
    double ratio = pinned_nodes > 0 ? (double)run.total.nodes / pinned_nodes : 0;
    char hex[17];
    fprintf(out, "checked %d positions at depth %d against %s\n", count, config.depth, path);
    fprintf(out, "nodes: %" PRIu64 " (pinned %.0f, ratio %.4f; %d positions changed node count)\n",
            run.total.nodes, pinned_nodes, ratio, node_changes);
    fprintf(out, "signature: %s (pinned %s)\n", bench_hex(run.signature, hex), pinned_signature);
    fprintf(out, "%s\n", changes ? "FAILED: moves or scores changed (re-pin if intended)"
                                 : "ok: every move and score unchanged");
    if (args.json) {
        cJSON *json = cJSON_CreateObject();
        cJSON_AddBoolToObject(json, "ok", changes == 0);
        cJSON_AddItemToObject(json, "changed", changed);
        cJSON_AddStringToObject(json, "signature", hex);
        cJSON_AddStringToObject(json, "pinned_signature", pinned_signature);
        cJSON_AddNumberToObject(json, "nodes", (double)run.total.nodes);
        cJSON_AddNumberToObject(json, "pinned_nodes", pinned_nodes);
        cJSON_AddNumberToObject(json, "node_ratio", ratio);
        cJSON_AddNumberToObject(json, "node_changes", node_changes);
        bench_write_json(json, args.json, "check");
    } else {
        cJSON_Delete(changed);
    }
    bench_run_free(&run);
    free(entries);
    free(pinned);
    return changes ? 1 : 0;
}
