// SPDX-License-Identifier: MIT
// Move ordering: killers (newest in front, no duplicates) and the order hint, jumps, killers,
// rest, by moving chosen moves to the front.
#include "ordering.h"
#include "rng.h"

#include "test_util.h"

static void killers__newest_in_front_without_duplicates(void **state) {
    (void)state;
    Killers k;
    killers_clear(&k);
    Move a = move_step(0, 1), b = move_step(5, 6), c = move_place(12);
    killers_add(&k, 3, a);
    killers_add(&k, 3, b);
    assert_int_equal(k.moves[3][0], b);
    assert_int_equal(k.moves[3][1], a);
    killers_add(&k, 3, b); /* already in front: nothing moves */
    assert_int_equal(k.moves[3][0], b);
    assert_int_equal(k.moves[3][1], a);
    killers_add(&k, 3, a); /* the second comes to the front, no copy left behind */
    assert_int_equal(k.moves[3][0], a);
    assert_int_equal(k.moves[3][1], b);
    killers_add(&k, 3, c); /* the oldest drops out */
    assert_int_equal(k.moves[3][0], c);
    assert_int_equal(k.moves[3][1], a);
    assert_int_equal(k.moves[4][0], MOVE_NONE); /* per remaining depth */
}

static void order__hint_then_jumps_then_killers_then_the_rest(void **state) {
    (void)state;
    /* Tigers to move with one jump (a1xa3 over a2) and several steps. */
    Board b = parse_board("T3T/5/5/S4/T3T t 19 0");
    MoveList list;
    movegen_all(&b, &list);
    MoveList original = list;
    assert_true(move_is_jump(list.moves[0]));
    Move hint = list.moves[list.count - 1], killer = list.moves[3];
    Killers k;
    killers_clear(&k);
    killers_add(&k, 5, killer);
    assert_int_equal(order_moves(&list, hint, true, &k, 5), 3);
    assert_int_equal(list.count, original.count);
    assert_int_equal(list.moves[0], hint);
    assert_int_equal(list.moves[1], original.moves[0]); /* the jump */
    assert_int_equal(list.moves[2], killer);
    /* The rest keep their generated order. */
    int next = 3;
    for (int i = 1; i < original.count; i++) {
        Move m = original.moves[i];
        if (m == hint || m == killer)
            continue;
        assert_int_equal(list.moves[next++], m);
    }
    /* A hint that is not in the list (illegal here) is ignored. */
    MoveList again = original;
    assert_int_equal(order_moves(&again, move_place(12), true, NULL, 5), 1);
    for (int i = 0; i < original.count; i++)
        assert_int_equal(again.moves[i], original.moves[i]);
}

/* The reference: for each place from `from`, the earliest remaining move of the highest score
 * (a stable sort, highest first), found the slow way. */
static void reference_history_order(const MoveList *in, int from, const History *h, int side,
                                    MoveList *out) {
    *out = *in;
    bool used[MOVES_MAX] = {false};
    for (int place = from; place < in->count; place++) {
        int best = -1;
        for (int j = from; j < in->count; j++)
            if (!used[j] && (best < 0 || history_score(h, side, in->moves[j]) >
                                             history_score(h, side, in->moves[best])))
                best = j;
        used[best] = true;
        out->moves[place] = in->moves[best];
    }
}

/* Whether the list is ordered at once (history_sort) or as the loop reaches each move
 * (order_next), the order is the stable sort's, over random histories with many ties. */
static void history__lazy_and_full_orders_equal_a_stable_sort(void **state) {
    (void)state;
    const char *positions[] = {"T3T/5/5/5/T3T s 20 0", "T3T/5/5/S4/T3T t 19 0",
                               "T3T/1S3/2S2/5/T3T s 18 0", "TSSST/SSSSS/SSTSS/SSSSS/1SSST s 0 0"};
    Rng rng = rng_seeded(11);
    for (size_t p = 0; p < sizeof positions / sizeof *positions; p++) {
        Board b = parse_board(positions[p]);
        MoveList generated;
        movegen_all(&b, &generated);
        for (int trial = 0; trial < 200; trial++) {
            History h;
            history_clear(&h);
            for (int k = 0; k < 40; k++) /* few distinct values: ties are common */
                history_update(&h, b.side, generated.moves[rng_below(&rng, (uint64_t)generated.count)],
                               (int)rng_below(&rng, 5) * 50 - 100);
            int from = (int)rng_below(&rng, (uint64_t)generated.count);
            MoveList expected, full = generated, lazy = generated;
            reference_history_order(&generated, from, &h, b.side, &expected);
            history_sort(&full, from, &h, b.side);
            HistoryOrder order;
            history_order_begin(&order, &lazy, from, &h, b.side, from % 2 == 0);
            for (int i = 0; i < lazy.count; i++) {
                assert_int_equal(order_next(&lazy, &order, i), expected.moves[i]);
                assert_int_equal(full.moves[i], expected.moves[i]);
            }
        }
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(killers__newest_in_front_without_duplicates),
        cmocka_unit_test(order__hint_then_jumps_then_killers_then_the_rest),
        cmocka_unit_test(history__lazy_and_full_orders_equal_a_stable_sort),
    };
    return RUN_TESTS("ordering", tests);
}
