// SPDX-License-Identifier: MIT
// `bench perft [-fen POSITION] [-divide] DEPTH`: exact move-path counts with speed.
#include "perft_cmd.h"

#include "cli.h"
#include "flags.h"
#include "movegen.h"
#include "parse.h"
#include "perft.h"
#include "timing.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERFT_DEPTH_MAX 32
#define PERFT_REPEAT_MAX TIMING_ROUNDS_MAX

/* Below this much CPU time a count is too quick for the clock: no rate is given (a rate from
 * 0.000 s read 4111977410 leaves/s at depth 2). */
#define PERFT_RATE_MIN_SECONDS 0.01

static const char perft_synopsis[] =
    "usage: bench perft [-fen POSITION] [-divide] [-repeat N] DEPTH\n"
    "  Counts the positions exactly 1..DEPTH plies from POSITION (default: the start).\n"
    "  A game that ends earlier contributes nothing; no repetition rule. Times are CPU time;\n"
    "  a count that takes under 0.01 s gets no rate.\n";

typedef struct {
    Move move;
    char text[MOVE_TEXT_MAX];
    uint64_t count;
} DivideRow;

static int compare_rows(const void *a, const void *b) {
    return strcmp(((const DivideRow *)a)->text, ((const DivideRow *)b)->text);
}

static void print_divide(const Board *root, int depth) {
    MoveList list;
    movegen_all(root, &list);
    if (root->captured >= CAPTURES_TO_WIN)
        list.count = 0;
    DivideRow rows[MOVES_MAX];
    uint64_t total = 0;
    for (int i = 0; i < list.count; i++) {
        Board child = *root;
        board_make(&child, list.moves[i]);
        rows[i].move = list.moves[i];
        move_to_text(list.moves[i], rows[i].text);
        rows[i].count = perft(&child, depth - 1);
        total += rows[i].count;
    }
    qsort(rows, (size_t)list.count, sizeof rows[0], compare_rows);
    for (int i = 0; i < list.count; i++)
        printf("%s: %" PRIu64 "\n", rows[i].text, rows[i].count);
    printf("moves: %d, total: %" PRIu64 "\n", list.count, total);
}

/* Counts depth `repeat` times; prints the count and the CPU time (the median when repeated,
 * and the minimum: on a shared machine the median is the fair figure, the minimum the
 * machine's best). */
static void print_depth(const Board *root, int depth, int repeat) {
    double seconds[PERFT_REPEAT_MAX];
    uint64_t count = 0;
    for (int r = 0; r < repeat; r++) {
        double start = cli_cpu_seconds();
        count = perft(root, depth);
        seconds[r] = cli_cpu_seconds() - start;
    }
    double median = timing_median(seconds, repeat);
    char rate[48] = "too quick to rate";
    if (median >= PERFT_RATE_MIN_SECONDS)
        snprintf(rate, sizeof rate, "%.0f leaves/s", (double)count / median);
    if (repeat == 1)
        printf("perft %d: %" PRIu64 "  (%.3f s CPU, %s)\n", depth, count, median, rate);
    else
        printf("perft %d: %" PRIu64 "  (median %.3f s CPU of %d runs, min %.3f s, %s)\n", depth,
               count, median, repeat, timing_minimum(seconds, repeat), rate);
    fflush(stdout);
}

/* The one word perft takes: its depth. */
static bool take_depth(void *context, const char *word, Error *err) {
    int *depth = context;
    Error inner;
    if (*depth >= 0)
        return error_set(err, "perft: more than one depth given ('%s')", word);
    if (!parse_int(word, 1, PERFT_DEPTH_MAX, depth, &inner))
        return error_set(err, "perft: depth: %s", inner.text);
    return true;
}

int bench_perft_main(int argc, char **argv) {
    const char *fen = NULL;
    bool divide = false;
    int depth = -1, repeat = 1;
    Error err;
    const CliFlag flags[] = {
        {"-fen", CLI_FLAG_TEXT, &fen, 0, 0, "POSITION",
         "position text, e.g. 'T3T/5/5/5/T3T s 20 0'"},
        {"-divide", CLI_FLAG_SWITCH, &divide, 0, 0, NULL,
         "also print the count under each first move at DEPTH"},
        {"-repeat", CLI_FLAG_INT, &repeat, 1, PERFT_REPEAT_MAX, "N",
         "count DEPTH N times and give the median and minimum CPU time"},
    };
    const CliCommand command = {.name = "perft",
                                .subcommand = "perft",
                                .synopsis = perft_synopsis,
                                .flags = flags,
                                .count = sizeof flags / sizeof flags[0],
                                .word = take_depth,
                                .context = &depth};
    if (cli_flags_parse_or_die(&command, argc, argv))
        return 0;
    if (depth < 0)
        die("perft: missing DEPTH (bench perft -help)");
    Board root = board_start();
    if (fen && !board_from_text(fen, &root, &err))
        die("perft: -fen '%s': %s", fen, err.text);

    char text[BOARD_TEXT_MAX];
    printf("position: %s\n", board_to_text(&root, text));
    for (int d = 1; d < depth; d++)
        print_depth(&root, d, 1);
    print_depth(&root, depth, repeat);
    if (divide)
        print_divide(&root, depth);
    return 0;
}
