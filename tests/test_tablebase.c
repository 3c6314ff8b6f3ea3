// SPDX-License-Identifier: MIT
// The sliding-phase tablebase: the index against a count made apart from it (Burnside's lemma
// over the board's symmetries), and the retrograde solver on the smaller games that fit in
// seconds (tigers win at 1 or 2 captures: levels 0, or 0 and 1, of the real index) against its
// successors, a plain forward search and the eight images. The full database is `make
// tablebase-check` (docs/tablebase.md).
#include "test_util.h"

#include "eval.h"
#include "match.h"
#include "movegen.h"
#include "rng.h"
#include "tablebase.h"
#include "tb_verify.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BENCH TSLAB_BUILD_DIR "/bench"
#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define FULL_TABLEBASE TSLAB_SOURCE_DIR "/tablebase/sliding.tstb" /* make test builds it */

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
            assert_int_equal(TB_CLASSES_PER_SIDE[captured], CLASSES_PER_SIDE[captured]);
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
    Rng rng = rng_seeded(11);
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
    Rng rng = rng_seeded(5);
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
    OutFile out;
    assert_true(outfile_begin(&out, path, &err));
    assert_true(tb_write(&out, s.index, 2, s.codes, &err));
    /* The opener checks the game it is used for: the small game's file is refused for the rules'
     * game and for another small one, naming the file and both games. */
    assert_null(tb_new(path, CAPTURES_TO_WIN, &err));
    assert_non_null(strstr(err.text, "solves the game that 2 captures win, not this one"));
    assert_non_null(strstr(err.text, path));
    assert_null(tb_new(path, 3, &err));
    assert_non_null(strstr(err.text, "solves the game that 2 captures win, not the one of 3"));
    Tablebase *tb = tb_new(path, 2, &err);
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
    tb_free(tb);
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
        assert_null(tb_new(copy, 2, &err));
        assert_non_null(strstr(err.text, damage[d].says));
        assert_non_null(strstr(err.text, copy));
    }
    snprintf(command, sizeof command, "head -c 1000 '%s' > '%s'", path, copy);
    assert_int_equal(system(command), 0);
    assert_null(tb_new(copy, 2, &err));
    assert_non_null(strstr(err.text, "truncated"));
    assert_null(tb_new(temp_path("missing.tstb"), 2, &err));
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
    snprintf(command, sizeof command, BENCH " tbprobe -info -captures 2 -tb '%s' -json - 2>/dev/null", path);
    assert_int_equal(test_run(command, &out), 0);
    cJSON *json = cJSON_Parse(out);
    free(out);
    assert_non_null(json);
    assert_int_equal((int64_t)cJSON_GetObjectItem(json, "classes")->valuedouble, 733312);
    cJSON_Delete(json);
    /* A tigers-to-move position with a capture: the second capture wins in 1 in this game. */
    snprintf(command, sizeof command,
             BENCH " tbprobe -fen 'SSSSS/SSSSS/SSTSS/STS1S/TS1ST t 0 1' -captures 2 -tb '%s' "
                   "-json - "
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
    snprintf(command, sizeof command, BENCH " tbverify -captures 2 -tb '%s' -samples 20 -depth 5", path);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "0 inconsistent"));
    assert_non_null(strstr(out, "tablebase verified"));
    free(out);
    static const char *const errors[][2] = {
        {" tbprobe -fen 'T3T/5/5/5/T3T s 20 0' -captures 2 -dir /nonexistent/layers -tb ",
         "the layer of 19 sheep in hand, tigers to move, is not solved: no "
         "/nonexistent/layers/h19-tigers.tspl (make the layers this position needs with: bench "
         "tbplace -in-hand 20 -dir /nonexistent/layers -captures 2 -tb FILE)"},
        {" tbprobe -tb ", "give one of -fen POSITION, -positions FILE or -info"},
        {" tbprobe -fen 'T3T/5/5' -captures 2 -tb ", "-fen"},
        {" tbprobe -info -tb ", "solves the game that 2 captures win, not this one"},
        {" tbverify -captures 3 -tb ", "not the one of 3"},
        {" tbgen -captures 2", "give -out FILE"},
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

/* The full database (built by make test before the tests): 88,260,972 entries, every level
 * present, a sample of every block consistent with its successors, the longest win where the
 * header says. */
static void full__header_sample_and_longest_win(void **state) {
    (void)state;
    Error err;
    Tablebase *tb = tb_new(FULL_TABLEBASE, CAPTURES_TO_WIN, &err);
    if (!tb)
        fail_msg("%s", err.text);
    const TbHeader *h = tb_header(tb);
    assert_int_equal(h->entries, TB_CLASSES);
    assert_int_equal(h->win_captures, CAPTURES_TO_WIN);
    int64_t total = 0;
    for (int captured = 0; captured < TB_LEVELS; captured++)
        for (int side = 0; side < 2; side++) {
            const TbCounts *c = &h->counts;
            assert_int_equal(c->positions[captured][side], CLASSES_PER_SIDE[captured]);
            assert_int_equal(c->wins[captured][side] + c->losses[captured][side] +
                                 c->draws[captured][side],
                             CLASSES_PER_SIDE[captured]);
            total += c->positions[captured][side];
        }
    assert_int_equal(total, TB_CLASSES);
    TbCode *codes = malloc(TB_CLASSES * sizeof *codes);
    assert_non_null(codes);
    for (int64_t i = 0; i < TB_CLASSES; i++)
        codes[i] = tb_code_at(tb, i);
    TbCheck check;
    for (int captured = 0; captured < TB_LEVELS; captured++)
        for (int side = 0; side < 2; side++) {
            int64_t start = tb_index_block_start(tb_index(tb), captured, (Side)side);
            assert_true(tb_verify(tb_index(tb), CAPTURES_TO_WIN, codes, start, start + 20000, 2,
                                  &check, &err));
            assert_int_equal(check.failures, 0);
        }
    Board longest = tb_index_board(tb_index(tb), h->counts.longest_index);
    TbValue v = {TB_DRAW, -1};
    assert_true(tb_probe(tb, &longest, &v));
    assert_int_equal(v.outcome, TB_WIN);
    assert_int_equal(v.plies, h->counts.longest_plies);
    free(codes);
    tb_free(tb);
}

/* Pairs played in process with the tablebase: a game adjudicated by it ends at the first
 * sliding-phase position with the tablebase's result, and no other game reaches the phase. */
static void abtest__adjudicates_at_the_sliding_phase(void **state) {
    (void)state;
    Error err;
    Tablebase *tb = tb_new(FULL_TABLEBASE, CAPTURES_TO_WIN, &err);
    assert_non_null(tb);
    EngineSpec engines[MATCH_ENGINES];
    memset(engines, 0, sizeof engines);
    for (int e = 0; e < MATCH_ENGINES; e++) {
        engines[e].config = config_default();
        assert_true(config_apply(&engines[e].config, "nodes=800", &err));
        snprintf(engines[e].name, MATCH_NAME_MAX, "e%d", e);
    }
    MatchWorker worker;
    assert_true(match_worker_init(&worker, engines, MATCH_ENGINES, NULL, &err));
    PairSetup setup = {.pairings = {1, {{0, 1}}},
                       .segment = tournament_segment_all(1),
                       .max_plies = 300,
                       .random_plies = 4,
                       .seed = 3,
                       .tablebase = tb};
    BookEntry opening = {.board = board_start()};
    atomic_bool abort_flag;
    atomic_init(&abort_flag, false);
    int adjudicated = 0;
    for (int64_t pair_index = 0; pair_index < 6; pair_index++) {
        PairRecord pair;
        assert_true(
            match_play_pair(&worker, &setup, pair_index, &opening, 0, &abort_flag, &pair, &err));
        for (int g = 0; g < 2; g++) {
            const GameRecord *game = &pair.games[g];
            Board b = game->start;
            TbValue v = {TB_DRAW, -1};
            for (int i = 0; i < game->plies; i++) {
                assert_false(tb_probe(tb, &b, &v)); /* the phase starts only at the end */
                board_make(&b, game->moves[i]);
            }
            if (game->end != GAME_END_TABLEBASE)
                continue;
            adjudicated++;
            assert_true(tb_probe(tb, &b, &v));
            bool tigers_move = b.side == SIDE_TIGERS;
            GameResult expected = v.outcome == TB_DRAW                   ? RESULT_DRAW
                                  : (v.outcome == TB_WIN) == tigers_move ? RESULT_TIGERS_WIN
                                                                         : RESULT_SHEEP_WIN;
            assert_int_equal(game->result, expected);
        }
        match_pair_destroy(&pair);
    }
    print_message("%d of 12 games adjudicated by the tablebase\n", adjudicated);
    assert_true(adjudicated >= 6);
    match_worker_destroy(&worker);
    tb_free(tb);
}

/* The command line: -tb counts its own end reason, says so per game, resumes to the same
 * numbers, and refuses a tablebase of the smaller test game or a missing file. */
static void abtest__tb_option_results_and_errors(void **state) {
    (void)state;
    char command[1200], a[256], b[256], *out;
    snprintf(a, sizeof a, "%s", temp_path("tb_whole.json"));
    snprintf(b, sizeof b, "%s", temp_path("tb_resumed.json"));
    const char *match =
        ABTEST " -engine name=a -engine name=b killers=off -each nodes=800 "
               "-rounds 6 -sprt elo0=0 elo1=10 -concurrency 2 -tb file=" FULL_TABLEBASE;
    snprintf(command, sizeof command, "%s -out %s", match, a);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "by adjudication, tablebase}"));
    free(out);
    cJSON *json = test_load_json(a);
    cJSON *ends = cJSON_GetObjectItem(json, "end_reasons");
    assert_true(cJSON_GetObjectItem(ends, "tablebase")->valuedouble >= 1);
    assert_string_equal(
        cJSON_GetObjectItem(cJSON_GetObjectItem(json, "settings"), "tb")->valuestring,
        FULL_TABLEBASE);
    cJSON_Delete(json);
    snprintf(command, sizeof command, "%s -out %s -debug-stopafter 2 -quiet", match, b);
    test_run(command, NULL);
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", b);
    assert_int_equal(test_run(command, NULL), 0);
    test_assert_same_results(a, b);
    /* The small game's file and a missing one are refused before any game. */
    const char *small = temp_path("small_cmd.tstb");
    snprintf(command, sizeof command, BENCH " tbgen -captures 1 -out %s", small);
    assert_int_equal(test_run(command, NULL), 0);
    static const struct {
        const char *suffix, *says;
    } refusals[] = {
        {"", "-captures is for tests"},
        {".missing", "cannot open"},
    };
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        char line[1200];
        snprintf(line, sizeof line,
                 ABTEST " -engine name=a -engine name=b killers=off -each nodes=800 -rounds 1 "
                        "-tb file=%s%s -out %s.refused.json",
                 small, refusals[i].suffix, small);
        assert_int_equal(test_run(line, &out), 2);
        if (!strstr(out, refusals[i].says))
            fail_msg("'%s' said '%s'", line, out);
        free(out);
    }
    remove(a);
    remove(b);
    remove(small);
}

/* A game record without what -blunders adds (the Blunders tags and "; blunder: ..." in the
 * move comments), every run of white space one space (the longer comments wrap the lines
 * elsewhere); *blunders counts the moves it marked. */
static char *without_blunders(const char *path, int *blunders) {
    char *text = test_read_file(path), *to = text;
    assert_non_null(text);
    *blunders = 0;
    for (const char *from = text; *from;) {
        if (!strncmp(from, "[SheepBlunders ", 15) || !strncmp(from, "[TigersBlunders ", 16)) {
            from = strchr(from, '\n') + 1;
            continue;
        }
        if (!strncmp(from, "; blunder: ", 11)) {
            (*blunders)++;
            from = strchr(from, '}');
            continue;
        }
        bool space = isspace((unsigned char)*from);
        if (!space || (to > text && to[-1] != ' '))
            *to++ = space ? ' ' : *from;
        from++;
    }
    *to = '\0';
    return text;
}

static double blunders_in(const cJSON *engine, const char *phase, const char *key) {
    const cJSON *counts = cJSON_GetObjectItem(cJSON_GetObjectItem(engine, "blunders"), phase);
    assert_non_null(counts);
    return cJSON_GetObjectItem(counts, key)->valuedouble;
}

/* -blunders judges and changes no game: the same records but for its marks, the same counts;
 * the marks are the results file's blunders; a run stopped and resumed counts the same. With
 * no placement layer only the sliding phase is judged (and said). */
static void abtest__blunders_judged_games_unchanged(void **state) {
    (void)state;
    char command[1400], plain[256], judged[256], resumed[256], pgn[2][256], *out;
    snprintf(plain, sizeof plain, "%s", temp_path("plain.json"));
    snprintf(judged, sizeof judged, "%s", temp_path("judged.json"));
    snprintf(resumed, sizeof resumed, "%s", temp_path("judged_resumed.json"));
    snprintf(pgn[0], sizeof pgn[0], "%s", temp_path("plain.pgn"));
    snprintf(pgn[1], sizeof pgn[1], "%s", temp_path("judged.pgn"));
    const char *match = ABTEST " -engine name=a -engine name=b killers=off -each nodes=800 "
                               "-rounds 6 -sprt elo0=0 elo1=10 -concurrency 2 -quiet";
    snprintf(command, sizeof command, "%s -out %s -pgnout %s", match, plain, pgn[0]);
    assert_int_equal(test_run(command, NULL), 0);
    /* The sliding file judged by is the default one (make test's, FULL_TABLEBASE). */
    char blunders[300], no_layers[256];
    snprintf(no_layers, sizeof no_layers, "%s", temp_path("no_layers"));
    snprintf(blunders, sizeof blunders, "-blunders dir=%s", no_layers);
    /* A directory that is not there is refused before any game (a typo, most likely). */
    snprintf(command, sizeof command, "%s %s -out %s", match, blunders, judged);
    assert_int_equal(test_run(command, &out), 2);
    assert_non_null(strstr(out, "is not a directory"));
    free(out);
    assert_int_equal(mkdir(no_layers, 0700), 0);
    snprintf(command, sizeof command, "%s %s -out %s -pgnout %s", match, blunders, judged,
             pgn[1]);
    assert_int_equal(test_run(command, &out), 0);
    assert_non_null(strstr(out, "blunders: moves judged in the sliding phase only"));
    free(out);
    int marked[2];
    char *records[2] = {without_blunders(pgn[0], &marked[0]), without_blunders(pgn[1], &marked[1])};
    assert_int_equal(marked[0], 0);
    assert_string_equal(records[0], records[1]);
    free(records[0]);
    free(records[1]);
    static const char *const same[] = {"pentanomial_detail", "wdl", "end_reasons", "plies"};
    test_assert_same_keys(plain, judged, same, sizeof same / sizeof same[0]);
    cJSON *json = test_load_json(judged);
    assert_int_equal(cJSON_GetObjectItem(json, "blunders_in_hand")->valuedouble, 0);
    double lost = 0, judged_moves = 0;
    for (int e = 0; e < 2; e++) {
        const cJSON *engine = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "engines"), e);
        assert_true(blunders_in(engine, "placement", "kept") == 0);
        judged_moves += blunders_in(engine, "sliding", "kept");
        static const char *const kinds[] = {"win_to_draw", "win_to_loss", "draw_to_loss"};
        for (int k = 0; k < 3; k++)
            lost += blunders_in(engine, "sliding", kinds[k]);
    }
    print_message("%.0f moves judged, %.0f blunders, %d marked in the records\n",
                  judged_moves + lost, lost, marked[1]);
    assert_true(judged_moves > 0);
    assert_true(lost == marked[1]);
    cJSON_Delete(json);
    snprintf(command, sizeof command, "%s %s -out %s -debug-stopafter 2", match, blunders,
             resumed);
    test_run(command, NULL);
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", resumed);
    assert_int_equal(test_run(command, NULL), 0);
    test_assert_same_results(judged, resumed);
    static const char *const judging[] = {"blunders_in_hand"};
    test_assert_same_keys(judged, resumed, judging, 1);
    /* A round robin's pairings each count their own, and resume the same. */
    const char *robin = ABTEST " -engine name=a -engine name=b killers=off -engine name=c "
                               "hint=off -each nodes=300 -tournament roundrobin -rounds 2 "
                               "-concurrency 2 -quiet";
    snprintf(command, sizeof command, "%s %s -out %s", robin, blunders, judged);
    assert_int_equal(test_run(command, NULL), 0);
    snprintf(command, sizeof command, "%s %s -out %s -debug-stopafter 3", robin, blunders,
             resumed);
    test_run(command, NULL);
    snprintf(command, sizeof command, ABTEST " -resume %s -quiet", resumed);
    assert_int_equal(test_run(command, NULL), 0);
    cJSON *runs[2] = {test_load_json(judged), test_load_json(resumed)};
    const cJSON *pairings[2];
    for (int k = 0; k < 2; k++)
        pairings[k] =
            cJSON_GetObjectItem(cJSON_GetObjectItem(runs[k], "tournament"), "pairings");
    assert_int_equal(cJSON_GetArraySize(pairings[0]), 3);
    for (int p = 0; p < 3; p++)
        for (int e = 0; e < 2; e++) {
            char *text[2];
            for (int k = 0; k < 2; k++)
                text[k] = json_text(cJSON_GetObjectItem(
                    cJSON_GetArrayItem(
                        cJSON_GetObjectItem(cJSON_GetArrayItem(pairings[k], p), "engines"), e),
                    "blunders"));
            assert_non_null(text[0]);
            assert_string_equal(text[0], text[1]);
            free(text[0]);
            free(text[1]);
        }
    /* The report's page gives each engine's blunders over its pairings: a's, summed here. */
    double a_judged = 0, a_lost = 0;
    for (int p = 0; p < 3; p++)
        for (int e = 0; e < 2; e++) {
            const cJSON *engine = cJSON_GetArrayItem(
                cJSON_GetObjectItem(cJSON_GetArrayItem(pairings[0], p), "engines"), e);
            if (strcmp(cJSON_GetObjectItem(engine, "name")->valuestring, "a"))
                continue;
            static const char *const kinds[] = {"kept", "win_to_draw", "win_to_loss",
                                                "draw_to_loss"};
            for (int k = 0; k < 4; k++) {
                a_judged += blunders_in(engine, "sliding", kinds[k]);
                a_lost += k ? blunders_in(engine, "sliding", kinds[k]) : 0;
            }
        }
    char page[256], cell[128];
    snprintf(page, sizeof page, "%s", temp_path("robin.html"));
    snprintf(command, sizeof command, ABTEST " report %s -html %s", judged, page);
    assert_int_equal(test_run(command, NULL), 0);
    char *html = test_read_file(page);
    const char *table = strstr(html, "<table class=\"blunders\">");
    assert_non_null(table);
    assert_non_null(strstr(table, "<th>engine</th><th>placement</th><th>sliding</th>"));
    snprintf(cell, sizeof cell, "<tr><td>a</td><td>0/0 (0.00%%)</td><td>%.0f/%.0f (%.2f%%)</td>",
             a_lost, a_judged, 100 * a_lost / a_judged);
    assert_non_null(strstr(table, cell));
    free(html);
    remove(page);
    cJSON_Delete(runs[0]);
    cJSON_Delete(runs[1]);
    remove(plain);
    remove(judged);
    remove(resumed);
    rmdir(no_layers);
    remove(pgn[0]);
    remove(pgn[1]);
}

/* egdb=on: a sliding-phase child scores the tablebase's value, so a search one placement
 * before the phase scores the best child exactly and plays a move that keeps it. */
static void egdb__search_scores_the_tablebase_value(void **state) {
    (void)state;
    Error err;
    Tablebase *tb = tb_new(FULL_TABLEBASE, CAPTURES_TO_WIN, &err);
    assert_non_null(tb);
    Rng rng = rng_seeded(9);
    int checked = 0;
    for (int game = 0; game < 200 && checked < 25; game++) {
        Board b = board_start();
        while (!(b.in_hand == 1 && b.side == SIDE_SHEEP) && board_game_end(&b) == GAME_END_NONE) {
            MoveList list;
            movegen_all(&b, &list);
            board_make(&b, list.moves[rng_below(&rng, (uint64_t)list.count)]);
        }
        if (board_game_end(&b) != GAME_END_NONE || b.in_hand != 1 || b.side != SIDE_SHEEP)
            continue;
        /* The sheep place their last sheep: every child is in the sliding phase. */
        MoveList list;
        movegen_all(&b, &list);
        int best = -SCORE_WIN - 1; /* the sheep's view */
        for (int i = 0; i < list.count; i++) {
            Board child = b;
            board_make(&child, list.moves[i]);
            TbValue v = {TB_DRAW, -1};
            int score;
            if (child.captured >= CAPTURES_TO_WIN || !tb_probe(tb, &child, &v))
                fail_msg("a child outside the tablebase");
            score = v.outcome == TB_DRAW  ? 0
                    : v.outcome == TB_WIN ? -(SCORE_WIN - (1 + v.plies))
                                          : SCORE_WIN - (1 + v.plies);
            best = score > best ? score : best;
        }
        SearchConfig config = config_default();
        assert_true(config_apply(&config, "depth=3", &err));
        assert_true(config_apply(&config, "egdb=on", &err));
        Searcher searcher;
        assert_true(searcher_init(&searcher, &config, &err));
        searcher_set_tablebase(&searcher, tb);
        SearchResult r = search_run(&searcher, &b, NULL, 0);
        assert_int_equal(-r.score, best); /* the result is the tigers' view */
        assert_true(r.stats.tablebase_hits >= 1);
        searcher_destroy(&searcher);
        checked++;
    }
    assert_int_equal(checked, 25);
    tb_free(tb);
}

/* bench's accuracy against perfect play: the suite's 36 sliding-phase positions, balanced; with
 * egdb=on every move keeps its value and is optimal; compare shows both sides. */
static void bench__accuracy_per_configuration(void **state) {
    (void)state;
    char *out;
    assert_int_equal(test_run(BENCH " -depth 3 -threads 2 egdb=on -json - 2>/dev/null", &out), 0);
    cJSON *json = cJSON_Parse(out);
    free(out);
    assert_non_null(json);
    cJSON *tb = cJSON_GetObjectItem(json, "tablebase");
    assert_int_equal(cJSON_GetObjectItem(tb, "positions")->valueint, 36);
    assert_int_equal(cJSON_GetObjectItem(tb, "wins")->valueint, 12);
    assert_int_equal(cJSON_GetObjectItem(tb, "losses")->valueint, 12);
    assert_int_equal(cJSON_GetObjectItem(tb, "draws")->valueint, 12);
    assert_int_equal(cJSON_GetObjectItem(tb, "kept")->valueint, 36);
    assert_int_equal(cJSON_GetObjectItem(tb, "optimal")->valueint, 36);
    cJSON_Delete(json);
    assert_int_equal(
        test_run(BENCH " compare -base -cand egdb=on -depth 3 -repeat 1 -threads 2", &out), 1);
    assert_non_null(strstr(out, "base tablebase: 36 sliding-phase positions"));
    assert_non_null(strstr(out, "cand tablebase: 36 sliding-phase positions"));
    assert_non_null(strstr(out, "optimal in 36 (100.0%)"));
    free(out);
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
        cmocka_unit_test(full__header_sample_and_longest_win),
        cmocka_unit_test(abtest__adjudicates_at_the_sliding_phase),
        cmocka_unit_test(abtest__tb_option_results_and_errors),
        cmocka_unit_test(abtest__blunders_judged_games_unchanged),
        cmocka_unit_test(egdb__search_scores_the_tablebase_value),
        cmocka_unit_test(bench__accuracy_per_configuration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
