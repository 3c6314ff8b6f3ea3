// SPDX-License-Identifier: MIT
// `bench check`: re-runs what a signature file pinned (in this build, or in an engine program:
// -engine) and says, per position and in total, what changed, with three distinct outcomes (as
// Stockfish's bench node count catches them):
//   identical (exit 0)   every move, score and node count as pinned;
//   functional (exit 1)  a move or a score changed: the search now answers differently;
//   efficiency (exit 3)  only node counts changed: the same answers for more or less work.
// Exit 2 stays for errors, as in every tool here.
#include "check_cmd.h"

#include "bench_args.h"
#include "cli.h"
#include "describe.h"
#include "pinfile.h"
#include "sides.h"
#include "textbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_EXIT_FUNCTIONAL 1
#define CHECK_EXIT_EFFICIENCY 3

static const char check_usage[] =
    "usage: bench check [FILE] [-engine CMD [-stall MS]] [-threads N] [-json FILE]\n"
    "  Re-runs what the signature file pinned, position by position, and compares moves, scores\n"
    "  and node counts. Without FILE: " BENCH_DEFAULT_SIGNATURE ", checked with this build's\n"
    "  defaults at its depth (what `bench` runs: a changed default is a change); with FILE: the\n"
    "  configuration it pinned. Exit 0: identical; exit 1: a move\n"
    "  or score changed (functional change); exit 3: only node counts changed (efficiency\n"
    "  change, with the ratio). Re-pin with `bench pin` when the change is intended.\n"
    "  -engine CMD checks a program (or a build directory) instead of this build: its bench at\n"
    "  the pinned depth and table size, with its own defaults (as it plays), one process per\n"
    "  thread.\n";

typedef enum { OUTCOME_IDENTICAL, OUTCOME_EFFICIENCY, OUTCOME_FUNCTIONAL } Outcome;

static const char *const OUTCOME_NAMES[] = {"identical", "efficiency", "functional"};

/* "futility=70 (pinned 0), ..." for the options whose value in now differs from pinned's. */
static void describe_changed_defaults(const SearchConfig *pinned, const SearchConfig *now,
                                      char *out, size_t size) {
    TextBuf buf = textbuf(out, size);
    for (size_t i = 0; i < CONFIG_OPTION_COUNT; i++) {
        char was[64], is[64];
        config_value_text(pinned, &CONFIG_OPTIONS[i], was);
        config_value_text(now, &CONFIG_OPTIONS[i], is);
        if (strcmp(was, is))
            textbuf_printf(&buf, "%s%s=%s (pinned %s)", buf.used ? ", " : "",
                           CONFIG_OPTIONS[i].name, is, was);
    }
}

int bench_check_main(int argc, char **argv) {
    BenchArgs args;
    const char *engine = NULL;
    int64_t stall = BENCH_PROGRAM_STALL_DEFAULT_MS;
    const CliFlag own[] = {
        {"-engine", CLI_FLAG_TEXT, &engine, 0, 0, "CMD",
         "check this program (or build directory) instead"},
        {"-stall", CLI_FLAG_INT64, &stall, 1, 1e12, "MS", BENCH_STALL_FLAG_HELP},
    };
    const BenchCommand command = {.name = "check",
                                  .usage = check_usage,
                                  .allow_file = true,
                                  .pinned = true,
                                  .extra = own,
                                  .extra_count = sizeof own / sizeof own[0]};
    bench_parse_args(&command, argc, argv, &args);
    char default_path[PATHS_MAX];
    const char *path = args.file ? args.file : default_path;
    PinFile pin;
    Error err;
    if (args.file ? !pinfile_load(path, &pin, &err)
                  : !bench_default_pin(&pin, default_path, sizeof default_path, &err))
        die("check: %s", err.text);
    BookEntry *entries = malloc((size_t)pin.count * sizeof *entries);
    if (!entries)
        die("check: out of memory");
    for (int i = 0; i < pin.count; i++)
        entries[i] = pin.rows[i].entry;
    /* The default signature pins what `bench` runs: this build's defaults at the pinned depth,
     * so a changed default (a code change too) is checked, as a program's bench checks it. */
    BenchSide side = {.config = pin.config};
    char defaults_changed[1024] = "";
    if (!args.file && !engine) {
        side.config = config_default();
        side.config.depth = pin.config.depth;
        describe_changed_defaults(&pin.config, &side.config, defaults_changed,
                                  sizeof defaults_changed);
    }
    if (engine) {
        if (!bench_side_program(&side, "-engine", engine, NULL, &err))
            die("check: %s", err.text);
        side.config.tt_bits = pin.config.tt_bits;
        bench_side_set_depth(&side, pin.config.depth);
        bench_side_set_stall(&side, stall);
        bench_side_plan_input(&side, "-engine", &args.plan, "check");
    }
    BenchRun run;
    if (!bench_side_run(&side, entries, pin.count, args.threads, &run, &err))
        die("check: %s", err.text);

    FILE *out = bench_table_stream(args.json);
    cJSON *changed = cJSON_CreateArray(), *node_changed = cJSON_CreateArray();
    int functional = 0, efficiency = 0;
    for (int i = 0; i < pin.count; i++) {
        char move[MOVE_TEXT_MAX];
        const SearchResult *r = &run.rows[i].result;
        const PinnedRow *p = &pin.rows[i];
        const char *id = p->entry.id;
        move_to_text(r->move, move);
        bool same_answer = r->move == p->move && r->score == p->score;
        bool same_nodes = r->stats.nodes == p->nodes;
        if (same_answer && same_nodes)
            continue;
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "id", id);
        cJSON_AddNumberToObject(row, "old_nodes", (double)p->nodes);
        cJSON_AddNumberToObject(row, "new_nodes", (double)r->stats.nodes);
        if (same_answer) {
            efficiency++;
            fprintf(out, "nodes:   %-8s %" PRIu64 " -> %" PRIu64 " (x%.4f)\n", id, p->nodes,
                    r->stats.nodes, describe_ratio((double)r->stats.nodes, (double)p->nodes));
            cJSON_AddItemToArray(node_changed, row);
            continue;
        }
        functional++;
        fprintf(out, "changed: %-8s move %s -> %s, score %d -> %d, nodes %" PRIu64 " -> %" PRIu64
                     "\n",
                id, p->move_text, move, p->score, r->score, p->nodes, r->stats.nodes);
        cJSON_AddStringToObject(row, "old_move", p->move_text);
        cJSON_AddStringToObject(row, "new_move", move);
        cJSON_AddNumberToObject(row, "old_score", p->score);
        cJSON_AddNumberToObject(row, "new_score", r->score);
        cJSON_AddItemToArray(changed, row);
    }
    Outcome outcome = functional                                  ? OUTCOME_FUNCTIONAL
                      : efficiency || run.total.nodes != pin.nodes ? OUTCOME_EFFICIENCY
                                                                   : OUTCOME_IDENTICAL;
    double total_ratio = describe_ratio((double)run.total.nodes, (double)pin.nodes);
    char pinned_hex[17];
    bench_hex(pin.signature, pinned_hex);
    char hex[17];
    fprintf(out, "checked %d positions at depth %d against %s\n", pin.count, pin.config.depth,
            path);
    if (engine)
        fprintf(out, "checked: %s (its own defaults)\n", side.text);
    if (defaults_changed[0])
        fprintf(out, "checked: this build's defaults, which differ from the pinned configuration: "
                     "%s\n",
                defaults_changed);
    fprintf(out, "moves and scores: %d position(s) changed\n", functional);
    fprintf(out, "nodes: %" PRIu64 ", pinned %" PRIu64 " (x%.4f, %+.2f%%); %d position(s) "
                 "changed node count only\n",
            run.total.nodes, pin.nodes, total_ratio, 100 * (total_ratio - 1), efficiency);
    fprintf(out, "signature: %s (pinned %s)\n", bench_hex(run.signature, hex), pinned_hex);
    fprintf(out, "Bench: %" PRIu64 "\n", run.total.nodes);
    switch (outcome) {
    case OUTCOME_IDENTICAL:
        fprintf(out, "IDENTICAL: every move, score and node count as pinned\n");
        break;
    case OUTCOME_EFFICIENCY:
        fprintf(out, "EFFICIENCY CHANGE: the same moves and scores for x%.4f the nodes; if "
                     "intended, re-pin (bench pin) in its own commit with the new Bench line\n",
                total_ratio);
        break;
    case OUTCOME_FUNCTIONAL:
        fprintf(out, "FUNCTIONAL CHANGE: %d move(s) or score(s) changed; if intended, re-pin "
                     "(bench pin) and say why in the commit\n",
                functional);
        break;
    }
    if (args.json) {
        cJSON *json = cJSON_CreateObject();
        cJSON_AddStringToObject(json, "outcome", OUTCOME_NAMES[outcome]);
        cJSON_AddBoolToObject(json, "ok", outcome == OUTCOME_IDENTICAL);
        cJSON_AddItemToObject(json, "changed", changed);
        cJSON_AddItemToObject(json, "node_changed", node_changed);
        cJSON_AddStringToObject(json, "signature", hex);
        cJSON_AddStringToObject(json, "pinned_signature", pinned_hex);
        cJSON_AddNumberToObject(json, "nodes", (double)run.total.nodes);
        cJSON_AddNumberToObject(json, "pinned_nodes", (double)pin.nodes);
        cJSON_AddNumberToObject(json, "node_ratio", total_ratio);
        bench_write_json(&args.plan, json, args.json, "check");
    } else {
        cJSON_Delete(changed);
        cJSON_Delete(node_changed);
    }
    bench_run_destroy(&run);
    free(entries);
    pinfile_destroy(&pin);
    return outcome == OUTCOME_FUNCTIONAL   ? CHECK_EXIT_FUNCTIONAL
           : outcome == OUTCOME_EFFICIENCY ? CHECK_EXIT_EFFICIENCY
                                           : 0;
}
