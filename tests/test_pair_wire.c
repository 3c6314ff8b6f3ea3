// SPDX-License-Identifier: MIT
// Pairs sent between ranks: a played pair survives encoding exactly; every truncation, a wrong
// magic and out-of-range fields are refused by the decoder; a pair that decodes but is not what
// the run would play (another opening, a changed move, a forged result or move count) is
// refused by the verifier.
#include "pair_wire.h"
#include "config.h"

#include "test_util.h"

#define BOOK TSLAB_SOURCE_DIR "/tests/data/book_small.txt"

typedef struct {
    Book book;
    Schedule schedule;
    EngineSpec engines[MATCH_ENGINES];
    MatchSettings settings;
    PairSetup setup;
    PairRecord pair;
} Fixture;

static int setup(void **state) {
    Fixture *f = calloc(1, sizeof *f);
    Error err;
    if (!book_load(&f->book, BOOK, true, &err))
        fail_msg("%s", err.text);
    f->settings.start = 1;
    f->settings.order = ORDER_RANDOM;
    f->settings.seed = 7;
    if (!schedule_init(&f->schedule, &f->book, &f->settings))
        fail_msg("out of memory");
    for (int e = 0; e < MATCH_ENGINES; e++) {
        snprintf(f->engines[e].name, sizeof f->engines[e].name, "e%d", e);
        f->engines[e].config = config_default();
        f->engines[e].config.depth = 3;
    }
    f->engines[1].config.killers = false;
    f->setup = (PairSetup){
        .pairings = {1, {{0, 1}}},
        .segment = tournament_segment_all(1),
        .max_plies = 300,
        .random_plies = 2,
        .seed = 7};
    MatchWorker worker;
    if (!match_worker_init(&worker, f->engines, MATCH_ENGINES, NULL, &err))
        fail_msg("%s", err.text);
    atomic_bool abort_flag;
    atomic_init(&abort_flag, false);
    int64_t index = 5;
    int opening = schedule_opening(&f->schedule, index);
    if (!match_play_pair(&worker, &f->setup, index, &f->book.entries[opening], opening,
                         &abort_flag, &f->pair, &err))
        fail_msg("%s", err.text);
    match_worker_destroy(&worker);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    Fixture *f = *state;
    match_pair_destroy(&f->pair);
    schedule_destroy(&f->schedule);
    book_destroy(&f->book);
    free(f);
    return 0;
}

static void assert_same_pair(const PairRecord *a, const PairRecord *b) {
    assert_int_equal(a->index, b->index);
    assert_int_equal(a->opening, b->opening);
    for (int g = 0; g < 2; g++) {
        const GameRecord *x = &a->games[g], *y = &b->games[g];
        assert_true(board_equal(&x->start, &y->start));
        assert_int_equal(x->tigers_engine, y->tigers_engine);
        assert_int_equal(x->end, y->end);
        assert_int_equal(x->result, y->result);
        assert_int_equal(x->plies, y->plies);
        assert_memory_equal(x->moves, y->moves, sizeof *x->moves * (size_t)x->plies);
        assert_memory_equal(x->engine, y->engine, sizeof x->engine);
    }
}

static void round_trip__exact_and_verified(void **state) {
    Fixture *f = *state;
    WireBuffer buffer = {0};
    /* Two pairs back to back, as a batch of results travels. */
    assert_true(pair_wire_encode(&f->pair, &buffer));
    size_t one = buffer.used;
    assert_true(pair_wire_encode(&f->pair, &buffer));
    size_t at = 0;
    for (int k = 0; k < 2; k++) {
        PairRecord decoded;
        size_t used;
        Error err;
        assert_true(pair_wire_decode(buffer.data + at, buffer.used - at, 300, &decoded, &used,
                                     &err));
        assert_int_equal(used, one);
        assert_same_pair(&f->pair, &decoded);
        if (!pair_wire_verify(&decoded, &f->setup, &f->book, &f->schedule, &err))
            fail_msg("%s", err.text);
        match_pair_destroy(&decoded);
        at += used;
    }
    wire_buffer_destroy(&buffer);
}

static void decode__refuses_truncation_and_bad_fields(void **state) {
    Fixture *f = *state;
    WireBuffer buffer = {0};
    assert_true(pair_wire_encode(&f->pair, &buffer));
    PairRecord decoded;
    size_t used;
    Error err;
    for (size_t size = 0; size < buffer.used; size++)
        assert_false(pair_wire_decode(buffer.data, size, 300, &decoded, &used, &err));
    buffer.data[0] ^= 1; /* magic */
    assert_false(pair_wire_decode(buffer.data, buffer.used, 300, &decoded, &used, &err));
    assert_non_null(strstr(err.text, "not a pair message"));
    buffer.data[0] ^= 1;
    /* Game 1's plies above the limit the run allows. */
    assert_false(pair_wire_decode(buffer.data, buffer.used, f->pair.games[0].plies - 1, &decoded,
                                  &used, &err));
    assert_non_null(strstr(err.text, "more than"));
    /* Game 1's end reason out of range: after the magic, number, pairing and opening (18 bytes)
     * and the game's start position (11) and tigers engine (1). */
    size_t end_at = 18 + 11 + 1;
    uint8_t saved = buffer.data[end_at];
    buffer.data[end_at] = 99;
    assert_false(pair_wire_decode(buffer.data, buffer.used, 300, &decoded, &used, &err));
    assert_non_null(strstr(err.text, "end reason"));
    buffer.data[end_at] = saved;
    /* A pairing beyond any tournament's (bytes 12-13). */
    buffer.data[12] = 0xff;
    buffer.data[13] = 0xff;
    assert_false(pair_wire_decode(buffer.data, buffer.used, 300, &decoded, &used, &err));
    assert_non_null(strstr(err.text, "pairing"));
    wire_buffer_destroy(&buffer);
}

/* Decodes a copy of the fixture's pair after edit() and returns the verifier's verdict. */
static bool verify_edited(Fixture *f, void (*edit)(PairRecord *), Error *err) {
    WireBuffer buffer = {0};
    assert_true(pair_wire_encode(&f->pair, &buffer));
    PairRecord copy;
    size_t used;
    assert_true(pair_wire_decode(buffer.data, buffer.used, 300, &copy, &used, err));
    edit(&copy);
    bool ok = pair_wire_verify(&copy, &f->setup, &f->book, &f->schedule, err);
    match_pair_destroy(&copy);
    wire_buffer_destroy(&buffer);
    return ok;
}

static void other_number(PairRecord *p) { p->index += 1; }
static void changed_move(PairRecord *p) { p->games[1].moves[0] ^= 0x21; }
static void forged_result(PairRecord *p) {
    p->games[0].result = p->games[0].result == RESULT_DRAW ? RESULT_SHEEP_WIN : RESULT_DRAW;
}
static void forged_count(PairRecord *p) { p->games[0].engine[0].moves += 1; }
static void swapped_sides(PairRecord *p) { p->games[0].tigers_engine = 1; }

static void verify__refuses_what_the_run_would_not_play(void **state) {
    Fixture *f = *state;
    Error err;
    assert_false(verify_edited(f, other_number, &err));
    assert_false(verify_edited(f, changed_move, &err));
    assert_false(verify_edited(f, forged_result, &err));
    assert_non_null(strstr(err.text, "the record says"));
    assert_false(verify_edited(f, forged_count, &err));
    assert_non_null(strstr(err.text, "moves"));
    assert_false(verify_edited(f, swapped_sides, &err));
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(round_trip__exact_and_verified, setup, teardown),
        cmocka_unit_test_setup_teardown(decode__refuses_truncation_and_bad_fields, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(verify__refuses_what_the_run_would_not_play, setup,
                                        teardown),
    };
    return RUN_TESTS("pair_wire", tests);
}
