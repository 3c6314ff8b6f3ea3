// SPDX-License-Identifier: MIT
// A run of more than two engines: its pairings (round robin, gauntlet with seeds, and what does
// not make one), the interleaved numbering of pairs, and the pool playing them: every pair is
// the match its two engines would play in that round, whatever the number of threads, and a
// pair sent between ranks carries its pairing and is checked against it.
#include "pair_pool.h"
#include "pair_wire.h"
#include "settings_json.h"

#include "test_util.h"

#include <math.h>
#include <signal.h>

#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"
#define ABTEST TSLAB_BUILD_DIR "/abtest"
/* Three engines that differ: a round robin, 20 pairs a pairing (0.55 s on one thread here,
 * so that a kill after the first checkpoint comes well before the end). */
#define ROUND_ROBIN                                                                                \
    ABTEST " -engine name=a -engine name=b killers=off -engine name=c depth=3 -each nodes=1000 " \
           "-tournament roundrobin -rounds 20 -ratinginterval 2 -quiet -openings file=" BOOK
/* A base and three candidates, each decided by its SPRT under the family's control (about 170
 * pairs, 1.6 s on one thread here). */
#define GAUNTLET_SPRT                                                                              \
    ABTEST " -engine name=base -engine name=nok killers=off -engine name=noh hint=off "           \
           "-engine name=d4 depth=4 -each nodes=1000 -tournament gauntlet -sprt elo0=0 elo1=40 "  \
           "-ratinginterval 5 -quiet -openings file=" BOOK

static char dir[256];

static void assert_pairings(TournamentKind kind, int engines, int seeds, const char *expected) {
    PairingList list;
    Error err = {{0}};
    if (!tournament_pairings(kind, engines, seeds, &list, &err))
        fail_msg("%s", err.text);
    char text[512] = "";
    for (int i = 0; i < list.count; i++) {
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "%s%d-%d", i ? " " : "",
                 list.pairings[i].first + 1, list.pairings[i].second + 1);
    }
    assert_string_equal(text, expected);
}

static void assert_refused(TournamentKind kind, int engines, int seeds, const char *words) {
    PairingList list;
    Error err = {{0}};
    assert_false(tournament_pairings(kind, engines, seeds, &list, &err));
    if (!strstr(err.text, words))
        fail_msg("'%s' lacks '%s'", err.text, words);
}

static void pairings__round_robin_gauntlet_and_refusals(void **state) {
    (void)state;
    assert_pairings(TOURNAMENT_MATCH, 2, 1, "1-2");
    assert_pairings(TOURNAMENT_ROUNDROBIN, 2, 1, "1-2");
    assert_pairings(TOURNAMENT_ROUNDROBIN, 4, 1, "1-2 1-3 1-4 2-3 2-4 3-4");
    /* A candidate first: its numbers are its own, against the seed. */
    assert_pairings(TOURNAMENT_GAUNTLET, 4, 1, "2-1 3-1 4-1");
    assert_pairings(TOURNAMENT_GAUNTLET, 4, 2, "3-1 3-2 4-1 4-2");
    PairingList all;
    Error err;
    assert_true(tournament_pairings(TOURNAMENT_ROUNDROBIN, TOURNAMENT_RUN_ENGINES_MAX, 1, &all,
                                    &err));
    assert_int_equal(all.count, TOURNAMENT_PAIRINGS_MAX);

    assert_refused(TOURNAMENT_ROUNDROBIN, 1, 1, "two engines or more");
    assert_refused(TOURNAMENT_GAUNTLET, 0, 1, "two engines or more");
    assert_refused(TOURNAMENT_MATCH, 3, 1, "a match is between two");
    assert_refused(TOURNAMENT_ROUNDROBIN, TOURNAMENT_RUN_ENGINES_MAX + 1, 1, "at most 16");
    assert_refused(TOURNAMENT_GAUNTLET, 4, 0, "-seeds 0: a gauntlet of 4 engines takes 1 to 3");
    assert_refused(TOURNAMENT_GAUNTLET, 4, 4, "-seeds 4");

    TournamentKind kind;
    assert_true(tournament_kind_from_name("gauntlet", &kind));
    assert_int_equal(kind, TOURNAMENT_GAUNTLET);
    assert_false(tournament_kind_from_name("swiss", &kind));
}

static void numbering__interleaves_pairings_by_round(void **state) {
    (void)state;
    PairingSegment all = tournament_segment_all(3), match = tournament_segment_all(1);
    assert_int_equal(tournament_pairing_of(&all, 0), 0);
    assert_int_equal(tournament_pairing_of(&all, 4), 1);
    assert_int_equal(tournament_round_of(&all, 4), 1);
    assert_int_equal(tournament_round_of(&all, 8), 2);
    assert_true(tournament_round_ends(&all, 8));
    assert_false(tournament_round_ends(&all, 7));
    assert_int_equal(tournament_pairing_of(&match, 8), 0); /* a match: the pair is its round */
    assert_int_equal(tournament_round_of(&match, 8), 8);
}

/* Pairing 2 of 3 closed after 5 rounds (pairs 0-14); pairings 1 and 3 go on from pair 15 in
 * round 5, so each one's k-th pair still plays round k. */
static void numbering__a_closed_pairing_leaves_the_others_their_rounds(void **state) {
    (void)state;
    Error err;
    PairingSegment segment;
    const bool closed[3] = {false, true, false};
    const int64_t at_close[3] = {5, 5, 5}, one_later[3] = {6, 5, 5};
    assert_true(tournament_segment_from_counts(3, at_close, closed, &segment, &err));
    assert_int_equal(segment.first_pair, 15);
    assert_int_equal(segment.first_round, 5);
    assert_int_equal(segment.count, 2);
    assert_int_equal(tournament_pairing_of(&segment, 15), 0);
    assert_int_equal(tournament_pairing_of(&segment, 16), 2);
    assert_int_equal(tournament_round_of(&segment, 16), 5);
    assert_int_equal(tournament_pairing_of(&segment, 17), 0);
    assert_int_equal(tournament_round_of(&segment, 17), 6);
    /* A resume after pair 15 finds the same segment. */
    PairingSegment again;
    assert_true(tournament_segment_from_counts(3, one_later, closed, &again, &err));
    assert_int_equal(again.first_pair, 15);
    assert_int_equal(again.first_round, 5);

    /* Counts the schedule cannot give are refused. */
    const int64_t apart[3] = {7, 5, 5}, behind_closed[3] = {4, 5, 4}, out_of_turn[3] = {5, 5, 6};
    const bool none[3] = {false, false, false}, all[3] = {true, true, true};
    assert_false(tournament_segment_from_counts(3, apart, none, &segment, &err));
    assert_non_null(strstr(err.text, "at most one apart"));
    assert_false(tournament_segment_from_counts(3, behind_closed, closed, &segment, &err));
    assert_non_null(strstr(err.text, "closed at a round's end"));
    assert_false(tournament_segment_from_counts(3, out_of_turn, none, &segment, &err));
    assert_non_null(strstr(err.text, "pairing 3 is ahead of pairing 1"));
    assert_false(tournament_segment_from_counts(3, at_close, all, &segment, &err));
}

/* Three in-process engines that play differently at depth 3. */
static void three_engines(MatchSettings *s) {
    settings_init(s);
    const char *names[] = {"a", "b", "c"};
    for (int e = 0; e < 3; e++) {
        s->engines[e] = engine_spec_default();
        snprintf(s->engines[e].name, sizeof s->engines[e].name, "%s", names[e]);
        s->engines[e].config.depth = 3;
    }
    s->engines[1].config.killers = false;
    s->engines[2].config.depth = 2;
    s->engine_count = 3;
    s->tournament = TOURNAMENT_ROUNDROBIN;
    s->random_plies = 2;
    s->seed = 11;
    s->order = ORDER_RANDOM;
    snprintf(s->book_path, sizeof s->book_path, "%s", BOOK);
}

typedef struct {
    Book book;
    Schedule order;
    MatchSettings settings;
} Run;

static void run_open(Run *r) {
    three_engines(&r->settings);
    Error err;
    if (!book_load(&r->book, BOOK, true, &err))
        fail_msg("%s", err.text);
    if (!schedule_init(&r->order, &r->book, &r->settings))
        fail_msg("out of memory");
    if (!settings_check(&r->settings, &err))
        fail_msg("%s", err.text);
}

static void run_close(Run *r) {
    schedule_destroy(&r->order);
    book_destroy(&r->book);
}

#define PAIRS 9 /* three rounds of the three pairings */

static void play_on_pool(Run *r, int threads, PairRecord out[PAIRS]) {
    Error err;
    PairPool *pool = pair_pool_new(threads, NULL, &err);
    if (!pool)
        fail_msg("%s", err.text);
    PairJob job = {&r->settings, &r->book, &r->order, NULL, threads, NULL};
    if (!pair_pool_set_job(pool, &job, &err) || !pair_pool_play(pool, 0, PAIRS, out, &err))
        fail_msg("%s", err.text);
    pair_pool_free(pool);
}

static void assert_same_games(const PairRecord *a, const PairRecord *b) {
    assert_int_equal(a->opening, b->opening);
    for (int g = 0; g < 2; g++) {
        const GameRecord *x = &a->games[g], *y = &b->games[g];
        assert_true(board_equal(&x->start, &y->start));
        assert_int_equal(x->result, y->result);
        assert_int_equal(x->plies, y->plies);
        assert_memory_equal(x->moves, y->moves, sizeof *x->moves * (size_t)x->plies);
        assert_memory_equal(x->engine, y->engine, sizeof x->engine);
    }
}

static void pool__each_pair_is_its_pairings_match_in_its_round(void **state) {
    (void)state;
    Run r;
    run_open(&r);
    PairRecord one[PAIRS], two[PAIRS];
    play_on_pool(&r, 1, one);
    play_on_pool(&r, 2, two);
    PairSetup setup = settings_pair_setup(&r.settings, NULL);
    assert_int_equal(setup.pairings.count, 3);
    for (int i = 0; i < PAIRS; i++) {
        assert_int_equal(one[i].index, i);
        assert_int_equal(one[i].pairing, i % 3);
        assert_int_equal(two[i].pairing, i % 3);
        assert_same_games(&one[i], &two[i]);
        /* A round's pairs start from one position. */
        assert_true(board_equal(&one[i].games[0].start, &one[i - i % 3].games[0].start));

        /* The same pair as a match of its two engines, numbered by its round. */
        Pairing pairing = setup.pairings.pairings[i % 3];
        EngineSpec engines[MATCH_ENGINES] = {r.settings.engines[pairing.first],
                                             r.settings.engines[pairing.second]};
        MatchWorker worker;
        Error err;
        if (!match_worker_init(&worker, engines, MATCH_ENGINES, NULL, &err))
            fail_msg("%s", err.text);
        PairSetup match = setup;
        match.pairings = (PairingList){1, {{0, 1}}};
        match.segment = tournament_segment_all(1);
        atomic_bool abort_flag;
        atomic_init(&abort_flag, false);
        PairRecord alone;
        int64_t round = i / 3;
        int opening = schedule_opening(&r.order, round);
        if (!match_play_pair(&worker, &match, round, &r.book.entries[opening], opening,
                             &abort_flag, &alone, &err))
            fail_msg("%s", err.text);
        match_worker_destroy(&worker);
        assert_same_games(&one[i], &alone);
        match_pair_destroy(&alone);
    }
    /* The engines play differently: not every pairing's games are the same. */
    assert_true(one[0].games[0].plies != one[1].games[0].plies ||
                memcmp(one[0].games[0].moves, one[1].games[0].moves,
                       sizeof *one[0].games[0].moves * (size_t)one[0].games[0].plies) != 0);
    pair_pool_records_destroy(one, PAIRS);
    pair_pool_records_destroy(two, PAIRS);
    run_close(&r);
}

static void wire__carries_the_pairing_and_checks_it(void **state) {
    (void)state;
    Run r;
    run_open(&r);
    PairRecord pairs[PAIRS];
    play_on_pool(&r, 1, pairs);
    PairSetup setup = settings_pair_setup(&r.settings, NULL);
    WireBuffer buffer = {0};
    assert_true(pair_wire_encode(&pairs[5], &buffer));
    PairRecord back;
    size_t used;
    Error err;
    if (!pair_wire_decode(buffer.data, buffer.used, r.settings.max_plies, &back, &used, &err))
        fail_msg("%s", err.text);
    assert_int_equal(back.pairing, 2);
    if (!pair_wire_verify(&back, &setup, &r.book, &r.order, &err))
        fail_msg("%s", err.text);
    back.pairing = 1; /* another pairing's engines would have played it */
    assert_false(pair_wire_verify(&back, &setup, &r.book, &r.order, &err));
    assert_non_null(strstr(err.text, "pair 6: pairing 2, the schedule says 3"));
    match_pair_destroy(&back);
    wire_buffer_destroy(&buffer);
    pair_pool_records_destroy(pairs, PAIRS);
    run_close(&r);
}

static void settings__tournament_checked_and_recorded(void **state) {
    (void)state;
    MatchSettings s;
    three_engines(&s);
    Error err;
    assert_true(settings_check(&s, &err));
    snprintf(s.engines[2].name, sizeof s.engines[2].name, "a");
    assert_false(settings_check(&s, &err));
    assert_string_equal(err.text, "engines 1 and 3 are both named a: every engine needs its own "
                                  "name");
    snprintf(s.engines[2].name, sizeof s.engines[2].name, "c");
    s.tournament = TOURNAMENT_GAUNTLET;
    s.seeds = 3;
    assert_false(settings_check(&s, &err));
    assert_non_null(strstr(err.text, "-seeds 3: a gauntlet of 3 engines takes 1 to 2 seeds"));
    s.seeds = 2;
    assert_true(settings_check(&s, &err));

    /* Recorded and read back; a match's settings have no "tournament" key. */
    cJSON *json = settings_to_json(&s);
    MatchSettings back;
    if (!settings_from_json(json, &back, NULL, &err))
        fail_msg("%s", err.text);
    assert_int_equal(back.engine_count, 3);
    assert_int_equal(back.tournament, TOURNAMENT_GAUNTLET);
    assert_int_equal(back.seeds, 2);
    assert_string_equal(back.engines[2].name, "c");
    assert_true(settings_same_experiment(&s, &back, &err));
    back.tournament = TOURNAMENT_ROUNDROBIN;
    back.seeds = 1;
    assert_false(settings_same_experiment(&s, &back, &err));
    assert_non_null(strstr(err.text, "tournament (gauntlet -seeds 2 vs roundrobin)"));
    cJSON_Delete(json);

    MatchSettings match;
    three_engines(&match);
    match.engine_count = 2;
    match.tournament = TOURNAMENT_MATCH;
    json = settings_to_json(&match);
    assert_null(cJSON_GetObjectItemCaseSensitive(json, "tournament"));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(json, "engines")), 2);
    cJSON_Delete(json);
}

/* Runs the tournament arguments in dir as NAME (NAME.json, NAME.pgn) on threads threads. */
static void run_named(const char *arguments, const char *name, int threads) {
    char command[4096];
    snprintf(command, sizeof command, "cd %s && %s -concurrency %d -out %s.json -pgnout %s.pgn",
             dir, arguments, threads, name, name);
    char *out;
    int status = test_run(command, &out);
    if (status != 0)
        fail_msg("%s: exit %d\n%s", command, status, out);
    free(out);
}

/* What two tournament files must share: every pairing's counts and the rating. */
static void assert_same_tournament(const char *a, const char *b) {
    char a_path[512], b_path[512];
    snprintf(a_path, sizeof a_path, "%s/%s.json", dir, a);
    snprintf(b_path, sizeof b_path, "%s/%s.json", dir, b);
    cJSON *x = test_load_json(a_path), *y = test_load_json(b_path);
    const char *const run_keys[] = {"pairs", "end_reasons", "plies", "engines", "book"};
    for (size_t i = 0; i < sizeof run_keys / sizeof run_keys[0]; i++) {
        char *u = json_text(cJSON_GetObjectItem(x, run_keys[i]));
        char *v = json_text(cJSON_GetObjectItem(y, run_keys[i]));
        if (strcmp(u, v))
            fail_msg("%s differs between %s and %s", run_keys[i], a, b);
        free(u);
        free(v);
    }
    const cJSON *tx = cJSON_GetObjectItem(x, "tournament"), *ty = cJSON_GetObjectItem(y, "tournament");
    char *u = json_text(cJSON_GetObjectItem(tx, "rating"));
    char *v = json_text(cJSON_GetObjectItem(ty, "rating"));
    if (strcmp(u, v))
        fail_msg("the rating differs between %s and %s:\n%.400s\n%.400s", a, b, u, v);
    free(u);
    free(v);
    const cJSON *px = cJSON_GetObjectItem(tx, "pairings"), *py = cJSON_GetObjectItem(ty, "pairings");
    assert_int_equal(cJSON_GetArraySize(px), cJSON_GetArraySize(py));
    const char *const keys[] = {"pairs", "pentanomial_detail", "wdl", "elo", "elo_ci95",
                                "engines", "first_as_tigers", "end_reasons", "trajectory"};
    for (int p = 0; p < cJSON_GetArraySize(px); p++)
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            char *m = json_text(cJSON_GetObjectItem(cJSON_GetArrayItem(px, p), keys[i]));
            char *n = json_text(cJSON_GetObjectItem(cJSON_GetArrayItem(py, p), keys[i]));
            if (strcmp(m, n))
                fail_msg("pairing %d: %s differs between %s and %s", p + 1, keys[i], a, b);
            free(m);
            free(n);
        }
    cJSON_Delete(x);
    cJSON_Delete(y);
    snprintf(a_path, sizeof a_path, "%s/%s.pgn", dir, a);
    snprintf(b_path, sizeof b_path, "%s/%s.pgn", dir, b);
    test_assert_same_file(a_path, b_path);
}

/* Runs arguments as NAME on 1 and 2 threads, killed with SIGKILL after its first checkpoint
 * and resumed (one thread, so that the kill comes long before the end), and on 3 MPI ranks:
 * every one the same tournament. */
static void assert_same_on_every_shape(const char *arguments, const char *name) {
    char one[64], other[64], path[512], command[4096];
    snprintf(one, sizeof one, "%s_one", name);
    run_named(arguments, one, 1);
    snprintf(other, sizeof other, "%s_two", name);
    run_named(arguments, other, 2);
    assert_same_tournament(one, other);

    snprintf(other, sizeof other, "%s_kill9", name);
    snprintf(path, sizeof path, "%s/%s.json", dir, other);
    snprintf(command, sizeof command,
             "cd %s && exec %s -concurrency 1 -out %s.json -pgnout %s.pgn >/dev/null", dir,
             arguments, other, other);
    test_kill_9_after_checkpoint(command, path, 20);
    snprintf(command, sizeof command, "cd %s && " ABTEST " -resume %s.json -quiet", dir, other);
    char *out;
    if (test_run(command, &out) != 0)
        fail_msg("resume: %s", out);
    assert_non_null(strstr(out, "Finished tournament"));
    free(out);
    assert_same_tournament(one, other);

    /* Under ASan every rank is instrumented and CI's time is near its limit: the plain and
     * clang runs of make test play the ranks, and test_distributed runs ranks under ASan. */
    const char *missing = test_mpi_missing();
    if (TEST_ADDRESS_SANITIZER)
        missing = "under ASan (the plain and clang runs of make test play it)";
    if (missing) {
        printf("skipped: %s on 3 MPI ranks: %s\n", name, missing);
        return;
    }
    snprintf(other, sizeof other, "%s_ranks", name);
    snprintf(command, sizeof command,
             "cd %s && " TEST_MPIRUN " -np 3 " TEST_ABTEST_MPI " %s -concurrency 1 -out %s.json "
             "-pgnout %s.pgn",
             dir, arguments + strlen(ABTEST), other, other);
    if (test_run(command, &out) != 0)
        fail_msg("3 ranks: %s", out);
    free(out);
    assert_same_tournament(one, other);
}

static void round_robin__same_on_threads_after_kill_9_and_on_ranks(void **state) {
    (void)state;
    assert_same_on_every_shape(ROUND_ROBIN, "rr");
    char path[512];
    cJSON *json = test_load_json(strcat(strcpy(path, dir), "/rr_one.json"));
    const cJSON *tournament = cJSON_GetObjectItem(json, "tournament");
    assert_int_equal(cJSON_GetObjectItem(json, "pairs")->valueint, 60);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(tournament, "kind")),
                        "roundrobin");
    const cJSON *pairings = cJSON_GetObjectItem(tournament, "pairings");
    assert_int_equal(cJSON_GetArraySize(pairings), 3);
    for (int p = 0; p < 3; p++)
        assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(pairings, p), "pairs")->valueint,
                         20);
    const cJSON *rated = cJSON_GetObjectItem(cJSON_GetObjectItem(tournament, "rating"), "engines");
    assert_int_equal(cJSON_GetArraySize(rated), 3);
    cJSON_Delete(json);
}

/* A gauntlet decided by SPRTs: every candidate decided, the run the same on every shape, and
 * a decided pairing stops where it decided while the others go on. */
static void gauntlet_sprt__same_on_threads_after_kill_9_and_on_ranks(void **state) {
    (void)state;
    assert_same_on_every_shape(GAUNTLET_SPRT, "gs");
    char path[512];
    cJSON *json = test_load_json(strcat(strcpy(path, dir), "/gs_one.json"));
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(json, "state")), "sprt");
    const cJSON *pairings = cJSON_GetObjectItem(cJSON_GetObjectItem(json, "tournament"),
                                                "pairings");
    int64_t total = 0;
    for (int p = 0; p < 3; p++) {
        const cJSON *pairing = cJSON_GetArrayItem(pairings, p);
        const char *decision = cJSON_GetStringValue(cJSON_GetObjectItem(pairing, "decision"));
        if (!decision || (strcmp(decision, "H0") && strcmp(decision, "H1")))
            fail_msg("pairing %d: decision %s", p + 1, decision ? decision : "none");
        int pairs = cJSON_GetObjectItem(pairing, "pairs")->valueint;
        assert_int_equal(cJSON_GetObjectItem(pairing, "decision_pair")->valueint, pairs);
        total += pairs;
    }
    assert_int_equal(cJSON_GetObjectItem(json, "pairs")->valueint, total);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(
                            cJSON_GetObjectItem(cJSON_GetObjectItem(json, "settings"),
                                                "tournament"),
                            "family")),
                        "holm");
    cJSON_Delete(json);
}

/* Pairing p of a results file's tournament, written alone as a match's file would be
 * (dir/pairing_P.json, its path in path). */
static void write_pairing(const cJSON *pairings, int p, char *path, size_t size) {
    char *pairing = json_text(cJSON_GetArrayItem(pairings, p)), name[32];
    snprintf(name, sizeof name, "pairing_%d.json", p + 1);
    test_write_file_in(dir, name, pairing);
    snprintf(path, size, "%s/%s", dir, name);
    free(pairing);
}

/* Without a family-wise control each candidate's test is its own SPRT: the same pairs, counts
 * and decision as the candidate's match against the base (a look after every pair, Wald's
 * bounds), since a pairing's k-th pair plays round k as a match's pair k does. */
static void gauntlet_sprt__uncorrected_is_each_candidates_match(void **state) {
    (void)state;
    run_named(GAUNTLET_SPRT " -family none", "none", 2);
    char path[512];
    snprintf(path, sizeof path, "%s/none.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *pairings = cJSON_GetObjectItem(cJSON_GetObjectItem(json, "tournament"),
                                                "pairings");
    const char *candidates[] = {"nok killers=off", "noh hint=off", "d4 depth=4"};
    for (int p = 0; p < 3; p++) {
        char command[2048], name[32];
        snprintf(name, sizeof name, "match_%d", p + 1);
        snprintf(command, sizeof command,
                 ABTEST " -engine name=%s -engine name=base -each nodes=1000 -sprt elo0=0 "
                        "elo1=40 overshoot=off -quiet -openings file=" BOOK,
                 candidates[p]);
        run_named(command, name, 2);
        write_pairing(pairings, p, path, sizeof path);
        char match_path[512];
        snprintf(match_path, sizeof match_path, "%s/%s.json", dir, name);
        const char *const keys[] = {"pairs", "pentanomial_detail", "wdl", "decision",
                                    "decision_pair", "llr", "elo", "elo_ci95", "first_as_tigers"};
        test_assert_same_keys(match_path, path, keys, sizeof keys / sizeof keys[0]);
    }
    cJSON_Delete(json);
}

/* A stronger candidate (3x the nodes) is accepted, a weaker one (0.3x) and an equal one are
 * not, and the run says which were accepted in the rating's order. */
static void gauntlet_sprt__stronger_accepted_weaker_and_equal_not(void **state) {
    (void)state;
    char command[2048], *out;
    snprintf(command, sizeof command,
             "cd %s && " ABTEST " -engine name=base -engine name=same -engine name=weak "
             "nodes=300 -engine name=strong nodes=3000 -each nodes=1000 -tournament gauntlet "
             "-sprt elo0=0 elo1=40 -quiet -openings file=" BOOK " -out decided.json",
             dir);
    if (test_run(command, &out) != 0)
        fail_msg("%s:\n%s", command, out);
    if (!strstr(out, "Accepted, strongest first by the rating: strong (+") ||
        !strstr(out, "Finished: every candidate decided after"))
        fail_msg("%s", out);
    free(out);
    char path[512];
    snprintf(path, sizeof path, "%s/decided.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *pairings = cJSON_GetObjectItem(cJSON_GetObjectItem(json, "tournament"),
                                                "pairings");
    const char *expected[] = {"H0", "H0", "H1"}; /* same, weak, strong */
    for (int p = 0; p < 3; p++)
        assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(
                                cJSON_GetArrayItem(pairings, p), "decision")),
                            expected[p]);
    cJSON_Delete(json);
}

static void gauntlet__candidates_first_against_the_seed(void **state) {
    (void)state;
    run_named(ABTEST " -engine name=base -engine name=k killers=off -engine name=h hint=off "
                     "-engine name=d depth=2 -each nodes=300 -tournament gauntlet -seeds 1 "
                     "-rounds 6 -quiet -openings file=" BOOK,
              "gauntlet", 2);
    char path[512];
    snprintf(path, sizeof path, "%s/gauntlet.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *tournament = cJSON_GetObjectItem(json, "tournament");
    const cJSON *pairings = cJSON_GetObjectItem(tournament, "pairings");
    assert_int_equal(cJSON_GetArraySize(pairings), 3);
    const char *candidates[] = {"k", "h", "d"};
    for (int p = 0; p < 3; p++) {
        const cJSON *engines = cJSON_GetObjectItem(cJSON_GetArrayItem(pairings, p), "engines");
        assert_string_equal(
            cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(engines, 0), "name")),
            candidates[p]);
        assert_string_equal(
            cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(engines, 1), "name")),
            "base");
    }
    const cJSON *rating = cJSON_GetObjectItem(tournament, "rating");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(rating, "anchor")), "base");
    /* Each candidate's rating is its own match against the seed, from the seed's side. */
    const cJSON *engine;
    cJSON_ArrayForEach(engine, cJSON_GetObjectItem(rating, "engines")) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(engine, "name"));
        for (int p = 0; p < 3; p++)
            if (!strcmp(name, candidates[p])) {
                double match = cJSON_GetObjectItem(cJSON_GetArrayItem(pairings, p), "elo")
                                   ->valuedouble;
                double rated = cJSON_GetObjectItem(engine, "elo")->valuedouble;
                if (fabs(rated - match) > 1e-9)
                    fail_msg("%s: rated %.12f, its match %.12f", name, rated, match);
            }
    }
    cJSON_Delete(json);
}

/* Two engines as a round robin: the match's own figures. */
/* Runs `cd dir && command`, which must exit 0; returns its output (malloc'd). */
static char *output_of(const char *command) {
    char full[4096], *out;
    snprintf(full, sizeof full, "cd %s && %s", dir, command);
    if (test_run(full, &out) != 0)
        fail_msg("%s:\n%s", command, out);
    return out;
}

static void assert_holds(const char *text, const char *expected) {
    if (!strstr(text, expected))
        fail_msg("'%s' not in:\n%s", expected, text);
}

/* abtest report and the run's own page know a tournament: its rating list (as the results file
 * has it), a chart of the ratings with their intervals, each pairing as a match's row; the
 * filters take its engines and states. */
static void report__rating_chart_and_pairings(void **state) {
    (void)state;
    free(output_of(ROUND_ROBIN " -out rr_page.json -html rr_live.html"));
    char path[512];
    snprintf(path, sizeof path, "%s/rr_page.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *rated = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(json,
                                                                                     "tournament"),
                                                                 "rating"),
                                             "engines");
    const cJSON *top = cJSON_GetArrayItem(rated, 0);
    char row[256], bar[256];
    double top_elo = cJSON_GetObjectItem(top, "elo")->valuedouble;
    /* The first row of the list: rank, name and Elo (the anchor's 0 shown as +0.0), in columns
     * as wide as the widest cell ("engine"). */
    snprintf(row, sizeof row, "    1     %-6s  %+.1f",
             cJSON_GetStringValue(cJSON_GetObjectItem(top, "name")),
             fabs(top_elo) < 0.05 ? 0.0 : top_elo);
    snprintf(bar, sizeof bar, "data-label=\"%s\" data-value=\"%.2f\"",
             cJSON_GetStringValue(cJSON_GetObjectItem(top, "name")),
             cJSON_GetObjectItem(top, "elo")->valuedouble);

    char *text = output_of(ABTEST " report rr_page.json");
    assert_holds(text, "report: 0 run(s), 1 tournament(s), 0 file(s) not read");
    assert_holds(text, "rr_page.json: roundrobin of 3 engines, 3 pairings, 60 pairs, rounds");
    assert_holds(text, row);
    assert_holds(text, "a vs b");
    assert_holds(text, "b vs c");
    free(text);

    char *page = output_of(ABTEST " report rr_page.json -html rr_report.html >/dev/null && cat "
                                  "rr_report.html");
    assert_holds(page, "data-tournaments=\"1\"");
    assert_holds(page, "class=\"tournament-detail\"");
    assert_holds(page, "data-chart=\"rating\" data-points=\"3\"");
    assert_holds(page, bar);
    free(page);
    /* The run's own page (-html) draws the same section. */
    page = output_of("cat rr_live.html");
    assert_holds(page, "data-chart=\"rating\" data-points=\"3\"");
    assert_holds(page, bar);
    free(page);

    char *listed = output_of(ABTEST " report rr_page.json -json -");
    cJSON *list = cJSON_Parse(listed);
    assert_non_null(list);
    const cJSON *item = cJSON_GetArrayItem(list, 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(item, "kind")), "tournament");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(item, "pairings")), 3);
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItem(item, "rating"), 0);
    assert_true(cJSON_GetObjectItem(first, "elo")->valuedouble ==
                cJSON_GetObjectItem(top, "elo")->valuedouble);
    cJSON_Delete(list);
    free(listed);

    /* The ledger's form (-markdown): the list as a table and the intervals as a text chart. */
    char markdown_row[256];
    snprintf(markdown_row, sizeof markdown_row, "| 1 | `%s` | %+.1f |",
             cJSON_GetStringValue(cJSON_GetObjectItem(top, "name")),
             fabs(top_elo) < 0.05 ? 0.0 : top_elo);
    text = output_of(ABTEST " report rr_page.json -markdown");
    assert_holds(text, "| rank | engine | Elo | 95% | nElo | pairs | score | draws |");
    assert_holds(text, markdown_row);
    assert_holds(text, "```text\nElo, 95% intervals");
    assert_true(strstr(text, "variant vs base") == NULL); /* no empty table of runs */
    free(text);

    /* Filters: an engine of it keeps it, another name or state does not. */
    text = output_of(ABTEST " report rr_page.json -engine c");
    assert_holds(text, "1 tournament(s)");
    free(text);
    text = output_of(ABTEST " report rr_page.json -engine z");
    assert_holds(text, "report: 0 run(s), 0 file(s) not read");
    free(text);
    text = output_of(ABTEST " report rr_page.json -state decided");
    assert_holds(text, "report: 0 run(s), 0 file(s) not read");
    free(text);
    cJSON_Delete(json);
}

/* An engine of either kind: build/engine as a program in a round robin plays the games the same
 * search plays in process, in every pairing it is in and in the others. */
static void programs__same_games_as_in_process(void **state) {
    (void)state;
#define WITH_P(P)                                                                                  \
    ABTEST " -engine name=a -engine name=p" P " -engine name=c depth=3 -each nodes=1000 "        \
           "-tournament roundrobin -rounds 6 -quiet -openings file=" BOOK
    /* bench=off: its bench (the whole suite) would cost more than the games here. */
    run_named(WITH_P(" cmd=" TSLAB_BUILD_DIR "/engine bench=off"), "with_program", 2);
    run_named(WITH_P(""), "in_process", 2);
#undef WITH_P
    char path[512];
    snprintf(path, sizeof path, "%s/with_program.json", dir);
    cJSON *program = test_load_json(path);
    snprintf(path, sizeof path, "%s/in_process.json", dir);
    cJSON *in_process = test_load_json(path);
    const cJSON *a = cJSON_GetObjectItem(cJSON_GetObjectItem(program, "tournament"), "pairings");
    const cJSON *b = cJSON_GetObjectItem(cJSON_GetObjectItem(in_process, "tournament"),
                                         "pairings");
    const char *const keys[] = {"pentanomial_detail", "wdl", "plies", "end_reasons"};
    for (int p = 0; p < 3; p++)
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            char *x = json_text(cJSON_GetObjectItem(cJSON_GetArrayItem(a, p), keys[k]));
            char *y = json_text(cJSON_GetObjectItem(cJSON_GetArrayItem(b, p), keys[k]));
            if (strcmp(x, y))
                fail_msg("pairing %d, %s: %s with the program, %s in process", p + 1, keys[k],
                         x, y);
            free(x);
            free(y);
        }
    cJSON_Delete(program);
    cJSON_Delete(in_process);
}

static void two_engines__the_match_figures(void **state) {
    (void)state;
    const char *engines = ABTEST " -engine name=a -engine name=b killers=off -each nodes=300 "
                                 "-rounds 16 -quiet -openings file=" BOOK;
    char command[4096];
    snprintf(command, sizeof command, "%s -tournament roundrobin", engines);
    run_named(engines, "match", 2);
    run_named(command, "pairing", 2);
    char path[512];
    snprintf(path, sizeof path, "%s/pairing.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *tournament = cJSON_GetObjectItem(json, "tournament");
    write_pairing(cJSON_GetObjectItem(tournament, "pairings"), 0, path, sizeof path);
    char match_path[512];
    snprintf(match_path, sizeof match_path, "%s/match.json", dir);
    const char *const keys[] = {"pairs", "pentanomial", "pentanomial_detail", "wdl", "elo",
                                "elo_ci95", "nelo", "nelo_ci95", "los", "first_as_tigers"};
    test_assert_same_keys(match_path, path, keys, sizeof keys / sizeof keys[0]);
    /* The rating's second engine is the match's from the other side. */
    cJSON *match = test_load_json(match_path);
    const cJSON *second = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(tournament, "rating"), "engines"), 1);
    double elo = cJSON_GetObjectItem(match, "elo")->valuedouble;
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(second, "name")),
                        elo >= 0 ? "b" : "a");
    const cJSON *b = elo >= 0 ? second
                              : cJSON_GetArrayItem(cJSON_GetObjectItem(
                                                       cJSON_GetObjectItem(tournament, "rating"),
                                                       "engines"),
                                                   0);
    assert_true(fabs(cJSON_GetObjectItem(b, "elo")->valuedouble + elo) < 1e-9);
    const cJSON *ci = cJSON_GetObjectItem(match, "elo_ci95");
    assert_true(fabs(cJSON_GetObjectItem(b, "elo_high")->valuedouble +
                     cJSON_GetArrayItem(ci, 0)->valuedouble) < 1e-9);
    cJSON_Delete(match);
    cJSON_Delete(json);
}

static void bad_input__refused_before_any_game(void **state) {
    (void)state;
    const struct {
        const char *arguments, *message;
    } cases[] = {
        {"-engine name=a -tournament roundrobin", "two engines or more are needed; found 1"},
        {"-engine name=a -engine name=b -engine name=a -tournament roundrobin",
         "engines 1 and 3 are both named a"},
        {"-engine name=a -engine name=b -engine name=c -tournament gauntlet -seeds 3",
         "-seeds 3: a gauntlet of 3 engines takes 1 to 2 seeds"},
        {"-engine name=a -engine name=b -engine name=c -tournament gauntlet -seeds 0",
         "-seeds: '0'"},
        {"-engine name=a -engine name=b -engine name=c -tournament roundrobin -seeds 1",
         "only a gauntlet has seeds"},
        {"-engine name=a -engine name=b -engine name=c -tournament roundrobin -sprt elo0=0 "
         "elo1=5",
         "-sprt with -tournament roundrobin: an SPRT tests a candidate against one base"},
        {"-engine name=a -engine name=b -engine name=c -engine name=d -tournament gauntlet "
         "-seeds 2 -sprt elo0=0 elo1=5",
         "-sprt with -tournament gauntlet -seeds 2 or more"},
        {"-engine name=a -engine name=b -engine name=c -tournament gauntlet -family holm",
         "-family: only a gauntlet decided by SPRTs"},
        {"-engine name=a -engine name=b -family none -sprt elo0=0 elo1=5",
         "-family: only a gauntlet decided by SPRTs"},
        {"-engine name=a -engine name=b -engine name=c -tournament gauntlet -sprt elo0=0 elo1=5 "
         "-family bh",
         "-family: 'bh' is not holm, bonferroni or none"},
        {"-engine name=a -engine name=b -engine name=c", "exactly two engines are needed"},
        {"-engine name=a -engine name=b -engine name=c -tournament roundrobin -plot elo.png",
         "-plot: a tournament has no plot of one SPRT"},
        {"-engine name=a -engine name=b -engine name=c -tournament swiss",
         "'swiss' is not roundrobin or gauntlet"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char command[2048], *out;
        snprintf(command, sizeof command, "cd %s && " ABTEST " %s -each nodes=100 -rounds 2 "
                 "-openings file=" BOOK " -out refused.json", dir, cases[i].arguments);
        assert_int_equal(test_run(command, &out), 2);
        if (!strstr(out, cases[i].message) || strstr(out, "Finished game"))
            fail_msg("%s:\n%s", cases[i].arguments, out);
        free(out);
        char path[512];
        snprintf(path, sizeof path, "%s/refused.json", dir);
        assert_int_not_equal(access(path, F_OK), 0);
    }
    /* A resume of a tournament with other engines, or as another kind. */
    run_named(ROUND_ROBIN, "resumed", 1);
    const char *others[][2] = {
        {"-engine name=a -engine name=b killers=off -each nodes=300 -tournament roundrobin",
         "engines (2 vs 3)"},
        {"-engine name=a -engine name=b killers=off -engine name=c depth=3 -each nodes=300 "
         "-tournament gauntlet",
         "tournament (gauntlet -seeds 1 vs roundrobin)"},
    };
    for (size_t i = 0; i < 2; i++) {
        char command[2048], *out;
        snprintf(command, sizeof command, "cd %s && " ABTEST " -resume resumed.json %s -rounds 12",
                 dir, others[i][0]);
        assert_int_equal(test_run(command, &out), 2);
        if (!strstr(out, others[i][1]))
            fail_msg("%s:\n%s", others[i][0], out);
        free(out);
    }
    /* A gauntlet's SPRTs resumed under another family-wise control. */
    run_named(GAUNTLET_SPRT " -family none -rounds 2", "family", 1);
    {
        char command[2048], *out;
        snprintf(command, sizeof command,
                 "cd %s && " GAUNTLET_SPRT " -family bonferroni -rounds 2 -resume family.json",
                 dir);
        assert_int_equal(test_run(command, &out), 2);
        if (!strstr(out, "-family (bonferroni vs none)"))
            fail_msg("%s:\n%s", command, out);
        free(out);
    }
}

/* A tournament's file is read back as a match's is: every figure its counts give recomputed
 * (a gauntlet's decisions replayed look by look, LLRs, Elo, the rating), each engine entry of a
 * pairing bound to its engine. An edit of any is refused naming the field, never resumed. */
static void resume__derived_figures_recomputed_and_entries_bound(void **state) {
    (void)state;
    char command[2048], path[512], edited[512], *out;
    /* weak is decided H0 after 33 of its pairs, strong H1 after 51, same H0 after 141: stopped
     * after 120 pairs, one pairing is closed and two are open. */
    snprintf(command, sizeof command,
             "cd %s && " ABTEST " -engine name=base -engine name=same -engine name=weak "
             "nodes=300 -engine name=strong nodes=3000 -each nodes=1000 -tournament gauntlet "
             "-sprt elo0=0 elo1=40 -quiet -openings file=" BOOK " -out killed.json "
             "-debug-stopafter 120",
             dir);
    assert_int_equal(test_run(command, &out), 130);
    free(out);
    snprintf(path, sizeof path, "%s/killed.json", dir);
    static const TestEdit edits[] = {
        {"tournament.pairings.1.decision", "\"H1\"",
         "pairing 2: \"decision\" is H1 at 33 pairs, but its counts give LLR -4.1580, below"},
        {"tournament.pairings.0.engines.0.name", "\"base\"",
         "pairing 1: engines[0] is \"base\", but the pairing's first engine is \"same\""},
        {"tournament.pairings.2.llr", "1.5",
         "\"tournament.pairings[2].llr\" is 1.5, but its "
         "counts give"},
        {"tournament.rating.engines.0.elo", "1e308",
         "\"tournament.rating.engines[0].elo\" is 1e+308, but its counts give"},
    };
    test_assert_edits_refused(dir, "killed.json", edits, sizeof edits / sizeof edits[0]);
    snprintf(edited, sizeof edited, "%s/edited.json", dir);
    /* The same engines' entries swapped whole (each keeping its name): refused as well. */
    cJSON *json = test_load_json(path);
    cJSON *engines = cJSON_GetObjectItem(
        cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(json, "tournament"), "pairings"),
                           0),
        "engines");
    cJSON *second = cJSON_DetachItemFromArray(engines, 1);
    cJSON_InsertItemInArray(engines, 0, second);
    test_save_json(edited, json);
    cJSON_Delete(json);
    snprintf(command, sizeof command, "cd %s && " ABTEST " -resume edited.json -quiet 2>&1", dir);
    assert_int_equal(test_run(command, &out), 2);
    assert_non_null(strstr(out, "pairing 1: engines[0] is \"base\""));
    free(out);
    /* The file as written resumes, to the end. */
    snprintf(command, sizeof command, "cd %s && " ABTEST " -resume killed.json -quiet", dir);
    assert_int_equal(test_run(command, &out), 0);
    free(out);
}

/* A rating that does not fit once every pairing has its pairs says why, in the run's output,
 * its file and the report; never "not yet". */
static void rating__a_failed_fit_says_why(void **state) {
    (void)state;
    char command[2048], *out;
    snprintf(command, sizeof command,
             "cd %s && " ABTEST " -tournament roundrobin -engine name=a -engine name=b "
             "killers=off -engine name=c hint=off -engine name=d history=off -engine name=e "
             "depth=3 -engine name=f depth=1 -each nodes=1000 -rounds 1 -quiet -openings file=" BOOK
             " -out unrated.json && " ABTEST " report unrated.json",
             dir);
    assert_int_equal(test_run(command, &out), 0);
    const char *why = "engine f scored no point of its 5 pair(s): its Elo is unbounded";
    if (!strstr(out, "Rating: not fitted: engine f scored no point") ||
        !strstr(out, "Not rated: engine f scored no point") || strstr(out, "not yet"))
        fail_msg("%s", out);
    free(out);
    char path[512];
    snprintf(path, sizeof path, "%s/unrated.json", dir);
    cJSON *json = test_load_json(path);
    const cJSON *tournament = cJSON_GetObjectItem(json, "tournament");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(tournament, "rating")));
    assert_non_null(
        strstr(cJSON_GetStringValue(cJSON_GetObjectItem(tournament, "rating_failure")), why));
    cJSON_Delete(json);
}

static int group_setup(void **state) {
    (void)state;
    return test_make_dir(dir, sizeof dir, "tournament");
}

static int group_teardown(void **state) {
    (void)state;
    return test_remove_dir(dir);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pairings__round_robin_gauntlet_and_refusals),
        cmocka_unit_test(numbering__interleaves_pairings_by_round),
        cmocka_unit_test(numbering__a_closed_pairing_leaves_the_others_their_rounds),
        cmocka_unit_test(pool__each_pair_is_its_pairings_match_in_its_round),
        cmocka_unit_test(wire__carries_the_pairing_and_checks_it),
        cmocka_unit_test(settings__tournament_checked_and_recorded),
        cmocka_unit_test(round_robin__same_on_threads_after_kill_9_and_on_ranks),
        cmocka_unit_test(gauntlet_sprt__same_on_threads_after_kill_9_and_on_ranks),
        cmocka_unit_test(gauntlet_sprt__uncorrected_is_each_candidates_match),
        cmocka_unit_test(gauntlet_sprt__stronger_accepted_weaker_and_equal_not),
        cmocka_unit_test(gauntlet__candidates_first_against_the_seed),
        cmocka_unit_test(report__rating_chart_and_pairings),
        cmocka_unit_test(programs__same_games_as_in_process),
        cmocka_unit_test(two_engines__the_match_figures),
        cmocka_unit_test(bad_input__refused_before_any_game),
        cmocka_unit_test(resume__derived_figures_recomputed_and_entries_bound),
        cmocka_unit_test(rating__a_failed_fit_says_why),
    };
    return tslab_run_tests_setup("tournament", tests, sizeof tests / sizeof tests[0], argc, argv,
                                 group_setup, group_teardown);
}
