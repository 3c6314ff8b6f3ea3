// SPDX-License-Identifier: MIT
// `bench perft [-fen POSITION] [-divide] DEPTH`: exact move-path counts with speed.
#include "commands.h"

#include "cli.h"
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

static const char perft_usage[] =
    "usage: bench perft [-fen POSITION] [-divide] [-repeat N] DEPTH\n"
    "  Counts the positions exactly 1..DEPTH plies from POSITION (default: the start).\n"
    "  A game that ends earlier contributes nothing; no repetition rule. Times are CPU time.\n"
    "  -fen POSITION  position text, e.g. 'T3T/5/5/5/T3T s 20 0'\n"
    "  -divide        also print the count under each first move at DEPTH\n"
    "  -repeat N      count DEPTH N times and give the median and minimum CPU time\n";

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
    double rate = median > 0 ? (double)count / median : 0.0;
    if (repeat == 1)
        printf("perft %d: %" PRIu64 "  (%.3f s CPU, %.0f leaves/s)\n", depth, count, median, rate);
    else
        printf("perft %d: %" PRIu64 "  (median %.3f s CPU of %d runs, min %.3f s, %.0f leaves/s)\n",
               depth, count, median, repeat, timing_minimum(seconds, repeat), rate);
    fflush(stdout);
}

int bench_perft_main(int argc, char **argv) {
    const char *fen = NULL;
    bool divide = false;
    int depth = -1, repeat = 1;
    Error err;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-help") || !strcmp(argv[i], "--help")) {
            fputs(perft_usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "-fen")) {
            if (++i == argc)
                die("perft: -fen needs a position");
            fen = argv[i];
        } else if (!strcmp(argv[i], "-divide")) {
            divide = true;
        } else if (!strcmp(argv[i], "-repeat")) {
            if (++i == argc)
                die("perft: -repeat needs a count");
            if (!parse_int(argv[i], 1, PERFT_REPEAT_MAX, &repeat, &err))
                die("perft: -repeat: %s", err.text);
        } else if (argv[i][0] == '-' && !(argv[i][1] >= '0' && argv[i][1] <= '9')) {
            die("perft: unknown option '%s' (try bench perft -help)", argv[i]);
        } else if (depth >= 0) {
            die("perft: more than one depth given ('%s')", argv[i]);
        } else if (!parse_int(argv[i], 1, PERFT_DEPTH_MAX, &depth, &err)) {
            die("perft: depth: %s", err.text);
        }
    }
    if (depth < 0)
        die("perft: missing DEPTH\n%s", perft_usage);
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
