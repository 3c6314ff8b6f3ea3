// SPDX-License-Identifier: MIT
// Move ordering: killers (newest in front, no duplicates) and the order hint, jumps, killers,
// rest, by moving chosen moves to the front.
#include "ordering.h"

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
    order_moves(&list, hint, true, &k, NULL, 0, 5);
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
    order_moves(&again, move_place(12), true, NULL, NULL, 0, 5);
    for (int i = 0; i < original.count; i++)
        assert_int_equal(again.moves[i], original.moves[i]);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(killers__newest_in_front_without_duplicates),
        cmocka_unit_test(order__hint_then_jumps_then_killers_then_the_rest),
    };
    return RUN_TESTS("ordering", tests);
}
