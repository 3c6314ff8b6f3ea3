// SPDX-License-Identifier: MIT
// `bench tbplace`: solves the placement phase layer by layer from the sliding file up, each layer
// written whole once solved, so a run stopped anywhere goes on from the last finished layer.
#include "tbplace_cmd.h"

#include "cli.h"
#include "flags.h"
#include "movegen.h"
#include "output.h"
#include "paths.h"
#include "tb_place_file.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static const char tbplace_synopsis[] =
    "usage: bench tbplace [-in-hand H] [-dir DIR] [-tb FILE] [-threads N] [-captures K]\n"
    "  Solves the placement phase's layers from 1 sheep in hand up to H (4 by default: the\n"
    "  last four placements; 20: the whole game), each side to move a layer and a file\n"
    "  DIR/hNN-sheep.tspl, DIR/hNN-tigers.tspl (win, draw or loss for the side to move of every\n"
    "  position up to symmetry). A layer whose file is there and checks out is not solved\n"
    "  again: a run stopped anywhere goes on from the last finished layer.\n";

static void progress(void *context, const char *line) {
    (void)context;
    printf("%s\n", line);
    fflush(stdout);
}

void bench_layer_dir(const char *given, char *out, size_t size, const char *command) {
    Error err;
    if (given) {
        snprintf(out, size, "%s", given);
        return;
    }
    if (!paths_data_target(TB_PLACE_DIR, out, size, &err))
        die("%s: %s", command, err.text);
}

void bench_plan_tb_command(OutputPlan *plan, const char *json, const char *positions,
                           const char *tb_path, const char *dir, const char *command) {
    Error err;
    *plan = (OutputPlan){0};
    output_plan_add(plan, "-json", json, NULL);
    output_plan_input(plan, "-positions", positions);
    output_plan_input(plan, "-tb", tb_path);
    output_plan_input_dir(plan, "-dir", dir, "the placement layers", tb_place_is_layer_name);
    if (!output_plan_check(plan, &err))
        die("%s: %s", command, err.text);
}

/* The layers up to in_hand (both sides) as the outputs of plan, their paths in paths (each
 * PATHS_MAX + 32 bytes; index (h - 1) * 2 + side), and the sliding file as its input; then
 * every layer file already there must be of this game: a layer of another game, rules or
 * format is refused before anything is solved, never replaced (its hour of solving is not
 * thrown away). */
static void plan_layers(OutputPlan *plan, const char *dir, int in_hand, int captures,
                        const char *tb_path, char (*paths)[PATHS_MAX + 32]) {
    Error err;
    *plan = (OutputPlan){.tablebase_magic = TB_PLACE_FILE_MAGIC};
    output_plan_input(plan, "-tb", tb_path);
    for (int h = 1; h <= in_hand; h++)
        for (int side = SIDE_SHEEP; side <= SIDE_TIGERS; side++) {
            char *path = paths[(h - 1) * 2 + side];
            tb_place_path(dir, h, (Side)side, path, PATHS_MAX + 32);
            output_plan_add(plan, "-dir", path, NULL);
        }
    if (!output_plan_check(plan, &err))
        die("tbplace: %s", err.text);
    for (int i = 0; i < plan->output_count; i++) {
        const char *path = plan->outputs[i].path;
        if (access(path, F_OK) == 0 &&
            !tb_place_file_is_for(path, i / 2 + 1, (Side)(i % 2), captures, &err))
            die("tbplace: %s\n  it is not replaced: move it away, or solve this game into "
                "another -dir",
                err.text);
    }
}

static void print_layer(const TbLayer *l, const char *how) {
    printf("layer %2d sheep in hand, %-6s to move: %12" PRId64 " positions, %s\n", l->in_hand,
           TB_PLACE_SIDE_NAMES[l->side], l->count, how);
    for (int c = 0; c < l->win_captures; c++)
        if (l->level_start[c + 1] > l->level_start[c])
            printf("    %d captured: %12" PRId64 " wins %12" PRId64 " draws %12" PRId64
                   " losses\n",
                   c, l->wins[c], l->draws[c], l->losses[c]);
    fflush(stdout);
}

int bench_tbplace_main(int argc, char **argv) {
    const char *given_dir = NULL, *given_tb = NULL;
    int in_hand = 4, threads = cli_cores(), captures = CAPTURES_TO_WIN;
    Error err;
    const CliFlag flags[] = {
        {"-in-hand", CLI_FLAG_INT, &in_hand, 1, SHEEP_TOTAL, "H",
         "solve the layers up to H sheep in hand (4; 20: the start)"},
        {"-dir", CLI_FLAG_TEXT, &given_dir, 0, 0, "DIR",
         "default: " TB_PLACE_DIR " under the data root"},
        {"-tb", CLI_FLAG_TEXT, &given_tb, 0, 0, "FILE",
         "the sliding file below (default: " TB_DEFAULT_FILE ")"},
        {"-threads", CLI_FLAG_INT, &threads, 1, 64, "N", "default: every core"},
        {"-captures", CLI_FLAG_INT, &captures, 1, TB_LEVELS, "K",
         "the game that K captures win (default 5, the rules; 1-4: tests, with -dir)"},
    };
    const CliCommand command = {.name = "tbplace",
                                .subcommand = "tbplace",
                                .synopsis = tbplace_synopsis,
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0]};
    if (cli_flags_parse_or_die(&command, argc, argv))
        return 0;
    if (!given_dir && captures != CAPTURES_TO_WIN)
        die("tbplace: -captures %d solves a test game: give -dir DIR (the default directory is "
            "the rules' game, which every tool reads)",
            captures);
    char dir[PATHS_MAX], tb_path[PATHS_MAX], lock_path[PATHS_MAX + 32];
    bench_layer_dir(given_dir, dir, sizeof dir, "tbplace");
    if (!paths_tablebase(given_tb, tb_path, sizeof tb_path, &err))
        die("tbplace: %s", err.text);
    Tablebase *sliding = tb_new(tb_path, captures, &err);
    if (!sliding)
        die("tbplace: %s", err.text);
    /* Hours of solving: one writer at a time in a directory. */
    snprintf(lock_path, sizeof lock_path, "%s/layers", dir);
    OutLock lock;
    if (!paths_make_parent(lock_path, &err) ||
        !output_lock(&lock, "-dir", lock_path, "tbplace", "solve the same layers twice", &err))
        die("tbplace: %s", err.text);
    char(*paths)[PATHS_MAX + 32] = calloc(2 * (size_t)in_hand, sizeof *paths);
    if (!paths)
        die("tbplace: out of memory");
    OutputPlan plan;
    plan_layers(&plan, dir, in_hand, captures, tb_path, paths);
    printf("placement layers up to %d sheep in hand (%d captures win) in %s, from %s, %d "
           "threads\n",
           in_hand, captures, dir, tb_path, threads);
    double wall_all = cli_now_seconds(), cpu_all = cli_cpu_seconds();
    TbLayer below = {0};
    uint64_t below_checksum = tb_header(sliding)->checksum;
    for (int h = 1; h <= in_hand; h++)
        for (int side = SIDE_SHEEP; side <= SIDE_TIGERS; side++) {
            TbLayer layer;
            TbPlaceFileInfo info;
            const char *path = paths[(h - 1) * 2 + side];
            if (access(path, F_OK) == 0) {
                /* A layer that is there is this game's (plan_layers): one that does not read
                 * back is damaged or out of order, and is not replaced either. */
                if (!tb_place_read(path, h, (Side)side, captures, below_checksum, &layer, &info,
                                   &err))
                    die("tbplace: %s\n  it is not replaced: move it away to solve the layer "
                        "again",
                        err.text);
                char how[PATHS_MAX + 64];
                snprintf(how, sizeof how, "done before (%s)", path);
                print_layer(&layer, how);
            } else {
                if (!tb_layer_init(&layer, h, (Side)side, captures, &err))
                    die("tbplace: %s", err.text);
                TbPlaceNext next = {.layer = below.index ? &below : NULL, .sliding = sliding};
                TbPlaceSetup setup = {.threads = threads, .progress = progress};
                double wall = cli_now_seconds(), cpu = cli_cpu_seconds();
                if (!tb_place_solve(&layer, &next, &setup, &err))
                    die("tbplace: %s", err.text);
                wall = cli_now_seconds() - wall;
                cpu = cli_cpu_seconds() - cpu;
                info = (TbPlaceFileInfo){.below_checksum = below_checksum};
                OutFile file;
                if (!output_begin(&plan, &file, path, &err) ||
                    !tb_place_write(&file, &layer, &info, &err))
                    die("tbplace: %s", err.text);
                char how[PATHS_MAX + 160];
                snprintf(how, sizeof how, "solved in %.1f s (%.1f s CPU, %.2f M/s), wrote %s",
                         wall, cpu, (double)layer.count / wall / 1e6, path);
                print_layer(&layer, how);
            }
            tb_layer_free(&below); /* nothing before the first layer: a zeroed one */
            below = layer;
            below_checksum = info.checksum;
        }
    tb_layer_free(&below);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("done in %.1f s (%.1f s CPU), peak memory %ld MB\n", cli_now_seconds() - wall_all,
           cli_cpu_seconds() - cpu_all, usage.ru_maxrss / 1024);
    tb_free(sliding);
    free(paths);
    outfile_unlock(&lock);
    return 0;
}

int bench_tbplace_verify(const char *given_dir, const Tablebase *sliding, int from,
                         int in_hand, int threads) {
    char dir[PATHS_MAX], path[PATHS_MAX + 32];
    bench_layer_dir(given_dir, dir, sizeof dir, "tbverify");
    int win_captures = tb_header(sliding)->win_captures;
    uint64_t below_checksum = tb_header(sliding)->checksum;
    TbLayer below = {0};
    bool ok = true;
    for (int h = 1; h <= in_hand; h++)
        for (int side = SIDE_SHEEP; side <= SIDE_TIGERS; side++) {
            TbLayer layer;
            TbPlaceFileInfo info;
            Error err;
            tb_place_path(dir, h, (Side)side, path, sizeof path);
            if (!tb_place_read(path, h, (Side)side, win_captures, below_checksum, &layer, &info,
                               &err))
                die("tbverify: %s", err.text);
            TbPlaceNext next = {.layer = below.index ? &below : NULL, .sliding = sliding};
            TbPlaceSetup setup = {.threads = threads};
            double wall = cli_now_seconds();
            int64_t first = -1, failures = 0;
            if (h >= from)
                failures = tb_place_check(&layer, &next, &setup, &first);
            if (h >= from)
                printf("%s: %" PRId64 " positions, checksum %016" PRIx64 ": %" PRId64
                       " inconsistent with their successors (%.1f s)\n",
                       path, layer.count, info.checksum, failures, cli_now_seconds() - wall);
            else /* its fields, checksum and the file below: the chain up to -from */
                printf("%s: %" PRId64 " positions, checksum %016" PRIx64 ": read (-from %d)\n",
                       path, layer.count, info.checksum, from);
            if (failures) {
                char text[BOARD_TEXT_MAX];
                Board b = tb_layer_board(&layer, first);
                printf("  first: %s\n", board_to_text(&b, text));
                ok = false;
            }
            fflush(stdout);
            tb_layer_free(&below); /* nothing before the first layer: a zeroed one */
            below = layer;
            below_checksum = info.checksum;
        }
    tb_layer_free(&below);
    if (ok && from > 1)
        printf("placement layers %d..%d verified (those below read and checked, not verified)\n",
               from, in_hand);
    else
        printf("%s\n", ok ? "placement layers verified" : "PLACEMENT CHECK FAILED");
    return ok ? 0 : 1;
}

TbPlaceProber *bench_place_prober(const char *given_dir, const Tablebase *sliding,
                                  const char *command) {
    char dir[PATHS_MAX];
    bench_layer_dir(given_dir, dir, sizeof dir, command);
    TbPlaceProber *prober = tb_place_prober_new(dir, sliding);
    if (!prober)
        die("%s: out of memory", command);
    return prober;
}
