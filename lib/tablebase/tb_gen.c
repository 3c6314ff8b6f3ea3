// SPDX-License-Identifier: MIT
#include "tb_gen.h"

#include "movegen.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_THREADS 64
#define MAX_NEIGHBOURS 64          /* distinct successor or predecessor classes of one position */
#define CHUNK 4096                 /* classes a worker takes at a time */
#define PENDING (INT64_C(1) << 62) /* queue entry: a win through a capture, not yet claimed */

/* Positions decided at one distance, waiting for their predecessors to be told. */
typedef struct {
    int64_t *items;
    size_t count, capacity;
} Queue;

/* One worker's queues by distance: a worker only appends to its own. The array of queues never
 * moves (other workers read it while this one appends), so it has room for every distance. */
#define MAX_DISTANCE 4096

typedef struct {
    Queue *by_distance; /* MAX_DISTANCE queues */
    bool out_of_memory;
} Queues;

/* What a level's workers share. The codes and counters are only read and written with atomic
 * operations (relaxed: passes are ordered by the threads' joins): two workers may tell the same
 * predecessor at once, and one may read a code while another tries to claim it. */
typedef struct {
    const TbIndex *index;
    int win_captures, captured, threads;
    TbCode *codes;
    uint8_t *unresolved;  /* per class of the level: successor classes not yet known won */
    uint16_t *loss_floor; /* per class: plies of the slowest losing capture, + 1 */
    int64_t level_start, level_end;
    Queues queues[MAX_THREADS];
    /* The current pass: classes or queue entries handed out CHUNK at a time. */
    int64_t next, total;
    int distance;
} Level;

static bool queue_push(Queues *q, int distance, int64_t item) {
    if (distance >= MAX_DISTANCE)
        return !(q->out_of_memory = true);
    Queue *queue = &q->by_distance[distance];
    if (queue->count == queue->capacity) {
        size_t grown = queue->capacity ? queue->capacity * 2 : 1024;
        int64_t *more = realloc(queue->items, grown * sizeof *more);
        if (!more)
            return !(q->out_of_memory = true);
        queue->items = more;
        queue->capacity = grown;
    }
    queue->items[queue->count++] = item;
    return true;
}

static bool add_distinct(int64_t *list, int *count, int64_t item) {
    for (int i = 0; i < *count; i++)
        if (list[i] == item)
            return false;
    list[(*count)++] = item;
    return true;
}

int64_t tb_gen_classes(const TbIndex *index, int win_captures) {
    return tb_index_block_start(index, win_captures - 1, SIDE_TIGERS) +
           tb_index_block_size(index, win_captures - 1, SIDE_TIGERS);
}

TbCode tb_successor_code(const TbIndex *index, int win_captures, const TbCode *codes,
                         const Board *b, Move m) {
    Board child = *b;
    board_make(&child, m);
    if (child.captured >= win_captures)
        return tb_code(0); /* the capture that wins: the sheep, to move, have lost */
    return __atomic_load_n(&codes[tb_index_of(index, &child, NULL)], __ATOMIC_RELAXED);
}

/* The forward pass over one class of the level: its distinct successor classes within the level
 * (to be told of one by one), and what its captures lead to. */
static void init_class(Level *l, Queues *mine, int64_t class_index) {
    Board b = tb_index_board(l->index, class_index);
    MoveList moves;
    movegen_all(&b, &moves);
    int64_t seen[MAX_NEIGHBOURS];
    int distinct = 0, fastest_win = -1, slowest_loss = 0;
    bool drawn_exit = false;
    for (int i = 0; i < moves.count; i++) {
        if (!move_is_jump(moves.moves[i])) {
            Board child = b;
            board_make(&child, moves.moves[i]);
            add_distinct(seen, &distinct, tb_index_of(l->index, &child, NULL));
            continue;
        }
        TbValue after =
            tb_value_of(tb_successor_code(l->index, l->win_captures, l->codes, &b, moves.moves[i]));
        if (after.outcome == TB_LOSS && (fastest_win < 0 || after.plies + 1 < fastest_win))
            fastest_win = after.plies + 1;
        else if (after.outcome == TB_WIN && after.plies + 1 > slowest_loss)
            slowest_loss = after.plies + 1;
        else if (after.outcome == TB_DRAW)
            drawn_exit = true;
    }
    int64_t slot = class_index - l->level_start;
    /* A winning or drawn capture means the position is never lost: a count that cannot reach 0. */
    int unresolved = distinct + (fastest_win >= 0 || drawn_exit);
    l->unresolved[slot] = (uint8_t)unresolved;
    l->loss_floor[slot] = (uint16_t)slowest_loss;
    if (fastest_win >= 0)
        queue_push(mine, fastest_win, class_index | PENDING);
    if (unresolved == 0) { /* no move, or only captures that lose */
        __atomic_store_n(&l->codes[class_index], tb_code(slowest_loss), __ATOMIC_RELAXED);
        queue_push(mine, slowest_loss, class_index);
    }
}

/* The distinct classes whose side to move could have moved into class_index's position (the
 * other side slid one piece back to an empty neighbouring point). */
static int predecessors(const Level *l, int64_t class_index, int64_t *out) {
    Board b = tb_index_board(l->index, class_index);
    Side mover = b.side ^ 1;
    uint32_t pieces = mover == SIDE_SHEEP ? b.sheep : b.tigers, empty = board_empty(&b);
    int count = 0;
    for (uint32_t left = pieces; left; left &= left - 1) {
        int point = lsb32(left);
        MOVEGEN_FOR_EACH_DIRECTION(d) {
            uint32_t back = movegen_step_targets(1u << point, d, empty); /* lines go both ways */
            if (!back)
                continue;
            Board before = b;
            uint32_t change = 1u << point | back;
            if (mover == SIDE_SHEEP)
                before.sheep ^= change;
            else
                before.tigers ^= change;
            before.side = (uint8_t)mover;
            add_distinct(out, &count, tb_index_of(l->index, &before, NULL));
        }
    }
    return count;
}

/* Tells class_index's predecessors that it is decided (its code is set). */
static void tell_predecessors(Level *l, Queues *mine, int64_t class_index, int distance) {
    int64_t before[MAX_NEIGHBOURS];
    int count = predecessors(l, class_index, before);
    bool lost = tb_code_is_loss(__atomic_load_n(&l->codes[class_index], __ATOMIC_RELAXED));
    for (int i = 0; i < count; i++) {
        int64_t p = before[i];
        if (__atomic_load_n(&l->codes[p], __ATOMIC_RELAXED) != TB_CODE_DRAW)
            continue; /* decided already */
        if (lost) {
            TbCode expected = TB_CODE_DRAW;
            if (__atomic_compare_exchange_n(&l->codes[p], &expected, tb_code(distance + 1), false,
                                            __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                queue_push(mine, distance + 1, p);
            continue;
        }
        int64_t slot = p - l->level_start;
        if (__atomic_sub_fetch(&l->unresolved[slot], 1, __ATOMIC_RELAXED) == 0) {
            /* Every successor is won by the opponent: the last of them was decided now. */
            int plies = distance + 1 > l->loss_floor[slot] ? distance + 1 : l->loss_floor[slot];
            __atomic_store_n(&l->codes[p], tb_code(plies), __ATOMIC_RELAXED);
            queue_push(mine, plies, p);
        }
    }
}

/* Hands out the next CHUNK of the current pass; false when it is done. */
static bool take_chunk(Level *l, int64_t *first, int64_t *last) {
    int64_t start = __atomic_fetch_add(&l->next, CHUNK, __ATOMIC_RELAXED);
    if (start >= l->total)
        return false;
    *first = start;
    *last = start + CHUNK < l->total ? start + CHUNK : l->total;
    return true;
}

typedef struct {
    Level *level;
    int worker;
    bool initialising;
} Task;

/* The queue entry at position i of the current distance, across all workers' queues. */
static int64_t entry_at(const Level *l, int64_t i) {
    for (int w = 0; w < l->threads; w++) {
        const Queues *q = &l->queues[w];
        size_t count = q->by_distance[l->distance].count;
        if ((size_t)i < count)
            return q->by_distance[l->distance].items[i];
        i -= (int64_t)count;
    }
    return -1;
}

static void *work(void *arg) {
    Task *t = arg;
    Level *l = t->level;
    Queues *mine = &l->queues[t->worker];
    int64_t first, last;
    while (take_chunk(l, &first, &last)) {
        for (int64_t i = first; i < last; i++) {
            if (t->initialising) {
                init_class(l, mine, l->level_start + i);
                continue;
            }
            int64_t entry = entry_at(l, i), class_index = entry & ~PENDING;
            if (entry & PENDING) { /* a capture wins: unless an earlier win claimed it */
                TbCode expected = TB_CODE_DRAW;
                if (!__atomic_compare_exchange_n(&l->codes[class_index], &expected,
                                                 tb_code(l->distance), false, __ATOMIC_RELAXED,
                                                 __ATOMIC_RELAXED))
                    continue;
            }
            tell_predecessors(l, mine, class_index, l->distance);
        }
    }
    return NULL;
}

/* Runs one pass of `total` items on all workers. */
static bool run_pass(Level *l, int64_t total, bool initialising, Error *err) {
    pthread_t ids[MAX_THREADS];
    Task tasks[MAX_THREADS];
    l->next = 0;
    l->total = total;
    int started = 0;
    for (; started < l->threads; started++) {
        tasks[started] = (Task){l, started, initialising};
        if (pthread_create(&ids[started], NULL, work, &tasks[started]) != 0)
            break;
    }
    for (int i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    if (started < l->threads)
        return error_set(err, "tablebase: cannot start %d threads", l->threads);
    for (int w = 0; w < l->threads; w++)
        if (l->queues[w].out_of_memory)
            return error_set(err,
                             "tablebase: out of memory for the queues, or a win longer "
                             "than %d plies",
                             MAX_DISTANCE - 1);
    return true;
}

/* Entries queued at `distance`, and the highest distance with any. */
static int64_t entries_at(const Level *l, int distance, int *highest) {
    int64_t total = 0;
    *highest = -1;
    for (int w = 0; w < l->threads; w++) {
        const Queues *q = &l->queues[w];
        total += (int64_t)q->by_distance[distance].count;
        for (int d = MAX_DISTANCE - 1; d > *highest; d--)
            if (q->by_distance[d].count) {
                *highest = d;
                break;
            }
    }
    return total;
}

static void free_queue(Level *l, int distance) {
    for (int w = 0; w < l->threads; w++) {
        free(l->queues[w].by_distance[distance].items);
        l->queues[w].by_distance[distance] = (Queue){0};
    }
}

static bool solve_level(Level *l, Error *err) {
    int64_t size = l->level_end - l->level_start;
    l->unresolved = malloc((size_t)size);
    l->loss_floor = malloc((size_t)size * sizeof *l->loss_floor);
    bool ok = l->unresolved && l->loss_floor;
    for (int w = 0; ok && w < l->threads; w++)
        ok = (l->queues[w].by_distance = calloc(MAX_DISTANCE, sizeof(Queue))) != NULL;
    if (!ok)
        error_set(err, "tablebase: out of memory for level %d", l->captured);
    ok = ok && run_pass(l, size, true, err);
    int highest = -1;
    if (ok)
        entries_at(l, 0, &highest);
    for (l->distance = 0; ok && l->distance <= highest; l->distance++) {
        ok = run_pass(l, entries_at(l, l->distance, &highest), false, err);
        free_queue(l, l->distance);
        entries_at(l, l->distance, &highest);
    }
    for (int w = 0; w < l->threads; w++) {
        for (int d = 0; l->queues[w].by_distance && d < MAX_DISTANCE; d++)
            free(l->queues[w].by_distance[d].items);
        free(l->queues[w].by_distance);
        l->queues[w] = (Queues){0};
    }
    free(l->unresolved);
    free(l->loss_floor);
    return ok;
}

static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

bool tb_generate(const TbIndex *index, const TbGenSetup *setup, TbCode *codes, Error *err) {
    if (setup->win_captures < 1 || setup->win_captures > TB_LEVELS)
        return error_set(err, "tablebase: win_captures %d is not 1..%d", setup->win_captures,
                         TB_LEVELS);
    Level *l = calloc(1, sizeof *l);
    if (!l)
        return error_set(err, "tablebase: out of memory");
    bool ok = true;
    for (int captured = setup->win_captures - 1; ok && captured >= 0; captured--) {
        double start = seconds_now();
        *l = (Level){.index = index,
                     .win_captures = setup->win_captures,
                     .captured = captured,
                     .threads = setup->threads < 1             ? 1
                                : setup->threads > MAX_THREADS ? MAX_THREADS
                                                               : setup->threads,
                     .codes = codes,
                     .level_start = tb_index_block_start(index, captured, SIDE_SHEEP),
                     .level_end = tb_index_block_start(index, captured, SIDE_TIGERS) +
                                  tb_index_block_size(index, captured, SIDE_TIGERS)};
        ok = solve_level(l, err);
        if (ok && setup->progress) {
            char line[160];
            snprintf(line, sizeof line, "level %d (%d sheep captured): %lld positions, %.1f s",
                     captured, captured, (long long)(l->level_end - l->level_start),
                     seconds_now() - start);
            setup->progress(setup->context, line);
        }
    }
    free(l);
    return ok;
}
