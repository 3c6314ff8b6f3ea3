// SPDX-License-Identifier: MIT
// A lean one-file perft of tigers and sheep: the speed anchor that `make perf` compares
// `bench perft` with (docs/performance.md). It shares no code with lib/: its own tables, built
// at start from the board's lines, its own move loop, and the same bulk counting at depth 1
// (the number of moves, without making them). Its counts must equal bench perft's.
//
//   cc -O3 -march=native -o perft_anchor tools/perft_anchor.c && ./perft_anchor 7 9
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { POINTS = 25, IN_HAND = 20, WIN_CAPTURES = 5 };

/* For each point, its line neighbours, and for jumps the neighbour with the point beyond it. */
typedef struct {
    uint32_t step_mask;     /* neighbours */
    int jump_count;
    uint8_t over[8], land[8]; /* jump over[k] landing on land[k] */
} PointLines;

static PointLines lines[POINTS];

typedef struct {
    uint32_t tigers, sheep;
    int in_hand, captured, tigers_to_move;
} Position;

static int on_board(int file, int rank) { return file >= 0 && file < 5 && rank >= 0 && rank < 5; }

static void build_lines(void) {
    static const int dirs[8][2] = {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};
    for (int p = 0; p < POINTS; p++) {
        int file = p % 5, rank = p / 5;
        PointLines *l = &lines[p];
        for (int d = 0; d < 8; d++) {
            int diagonal = dirs[d][0] != 0 && dirs[d][1] != 0;
            if (diagonal && (file + rank) % 2 != 0)
                continue; /* diagonals run only through points with an even file + rank */
            int f1 = file + dirs[d][0], r1 = rank + dirs[d][1];
            if (!on_board(f1, r1))
                continue;
            l->step_mask |= 1u << (r1 * 5 + f1);
            int f2 = f1 + dirs[d][0], r2 = r1 + dirs[d][1];
            if (!on_board(f2, r2))
                continue;
            l->over[l->jump_count] = (uint8_t)(r1 * 5 + f1);
            l->land[l->jump_count] = (uint8_t)(r2 * 5 + f2);
            l->jump_count++;
        }
    }
}

static int count_moves(const Position *p) {
    uint32_t empty = 0x1ffffffu & ~(p->tigers | p->sheep);
    if (!p->tigers_to_move && p->in_hand > 0)
        return __builtin_popcount(empty);
    int count = 0;
    for (uint32_t movers = p->tigers_to_move ? p->tigers : p->sheep; movers; movers &= movers - 1) {
        const PointLines *l = &lines[__builtin_ctz(movers)];
        count += __builtin_popcount(l->step_mask & empty);
        if (p->tigers_to_move)
            for (int k = 0; k < l->jump_count; k++)
                count += (p->sheep >> l->over[k] & 1) & (empty >> l->land[k] & 1);
    }
    return count;
}

static uint64_t perft(const Position *p, int depth) {
    if (p->captured >= WIN_CAPTURES)
        return 0;
    if (depth == 1)
        return (uint64_t)count_moves(p);
    uint32_t empty = 0x1ffffffu & ~(p->tigers | p->sheep);
    uint64_t total = 0;
    Position child = *p;
    child.tigers_to_move = !p->tigers_to_move;
    if (!p->tigers_to_move && p->in_hand > 0) {
        child.in_hand = p->in_hand - 1;
        for (uint32_t to = empty; to; to &= to - 1) {
            child.sheep = p->sheep | (to & -to);
            total += perft(&child, depth - 1);
        }
        return total;
    }
    for (uint32_t movers = p->tigers_to_move ? p->tigers : p->sheep; movers; movers &= movers - 1) {
        uint32_t from = movers & -movers;
        const PointLines *l = &lines[__builtin_ctz(movers)];
        for (uint32_t to = l->step_mask & empty; to; to &= to - 1) {
            if (p->tigers_to_move)
                child.tigers = p->tigers ^ from ^ (to & -to);
            else
                child.sheep = p->sheep ^ from ^ (to & -to);
            total += perft(&child, depth - 1);
        }
        if (!p->tigers_to_move)
            continue;
        child.tigers = p->tigers;
        for (int k = 0; k < l->jump_count; k++) {
            if (!((p->sheep >> l->over[k] & 1) && (empty >> l->land[k] & 1)))
                continue;
            Position jumped = child;
            jumped.tigers = p->tigers ^ from ^ 1u << l->land[k];
            jumped.sheep = p->sheep & ~(1u << l->over[k]);
            jumped.captured = p->captured + 1;
            total += perft(&jumped, depth - 1);
        }
        child.sheep = p->sheep;
    }
    return total;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* usage: perft_anchor DEPTH [REPEAT]; prints the count and the median and minimum CPU time of
 * REPEAT runs in the format of `bench perft -repeat`. */
int main(int argc, char **argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 7, repeat = argc > 2 ? atoi(argv[2]) : 1;
    if (depth < 1 || depth > 20 || repeat < 1 || repeat > 1000) {
        fprintf(stderr, "usage: perft_anchor DEPTH [REPEAT]  (DEPTH 1..20, REPEAT 1..1000)\n");
        return 2;
    }
    build_lines();
    Position start = {1u << 0 | 1u << 4 | 1u << 20 | 1u << 24, 0, IN_HAND, 0, 0};
    double seconds[1000];
    uint64_t leaves = 0;
    for (int r = 0; r < repeat; r++) {
        double begin = cpu_seconds();
        leaves = perft(&start, depth);
        seconds[r] = cpu_seconds() - begin;
    }
    qsort(seconds, (size_t)repeat, sizeof seconds[0], compare_doubles);
    double median = repeat % 2 ? seconds[repeat / 2]
                               : (seconds[repeat / 2 - 1] + seconds[repeat / 2]) / 2;
    printf("perft %d: %llu  (median %.3f s CPU of %d runs, min %.3f s, %.0f leaves/s)\n", depth,
           (unsigned long long)leaves, median, repeat, seconds[0],
           median > 0 ? (double)leaves / median : 0.0);
    return 0;
}
