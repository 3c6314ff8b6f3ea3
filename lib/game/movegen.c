// SPDX-License-Identifier: MIT
// Bitboard move generation: each direction is one shift of a 25-bit mask. The source masks in
// tables.h keep a shifted piece on the board and on a line (diagonals only through even points),
// so no per-point loops are needed to find destinations.
#include "movegen.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

static int add_steps(Move *moves, int count, uint32_t movers, uint32_t empty) {
    MOVEGEN_FOR_EACH_DIRECTION(d)
    for (uint32_t to = movegen_step_targets(movers, d, empty); to; to &= to - 1) {
        int point = lsb32(to);
        moves[count++] = move_step(point - TABLE_DIR_DELTA[d], point);
    }
    return count;
}

void movegen_all(const Board *b, MoveList *list) {
    uint32_t empty = board_empty(b);
    int count = 0;
    if (b->side == SIDE_TIGERS) {
        MOVEGEN_FOR_EACH_DIRECTION(d)
        for (uint32_t to = movegen_jump_targets(b, d, empty); to; to &= to - 1) {
            int point = lsb32(to);
            list->moves[count++] = move_jump(point - 2 * TABLE_DIR_DELTA[d], point);
        }
        count = add_steps(list->moves, count, b->tigers, empty);
    } else if (b->in_hand > 0) {
        for (uint32_t to = empty; to; to &= to - 1)
            list->moves[count++] = move_place(lsb32(to));
    } else {
        count = add_steps(list->moves, count, b->sheep, empty);
    }
    list->count = count;
}

void movegen_all_point_order(const Board *b, MoveList *list) {
    if (b->side != SIDE_TIGERS) {
        movegen_all(b, list);
        return;
    }
    uint32_t empty = board_empty(b);
    list->count = 0;
    for (uint32_t tigers = b->tigers; tigers; tigers &= tigers - 1) {
        int from = lsb32(tigers);
        for (int d = 0; d < DIRECTIONS; d++) {
            if (!(TABLE_STEP_FROM[d] >> from & 1))
                continue;
            int next = from + TABLE_DIR_DELTA[d], beyond = next + TABLE_DIR_DELTA[d];
            if (empty >> next & 1)
                list->moves[list->count++] = move_step(from, next);
            else if ((b->sheep >> next & 1) && (TABLE_JUMP_FROM[d] >> from & 1) &&
                     (empty >> beyond & 1))
                list->moves[list->count++] = move_jump(from, beyond);
        }
    }
}

int movegen_tiger_moves_portable(const Board *b, int *jumps, int *trapped_tigers) {
    uint32_t empty = board_empty(b), can_move = 0;
    int count = 0, jump_count = 0;
    MOVEGEN_FOR_EACH_DIRECTION(d) {
        int delta = TABLE_DIR_DELTA[d];
        uint32_t steps = movegen_step_targets(b->tigers, d, empty);
        uint32_t jump_to = movegen_jump_targets(b, d, empty);
        jump_count += popcount32(jump_to);
        count += popcount32(steps) + popcount32(jump_to);
        can_move |= movegen_shift(steps, -delta) | movegen_shift(jump_to, -2 * delta);
    }
    if (jumps)
        *jumps = jump_count;
    if (trapped_tigers)
        *trapped_tigers = TIGERS_TOTAL - popcount32(can_move);
    return count;
}

#if defined(__AVX2__)
/* The same with the eight directions as the eight 32-bit lanes of one vector. Each lane shifts
 * one way: AVX2's per-lane shifts give 0 for a count of 32, so a lane's left and right counts
 * are its delta and 32 (or 32 and -delta). Bits are counted per byte from a 16-entry table and
 * summed with psadbw. Every leaf of the search calls this once. */
static __m256i shift_lanes(__m256i x, __m256i left, __m256i right) {
    return _mm256_or_si256(_mm256_sllv_epi32(x, left), _mm256_srlv_epi32(x, right));
}

static __m256i popcount_bytes(__m256i x) {
    const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1,
                                           2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low_nibbles = _mm256_set1_epi8(0x0f);
    __m256i low = _mm256_and_si256(x, low_nibbles);
    __m256i high = _mm256_and_si256(_mm256_srli_epi16(x, 4), low_nibbles);
    return _mm256_add_epi8(_mm256_shuffle_epi8(table, low), _mm256_shuffle_epi8(table, high));
}

static int sum_bytes(__m256i bytes) {
    __m256i sums = _mm256_sad_epu8(bytes, _mm256_setzero_si256()); /* four 64-bit sums */
    __m128i pair = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    return (int)(_mm_cvtsi128_si64(pair) + _mm_extract_epi64(pair, 1));
}

static uint32_t or_lanes(__m256i x) {
    __m128i v = _mm_or_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
    v = _mm_or_si128(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
    v = _mm_or_si128(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
    return (uint32_t)_mm_cvtsi128_si32(v);
}

int movegen_tiger_moves(const Board *b, int *jumps, int *trapped_tigers) {
    /* Lane d is direction d of TABLE_DIR_DELTA: 5, 6, 1, -4, -5, -6, -1, 4. */
    const __m256i left = _mm256_setr_epi32(5, 6, 1, 32, 32, 32, 32, 4);
    const __m256i right = _mm256_setr_epi32(32, 32, 32, 4, 5, 6, 1, 32);
    const __m256i left2 = _mm256_setr_epi32(10, 12, 2, 32, 32, 32, 32, 8);
    const __m256i right2 = _mm256_setr_epi32(32, 32, 32, 8, 10, 12, 2, 32);
    const __m256i step_from = _mm256_loadu_si256((const __m256i *)TABLE_STEP_FROM);
    const __m256i jump_from = _mm256_loadu_si256((const __m256i *)TABLE_JUMP_FROM);
    __m256i tigers = _mm256_set1_epi32((int)b->tigers), sheep = _mm256_set1_epi32((int)b->sheep);
    __m256i empty = _mm256_set1_epi32((int)board_empty(b));
    __m256i steps =
        _mm256_and_si256(shift_lanes(_mm256_and_si256(tigers, step_from), left, right), empty);
    __m256i over =
        _mm256_and_si256(shift_lanes(_mm256_and_si256(tigers, jump_from), left, right), sheep);
    __m256i jump_to = _mm256_and_si256(shift_lanes(over, left, right), empty);
    __m256i jump_bytes = popcount_bytes(jump_to);
    if (jumps)
        *jumps = sum_bytes(jump_bytes);
    if (trapped_tigers) {
        /* A tiger can move when a step or jump lands from it: shift the landings back. */
        __m256i from =
            _mm256_or_si256(shift_lanes(steps, right, left), shift_lanes(jump_to, right2, left2));
        *trapped_tigers = TIGERS_TOTAL - popcount32(or_lanes(from));
    }
    return sum_bytes(_mm256_add_epi8(popcount_bytes(steps), jump_bytes));
}
#else
int movegen_tiger_moves(const Board *b, int *jumps, int *trapped_tigers) {
    return movegen_tiger_moves_portable(b, jumps, trapped_tigers);
}
#endif

int movelist_find(const MoveList *list, Move m) {
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m)
            return i;
    return -1;
}
