// SPDX-License-Identifier: MIT
#include "symmetry.h"

Board sym_board(Symmetry s, const Board *b) {
    Board image = *b;
    image.tigers = sym_mask(s, b->tigers);
    image.sheep = sym_mask(s, b->sheep);
    return image;
}

Move sym_move(Symmetry s, Move m) {
    if (m == MOVE_NONE)
        return m;
    int to = sym_point(s, move_to(m));
    if (move_is_place(m))
        return move_place(to);
    int from = sym_point(s, move_from(m));
    return move_is_jump(m) ? move_jump(from, to) : move_step(from, to);
}

Board sym_canonical(const Board *b, Symmetry *sym) {
    Board best = *b;
    uint64_t best_key = board_key(b);
    Symmetry best_sym = 0;
    for (Symmetry s = 1; s < SYMMETRIES; s++) {
        Board image = sym_board(s, b);
        uint64_t key = board_key(&image);
        if (key < best_key) {
            best = image;
            best_key = key;
            best_sym = s;
        }
    }
    if (sym)
        *sym = best_sym;
    return best;
}

const char *sym_name(Symmetry s) {
    static const char *const names[SYMMETRIES] = {
        "identity",     "rotate 90",    "rotate 180", "rotate 270",
        "mirror files", "mirror ranks", "transpose",  "anti-transpose",
    };
    return s < SYMMETRIES ? names[s] : "?";
}
