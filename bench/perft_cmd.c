// SPDX-License-Identifier: MIT
// `bench perft [-fen POSITION] [-divide] DEPTH`: exact move-path counts with speed.
#include "commands.h"

#include "cli.h"
#include "movegen.h"
#include "parse.h"
#include "perft.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERFT_DEPTH_MAX 32

static const char perft_usage[] =
    "usage: bench perft [-fen POSITION] [-divide] DEPTH\n"
    "  Counts the positions exactly 1..DEPTH plies from POSITION (default: the start).\n"
    "  A game that ends earlier contributes nothing; no repetition rule.\n"
    "  -fen POSITION  position text, e.g. 'T3T/5/5/5/T3T s 20 0'\n"
    "  -divide        also print the count under each first move at DEPTH\n";

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

int bench_perft_main(int argc, char **argv) {
    const char *fen = NULL;
    bool divide = false;
    int depth = -1;
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
    for (int d = 1; d <= depth; d++) {
        double start = cli_now_seconds();
        uint64_t count = perft(&root, d);
        double seconds = cli_now_seconds() - start;
        printf("perft %d: %" PRIu64 "  (%.3f s, %.0f leaves/s)\n", d, count, seconds,
               seconds > 0 ? (double)count / seconds : 0.0);
        fflush(stdout);
    }
    if (divide)
        print_divide(&root, depth);
    return 0;
}
