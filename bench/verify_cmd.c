// SPDX-License-Identifier: MIT
// `bench verify [-depth N]`: every configuration of the exactness matrix (the exact options of
// the option table, combined) against plain minimax on every suite position.
#include "verify_cmd.h"

#include "bench_args.h"
#include "cli.h"
#include "describe.h"
#include "reference.h"

#include <stdlib.h>
#include <string.h>

#define VERIFY_DEFAULT_DEPTH 4 /* deeper, the repetition caveat (docs/search.md) can apply */

static const char verify_usage[] =
    "usage: bench verify [-depth N] [-positions FILE] [-threads N] [-json FILE]\n"
    "  For every configuration of the exactness matrix (each exact option of the option table\n"
    "  at each of its matrix values: cache kinds and policies, symmetry, killers, hint, jump\n"
    "  ordering, history, pvs, aspiration), checks every position's move and score against\n"
    "  plain minimax (default depth 4). A line per configuration; exit 1 on any difference.\n";

int bench_verify_main(int argc, char **argv) {
    BenchArgs args;
    const BenchCommand command = {.name = "verify", .usage = verify_usage};
    bench_parse_args(&command, argc, argv, &args);
    if (args.has_config_tokens)
        die("verify: it tries the combinations itself; no search options");
    int depth = args.depth ? args.depth : VERIFY_DEFAULT_DEPTH;
    Book book;
    bench_load_suite(&args, &book);
    FILE *out = bench_table_stream(args.json);

    int *scores = malloc((size_t)book.count * sizeof *scores);
    Move *moves = malloc((size_t)book.count * sizeof *moves);
    if (!scores || !moves)
        die("verify: out of memory");
    SearchConfig plain = config_default();
    for (int i = 0; i < book.count; i++)
        if (!search_reference(&plain, &book.entries[i].board, depth, NULL, 0, &scores[i],
                              &moves[i], NULL))
            die("verify: out of memory for plain minimax");
    fprintf(out, "reference: plain minimax at depth %d on %d positions\n", depth, book.count);

    cJSON *combinations = cJSON_CreateArray();
    int failures = 0, tried = 0;
    Error err;
    for (size_t c = 0; c < config_matrix_size(); c++) {
        char tokens[512];
        SearchConfig config;
        if (!config_matrix_entry(c, &config, tokens, sizeof tokens))
            continue;
        tried++;
        config.depth = depth;
        BenchRun run;
        if (!bench_run(book.entries, book.count, &config, args.threads, &run, &err))
            die("verify: %s", err.text);
        int wrong = 0;
        cJSON *row = cJSON_CreateObject();
        cJSON *differences = cJSON_CreateArray();
        for (int i = 0; i < book.count; i++) {
            const SearchResult *r = &run.rows[i].result;
            if (r->move == moves[i] && r->score == scores[i])
                continue;
            wrong++;
            char got[MOVE_TEXT_MAX], want[MOVE_TEXT_MAX];
            fprintf(out, "  %s: %s %d, minimax %s %d\n", book.entries[i].id,
                    move_to_text(r->move, got), r->score, move_to_text(moves[i], want), scores[i]);
            cJSON_AddItemToArray(differences, cJSON_CreateString(book.entries[i].id));
        }
        fprintf(out, "%-64s %d/%d %s\n", tokens, book.count - wrong, book.count,
                wrong ? "DIFFERENT" : "ok");
        failures += wrong > 0;
        cJSON_AddStringToObject(row, "config", tokens);
        cJSON_AddBoolToObject(row, "ok", wrong == 0);
        cJSON_AddItemToObject(row, "different", differences);
        cJSON_AddItemToArray(combinations, row);
        bench_run_destroy(&run);
    }
    fprintf(out, "%s: %d of %d configurations differ from minimax\n", failures ? "FAILED" : "ok",
            failures, tried);
    if (args.json) {
        cJSON *json = cJSON_CreateObject();
        cJSON_AddBoolToObject(json, "ok", failures == 0);
        cJSON_AddNumberToObject(json, "depth", depth);
        cJSON_AddItemToObject(json, "combinations", combinations);
        bench_write_json(&args.plan, json, args.json, "verify");
    } else {
        cJSON_Delete(combinations);
    }
    free(scores);
    free(moves);
    book_destroy(&book);
    return failures ? 1 : 0;
}
