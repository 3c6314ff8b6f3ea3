// SPDX-License-Identifier: MIT
// Game records others can read: a match's PGN read back by a strict reader of the standard's
// export format (tests/pgn_strict.h), and the tags that rating tools read (White, Black,
// Result) giving the same counts as the results file; the reader itself refuses the records
// of before (no Seven Tag Roster) and each rule broken once.
#include "test_util.h"

#include "pgn_strict.h"

#define ABTEST TSLAB_BUILD_DIR "/abtest"
#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"

static char dir[256];

static int setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "pgn");
}

static int teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

/* The first engine's results as a rating tool reads them: from White, Black and Result only. */
typedef struct {
    const char *first, *date;
    long wins, draws, losses, as_sheep_wins, as_tigers_wins, games;
    char problem[256];
} Tally;

static void tally_game(const PgnGame *game, void *context) {
    Tally *t = context;
    const char *white = pgn_tag(game, "White"), *black = pgn_tag(game, "Black");
    const char *result = pgn_tag(game, "Result");
    t->games++;
    if (strcmp(white, pgn_tag(game, "Sheep")) || strcmp(black, pgn_tag(game, "Tigers")))
        snprintf(t->problem, sizeof t->problem, "game %ld: White is not the sheep", t->games);
    if (!pgn_tag(game, "Variant") || strcmp(pgn_tag(game, "Variant"), "bagh-chal"))
        snprintf(t->problem, sizeof t->problem, "game %ld: no Variant \"bagh-chal\"", t->games);
    if (strcmp(pgn_tag(game, "Date"), t->date))
        snprintf(t->problem, sizeof t->problem, "game %ld: Date %s, the match started %s", t->games,
                 pgn_tag(game, "Date"), t->date);
    bool first_white = !strcmp(white, t->first);
    if (!strcmp(result, "1/2-1/2")) {
        t->draws++;
        return;
    }
    bool white_won = !strcmp(result, "1-0");
    if (white_won == first_white) {
        t->wins++;
        *(first_white ? &t->as_sheep_wins : &t->as_tigers_wins) += 1;
    } else {
        t->losses++;
    }
}

static long json_count(const cJSON *object, const char *group, const char *key) {
    return (long)cJSON_GetObjectItem(cJSON_GetObjectItem(object, group), key)->valuedouble;
}

/* Odd -rounds so that both the first engine's sides and every result kind can occur; on a
 * clock with different time controls too, for the per-side TimeControl tags. */
static void records__strict_pgn_with_the_results_files_counts(void **state) {
    (void)state;
    static const char *const runs[] = {
        "-engine name=new -engine name=base killers=off -each nodes=400 -rounds 9",
        "-engine name=new tc=0.3+0.003 -engine name=old tc=0.2+0.002 -each nodestime=150 "
        "-rounds 3",
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        char command[4096], path[512], *out;
        snprintf(command, sizeof command,
                 ABTEST " %s -openings file=" BOOK " -quiet -out %s/run%zu.json -pgnout "
                        "file=%s/run%zu.pgn",
                 runs[r], dir, r, dir, r);
        assert_int_equal(test_run(command, &out), 0);
        free(out);
        snprintf(path, sizeof path, "%s/run%zu.json", dir, r);
        cJSON *json = test_load_json(path);
        snprintf(path, sizeof path, "%s/run%zu.pgn", dir, r);
        char *pgn = test_read_file(path), why[400], date[11];
        const char *started = cJSON_GetObjectItem(json, "started")->valuestring;
        snprintf(date, sizeof date, "%.4s.%.2s.%.2s", started, started + 5, started + 8);
        Tally tally = {.first = "new", .date = date};
        int games = pgn_strict_read(pgn, tally_game, &tally, why, sizeof why);
        if (games < 0)
            fail_msg("%s: %s", path, why);
        if (tally.problem[0])
            fail_msg("%s: %s", path, tally.problem);
        assert_int_equal(games, (int)cJSON_GetObjectItem(json, "games")->valuedouble);
        assert_int_equal(tally.wins, json_count(json, "wdl", "wins"));
        assert_int_equal(tally.draws, json_count(json, "wdl", "draws"));
        assert_int_equal(tally.losses, json_count(json, "wdl", "losses"));
        assert_int_equal(tally.as_sheep_wins, json_count(json, "first_as_sheep", "wins"));
        assert_int_equal(tally.as_tigers_wins, json_count(json, "first_as_tigers", "wins"));
        if (r == 1) {
            assert_non_null(strstr(pgn, "[SheepTimeControl \"0.2+0.002\"]\n[Termination"));
            assert_non_null(strstr(pgn, "[TigersTimeControl \"0.3+0.003\"]\n[Variant"));
        }
        free(pgn);
        cJSON_Delete(json);
    }
}

static void opening_of(const PgnGame *game, void *context) {
    char *opening = context;
    snprintf(opening, 64, "%s", pgn_tag(game, "Opening"));
}

/* A book id with an escape sequence and UTF-8: its PGN tag holds printing ASCII only ('?' for
 * each other byte), which the strict reader reads. */
static void tags__only_what_the_standard_allows(void **state) {
    (void)state;
    char command[4096], path[512], *out;
    snprintf(path, sizeof path, "%s/odd_ids.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("T3T/5/5/5/T3T s 20 0 ; o\x1b[31m\xc3\xa9\"q\n", f);
    fclose(f);
    snprintf(command, sizeof command,
             ABTEST " -engine name=a -engine name=b -each nodes=100 -rounds 1 -openings file=%s "
                    "-quiet -pgnout file=%s/odd.pgn",
             path, dir);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
    snprintf(path, sizeof path, "%s/odd.pgn", dir);
    char *pgn = test_read_file(path), why[400], opening[64] = "";
    assert_non_null(pgn);
    int games = pgn_strict_read(pgn, opening_of, opening, why, sizeof why);
    if (games != 2)
        fail_msg("%s: %s", path, games < 0 ? why : "not two games");
    assert_string_equal(opening, "o?[31m??\"q");
    free(pgn);
}

/* One game of the new format; each case breaks one rule of the reader in it. */
#define GOOD_TAGS                                                                                  \
    "[Event \"e\"]\n[Site \"?\"]\n[Date \"2026.12.01\"]\n[Round \"1.1\"]\n[White \"a\"]\n"         \
    "[Black \"b\"]\n[Result \"0-1\"]\n[FEN \"2T1T/S4/SS3/1T2T/3S1 s 16 0\"]\n[SetUp \"1\"]\n"
#define GOOD_MOVES "1. b4 {-0.54/4} 1... e5-d4 {+0.36/4} 2. c1 {x} 0-1\n\n"

static void reader__refuses_what_the_standard_does_not_allow(void **state) {
    (void)state;
    static const struct {
        const char *text, *why;
    } cases[] = {
        {GOOD_TAGS "\n" GOOD_MOVES, NULL},
        {"[Event \"e\"]\n[Round \"1.1\"]\n[Tigers \"a\"]\n[Sheep \"b\"]\n[Result \"1-0\"]\n\n"
         "1. b4 1-0\n\n",
         "tag 2 is Round: the Seven Tag Roster has Site there"},
        {GOOD_TAGS "[Opening \"o1\"]\n\n" GOOD_MOVES, "tag Opening after SetUp: not in ASCII"},
        {GOOD_TAGS "[FEN \"x\"]\n\n" GOOD_MOVES, "tag FEN twice"},
        {"[Event \"e\"]\n[Site \"?\"]\n[Date \"2026-12-01\"]\n[Round \"1\"]\n[White \"a\"]\n"
         "[Black \"b\"]\n[Result \"0-1\"]\n\n0-1\n\n",
         "Date \"2026-12-01\""},
        {"[Event \"e\"]\n[Site \"?\"]\n[Date \"2026.12.01\"]\n[Round \"1\"]\n[White \"a\"]\n"
         "[Black \"b\"]\n[Result \"0-1\"]\n[FEN \"x\"]\n\n0-1\n\n",
         "a FEN tag without SetUp"},
        {GOOD_TAGS "\n1. b4 {-0.54/4} e5-d4 {+0.36/4} 0-1\n\n", "move 'e5-d4' without its move"},
        {GOOD_TAGS "\n1. b4 1... e5-d4 1-0\n\n", "termination marker 1-0, Result tag 0-1"},
        {GOOD_TAGS "\n1. b4 1... e5-d4 3. c1 0-1\n\n", "move number '3.' out of turn"},
        {GOOD_TAGS "\n1. b4 1... e5-d4\n\n", "no termination marker"},
        {GOOD_TAGS "[Tag \"a\\b\"]\n\n" GOOD_MOVES, "backslash escapes only"},
        {GOOD_TAGS
         "\n1. b4 {aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa}"
         " 0-1\n\n",
         "more than 79 characters"},
        {GOOD_TAGS "\n"
                   "1. b4 0-1\n",
         "ends inside a game"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char why[400] = "";
        int games = pgn_strict_read(cases[i].text, NULL, NULL, why, sizeof why);
        if (!cases[i].why ? games != 1 : games != -1 || !strstr(why, cases[i].why))
            fail_msg("case %zu: %d games, '%s'; wanted '%s'", i, games, why,
                     cases[i].why ? cases[i].why : "one game");
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(records__strict_pgn_with_the_results_files_counts),
        cmocka_unit_test(reader__refuses_what_the_standard_does_not_allow),
        cmocka_unit_test(tags__only_what_the_standard_allows),
    };
    return tslab_run_tests_setup("pgn", tests, sizeof tests / sizeof tests[0], argc, argv, setup,
                                 teardown);
}
