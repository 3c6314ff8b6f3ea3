// SPDX-License-Identifier: MIT
// The cache: each replacement policy as specified, bounds merging, generation clearing with the
// wrap, discarding an unfinished pass, and the exact map.
#include "tt.h"

#include "test_util.h"

/* count tags, tag i at depths[i], whose slots masked by mask are all the same. */
static void colliding_tags(const TTable *tt, size_t mask, const int *depths, uint64_t *tags,
                           int count) {
    size_t target = 0;
    int found = 0;
    for (uint64_t key = 1; found < count; key++) {
        uint64_t tag = tt_tag(key, depths[found]);
        size_t slot = tt_slot_of(tt, tag) & mask;
        if (found == 0)
            target = slot;
        if (slot == target)
            tags[found++] = tag;
    }
}

static void twotier__deepest_first_slot_and_always_second(void **state) {
    (void)state;
    TTable tt;
    assert_true(tt_init(&tt, CACHE_TABLE, 4, REPLACE_TWOTIER, NULL));
    uint64_t t[5];
    colliding_tags(&tt, ~(size_t)1, (const int[]){3, 2, 5, 1, 5}, t, 5);
    uint64_t a = t[0], b = t[1], c = t[2], d = t[3];
    assert_int_equal(tt_store(&tt, a, 0, 0, MOVE_NONE), TT_STORE_NEW);
    assert_int_equal(tt_store(&tt, b, 0, 0, MOVE_NONE), TT_STORE_NEW); /* shallower: 2nd slot */
    assert_non_null(tt_probe(&tt, a));
    assert_non_null(tt_probe(&tt, b));
    /* c is deeper than a: c takes the first slot, a moves down over b. */
    assert_int_equal(tt_store(&tt, c, 0, 0, MOVE_NONE), TT_STORE_OVERWROTE);
    assert_non_null(tt_probe(&tt, c));
    assert_non_null(tt_probe(&tt, a));
    assert_null(tt_probe(&tt, b));
    /* d is shallower than c: it replaces whatever is in the second slot. */
    assert_int_equal(tt_store(&tt, d, 0, 0, MOVE_NONE), TT_STORE_OVERWROTE);
    assert_non_null(tt_probe(&tt, c));
    assert_non_null(tt_probe(&tt, d));
    assert_null(tt_probe(&tt, a));
    /* Equal depth counts as "at least as deep": it takes the first slot. */
    uint64_t e = t[4];
    tt_store(&tt, e, 0, 0, MOVE_NONE);
    assert_int_equal(tt_slot_of(&tt, e) & ~(size_t)1, tt_slot_of(&tt, c) & ~(size_t)1);
    assert_non_null(tt_probe(&tt, e));
    assert_non_null(tt_probe(&tt, c));
    assert_null(tt_probe(&tt, d));
    tt_destroy(&tt);
}

static void always__new_entry_overwrites(void **state) {
    (void)state;
    TTable tt;
    assert_true(tt_init(&tt, CACHE_TABLE, 4, REPLACE_ALWAYS, NULL));
    uint64_t t[2];
    colliding_tags(&tt, ~(size_t)0, (const int[]){9, 1}, t, 2);
    tt_store(&tt, t[0], 1, 1, MOVE_NONE);
    assert_int_equal(tt_store(&tt, t[1], 2, 2, MOVE_NONE), TT_STORE_OVERWROTE);
    assert_null(tt_probe(&tt, t[0]));
    assert_non_null(tt_probe(&tt, t[1]));
    tt_destroy(&tt);
}

static void deepest__only_replaces_an_entry_not_deeper(void **state) {
    (void)state;
    TTable tt;
    assert_true(tt_init(&tt, CACHE_TABLE, 4, REPLACE_DEEPEST, NULL));
    uint64_t t[3];
    colliding_tags(&tt, ~(size_t)0, (const int[]){5, 4, 5}, t, 3);
    tt_store(&tt, t[0], 1, 1, MOVE_NONE);
    assert_int_equal(tt_store(&tt, t[1], 2, 2, MOVE_NONE), TT_STORE_REJECTED);
    assert_non_null(tt_probe(&tt, t[0]));
    assert_int_equal(tt_store(&tt, t[2], 3, 3, MOVE_NONE), TT_STORE_OVERWROTE);
    assert_null(tt_probe(&tt, t[0]));
    tt_destroy(&tt);
}

static void same_tag__bounds_intersect_or_new_wins_on_contradiction(void **state) {
    (void)state;
    TTable tt;
    assert_true(tt_init(&tt, CACHE_TABLE, 6, REPLACE_TWOTIER, NULL));
    uint64_t tag = tt_tag(12345, 4);
    tt_store(&tt, tag, 10, 500, move_place(3));
    assert_int_equal(tt_store(&tt, tag, -100, 200, MOVE_NONE), TT_STORE_UPDATED);
    const TTEntry *e = tt_probe(&tt, tag);
    assert_int_equal(e->lower, 10);
    assert_int_equal(e->upper, 200);
    assert_int_equal(e->move, move_place(3)); /* no new move: the old one stays */
    tt_store(&tt, tag, 300, 300, move_place(4));
    e = tt_probe(&tt, tag);
    assert_int_equal(e->lower, 300);
    assert_int_equal(e->upper, 300);
    assert_int_equal(e->move, move_place(4));
    tt_destroy(&tt);
}

static void clear__by_generation_and_real_wipe_before_a_wrap(void **state) {
    (void)state;
    TTable tt;
    assert_true(tt_init(&tt, CACHE_TABLE, 6, REPLACE_TWOTIER, NULL));
    uint64_t tag = tt_tag(777, 2);
    tt_store(&tt, tag, 1, 1, MOVE_NONE);
    tt_clear(&tt);
    assert_null(tt_probe(&tt, tag));
    assert_int_equal(tt.wipes, 0);
    /* Near the top of the counter, clearing wipes for real, so that the search that follows can
     * start a pass per depth without wrapping in the middle. */
    tt.gen_first = tt.gen_current = UINT16_MAX - TT_PASSES_MAX;
    tt_store(&tt, tag, 2, 2, MOVE_NONE);
    tt_clear(&tt);
    assert_int_equal(tt.wipes, 0);
    assert_null(tt_probe(&tt, tag));
    tt_store(&tt, tag, 2, 2, MOVE_NONE);
    tt_clear(&tt);
    assert_int_equal(tt.wipes, 1);
    assert_int_equal(tt.gen_current, 1);
    for (size_t i = 0; i < tt.slot_count; i++)
        assert_int_equal(tt.slots[i].gen, 0);
    assert_null(tt_probe(&tt, tag));
    for (int pass = 0; pass < TT_PASSES_MAX - 1; pass++)
        tt_new_pass(&tt);
    tt_store(&tt, tag, 3, 3, MOVE_NONE);
    assert_int_equal(tt_probe(&tt, tag)->lower, 3);
    assert_int_equal(tt.wipes, 1);
    tt_destroy(&tt);
}

static void discard_pass__removes_only_the_unfinished_pass(void **state) {
    (void)state;
    for (int kind = CACHE_MAP; kind <= CACHE_TABLE; kind++) {
        TTable tt;
        assert_true(tt_init(&tt, kind, 10, REPLACE_TWOTIER, NULL));
        tt_clear(&tt);
        tt_new_pass(&tt);
        for (uint64_t k = 1; k <= 50; k++)
            tt_store(&tt, tt_tag(k * 1000, 1), 1, 1, MOVE_NONE);
        tt_new_pass(&tt);
        for (uint64_t k = 1; k <= 50; k++)
            tt_store(&tt, tt_tag(k * 1000, 2), 2, 2, MOVE_NONE);
        tt_discard_pass(&tt);
        int first = 0, second = 0;
        for (uint64_t k = 1; k <= 50; k++) {
            first += tt_probe(&tt, tt_tag(k * 1000, 1)) != NULL;
            second += tt_probe(&tt, tt_tag(k * 1000, 2)) != NULL;
        }
        assert_int_equal(second, 0);
        if (kind == CACHE_MAP)
            assert_int_equal(first, 50); /* the map never loses an entry */
        else
            assert_true(first > 30); /* the table may have lost some to collisions */
        tt_destroy(&tt);
    }
}

static void map__keeps_every_entry_while_growing(void **state) {
    (void)state;
    TTable tt;
    assert_true(tt_init(&tt, CACHE_MAP, 0, 0, NULL));
    for (uint64_t k = 1; k <= 50000; k++)
        assert_int_not_equal(tt_store(&tt, tt_tag(k, 3), (int)(k % 100), 100, MOVE_NONE),
                             TT_STORE_REJECTED);
    for (uint64_t k = 1; k <= 50000; k++) {
        const TTEntry *e = tt_probe(&tt, tt_tag(k, 3));
        assert_non_null(e);
        assert_int_equal(e->lower, (int)(k % 100));
        assert_null(tt_probe(&tt, tt_tag(k, 4)));
    }
    assert_true(tt.slot_count >= 100000);
    tt_destroy(&tt);
}

static void tiny__eight_slots(void **state) {
    (void)state;
    TTable tt;
    assert_true(tt_init(&tt, CACHE_TINY, 20, REPLACE_ALWAYS, NULL));
    assert_int_equal(tt.slot_count, 8);
    tt_destroy(&tt);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(twotier__deepest_first_slot_and_always_second),
        cmocka_unit_test(always__new_entry_overwrites),
        cmocka_unit_test(deepest__only_replaces_an_entry_not_deeper),
        cmocka_unit_test(same_tag__bounds_intersect_or_new_wins_on_contradiction),
        cmocka_unit_test(clear__by_generation_and_real_wipe_before_a_wrap),
        cmocka_unit_test(discard_pass__removes_only_the_unfinished_pass),
        cmocka_unit_test(map__keeps_every_entry_while_growing),
        cmocka_unit_test(tiny__eight_slots),
    };
    return RUN_TESTS("tt", tests);
}
