// SPDX-License-Identifier: MIT
// perft against the reference counts (independent implementations), and the bitboard move
// generator against a naive one written from the rules.
#include "perft.h"

#include "movegen.h"
#include "test_util.h"

#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Reference file: TSLAB_PERFT_FILE, else the shared reference beside the repository, else the
 * copy in tests/data. Entries above TSLAB_PERFT_MAX leaves (default 1e9) are skipped here;
 * `make perft-deep` raises the limit. */
static void perft__reference_counts(void **state) {
    (void)state;
    const char *candidates[] = {getenv("TSLAB_PERFT_FILE"),
                                TSLAB_SOURCE_DIR "/../shared/reference/perft.json",
                                TSLAB_SOURCE_DIR "/tests/data/perft.json"};
    char *text = NULL;
    const char *path = NULL;
    for (size_t i = 0; i < 3 && !text; i++)
        if (candidates[i])
            text = test_read_file(path = candidates[i]);
    if (!text)
        fail_msg("no perft reference file found");
    const char *limit_text = getenv("TSLAB_PERFT_MAX");
    double limit = limit_text ? strtod(limit_text, NULL) : 1e9;
    bool progress = getenv("TSLAB_PERFT_PROGRESS") != NULL; /* make perft-deep: a line each */
    cJSON *root = cJSON_Parse(text);
    free(text);
    cJSON *entries = cJSON_GetObjectItem(root, "entries");
    assert_true(cJSON_IsArray(entries));
    int checked = 0, skipped = 0;
    cJSON *entry;
    cJSON_ArrayForEach(entry, entries) {
        const char *fen = cJSON_GetStringValue(cJSON_GetObjectItem(entry, "fen"));
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(entry, "name"));
        int depth = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(entry, "depth"));
        double nodes = cJSON_GetNumberValue(cJSON_GetObjectItem(entry, "nodes"));
        assert_non_null(fen);
        if (nodes > limit) {
            skipped++;
            continue;
        }
        Board b = parse_board(fen);
        if (progress) {
            fprintf(stderr, "perft %-24s depth %2d: %15.0f ...", name ? name : fen, depth, nodes);
            fflush(stderr);
        }
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        uint64_t got = perft(&b, depth);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (progress)
            fprintf(stderr, " %s (%.1f s)\n", (double)got == nodes ? "ok" : "WRONG",
                    (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        if ((double)got != nodes)
            fail_msg("%s (%s) depth %d: %" PRIu64 ", reference %.0f", name, fen, depth, got, nodes);
        checked++;
    }
    cJSON_Delete(root);
    print_message("perft: %d reference entries matched from %s, %d above %.0f skipped\n", checked,
                  path, skipped, limit);
    assert_true(checked > 0);
}

/* The legal moves by the rules, point by point, from coordinates: no tables, no shifts. */
static bool joined(int a, int b) {
    int fa = a % 5, ra = a / 5, fb = b % 5, rb = b / 5;
    int df = abs(fa - fb), dr = abs(ra - rb);
    if (df > 1 || dr > 1 || df + dr == 0)
        return false;
    return df + dr == 1 || (fa + ra) % 2 == 0;
}

static int naive_moves(const Board *b, Move *out) {
    int count = 0;
    uint32_t occupied = b->tigers | b->sheep;
    for (int from = 0; from < 25; from++) {
        bool tiger = b->tigers >> from & 1, sheep = b->sheep >> from & 1;
        if (b->side == SIDE_SHEEP && b->in_hand > 0) {
            if (!(occupied >> from & 1))
                out[count++] = move_place(from);
            continue;
        }
        if (!(b->side == SIDE_TIGERS ? tiger : sheep))
            continue;
        for (int to = 0; to < 25; to++) {
            if (occupied >> to & 1)
                continue;
            if (joined(from, to))
                out[count++] = move_step(from, to);
            int over = (from + to) / 2;
            int df = to % 5 - from % 5, dr = to / 5 - from / 5;
            bool straight2 = (abs(df) == 2 || df == 0) && (abs(dr) == 2 || dr == 0) && (df != 0 || dr != 0);
            if (b->side == SIDE_TIGERS && straight2 && joined(from, over) && joined(over, to) &&
                (b->sheep >> over & 1))
                out[count++] = move_jump(from, to);
        }
    }
    return count;
}

static void movegen__matches_naive_generator(void **state) {
    (void)state;
    Rng rng = rng_seeded(99);
    for (int game = 0; game < 2000; game++) {
        Board b = random_position(&rng, (int)rng_below(&rng, 150));
        Move naive[256];
        int count = naive_moves(&b, naive);
        MoveList list;
        movegen_all(&b, &list);
        assert_int_equal(list.count, count);
        assert_int_equal(movegen_count(&b), count);
        bool seen_other = false;
        for (int i = 0; i < list.count; i++) {
            assert_true(movelist_find(&list, naive[i]) >= 0);
            /* Jumps come first. */
            if (!move_is_jump(list.moves[i]))
                seen_other = true;
            else
                assert_false(seen_other);
        }
    }
}

static void perft__over_positions_contribute_nothing(void **state) {
    (void)state;
    Board captured = parse_board("T3T/5/5/5/T3T s 15 5");
    assert_int_equal(perft(&captured, 1), 0);
    assert_int_equal(perft(&captured, 3), 0);
    Board trapped = parse_board("5/SS1S1/SSS2/TTSS1/TTSS1 t 10 0");
    assert_int_equal(perft(&trapped, 2), 0);
    assert_int_equal(perft(&trapped, 0), 1);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(movegen__matches_naive_generator),
        cmocka_unit_test(perft__over_positions_contribute_nothing),
        cmocka_unit_test(perft__reference_counts),
    };
    return RUN_TESTS("perft", tests);
}
