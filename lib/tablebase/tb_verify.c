// SPDX-License-Identifier: MIT
// Checking a solved game position by position with forward move generation only (none of the
// generator's un-moves or counters), and counting what it holds.
#include "tb_gen.h"

#include "movegen.h"
#include "tb_verify.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define MAX_THREADS 64
#define CHUNK 4096

void tb_count(const TbIndex *index, int win_captures, const TbCode *codes, TbCounts *counts) {
    TbEntries entries = {codes, NULL, 0};
    tb_count_entries(index, win_captures, &entries, counts);
}

/* What one block holds. A draw's code is 0, a loss's odd, a win's even and not 0. */
typedef struct {
    int64_t draws, losses;
    TbCode highest;     /* of any entry */
    TbCode highest_win; /* 0: no win */
    int64_t highest_win_at;
} Tally;

/* Branch-free sums and maxima over 1-byte entries in chunks small enough for 32-bit sums, so
 * that the compiler vectorises the loop; where the highest win lies is found afterwards by a
 * pass that stops at it. */
static void tally_bytes(Tally *t, const uint8_t *bytes, int64_t count) {
    enum { CHUNK_ENTRIES = 1 << 20 };
    uint8_t highest = 0, highest_win = 0;
    for (int64_t done = 0; done < count; done += CHUNK_ENTRIES) {
        int64_t n = count - done < CHUNK_ENTRIES ? count - done : CHUNK_ENTRIES;
        const uint8_t *chunk = bytes + done;
        uint32_t draws = 0, losses = 0;
        for (int64_t i = 0; i < n; i++) {
            /* The win as a mask (0xff for an even code, 0 for an odd one): gcc does not
             * vectorise the same choice written with ?: (a reduction used inside the loop). */
            uint8_t code = chunk[i], win = code & (uint8_t)((code & 1) - 1);
            draws += code == 0;
            losses += code & 1;
            highest = code > highest ? code : highest;
            highest_win = win > highest_win ? win : highest_win;
        }
        t->draws += draws;
        t->losses += losses;
    }
    t->highest = highest;
    t->highest_win = highest_win;
}

static inline void tally(Tally *t, TbCode code) {
    TbCode win = code & 1 ? 0 : code;
    t->draws += code == TB_CODE_DRAW;
    t->losses += code & 1;
    t->highest = code > t->highest ? code : t->highest;
    t->highest_win = win > t->highest_win ? win : t->highest_win;
}

/* Where code first occurs in [start, end) (it does occur). memchr for bytes: the highest win often
 * lies near a block's end, and a loop over tb_entries_at took more time than the count itself. */
static int64_t first_index_of(const TbEntries *e, int64_t start, int64_t end, TbCode code) {
    if (!e->codes && e->entry_bytes == 1) {
        const uint8_t *at = memchr(e->bytes + start, code, (size_t)(end - start));
        return at - e->bytes;
    }
    int64_t i = start;
    while (tb_entries_at(e, i) != code)
        i++;
    return i;
}

/* One loop per representation, so that none decodes its entries entry by entry: counting the
 * 88 MB file when it is opened took 0.28 s through tb_entries_at, 0.10-0.16 s with a loop per
 * representation and a branch per entry, about 0.015 s vectorised (perf record of
 * `bench tbprobe -info`). */
static Tally tally_block(const TbEntries *e, int64_t start, int64_t end) {
    Tally t = {0, 0, 0, 0, -1};
    if (e->codes)
        for (int64_t i = start; i < end; i++)
            tally(&t, e->codes[i]);
    else if (e->entry_bytes == 1)
        tally_bytes(&t, e->bytes + start, end - start);
    else
        for (int64_t i = start; i < end; i++)
            tally(&t, (TbCode)(e->bytes[2 * i] | e->bytes[2 * i + 1] << 8));
    if (t.highest_win)
        t.highest_win_at = first_index_of(e, start, end, t.highest_win);
    return t;
}

void tb_count_entries(const TbIndex *index, int win_captures, const TbEntries *entries,
                      TbCounts *counts) {
    memset(counts, 0, sizeof *counts);
    counts->longest_index = -1;
    TbCode highest = 0;
    for (int captured = 0; captured < win_captures; captured++)
        for (int side = 0; side < 2; side++) {
            int64_t start = tb_index_block_start(index, captured, (Side)side);
            int64_t size = tb_index_block_size(index, captured, (Side)side);
            Tally t = tally_block(entries, start, start + size);
            counts->positions[captured][side] = size;
            counts->draws[captured][side] = t.draws;
            counts->losses[captured][side] = t.losses;
            counts->wins[captured][side] = size - t.draws - t.losses;
            highest = t.highest > highest ? t.highest : highest;
            int win_plies = t.highest_win ? tb_value_of(t.highest_win).plies : 0;
            if (win_plies > counts->longest_plies) {
                counts->longest_plies = win_plies;
                counts->longest_index = t.highest_win_at;
            }
        }
    counts->longest_distance = highest ? tb_value_of(highest).plies : 0;
}

/* Why class i breaks the rules, or NULL when it keeps them. */
static const char *check_class(const TbIndex *index, int win_captures, const TbCode *codes,
                               int64_t i, char *why, size_t size) {
    Board b = tb_index_board(index, i);
    TbValue v = tb_value_of(codes[i]);
    MoveList moves;
    movegen_all(&b, &moves);
    int lost_fastest = -1, won_slowest = -1;
    bool drawn = false;
    for (int m = 0; m < moves.count; m++) {
        TbValue after =
            tb_value_of(tb_successor_code(index, win_captures, codes, &b, moves.moves[m]));
        if (after.outcome == TB_LOSS && (lost_fastest < 0 || after.plies < lost_fastest))
            lost_fastest = after.plies;
        if (after.outcome == TB_WIN && after.plies > won_slowest)
            won_slowest = after.plies;
        drawn |= after.outcome == TB_DRAW;
    }
    switch (v.outcome) {
    case TB_WIN:
        if (lost_fastest != v.plies - 1)
            snprintf(why, size, "a win in %d, but the fastest lost successor is in %d", v.plies,
                     lost_fastest);
        else
            return NULL;
        return why;
    case TB_LOSS:
        if (lost_fastest >= 0 || drawn)
            snprintf(why, size, "a loss in %d with a %s successor", v.plies,
                     drawn ? "drawn" : "lost");
        else if (moves.count == 0 ? v.plies != 0 : won_slowest != v.plies - 1)
            snprintf(why, size, "a loss in %d, but the slowest won successor is in %d", v.plies,
                     won_slowest);
        else
            return NULL;
        return why;
    default:
        if (lost_fastest >= 0 || !drawn)
            snprintf(why, size, "a draw with %s",
                     lost_fastest >= 0 ? "a lost successor" : "no drawn successor");
        else
            return NULL;
        return why;
    }
}

typedef struct {
    const TbIndex *index;
    int win_captures;
    const TbCode *codes;
    int64_t first, last, next;
    pthread_mutex_t lock;
    TbCheck *check;
} Verify;

static void *verify_worker(void *arg) {
    Verify *v = arg;
    for (;;) {
        int64_t start = __atomic_fetch_add(&v->next, CHUNK, __ATOMIC_RELAXED) + v->first;
        if (start >= v->last)
            return NULL;
        int64_t end = start + CHUNK < v->last ? start + CHUNK : v->last, failures = 0;
        int64_t first_failure = -1;
        char why[160], first_why[160] = "";
        for (int64_t i = start; i < end; i++)
            if (check_class(v->index, v->win_captures, v->codes, i, why, sizeof why)) {
                if (!failures++) {
                    first_failure = i;
                    snprintf(first_why, sizeof first_why, "%s", why);
                }
            }
        pthread_mutex_lock(&v->lock);
        v->check->checked += end - start;
        v->check->failures += failures;
        if (first_failure >= 0 &&
            (v->check->first_failure < 0 || first_failure < v->check->first_failure)) {
            v->check->first_failure = first_failure;
            snprintf(v->check->first_reason, sizeof v->check->first_reason, "%s", first_why);
        }
        pthread_mutex_unlock(&v->lock);
    }
}

bool tb_verify(const TbIndex *index, int win_captures, const TbCode *codes, int64_t first,
               int64_t last, int threads, TbCheck *check, Error *err) {
    *check = (TbCheck){0, 0, -1, ""};
    Verify v = {index, win_captures, codes, first, last, 0, PTHREAD_MUTEX_INITIALIZER, check};
    threads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
    pthread_t ids[MAX_THREADS];
    int started = 0;
    for (; started < threads; started++)
        if (pthread_create(&ids[started], NULL, verify_worker, &v) != 0)
            break;
    for (int i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    pthread_mutex_destroy(&v.lock);
    return started == threads || error_set(err, "tablebase: cannot start %d threads", threads);
}

/* The side to move has lost: the tigers made the winning capture, or it has no move. */
static bool has_lost(const Board *b, int win_captures, MoveList *moves) {
    if (b->captured >= win_captures)
        return true;
    movegen_all(b, moves);
    return moves->count == 0;
}

bool tb_win_within(const Board *b, int plies, int win_captures) {
    MoveList moves;
    if (has_lost(b, win_captures, &moves) || plies <= 0)
        return false;
    for (int i = 0; i < moves.count; i++) {
        Board child = *b;
        board_make(&child, moves.moves[i]);
        if (tb_lost_within(&child, plies - 1, win_captures))
            return true;
    }
    return false;
}

bool tb_lost_within(const Board *b, int plies, int win_captures) {
    MoveList moves;
    if (has_lost(b, win_captures, &moves))
        return true;
    if (plies <= 0)
        return false;
    for (int i = 0; i < moves.count; i++) {
        Board child = *b;
        board_make(&child, moves.moves[i]);
        if (!tb_win_within(&child, plies - 1, win_captures))
            return false;
    }
    return true;
}
