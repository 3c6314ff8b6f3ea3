// SPDX-License-Identifier: MIT
// A run of more than two engines: its pairings (round robin, gauntlet with seeds, and what does
// not make one), the interleaved numbering of pairs, and the pool playing them: every pair is
// the match its two engines would play in that round, whatever the number of threads, and a
// pair sent between ranks carries its pairing and is checked against it.
#include "pair_pool.h"
#include "pair_wire.h"
#include "settings_json.h"

#include "test_util.h"

#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"

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
    assert_int_equal(tournament_pairing_of(3, 0), 0);
    assert_int_equal(tournament_pairing_of(3, 4), 1);
    assert_int_equal(tournament_round_of(3, 4), 1);
    assert_int_equal(tournament_round_of(3, 8), 2);
    assert_int_equal(tournament_pairing_of(1, 8), 0); /* a match: the pair is its round */
    assert_int_equal(tournament_round_of(1, 8), 8);
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
    PairJob job = {&r->settings, &r->book, &r->order, NULL, threads};
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pairings__round_robin_gauntlet_and_refusals),
        cmocka_unit_test(numbering__interleaves_pairings_by_round),
        cmocka_unit_test(pool__each_pair_is_its_pairings_match_in_its_round),
        cmocka_unit_test(wire__carries_the_pairing_and_checks_it),
        cmocka_unit_test(settings__tournament_checked_and_recorded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
