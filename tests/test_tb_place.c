// SPDX-License-Identifier: MIT
// The placement phase's layers (lib/tablebase/tb_place.c, `bench tbplace`) on smaller games
// (1 and 2 captures win), where a plain minimax over the whole tree down to the sliding file,
// written here from the rules alone (movegen and the sliding file's probe), gives every value:
// every position of the layers of 1 sheep in hand and samples of 2 in hand agree. The files are
// the same bytes on 1 and 2 threads; a run killed mid-solve leaves only whole layers and goes on;
// bench tbverify -placement passes them and catches a forged value; truncated, forged, another
// game's and out-of-order layers are refused naming the file and field; a probe of an unsolved
// layer says which one and how to make it; the batch probe answers a file in order.
#include "test_util.h"

#include "movegen.h"
#include "tb_judge.h"
#include "tb_place_file.h"

#include <signal.h>
#include <sys/stat.h>

#define BENCH TSLAB_BUILD_DIR "/bench"
#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define SLIDING TSLAB_SOURCE_DIR "/tablebase/sliding.tstb" /* make test builds it first */

static char dir[96];

/* The value for the side to move by the whole tree: placements and tiger moves down to the
 * sliding phase (tigers to move, no sheep in hand), where the sliding file answers. */
static TbPlaceValue brute(const Tablebase *sliding, const Board *b, int win_captures) {
    if (b->in_hand == 0 && b->side == SIDE_TIGERS) {
        TbValue v = {TB_DRAW, -1};
        assert_true(tb_probe(sliding, b, &v));
        return v.outcome == TB_WIN ? TB_PLACE_WIN : v.outcome == TB_LOSS ? TB_PLACE_LOSS
                                                                          : TB_PLACE_DRAW;
    }
    MoveList list;
    movegen_all(b, &list);
    TbPlaceValue best = TB_PLACE_LOSS;
    for (int i = 0; i < list.count; i++) {
        Board child = *b;
        board_make(&child, list.moves[i]);
        TbPlaceValue after = child.captured >= win_captures
                                 ? TB_PLACE_LOSS
                                 : brute(sliding, &child, win_captures);
        if (after == TB_PLACE_LOSS)
            return TB_PLACE_WIN;
        if (after == TB_PLACE_DRAW)
            best = TB_PLACE_DRAW;
    }
    return best;
}

static void run_ok(const char *command, char **out) {
    if (test_run(command, out) != 0)
        fail_msg("%s: %s", command, *out);
}

/* Solves the game of win_captures up to in_hand into dir/pK (its sliding file dir/sK.tstb). */
static void solve(int win_captures, int in_hand, int threads, const char *layers) {
    char command[1024], *out;
    snprintf(command, sizeof command,
             "cd %s && (test -f s%d.tstb || " BENCH " tbgen -captures %d -threads 2 -out "
             "s%d.tstb >/dev/null) && " BENCH " tbplace -captures %d -tb s%d.tstb -dir %s "
             "-in-hand %d -threads %d",
             dir, win_captures, win_captures, win_captures, win_captures, win_captures, layers,
             in_hand, threads);
    run_ok(command, &out);
    free(out);
}

/* Every position of layer (in_hand, side) (step 1), or every step-th, against the whole tree. */
static void assert_layer_is_minimax(int win_captures, int in_hand, Side side, int64_t step) {
    char path[256], sliding_path[160];
    snprintf(sliding_path, sizeof sliding_path, "%s/s%d.tstb", dir, win_captures);
    Error err;
    Tablebase *sliding = tb_new(sliding_path, win_captures, &err);
    if (!sliding)
        fail_msg("%s", err.text);
    char layers[128];
    snprintf(layers, sizeof layers, "%s/p%d", dir, win_captures);
    tb_place_path(layers, in_hand, side, path, sizeof path);
    TbLayer layer;
    if (!tb_place_read(path, in_hand, side, win_captures, 0, &layer, NULL, &err))
        fail_msg("%s", err.text);
    int64_t checked = 0, counts[3] = {0};
    for (int64_t i = 0; i < layer.count; i += step, checked++) {
        Board b = tb_layer_board(&layer, i);
        TbPlaceValue want = brute(sliding, &b, win_captures), got = tb_layer_value_at(&layer, i);
        counts[want]++;
        if (want != got) {
            char text[BOARD_TEXT_MAX];
            fail_msg("%s: position %lld (%s): layer %d, whole tree %d", path, (long long)i,
                     board_to_text(&b, text), got, want);
        }
    }
    printf("%s: %lld of %lld positions agree with the whole tree (%lld wins, %lld draws, %lld "
           "losses)\n",
           path, (long long)checked, (long long)layer.count, (long long)counts[TB_PLACE_WIN],
           (long long)counts[TB_PLACE_DRAW], (long long)counts[TB_PLACE_LOSS]);
    assert_true(counts[TB_PLACE_WIN] && counts[TB_PLACE_LOSS]);
    tb_layer_free(&layer);
    tb_free(sliding);
}

/* 1 capture wins: every position of 1 sheep in hand and every 397th of 2 against the whole tree.
 * 2 captures win (a capture that does not end the game): every 31st of 1 in hand. Under ASan
 * every 13th of the first layers and a tenth of the samples (the plain and clang runs check
 * every position). */
static void layers__every_value_is_the_whole_tree(void **state) {
    (void)state;
    char layers[128];
    snprintf(layers, sizeof layers, "%s/p1", dir);
    solve(1, 2, 2, layers);
    for (Side side = SIDE_SHEEP; side <= SIDE_TIGERS; side++) {
        assert_layer_is_minimax(1, 1, side, TEST_ADDRESS_SANITIZER ? 13 : 1);
        assert_layer_is_minimax(1, 2, side, TEST_ADDRESS_SANITIZER ? 3971 : 397);
    }
    snprintf(layers, sizeof layers, "%s/p2", dir);
    solve(2, 1, 2, layers);
    for (Side side = SIDE_SHEEP; side <= SIDE_TIGERS; side++)
        assert_layer_is_minimax(2, 1, side, TEST_ADDRESS_SANITIZER ? 311 : 31);
}

/* The same bytes on one thread; a rerun solves nothing; tbverify passes the layers. A run killed
 * by SIGKILL while it solves leaves whole layers only, and the next run ends as the first. */
static void layers__deterministic_resumable_verified(void **state) {
    (void)state;
    char command[1024], path[256], other[256], layers[128], *out;
    snprintf(layers, sizeof layers, "%s/one", dir);
    solve(1, 2, 1, layers);
    for (int h = 1; h <= 2; h++)
        for (Side side = SIDE_SHEEP; side <= SIDE_TIGERS; side++) {
            snprintf(layers, sizeof layers, "%s/one", dir);
            tb_place_path(layers, h, side, path, sizeof path);
            snprintf(layers, sizeof layers, "%s/p1", dir);
            tb_place_path(layers, h, side, other, sizeof other);
            test_assert_same_file(path, other);
        }
    snprintf(command, sizeof command,
             "cd %s && " BENCH " tbplace -captures 1 -tb s1.tstb -dir p1 -in-hand 2", dir);
    run_ok(command, &out);
    assert_null(strstr(out, "solved in"));
    assert_non_null(strstr(out, "layer  2 sheep in hand, tigers to move:"));
    assert_non_null(strstr(out, "done before"));
    free(out);
    snprintf(command, sizeof command,
             "cd %s && " BENCH " tbverify -placement 2 -captures 1 -tb s1.tstb -dir p1", dir);
    run_ok(command, &out);
    assert_non_null(strstr(out, "placement layers verified"));
    free(out);
    /* A verification that stopped goes on from a layer: those below are read, not checked. */
    snprintf(command, sizeof command,
             "cd %s && " BENCH " tbverify -placement 2 -from 2 -captures 1 -tb s1.tstb -dir p1",
             dir);
    run_ok(command, &out);
    assert_non_null(strstr(out, "h01-tigers.tspl: "));
    assert_non_null(strstr(out, ": read (-from 2)"));
    assert_non_null(strstr(out, "h02-tigers.tspl: "));
    assert_non_null(strstr(out, "placement layers 2..2 verified"));
    free(out);

    /* Killed once the first layer is written, while the next ones are solved. */
    snprintf(command, sizeof command,
             "cd %s && exec " BENCH " tbplace -captures 1 -tb s1.tstb -dir killed -in-hand 2 "
             "-threads 1 >/dev/null 2>&1",
             dir);
    snprintf(path, sizeof path, "%s/killed/h01-sheep.tspl", dir);
    test_kill_9_after_checkpoint(command, path, 60);
    snprintf(command, sizeof command, "cd %s && ls killed", dir);
    run_ok(command, &out);
    printf("left by SIGKILL: %s", out);
    free(out);
    for (int h = 1; h <= 2; h++)
        for (Side side = SIDE_SHEEP; side <= SIDE_TIGERS; side++) {
            snprintf(layers, sizeof layers, "%s/killed", dir);
            tb_place_path(layers, h, side, path, sizeof path);
            TbLayer layer;
            Error err;
            if (access(path, F_OK) == 0 && !tb_place_read(path, h, side, 1, 0, &layer, NULL, &err))
                fail_msg("a layer left by SIGKILL does not read: %s", err.text);
            if (access(path, F_OK) == 0)
                tb_layer_free(&layer);
        }
    snprintf(layers, sizeof layers, "%s/killed", dir);
    solve(1, 2, 2, layers);
    for (int h = 1; h <= 2; h++)
        for (Side side = SIDE_SHEEP; side <= SIDE_TIGERS; side++) {
            tb_place_path(layers, h, side, path, sizeof path);
            snprintf(other, sizeof other, "%s/p1/h%02d-%s.tspl", dir, h,
                     side == SIDE_SHEEP ? "sheep" : "tigers");
            test_assert_same_file(path, other);
        }
}

/* A fresh copy of a directory of layers as dir/bad. */
static void copy_layers(const char *from) {
    char command[512], *out;
    snprintf(command, sizeof command, "cd %s && rm -rf bad && cp -r %s bad", dir, from);
    run_ok(command, &out);
    free(out);
}

/* A layer is refused when it is not whole, not the game's, forged or solved from another layer
 * below; tbverify catches a value forged with its counts and checksum made right. */
static void layers__bad_files_refused(void **state) {
    (void)state;
    char command[1024], path[256], *out;
    static const struct {
        const char *damage, *expected;
    } rows[] = {
        {"truncate -s -1 bad/h01-tigers.tspl", "truncated or damaged"},
        {"printf 'X' | dd of=bad/h01-tigers.tspl bs=1 seek=600 conv=notrunc status=none",
         "bad/h01-tigers.tspl: checksum mismatch: the file is damaged"},
        {"printf 'TSLABTB\\n' | dd of=bad/h01-tigers.tspl bs=1 conv=notrunc status=none",
         "bad/h01-tigers.tspl: not a tslab placement layer (no TSLABPL header)"},
        {"cp tbplace_p2_h01_tigers bad/h01-tigers.tspl",
         "bad/h01-tigers.tspl: captures to win is 2: it solves another game than the one of 1"},
        {"cp bad/h01-sheep.tspl bad/h01-tigers.tspl",
         "bad/h01-tigers.tspl: it holds the layer of 1 sheep in hand, side 0, not 1 in hand, "
         "tigers to move"},
    };
    snprintf(command, sizeof command, "cd %s && cp p2/h01-tigers.tspl tbplace_p2_h01_tigers", dir);
    run_ok(command, &out);
    free(out);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        copy_layers("p1");
        snprintf(command, sizeof command,
                 "cd %s && %s && " BENCH " tbverify -placement 2 -captures 1 -tb s1.tstb -dir "
                 "bad",
                 dir, rows[i].damage);
        int status = test_run(command, &out);
        if (status == 0 || !strstr(out, rows[i].expected))
            fail_msg("%s: exit %d, wanted '%s':\n%s", rows[i].damage, status, rows[i].expected,
                     out);
        free(out);
        /* tbplace refuses the same file and leaves it as it is: a layer of another game, or one
         * that does not read back, is never solved over (an hour of solving may be in it). */
        snprintf(command, sizeof command,
                 "cd %s && cp bad/h01-tigers.tspl kept && " BENCH " tbplace -captures 1 -tb "
                 "s1.tstb -dir bad -in-hand 2 2>&1 && exit 9; cmp bad/h01-tigers.tspl kept",
                 dir);
        status = test_run(command, &out);
        bool said = strstr(out, "bad/h01-tigers.tspl") &&
                    (strstr(out, "it is not replaced") || strstr(out, "never another output"));
        if (status != 0 || !said)
            fail_msg("tbplace after %s: exit %d (0: refused, file kept), and no refusal "
                     "naming the file:\n%s",
                     rows[i].damage, status, out);
        free(out);
    }

    /* A value forged with its counts and checksum made right: the file reads, tbverify finds the
     * position, and the layer above, solved from the true one, is out of order. */
    copy_layers("p1");
    snprintf(path, sizeof path, "%s/bad/h01-sheep.tspl", dir);
    TbLayer layer;
    TbPlaceFileInfo info;
    Error err;
    if (!tb_place_read(path, 1, SIDE_SHEEP, 1, 0, &layer, &info, &err))
        fail_msg("%s", err.text);
    int64_t i = 0;
    while (tb_layer_value_at(&layer, i) != TB_PLACE_WIN)
        i++;
    layer.values[i / 4] &= (uint8_t)~(3u << 2 * (i % 4)); /* a win made a draw */
    assert_true(tb_layer_count(&layer));
    OutFile file;
    if (!outfile_begin(&file, path, &err) || !tb_place_write(&file, &layer, &info, &err))
        fail_msg("%s", err.text);
    tb_layer_free(&layer);
    snprintf(command, sizeof command,
             "cd %s && " BENCH " tbverify -placement 1 -captures 1 -tb s1.tstb -dir bad", dir);
    assert_int_not_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, ": 1 inconsistent with their successors"));
    assert_non_null(strstr(out, "bad/h01-tigers.tspl: solved from a file of checksum"));
    assert_non_null(strstr(out, "out of order"));
    free(out);
}

/* The batch probe answers every line in order, as -fen does one (a book's or the suite's
 * "; ID" lines too); a bad line stops it naming the file and line; a position of an unsolved
 * layer says which layer and how to make it. */
static void probe__batch_and_unsolved(void **state) {
    (void)state;
    char command[1024], path[256], *out;
    snprintf(path, sizeof path, "%s/positions.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# sheep to place their last\n"
          "TSSST/SSSSS/SSSSS/SSSS1/T1SST s 1 0\n"
          "\n"
          "TSSST/SSSSS/SSSSS/SSSS1/T1SST t 1 0 ; o7 a book's line: id and comment\n"
          "TSSST/SSSSS/SSSS1/SSSS1/T1SST s 2 0   # two to place\n",
          f);
    fclose(f);
    snprintf(command, sizeof command,
             "cd %s && " BENCH " tbprobe -captures 1 -tb s1.tstb -dir p1 -positions "
             "positions.txt -json answers.json 2>&1",
             dir);
    run_ok(command, &out);
    char *first = strstr(out, "TSSST/SSSSS/SSSSS/SSSS1/T1SST s 1 0: ");
    char *second = strstr(out, "TSSST/SSSSS/SSSSS/SSSS1/T1SST t 1 0: ");
    char *third = strstr(out, "TSSST/SSSSS/SSSS1/SSSS1/T1SST s 2 0: ");
    assert_true(first && second && third && first < second && second < third);
    assert_non_null(strstr(out, "3 positions answered"));
    free(out);
    snprintf(path, sizeof path, "%s/answers.json", dir);
    cJSON *json = test_load_json(path);
    assert_int_equal(cJSON_GetArraySize(json), 3);
    const cJSON *answer = cJSON_GetArrayItem(json, 2);
    const char *value = cJSON_GetStringValue(cJSON_GetObjectItem(answer, "value"));
    /* The answer is the whole tree's. */
    char sliding_path[160];
    snprintf(sliding_path, sizeof sliding_path, "%s/s1.tstb", dir);
    Error err;
    Tablebase *sliding = tb_new(sliding_path, 1, &err);
    assert_non_null(sliding);
    Board b;
    assert_true(board_from_text("TSSST/SSSSS/SSSS1/SSSS1/T1SST s 2 0", &b, &err));
    static const char *const names[] = {"draw", "win", "loss"};
    assert_string_equal(value, names[brute(sliding, &b, 1)]);
    tb_free(sliding);

    /* tools/hard_positions.py keeps, in order and with their lines, the won or drawn positions
     * where at most the given fraction of the moves keep the value: here the first such. */
    int hard_one = -1;
    for (int i = 0; i < 3 && hard_one < 0; i++) {
        const cJSON *a = cJSON_GetArrayItem(json, i);
        int keeping = cJSON_GetArraySize(cJSON_GetObjectItem(a, "moves"));
        int legal = cJSON_GetArraySize(cJSON_GetObjectItem(a, "successors"));
        if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(a, "value")), "loss") &&
            keeping < legal)
            hard_one = i;
    }
    assert_true(hard_one >= 0); /* the three positions hold one that can be blundered */
    static const char *const lines[] = {"TSSST/SSSSS/SSSSS/SSSS1/T1SST s 1 0\n",
                                        "TSSST/SSSSS/SSSSS/SSSS1/T1SST t 1 0 ; o7",
                                        "TSSST/SSSSS/SSSS1/SSSS1/T1SST s 2 0   # two"};
    snprintf(command, sizeof command,
             "cd %s && python3 " TSLAB_SOURCE_DIR "/tools/hard_positions.py positions.txt "
             "answers.json hard.txt --keep-at-most 0.99 --count 1 && cat hard.txt",
             dir);
    run_ok(command, &out);
    assert_non_null(strstr(out, "1 positions written to hard.txt"));
    assert_non_null(strstr(out, lines[hard_one]));
    for (int i = 0; i < 3; i++)
        assert_true(i == hard_one || !strstr(out, lines[i]));
    free(out);
    snprintf(command, sizeof command, /* never replaces a set; too few qualify: said */
             "cd %s && python3 " TSLAB_SOURCE_DIR "/tools/hard_positions.py positions.txt "
             "answers.json hard.txt --keep-at-most 0.99 --count 1 2>&1; python3 " TSLAB_SOURCE_DIR
             "/tools/hard_positions.py positions.txt answers.json other.txt --count 4 2>&1",
             dir);
    test_run(command, &out);
    assert_non_null(strstr(out, "hard.txt: exists"));
    assert_non_null(strstr(out, "positions.txt: only "));
    assert_non_null(strstr(out, "fewer than --count 4"));
    free(out);
    cJSON_Delete(json);

    /* tools/check_placement.py: its own rules, the successors' values through the batch probe
     * (make tablebase-placement-check runs it on the real game). */
    snprintf(command, sizeof command,
             "cd %s && python3 " TSLAB_SOURCE_DIR "/tools/check_placement.py " BENCH
             " 1 300 7 -- -captures 2 -tb s2.tstb -dir p2",
             dir);
    run_ok(command, &out);
    assert_non_null(strstr(out, "check_placement: 300 positions with 1..1 sheep in hand"));
    assert_non_null(strstr(out, ": 0 disagree"));
    free(out);

    f = fopen(path, "w"); /* reused as the bad batch */
    fputs("TSSST/SSSSS/SSSSS/SSSS1/T1SST s 1 0\nTSSST/SSSSS/SSSSS/SSSS1/T1SST q 1 0\n", f);
    fclose(f);
    snprintf(command, sizeof command,
             "cd %s && " BENCH " tbprobe -captures 1 -tb s1.tstb -dir p1 -positions "
             "answers.json",
             dir);
    assert_int_not_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "answers.json:2: 'TSSST/SSSSS/SSSSS/SSSS1/T1SST q 1 0'"));
    free(out);
    snprintf(command, sizeof command,
             "cd %s && " BENCH " tbprobe -captures 1 -tb s1.tstb -dir p1 -fen "
             "'TSSST/SSSSS/SSSS1/SSS2/T1SST s 3 0'",
             dir);
    assert_int_not_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "the layer of 3 sheep in hand, sheep to move, is not solved"));
    assert_non_null(strstr(out, "bench tbplace -in-hand 3 -dir p1 -captures 1 -tb FILE"));
    free(out);
}

/* bench tbaccuracy on the sliding file (the placement layers of the real game are hours, never
 * made by the tests): a row of 30 drawn positions, the same twice, each blunder listed (a
 * depth-1 search makes 4 here); a missing layer named. */
static void accuracy__rows_and_a_missing_layer(void **state) {
    (void)state;
    char command[1024], *out, *again;
    snprintf(command, sizeof command,
             BENCH " tbaccuracy -in-hand 0 -samples 30 -seed 5 depth=1 -json %s/accuracy.json",
             dir);
    run_ok(command, &out);
    run_ok(command, &again);
    assert_string_equal(out, again);
    assert_non_null(strstr(out, "sliding phase            30"));
    free(out);
    free(again);
    char path[256];
    snprintf(path, sizeof path, "%s/accuracy.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "layers"), 0);
    int positions = cJSON_GetObjectItem(row, "positions")->valueint;
    int sum = cJSON_GetObjectItem(row, "wins")->valueint +
              cJSON_GetObjectItem(row, "draws")->valueint +
              cJSON_GetObjectItem(row, "losses")->valueint;
    int kept = cJSON_GetObjectItem(row, "kept")->valueint;
    int blunders = cJSON_GetObjectItem(row, "win_to_draw")->valueint +
                   cJSON_GetObjectItem(row, "win_to_loss")->valueint +
                   cJSON_GetObjectItem(row, "draw_to_loss")->valueint;
    assert_int_equal(positions, 30);
    assert_int_equal(sum, 30);
    assert_int_equal(kept + blunders, 30);
    assert_true(blunders > 0);
    /* Each blunder is listed with its position and kind (drawn positions have no line). */
    const cJSON *list = cJSON_GetObjectItem(json, "blunders"), *item;
    assert_int_equal(cJSON_GetArraySize(list), blunders);
    int win_to_draw = 0;
    cJSON_ArrayForEach(item, list) {
        Board b;
        Error err;
        assert_true(board_from_text(cJSON_GetObjectItem(item, "position")->valuestring, &b, &err));
        assert_int_equal(b.in_hand, 0);
        assert_null(cJSON_GetObjectItem(item, "line"));
        const char *verdict = cJSON_GetObjectItem(item, "verdict")->valuestring;
        assert_true(!strcmp(verdict, "win_to_draw") || !strcmp(verdict, "win_to_loss") ||
                    !strcmp(verdict, "draw_to_loss"));
        win_to_draw += !strcmp(verdict, "win_to_draw");
    }
    assert_int_equal(win_to_draw, cJSON_GetObjectItem(row, "win_to_draw")->valueint);
    cJSON_Delete(json);
    snprintf(command, sizeof command,
             BENCH " tbaccuracy -in-hand 1 -samples 3 depth=2 -dir %s/nowhere", dir);
    assert_int_not_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "the layer of 1 sheep in hand, sheep to move, is not solved"));
    free(out);
}

/* The judge abtest -blunders uses: over the layers loaded (1 capture wins, 1..2 in hand), each
 * move's verdict is the one the whole tree's values before and after it give; a position with
 * more sheep in hand than loaded, or over, is not judged; loading stops at the first missing
 * layer. */
static void judge__verdicts_are_the_whole_tree(void **state) {
    (void)state;
    char layers[128], sliding_path[160];
    snprintf(layers, sizeof layers, "%s/p1", dir);
    solve(1, 2, 2, layers); /* solved by the first test: read only */
    snprintf(sliding_path, sizeof sliding_path, "%s/s1.tstb", dir);
    Error err;
    Tablebase *sliding = tb_new(sliding_path, 1, &err);
    TbPlaceProber *prober = tb_place_prober_new(layers, sliding);
    assert_non_null(prober);
    TbJudge judge = {.sliding = sliding, .placement = prober};
    if (!tb_place_prober_load(prober, SHEEP_TOTAL, &judge.in_hand, &err))
        fail_msg("%s", err.text);
    assert_int_equal(judge.in_hand, 2);
    int verdicts[TB_VERDICTS] = {0};
    for (int h = 1; h <= 3; h++)
        for (Side side = SIDE_SHEEP; side <= SIDE_TIGERS; side++) {
            TbLayer layer;
            assert_true(tb_layer_init(&layer, h, side, 1, &err));
            for (int64_t i = 0; i < layer.count; i += TEST_ADDRESS_SANITIZER ? 9973 : 997) {
                Board b = tb_layer_board(&layer, i);
                MoveList list;
                movegen_all(&b, &list);
                for (int k = 0; k < list.count; k++) {
                    TbVerdict got = tb_judge_move(&judge, &b, list.moves[k]);
                    verdicts[got]++;
                    if (h > judge.in_hand || board_game_end(&b) != GAME_END_NONE) {
                        assert_int_equal(got, TB_VERDICT_UNJUDGED);
                        continue;
                    }
                    Board child = b;
                    board_make(&child, list.moves[k]);
                    TbPlaceValue after =
                        child.captured >= 1 ? TB_PLACE_LOSS : brute(sliding, &child, 1);
                    TbVerdict want = tb_verdict(tb_place_outcome(brute(sliding, &b, 1)),
                                                tb_place_outcome(after));
                    assert_int_equal(got, want);
                }
            }
            tb_layer_free(&layer);
        }
    printf("judged moves: %d kept, %d win to draw, %d win to loss, %d draw to loss, %d not "
           "judged\n",
           verdicts[TB_VERDICT_KEPT], verdicts[TB_VERDICT_WIN_TO_DRAW],
           verdicts[TB_VERDICT_WIN_TO_LOSS], verdicts[TB_VERDICT_DRAW_TO_LOSS],
           verdicts[TB_VERDICT_UNJUDGED]);
    assert_true(verdicts[TB_VERDICT_KEPT] && verdicts[TB_VERDICT_UNJUDGED]);
    assert_true(verdicts[TB_VERDICT_WIN_TO_DRAW] + verdicts[TB_VERDICT_WIN_TO_LOSS] +
                verdicts[TB_VERDICT_DRAW_TO_LOSS]);
    tb_place_prober_free(prober);
    tb_free(sliding);
}

static int group_setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "tb_place");
}

static int group_teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

/* A tablebase file, a layer, a positions file: inputs of the command that reads them, never its
 * output. Each row must be refused (exit 2) naming the input, its file left byte for byte; the
 * abtest rows name a layer of -blunders that is not there yet, which a run would otherwise
 * create and later -blunders runs then fail on. */
static void outputs__tablebase_files_are_never_written(void **state) {
    (void)state;
    static const struct {
        const char *command, *kept, *expected;
    } rows[] = {
        {BENCH " tbprobe -captures 1 -tb s1.tstb -dir kept -fen 'TSSST/SSSSS/SSSSS/SSSS1/T1SST "
               "s 1 0' -json kept/h02-sheep.tspl",
         "kept/h02-sheep.tspl", "is one of the placement layers in -dir kept"},
        {BENCH " tbprobe -info -captures 1 -tb s1.tstb -json s1.tstb", "s1.tstb",
         "-json s1.tstb is also -tb"},
        {BENCH " tbprobe -captures 1 -tb s1.tstb -dir kept -positions q.txt -json q.txt", "q.txt",
         "-json q.txt is also -positions"},
        {BENCH " tbaccuracy -tb T.tstb -in-hand 0 -samples 2 -json T.tstb depth=1", "T.tstb",
         "-json T.tstb is also -tb"},
        {BENCH " tbaccuracy -tb T.tstb -dir kept -in-hand 1 -samples 2 -json kept/h01-tigers.tspl "
               "depth=1",
         "kept/h01-tigers.tspl", "is one of the placement layers in -dir kept"},
        {BENCH " tbaccuracy -tb T.tstb -positions q.txt -json q.txt depth=1", "q.txt",
         "-json q.txt is also -positions"},
        /* Commands that read no tablebase: a tablebase or a layer, known by its first
         * bytes, is no output of theirs either. */
        {BENCH " -depth 1 -json kept/h01-sheep.tspl", "kept/h01-sheep.tspl",
         "-json kept/h01-sheep.tspl is a placement layer: an input of the tools"},
        {ABTEST " report kept -html T.tstb", "T.tstb",
         "-html T.tstb is a sliding tablebase: an input of the tools"},
        {BENCH " tbgen -captures 1 -out kept/h01-tigers.tspl", "kept/h01-tigers.tspl",
         "-out kept/h01-tigers.tspl is a placement layer: an input of the tools, which only "
         "bench tbplace writes"},
        {ABTEST " -engine name=a -engine name=b -each nodes=50 -rounds 1 -tb file=T.tstb "
                "-blunders dir=empty -out empty/h01-sheep.tspl",
         NULL, "-out empty/h01-sheep.tspl is one of the placement layers in -blunders empty"},
        {ABTEST " -engine name=a -engine name=b -each nodes=50 -rounds 1 -tb file=T.tstb "
                "-blunders dir=empty -pgnout file=empty/h01-tigers.tspl",
         NULL, "-pgnout empty/h01-tigers.tspl is one of the placement layers in -blunders"},
    };
    char command[2048], *out;
    snprintf(command, sizeof command,
             "cd %s && rm -rf kept empty && cp -r p1 kept && mkdir empty && cp " SLIDING
             " T.tstb && printf 'TSSST/SSSSS/SSSSS/SSSS1/T1SST s 1 0\\n' > q.txt",
             dir);
    run_ok(command, &out);
    free(out);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        /* The input kept aside first; after the refusal it must be the same bytes, and a layer
         * that was not there must still not be there. */
        if (rows[i].kept)
            snprintf(command, sizeof command, "cd %s && cp %s before && %s 2>&1", dir, rows[i].kept,
                     rows[i].command);
        else
            snprintf(command, sizeof command, "cd %s && %s 2>&1", dir, rows[i].command);
        int status = test_run(command, &out);
        if (status != 2 || !strstr(out, rows[i].expected))
            fail_msg("%s: exit %d (2 expected), wanted '%s':\n%s", rows[i].command, status,
                     rows[i].expected, out);
        free(out);
        if (rows[i].kept)
            snprintf(command, sizeof command, "cd %s && cmp %s before", dir, rows[i].kept);
        else
            snprintf(command, sizeof command, "cd %s && test -z \"$(ls empty)\"", dir);
        run_ok(command, &out);
        free(out);
    }
    snprintf(command, sizeof command, "cd %s && rm -f T.tstb before", dir);
    run_ok(command, &out);
    free(out);
}

/* An option that the command would not use is refused, naming it: never silently ignored. */
static void options__unused_ones_refused(void **state) {
    (void)state;
    static const struct {
        const char *command, *expected;
    } rows[] = {
        {BENCH " tbaccuracy -positions q.txt -samples 5 depth=1",
         "-samples: -positions FILE searches the file's positions"},
        {BENCH " tbaccuracy -positions q.txt -seed 3 depth=1", "-seed: -positions FILE"},
        {BENCH " tbverify -placement 1 -samples 3 -captures 1 -tb s1.tstb -dir p1",
         "-samples: the samples belong to the sliding file's check"},
        {BENCH " tbverify -placement 1 -depth 3 -captures 1 -tb s1.tstb -dir p1", "-depth: the "},
        {BENCH " tbprobe -info -captures 1 -tb s1.tstb -dir p1", "-dir: -info prints"},
    };
    char command[1024], *out;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        snprintf(command, sizeof command, "cd %s && %s 2>&1", dir, rows[i].command);
        int status = test_run(command, &out);
        if (status != 2 || !strstr(out, rows[i].expected))
            fail_msg("%s: exit %d, wanted '%s':\n%s", rows[i].command, status, rows[i].expected,
                     out);
        free(out);
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(layers__every_value_is_the_whole_tree),
        cmocka_unit_test(layers__deterministic_resumable_verified),
        cmocka_unit_test(layers__bad_files_refused),
        cmocka_unit_test(probe__batch_and_unsolved),
        cmocka_unit_test(outputs__tablebase_files_are_never_written),
        cmocka_unit_test(options__unused_ones_refused),
        cmocka_unit_test(accuracy__rows_and_a_missing_layer),
        cmocka_unit_test(judge__verdicts_are_the_whole_tree),
    };
    return tslab_run_tests_setup("tb_place", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 group_setup, group_teardown);
}
