// SPDX-License-Identifier: MIT
#define _POSIX_C_SOURCE 200809L
#include "tb_place.h"

#include "movegen.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_THREADS 64
#define CHUNK 4096 /* positions a worker takes at once: a multiple of 4, so no byte is shared */
#define PROGRESS_SECONDS 10.0

bool tb_layer_init(TbLayer *layer, int in_hand, Side side, int win_captures, Error *err) {
    memset(layer, 0, sizeof *layer);
    if (in_hand < 1 || in_hand > SHEEP_TOTAL)
        return error_set(err, "placement layer: %d sheep in hand (1..%d)", in_hand, SHEEP_TOTAL);
    if (win_captures < 1 || win_captures > CAPTURES_TO_WIN)
        return error_set(err, "placement layer: %d captures to win (1..%d)", win_captures,
                         CAPTURES_TO_WIN);
    layer->index = tb_index_new_in_hand(in_hand, win_captures);
    if (!layer->index)
        return error_set(err, "placement layer %d: out of memory for its index", in_hand);
    layer->in_hand = in_hand;
    layer->side = side;
    layer->win_captures = win_captures;
    for (int c = 0; c < TB_LEVELS; c++)
        layer->level_start[c + 1] =
            layer->level_start[c] +
            (c < win_captures ? tb_index_block_size(layer->index, c, side) : 0);
    layer->count = layer->level_start[TB_LEVELS];
    layer->values = calloc(tb_layer_bytes(layer) ? tb_layer_bytes(layer) : 1, 1);
    if (!layer->values) {
        tb_layer_free(layer);
        return error_set(err, "placement layer %d: out of memory for %lld positions", in_hand,
                         (long long)layer->count);
    }
    return true;
}

void tb_layer_free(TbLayer *layer) {
    if (!layer->borrows_index)
        tb_index_free(layer->index);
    free(layer->values);
    memset(layer, 0, sizeof *layer);
}

void tb_layer_share_index(TbLayer *layer, const TbLayer *owner) {
    if (owner->in_hand != layer->in_hand || owner->win_captures != layer->win_captures ||
        owner->index == layer->index)
        return;
    if (!layer->borrows_index)
        tb_index_free(layer->index);
    layer->index = owner->index;
    layer->borrows_index = true;
}

int64_t tb_layer_position(const TbLayer *layer, const Board *b) {
    if (b->side != layer->side || b->captured >= layer->win_captures)
        return -1;
    int64_t global = tb_index_of(layer->index, b, NULL);
    if (global < 0)
        return -1;
    int c = b->captured;
    return layer->level_start[c] + global - tb_index_block_start(layer->index, c, layer->side);
}

Board tb_layer_board(const TbLayer *layer, int64_t i) {
    int c = 0;
    while (i >= layer->level_start[c + 1])
        c++;
    return tb_index_board(layer->index, tb_index_block_start(layer->index, c, layer->side) + i -
                                            layer->level_start[c]);
}

TbPlaceValue tb_place_after(const TbPlaceNext *next, int win_captures, const Board *b, Move m) {
    Board after = *b;
    board_make(&after, m);
    if (after.captured >= win_captures)
        return TB_PLACE_LOSS; /* the sheep to move have lost */
    if (after.in_hand == 0) { /* the sliding phase, tigers to move */
        TbValue value;
        if (!next->sliding || !tb_probe(next->sliding, &after, &value))
            return TB_PLACE_NONE;
        return value.outcome == TB_WIN    ? TB_PLACE_WIN
               : value.outcome == TB_LOSS ? TB_PLACE_LOSS
                                          : TB_PLACE_DRAW;
    }
    if (!next->layer)
        return TB_PLACE_NONE;
    int64_t i = tb_layer_position(next->layer, &after);
    return i < 0 ? TB_PLACE_NONE : tb_layer_value_at(next->layer, i);
}

/* The best of the successors of the moves in list. */
static TbPlaceValue best_of(const TbPlaceNext *next, int win_captures, const Board *b,
                            const MoveList *list);

TbPlaceValue tb_place_minimax(const TbPlaceNext *next, int win_captures, const Board *b) {
    MoveList list;
    movegen_all(b, &list);
    return best_of(next, win_captures, b, &list);
}

static TbPlaceValue best_of(const TbPlaceNext *next, int win_captures, const Board *b,
                            const MoveList *list_given) {
    const MoveList list = *list_given;
    TbPlaceValue best = TB_PLACE_LOSS; /* no move at all loses */
    for (int k = 0; k < list.count; k++) {
        TbPlaceValue after = tb_place_after(next, win_captures, b, list.moves[k]);
        if (after == TB_PLACE_NONE)
            return TB_PLACE_NONE;
        if (after == TB_PLACE_LOSS)
            return TB_PLACE_WIN;
        if (after == TB_PLACE_DRAW)
            best = TB_PLACE_DRAW;
    }
    return best;
}

typedef struct {
    TbLayer *layer;
    const TbPlaceNext *next;
    const TbPlaceSetup *setup;
    bool checking;       /* compare, do not write: tb_place_check */
    int64_t failures;    /* atomic: positions whose value is not their successors' best */
    int64_t first_failure;
    int64_t next_chunk; /* atomic: the first position not yet handed out */
    int64_t done;       /* atomic: positions solved */
    int64_t unknown;    /* atomic: positions whose successor was not found */
    double start;
} Solve;

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef struct {
    Solve *solve;
    int worker;
} Worker;

static void *solve_work(void *arg) {
    Worker *w = arg;
    Solve *s = w->solve;
    TbLayer *layer = s->layer;
    double last = s->start;
    for (;;) {
        int64_t first = __atomic_fetch_add(&s->next_chunk, CHUNK, __ATOMIC_RELAXED);
        if (first >= layer->count)
            break;
        int64_t end = first + CHUNK < layer->count ? first + CHUNK : layer->count;
        int64_t unknown = 0;
        for (int64_t i = first; i < end; i++) {
            Board b = tb_layer_board(layer, i);
            if (s->checking) {
                /* The moves in another order than the solver's, each tiger's in turn. */
                MoveList list;
                movegen_all_point_order(&b, &list);
                TbPlaceValue v = best_of(s->next, layer->win_captures, &b, &list);
                if (v != tb_layer_value_at(layer, i) &&
                    __atomic_fetch_add(&s->failures, 1, __ATOMIC_RELAXED) == 0)
                    __atomic_store_n(&s->first_failure, i, __ATOMIC_RELAXED);
                continue;
            }
            TbPlaceValue v = tb_place_minimax(s->next, layer->win_captures, &b);
            unknown += v == TB_PLACE_NONE;
            layer->values[i / 4] |= (uint8_t)(v << 2 * (i % 4)); /* this worker's byte */
        }
        if (unknown)
            __atomic_fetch_add(&s->unknown, unknown, __ATOMIC_RELAXED);
        int64_t done = __atomic_add_fetch(&s->done, end - first, __ATOMIC_RELAXED);
        double now = seconds_now();
        if (w->worker == 0 && s->setup->progress && now - last >= PROGRESS_SECONDS) {
            char line[160];
            snprintf(line, sizeof line, "  %5.1f%% of %lld positions, %.2f M/s",
                     100.0 * (double)done / (double)layer->count, (long long)layer->count,
                     (double)done / (now - s->start) / 1e6);
            s->setup->progress(s->setup->context, line);
            last = now;
        }
    }
    return NULL;
}

/* Runs the workers over every position of the layer. */
static void run_workers(Solve *solve) {
    int threads = solve->setup->threads < 1             ? 1
                  : solve->setup->threads > MAX_THREADS ? MAX_THREADS
                                                        : solve->setup->threads;
    pthread_t ids[MAX_THREADS];
    Worker workers[MAX_THREADS];
    int started = 0;
    for (; started < threads; started++) {
        workers[started] = (Worker){solve, started};
        if (pthread_create(&ids[started], NULL, solve_work, &workers[started]) != 0)
            break;
    }
    if (started == 0) /* no thread: this one works */
        solve_work(&(Worker){solve, 0});
    for (int i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
}

int64_t tb_place_check(const TbLayer *layer, const TbPlaceNext *next, const TbPlaceSetup *setup,
                       int64_t *first_failure) {
    Solve solve = {.layer = (TbLayer *)layer, /* read only when checking */
                   .next = next,
                   .setup = setup,
                   .checking = true,
                   .first_failure = -1,
                   .start = seconds_now()};
    run_workers(&solve);
    *first_failure = solve.first_failure;
    return solve.failures;
}

bool tb_place_solve(TbLayer *layer, const TbPlaceNext *next, const TbPlaceSetup *setup,
                    Error *err) {
    memset(layer->values, 0, tb_layer_bytes(layer));
    Solve solve = {.layer = layer, .next = next, .setup = setup, .start = seconds_now()};
    run_workers(&solve);
    if (solve.unknown)
        return error_set(err,
                         "placement layer %d %s: %lld positions lead to positions the next "
                         "layer does not hold (the wrong layer or file below it)",
                         layer->in_hand, layer->side == SIDE_SHEEP ? "sheep" : "tigers",
                         (long long)solve.unknown);
    if (!tb_layer_count(layer))
        return error_set(err, "placement layer %d: a position left unsolved", layer->in_hand);
    return true;
}

/* Per byte, how many of its four values are each value: counting a layer of a billion positions
 * a byte at a time instead of a value at a time (the check every read makes). */
typedef struct {
    uint8_t of[4][256];
} ByteCounts;

static void byte_counts(ByteCounts *t) {
    for (int byte = 0; byte < 256; byte++) {
        for (int v = 0; v < 4; v++)
            t->of[v][byte] = 0;
        for (int k = 0; k < 4; k++)
            t->of[byte >> 2 * k & 3][byte]++;
    }
}

bool tb_layer_count(TbLayer *layer) {
    ByteCounts table;
    byte_counts(&table);
    int64_t none = 0;
    for (int c = 0; c < TB_LEVELS; c++) {
        int64_t counts[4] = {0};
        int64_t i = layer->level_start[c], end = layer->level_start[c + 1];
        for (; i < end && i % 4; i++) /* to a whole byte */
            counts[tb_layer_value_at(layer, i)]++;
        for (; i + 4 <= end; i += 4)
            for (int v = 0; v < 4; v++)
                counts[v] += table.of[v][layer->values[i / 4]];
        for (; i < end; i++)
            counts[tb_layer_value_at(layer, i)]++;
        layer->wins[c] = counts[TB_PLACE_WIN];
        layer->draws[c] = counts[TB_PLACE_DRAW];
        layer->losses[c] = counts[TB_PLACE_LOSS];
        none += counts[TB_PLACE_NONE];
    }
    return none == 0;
}
