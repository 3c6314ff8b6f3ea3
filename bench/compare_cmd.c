// SPDX-License-Identifier: MIT
// `bench compare -base OPTIONS... -cand OPTIONS...`: two configurations, or two builds
// (-base-engine, -cand-engine), over the suite, position by position: node ratio cand/base,
// identical move and score, counters side by side, interleaved timing.
#include "compare_cmd.h"

#include "bench_args.h"
#include "cli.h"
#include "describe.h"
#include "parse.h"
#include "sides.h"
#include "timing.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char compare_usage[] =
    "usage: bench compare -base [key=value ...] | -base-engine CMD [-base key=value ...]\n"
    "                     -cand [key=value ...] | -cand-engine CMD [-cand key=value ...]\n"
    "                     [-depth N] [-positions FILE] [-threads N] [-repeat N] [-stall MS]\n"
    "                     [-json FILE]\n"
    "  Runs both sides over the suite and prints per position the node ratio cand/base and\n"
    "  whether move and score are identical, then the geometric mean of the ratios, the total\n"
    "  node ratio and the counters side by side. Exit 1 if any move or score differs (so it\n"
    "  doubles as a correctness check).\n"
    "  A side is a configuration of this build (-base/-cand with search options), or an engine\n"
    "  program, another build (-base-engine/-cand-engine: a program, a build directory holding\n"
    "  engine, or make engine-at's OUT), run through the engine protocol's bench at -depth, one\n"
    "  process per thread, with its own defaults and the -base/-cand words sent by setoption.\n"
    "  Programs report nodes, not the other counters.\n"
    "  Timing: -repeat N rounds (default 3), base and cand interleaved (base cand base cand\n"
    "  ...); per side the minimum and median of wall and CPU seconds (a program's: its\n"
    "  processes', start-up included), the ratio of medians with the spread of the rounds'\n"
    "  ratios, and a note when the machine looks noisy. Every round must repeat the first one's\n"
    "  moves, scores and node counts.\n";

/* A side from its group of key=value words and its -X-engine program, if any. */
static void make_side(BenchSide *side, const CliGroup *group, const char *engine,
                      const char *name) {
    Error err;
    if (engine) {
        char engine_flag[16];
        snprintf(engine_flag, sizeof engine_flag, "%s-engine", name);
        if (!bench_side_program(side, engine_flag, engine, group, &err))
            die("compare: %s", err.text);
        return;
    }
    if (!group->given)
        die("compare: both sides are needed: -base or -base-engine, and -cand or -cand-engine (a "
            "group may have no options: the defaults; see %s compare -help)",
            cli_program_name());
    if (!bench_side_config(side, group, &err))
        die("compare: %s: %s", name, err.text);
}

/* A side's totals: every counter in process, nodes alone for a program. */
static cJSON *totals_json(const BenchSide *side, const SearchStats *totals) {
    if (!side->is_program)
        return describe_stats_json(totals);
    cJSON *json = cJSON_CreateObject();
    cJSON_AddNumberToObject(json, "nodes", (double)totals->nodes);
    return json;
}

/* A later round must repeat the first: the search is deterministic, so anything else is a bug
 * that would also make the timing compare different work. */
static void check_same_run(const BenchRun *first, const BenchRun *again, const char *side,
                           int round, const Book *book) {
    for (int i = 0; i < first->count; i++) {
        const SearchResult *a = &first->rows[i].result, *b = &again->rows[i].result;
        if (a->move != b->move || a->score != b->score || a->stats.nodes != b->stats.nodes)
            die("compare: round %d of %s differs from round 1 on %s (nodes %llu, then %llu): "
                "the search is not deterministic",
                round, side, book->entries[i].id, (unsigned long long)a->stats.nodes,
                (unsigned long long)b->stats.nodes);
    }
}

/* Round 1 into runs[] (kept for the tables), then rounds 2..N (compared with round 1 and
 * freed), base before cand in every round; every round's seconds into samples. */
static void run_rounds(const Book *book, const BenchSide sides_in[2], int threads, int rounds,
                       BenchRun runs[2], TimingSamples *samples) {
    static const char *const sides[2] = {"-base", "-cand"};
    memset(samples, 0, sizeof *samples);
    for (int round = 1; round <= rounds; round++) {
        double wall[2], cpu[2];
        for (int side = 0; side < 2; side++) {
            BenchRun again, *run = round == 1 ? &runs[side] : &again;
            Error err;
            if (!bench_side_run(&sides_in[side], book->entries, book->count, threads, run, &err))
                die("compare: %s: %s", sides[side], err.text);
            wall[side] = run->wall_seconds;
            cpu[side] = run->cpu_seconds;
            if (round > 1) {
                check_same_run(&runs[side], run, sides[side], round, book);
                bench_run_destroy(run);
            }
        }
        timing_add_round(samples, wall, cpu);
    }
}

int bench_compare_main(int argc, char **argv) {
    CliGroup base_words = {0}, cand_words = {0};
    const char *base_engine = NULL, *cand_engine = NULL;
    int rounds = TIMING_DEFAULT_ROUNDS;
    int64_t stall = BENCH_PROGRAM_STALL_DEFAULT_MS;
    const CliFlag own[] = {
        {"-base", CLI_FLAG_GROUP, &base_words, 0, 0, "[key=value ...]", "the baseline"},
        {"-cand", CLI_FLAG_GROUP, &cand_words, 0, 0, "[key=value ...]", "the candidate"},
        {"-base-engine", CLI_FLAG_TEXT, &base_engine, 0, 0, "CMD",
         "the baseline is a program (or build directory)"},
        {"-cand-engine", CLI_FLAG_TEXT, &cand_engine, 0, 0, "CMD",
         "the candidate is a program (or build directory)"},
        {"-repeat", CLI_FLAG_INT, &rounds, 1, TIMING_ROUNDS_MAX, "N",
         "timing rounds, base and cand interleaved (3)"},
        {"-stall", CLI_FLAG_INT64, &stall, 1, 1e12, "MS", BENCH_STALL_FLAG_HELP},
    };
    const BenchCommand command = {.name = "compare",
                                  .usage = compare_usage,
                                  .extra = own,
                                  .extra_count = sizeof own / sizeof own[0]};
    BenchArgs args;
    bench_parse_args(&command, argc, argv, &args);
    BenchSide sides[2];
    make_side(&sides[0], &base_words, base_engine, "-base");
    make_side(&sides[1], &cand_words, cand_engine, "-cand");
    bench_side_set_stall(&sides[0], stall);
    bench_side_set_stall(&sides[1], stall);
    bench_side_plan_input(&sides[0], "-base-engine", &args.plan, "compare");
    bench_side_plan_input(&sides[1], "-cand-engine", &args.plan, "compare");
    if (args.has_config_tokens)
        die("compare: put search options after -base or -cand");
    /* -depth for both; else a configuration's own depth=, else the bench's. */
    for (int side = 0; side < 2; side++)
        if (args.depth || !sides[side].config.depth)
            bench_side_set_depth(&sides[side], args.depth ? args.depth : BENCH_DEFAULT_DEPTH);

    Book book;
    bench_load_suite(&args, &book);
    BenchRun runs[2];
    TimingSamples samples;
    TimingSummary timing;
    run_rounds(&book, sides, args.threads, rounds, runs, &samples);
    timing_summarize(&samples, &timing);
    bench_measure_tablebase(&runs[0]);
    bench_measure_tablebase(&runs[1]);
    bool programs = sides[0].is_program || sides[1].is_program;

    FILE *out = bench_table_stream(args.json);
    const char *base_text = sides[0].text, *cand_text = sides[1].text;
    fprintf(out, "base: %s\ncand: %s\n\n", base_text, cand_text);
    fprintf(out, "%-8s %11s %11s %7s  %-5s %s\n", "id", "base_nodes", "cand_nodes", "ratio",
            "move", "score");
    cJSON *positions = cJSON_CreateArray();
    double log_sum = 0;
    int differences = 0;
    for (int i = 0; i < book.count; i++) {
        const SearchResult *b = &runs[0].rows[i].result, *c = &runs[1].rows[i].result;
        bool same_move = b->move == c->move, same_score = b->score == c->score;
        double r = describe_ratio((double)c->stats.nodes, (double)b->stats.nodes);
        log_sum += log(r > 0 ? r : 1);
        differences += !(same_move && same_score);
        fprintf(out, "%-8s %11" PRIu64 " %11" PRIu64 " %7.3f  %-5s %s\n", book.entries[i].id,
                b->stats.nodes, c->stats.nodes, r, same_move ? "same" : "DIFF",
                same_score ? "same" : "DIFF");
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "id", book.entries[i].id);
        cJSON_AddNumberToObject(row, "base_nodes", (double)b->stats.nodes);
        cJSON_AddNumberToObject(row, "cand_nodes", (double)c->stats.nodes);
        cJSON_AddNumberToObject(row, "node_ratio", r);
        cJSON_AddBoolToObject(row, "same_move", same_move);
        cJSON_AddBoolToObject(row, "same_score", same_score);
        cJSON_AddNumberToObject(row, "base_score", b->score);
        cJSON_AddNumberToObject(row, "cand_score", c->score);
        cJSON_AddItemToArray(positions, row);
    }
    const SearchStats *bt = &runs[0].total, *ct = &runs[1].total;
    double geomean = exp(log_sum / book.count);
    double total_ratio = describe_ratio((double)ct->nodes, (double)bt->nodes);
    fprintf(out, "\n%-22s %14s %14s %8s\n", "counter", "base", "cand", "cand/base");
    for (size_t i = 0; i < STATS_FIELD_COUNT; i++) {
        /* A program's bench reports nodes only: its other counters would read as zeros. */
        if (programs && strcmp(STATS_FIELDS[i].name, "nodes"))
            continue;
        uint64_t bv = stats_get(bt, &STATS_FIELDS[i]), cv = stats_get(ct, &STATS_FIELDS[i]);
        fprintf(out, "%-22s %14" PRIu64 " %14" PRIu64 " %8.3f\n", STATS_FIELDS[i].name, bv, cv,
                describe_ratio((double)cv, (double)bv));
    }
    if (programs) {
        fprintf(out, "(the search's other counters come from in-process runs only: a program's "
                     "bench reports nodes)\n");
    } else {
        fprintf(out, "%-22s %13.1f%% %13.1f%%\n", "cache hit rate", 100 * stats_hit_rate(bt),
                100 * stats_hit_rate(ct));
        fprintf(out, "%-22s %13.1f%% %13.1f%%\n", "first-move cutoffs",
                100 * stats_first_cutoff_rate(bt), 100 * stats_first_cutoff_rate(ct));
    }
    fprintf(out, "\nbase ");
    bench_tb_print(&runs[0].tablebase, out);
    fprintf(out, "cand ");
    bench_tb_print(&runs[1].tablebase, out);
    timing_print(&timing, args.threads, out);
    fprintf(out, "\nnode ratio cand/base: geometric mean %.4f, total %.4f; time ratio %.4f "
                 "(cpu %.4f)\n",
            geomean, total_ratio, timing.wall_ratio, timing.cpu_ratio);
    if (differences) {
        fprintf(out, "DIFFERENT: %d of %d positions changed move or score:\n", differences,
                book.count);
        for (int i = 0; i < book.count; i++) {
            const SearchResult *b = &runs[0].rows[i].result, *c = &runs[1].rows[i].result;
            char bm[MOVE_TEXT_MAX], cm[MOVE_TEXT_MAX];
            if (b->move != c->move || b->score != c->score)
                fprintf(out, "  %-8s %s %d -> %s %d\n", book.entries[i].id,
                        move_to_text(b->move, bm), b->score, move_to_text(c->move, cm), c->score);
        }
    } else {
        fprintf(out, "identical: every move and score is the same\n");
    }
    if (args.json) {
        cJSON *json = cJSON_CreateObject();
        cJSON_AddBoolToObject(json, "identical", differences == 0);
        cJSON_AddNumberToObject(json, "geomean_node_ratio", geomean);
        cJSON_AddNumberToObject(json, "total_node_ratio", total_ratio);
        cJSON_AddNumberToObject(json, "time_ratio", timing.wall_ratio);
        cJSON_AddNumberToObject(json, "cpu_ratio", timing.cpu_ratio);
        cJSON_AddItemToObject(json, "timing", timing_json(&samples, &timing));
        cJSON_AddNumberToObject(json, "depth", sides[0].config.depth);
        cJSON_AddStringToObject(json, "base_config", base_text);
        cJSON_AddStringToObject(json, "cand_config", cand_text);
        cJSON_AddItemToObject(json, "positions", positions);
        cJSON_AddBoolToObject(json, "base_is_program", sides[0].is_program);
        cJSON_AddBoolToObject(json, "cand_is_program", sides[1].is_program);
        cJSON_AddItemToObject(json, "base_totals", totals_json(&sides[0], bt));
        cJSON_AddItemToObject(json, "cand_totals", totals_json(&sides[1], ct));
        cJSON_AddItemToObject(json, "base_tablebase", bench_tb_json(&runs[0].tablebase));
        cJSON_AddItemToObject(json, "cand_tablebase", bench_tb_json(&runs[1].tablebase));
        bench_write_json(&args.plan, json, args.json, "compare");
    } else {
        cJSON_Delete(positions);
    }
    bench_run_destroy(&runs[0]);
    bench_run_destroy(&runs[1]);
    book_destroy(&book);
    return differences ? 1 : 0;
}
