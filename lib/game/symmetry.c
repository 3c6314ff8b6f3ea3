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
    /* The side to move and the sheep in hand are the same in every image, so the smallest key
     * (board_key: sheep above tigers) is the smallest sheep mask, then the smallest tiger mask.
     * An image's tigers are mapped only when its sheep tie with the best so far; building whole
     * boards and keys for all eight images cost the search 10% of its instructions. */
    uint32_t best_sheep = b->sheep, best_tigers = b->tigers;
    Symmetry best_sym = 0;
    for (Symmetry s = 1; s < SYMMETRIES; s++) {
        uint32_t sheep = sym_mask(s, b->sheep);
        if (sheep > best_sheep)
            continue;
        uint32_t tigers = sym_mask(s, b->tigers);
        if (sheep < best_sheep || tigers < best_tigers) {
            best_sheep = sheep;
            best_tigers = tigers;
            best_sym = s;
        }
    }
    if (sym)
        *sym = best_sym;
    Board best = *b;
    best.sheep = best_sheep;
    best.tigers = best_tigers;
    return best;
}

void sym_keys_init(SymKeys *keys, const Board *b) {
    for (Symmetry s = 0; s < SYMMETRIES; s++) {
        uint64_t image = (uint64_t)sym_mask(s, b->sheep) << 25 | sym_mask(s, b->tigers);
        keys->image[s] = (int64_t)(image << SYM_KEY_INDEX_BITS | s);
    }
    keys->least = sym_keys_least(keys);
}

const char *sym_name(Symmetry s) {
    static const char *const names[SYMMETRIES] = {
        "identity",     "rotate 90",    "rotate 180", "rotate 270",
        "mirror files", "mirror ranks", "transpose",  "anti-transpose",
    };
    return s < SYMMETRIES ? names[s] : "?";
}
