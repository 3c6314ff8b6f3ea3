// SPDX-License-Identifier: MIT
// The sliding-phase tablebase: the index against a count made apart from it (Burnside's lemma
// over the board's symmetries), and the retrograde solver on the smaller games that fit in
// seconds (tigers win at 1 or 2 captures: levels 0, or 0 and 1, of the real index) against its
// successors, a plain forward search and the eight images. The full database is `make
// tablebase-check` (docs/tablebase.md).
#include "test_util.h"

#include "movegen.h"
#include "rng.h"
#include "tablebase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BENCH TSLAB_BUILD_DIR "/bench"

/* Positions up to symmetry with 1..5 empty points (0..4 captured), per side to move: orbits of
 * (4 tigers, e empty points) counted by Burnside's lemma from the cycle types of the 8
 * symmetries (a script outside the code; the total is Lim and Nievergelt's 88,260,972). */
static const int64_t CLASSES_PER_SIDE[TB_LEVELS] = {33481, 333175, 2105695, 9469965, 32188170};

static void index__class_counts_match_burnside(void **state) {
    (void)state;
    TbIndex *index = tb_index_new();
    assert_non_null(index);
    int64_t total = 0, next = 0;
    for (int captured = 0; captured < TB_LEVELS; captured++)
        for (int side = 0; side < 2; side++) {
            assert_int_equal(tb_index_block_start(index, captured, (Side)side), next);
            assert_int_equal(tb_index_block_size(index, captured, (Side)side),
                             CLASSES_PER_SIDE[captured]);
            next += CLASSES_PER_SIDE[captured];
            total += tb_index_block_size(index, captured, (Side)side);
        }
    assert_int_equal(total, TB_CLASSES);
    assert_int_equal(tb_gen_classes(index, TB_LEVELS), TB_CLASSES);
    tb_index_free(index);
}

/* Every class reads back to a position whose eight images all index to it, through a symmetry
 * that maps each image onto the representative; positions outside the phase have no index. */
static void index__round_trip_and_symmetric_images(void **state) {
    (void)state;
    TbIndex *index = tb_index_new();
    Rng rng = rng_new(11);
    for (int n = 0; n < 20000; n++) {
        int64_t i = n < 2000 ? n : (int64_t)rng_below(&rng, TB_CLASSES);
        Board b = tb_index_board(index, i);
        assert_true(board_is_consistent(&b));
        assert_int_equal(b.in_hand, 0);
        for (Symmetry s = 0; s < SYMMETRIES; s++) {
            Board image = sym_board(s, &b);
            Symmetry back = 0;
            assert_int_equal(tb_index_of(index, &image, &back), i);
            Board mapped = sym_board(back, &image);
            assert_true(board_equal(&mapped, &b));
        }
    }
    Board start = board_start(), over;
    assert_int_equal(tb_index_of(index, &start, NULL), -1);
    Error err;
    assert_true(board_from_text("SSSSS/SSSSS/1SSS1/TT1TT/1S1S1 t 0 5", &over, &err));
    assert_int_equal(tb_index_of(index, &over, NULL), -1);
    tb_index_free(index);
}

typedef struct {
    TbIndex *index;
    TbCode *codes;
    int64_t classes;
} Solved;

static Solved solve(int win_captures, int threads) {
    Solved s = {tb_index_new(), NULL, 0};
    assert_non_null(s.index);
    s.classes = tb_gen_classes(s.index, win_captures);
    s.codes = calloc((size_t)s.classes, sizeof *s.codes);
    assert_non_null(s.codes);
    TbGenSetup setup = {win_captures, threads, NULL, NULL};
    Error err;
    assert_true(tb_generate(s.index, &setup, s.codes, &err));
    return s;
}

static void solved_free(Solved *s) {
    free(s->codes);
    tb_index_free(s->index);
}

/* The consistency pass finds nothing in the solution, and finds a single wrong entry. */
static void solver__consistent_with_successors(void **state) {
    (void)state;
    for (int captures = 1; captures <= 2; captures++) {
        Solved s = solve(captures, 2);
        TbCheck check;
        Error err;
        assert_true(tb_verify(s.index, captures, s.codes, 0, s.classes, 2, &check, &err));
        assert_int_equal(check.checked, s.classes);
        assert_int_equal(check.failures, 0);
        TbCounts counts;
        tb_count(s.index, captures, s.codes, &counts);
        print_message("%d captures win: %lld positions, longest win %d plies\n", captures,
                      (long long)s.classes, counts.longest_plies);
        /* Damage one win: the verifier names it. */
        int64_t victim = counts.longest_index;
        s.codes[victim] = tb_code(counts.longest_plies + 2);
        assert_true(tb_verify(s.index, captures, s.codes, 0, s.classes, 2, &check, &err));
        assert_true(check.failures >= 1);
        assert_true(check.first_failure <= victim);
        solved_free(&s);
    }
}

/* Same codes on one thread and on three (atomic claims, any order). */
static void solver__same_for_any_thread_count(void **state) {
    (void)state;
    Solved one = solve(2, 1), three = solve(2, 3);
    assert_memory_equal(one.codes, three.codes, (size_t)one.classes * sizeof *one.codes);
    solved_free(&one);
    solved_free(&three);
}

/* Sampled positions of every value up to 7 plies agree with the plain forward search: a win in
 * n is forced within n plies and not within n - 2, a loss in n cannot be avoided for n plies
 * but can for n - 2, a draw has no forced result within 7 plies either way. */
static void solver__agrees_with_forward_search(void **state) {
    (void)state;
    enum { MAX_PLIES = 7, PER_BUCKET = 40 };
    Solved s = solve(2, 2);
    Rng rng = rng_new(5);
    int found[MAX_PLIES + 2] = {0}, full = 0;
    for (int64_t tries = 0; full < MAX_PLIES + 2 && tries < 10000000; tries++) {
        int64_t i = (int64_t)rng_below(&rng, (uint64_t)s.classes);
        TbValue v = tb_value_of(s.codes[i]);
        int bucket = v.outcome == TB_DRAW ? MAX_PLIES + 1 : v.plies;
        if (bucket > MAX_PLIES + 1 || found[bucket] >= PER_BUCKET)
            continue;
        full += ++found[bucket] == PER_BUCKET;
        Board b = tb_index_board(s.index, i);
        if (v.outcome == TB_WIN) {
            assert_true(tb_win_within(&b, v.plies, 2));
            assert_false(tb_win_within(&b, v.plies - 2, 2));
        } else if (v.outcome == TB_LOSS) {
            assert_true(tb_lost_within(&b, v.plies, 2));
            assert_false(v.plies >= 2 && tb_lost_within(&b, v.plies - 2, 2));
        } else {
            assert_false(tb_win_within(&b, MAX_PLIES, 2));
            assert_false(tb_lost_within(&b, MAX_PLIES, 2));
        }
    }
    for (int bucket = 0; bucket <= MAX_PLIES + 1; bucket++)
        assert_int_equal(found[bucket], PER_BUCKET);
    solved_free(&s);
}

/* A file name of this test run's own under /tmp. */
static const char *temp_path(const char *name) {
    static char path[256];
    snprintf(path, sizeof path, "/tmp/tslab_tb_%d_%s", (int)getpid(), name);
    return path;
}

static void rewrite_byte(const char *path, long offset, unsigned char value) {
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    fputc(value, f);
    fclose(f);
}

/* Written, reopened and probed: the same values for every class and every image; a damaged
 * file is refused with its name and what is wrong. */
static void file__round_trip_and_damage(void **state) {
    (void)state;
    Solved s = solve(2, 2);
    char path[256], copy[300], command[700];
    snprintf(path, sizeof path, "%s", temp_path("small.tstb"));
    Error err;
    assert_true(tb_write(path, s.index, 2, s.codes, &err));
    Tablebase *tb = tb_open(path, &err);
    assert_non_null(tb);
    assert_int_equal(tb_header(tb)->entries, s.classes);
    assert_int_equal(tb_header(tb)->entry_bytes, 1);
    for (int64_t i = 0; i < s.classes; i += 7) {
        Board b = tb_index_board(s.index, i);
        Board image = sym_board((Symmetry)(i % SYMMETRIES), &b);
        TbValue v = {TB_DRAW, -1}, expected = tb_value_of(s.codes[i]);
        assert_true(tb_probe(tb, &image, &v));
        assert_int_equal(v.outcome, expected.outcome);
        assert_int_equal(v.plies, expected.plies);
    }
    tb_close(tb);
    static const struct {
        long offset;
        const char *says;
    } damage[] = {
        {0, "not a tslab tablebase"},      /* magic */
        {8, "format version"},             /* version */
        {16, "other rules"},               /* rules text */
        {TB_HEADER_BYTES + 5, "checksum"}, /* an entry */
    };
    for (size_t d = 0; d < sizeof damage / sizeof damage[0]; d++) {
        snprintf(copy, sizeof copy, "%s.damaged", path);
        snprintf(command, sizeof command, "cp '%s' '%s'", path, copy);
        assert_int_equal(system(command), 0);
        rewrite_byte(copy, damage[d].offset, 0x7f);
        assert_null(tb_open(copy, &err));
        assert_non_null(strstr(err.text, damage[d].says));
        assert_non_null(strstr(err.text, copy));
    }
    snprintf(command, sizeof command, "head -c 1000 '%s' > '%s'", path, copy);
    assert_int_equal(system(command), 0);
    assert_null(tb_open(copy, &err));
    assert_non_null(strstr(err.text, "truncated"));
    assert_null(tb_open(temp_path("missing.tstb"), &err));
    assert_non_null(strstr(err.text, "cannot open"));
    remove(path);
    remove(copy);
    solved_free(&s);
}

/* The commands: tbgen of the small game, tbprobe's keys, tbverify's verdict, clear errors. */
static void commands__generate_probe_verify(void **state) {
    (void)state;
    char command[800], *out;
    const char *path = temp_path("cmd.tstb");
    snprintf(command, sizeof command, BENCH " tbgen -captures 2 -threads 2 -out '%s'", path);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "positions up to symmetry: 733312"));
    free(out);
    snprintf(command, sizeof command, BENCH " tbprobe -info -tb '%s' -json - 2>/dev/null", path);
    assert_int_equal(test_run(command, &out), 0);
    cJSON *json = cJSON_Parse(out);
    free(out);
    assert_non_null(json);
    assert_int_equal((int64_t)cJSON_GetObjectItem(json, "classes")->valuedouble, 733312);
    cJSON_Delete(json);
    /* A tigers-to-move position with a capture: the second capture wins in 1 in this game. */
    snprintf(command, sizeof command,
             BENCH " tbprobe -fen 'SSSSS/SSSSS/SSTSS/STS1S/TS1ST t 0 1' -tb '%s' -json - "
                   "2>/dev/null",
             path);
    assert_int_equal(test_run(command, &out), 0);
    json = cJSON_Parse(out);
    free(out);
    assert_non_null(json);
    assert_string_equal(cJSON_GetObjectItem(json, "value")->valuestring, "win");
    assert_int_equal(cJSON_GetObjectItem(json, "plies")->valueint, 1);
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(json, "moves")) >= 1);
    cJSON_Delete(json);
    snprintf(command, sizeof command, BENCH " tbverify -tb '%s' -samples 20 -depth 5", path);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "0 inconsistent"));
    assert_non_null(strstr(out, "tablebase verified"));
    free(out);
    static const char *const errors[][2] = {
        {" tbprobe -fen 'T3T/5/5/5/T3T s 20 0' -tb ", "sheep are still in hand"},
        {" tbprobe -tb ", "give -fen POSITION or -info"},
        {" tbprobe -fen 'T3T/5/5' -tb ", "-fen"},
        {" tbprobe -info -tb /nonexistent/x.tstb", "cannot open"},
        {" tbgen -captures 9", "-captures"},
    };
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        bool wants_file = errors[i][0][strlen(errors[i][0]) - 1] == ' ';
        snprintf(command, sizeof command, BENCH "%s%s%s%s 2>&1", errors[i][0],
                 wants_file ? "'" : "", wants_file ? path : "", wants_file ? "'" : "");
        assert_int_equal(test_run(command, &out), 2);
        if (!strstr(out, errors[i][1]))
            fail_msg("'%s' said '%s', not '%s'", command, out, errors[i][1]);
        free(out);
    }
    remove(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(index__class_counts_match_burnside),
        cmocka_unit_test(index__round_trip_and_symmetric_images),
        cmocka_unit_test(solver__consistent_with_successors),
        cmocka_unit_test(solver__same_for_any_thread_count),
        cmocka_unit_test(solver__agrees_with_forward_search),
        cmocka_unit_test(file__round_trip_and_damage),
        cmocka_unit_test(commands__generate_probe_verify),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
