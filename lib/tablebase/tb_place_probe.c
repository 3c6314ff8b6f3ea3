// SPDX-License-Identifier: MIT
#include "tb_place_probe.h"

#include "movegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct TbPlaceProber {
    char *dir;
    const Tablebase *sliding;
    TbLayer layers[SHEEP_TOTAL + 1][2];
    bool loaded[SHEEP_TOTAL + 1][2];
    bool checked[SHEEP_TOTAL + 1][2]; /* against the layer below it */
    uint64_t checksum[SHEEP_TOTAL + 1][2];
};

TbPlaceProber *tb_place_prober_new(const char *dir, const Tablebase *sliding) {
    TbPlaceProber *p = calloc(1, sizeof *p);
    size_t length = strlen(dir) + 1;
    char *copy = malloc(length);
    if (!p || !copy) {
        free(p);
        free(copy);
        return NULL;
    }
    p->dir = memcpy(copy, dir, length);
    p->sliding = sliding;
    return p;
}

void tb_place_prober_free(TbPlaceProber *p) {
    if (!p)
        return;
    for (int h = 0; h <= SHEEP_TOTAL; h++)
        for (int side = 0; side < 2; side++)
            if (p->loaded[h][side])
                tb_layer_free(&p->layers[h][side]);
    free(p->dir);
    free(p);
}

static bool layer_file_exists(const TbPlaceProber *p, int h, Side side, char *path, size_t size) {
    tb_place_path(p->dir, h, side, path, size);
    return access(path, F_OK) == 0;
}

/* Layer (h, side), read on first use; below_checksum (0: not checked) what it was solved from.
 * When it is missing, err says to solve up to `needed` sheep in hand (the probed position's). */
static const TbLayer *prober_layer(TbPlaceProber *p, int h, Side side, uint64_t below_checksum,
                                   int needed, Error *err) {
    if (p->loaded[h][side])
        return &p->layers[h][side];
    char path[TB_PLACE_PATH_MAX];
    if (!layer_file_exists(p, h, side, path, sizeof path)) {
        char how[TB_PLACE_PATH_MAX + 64] = "";
        int win_captures = tb_header(p->sliding)->win_captures;
        if (win_captures != CAPTURES_TO_WIN) /* a test game: its directory and game */
            snprintf(how, sizeof how, " -dir %s -captures %d -tb FILE", p->dir, win_captures);
        error_set(err,
                  "the layer of %d sheep in hand, %s to move, is not solved: no %s (make the "
                  "layers this position needs with: bench tbplace -in-hand %d%s)",
                  h, TB_PLACE_SIDE_NAMES[side], path, needed, how);
        return NULL;
    }
    TbPlaceFileInfo info;
    if (!tb_place_read(path, h, side, tb_header(p->sliding)->win_captures, below_checksum,
                       &p->layers[h][side], &info, err))
        return NULL;
    p->loaded[h][side] = true;
    p->checksum[h][side] = info.checksum;
    if (p->loaded[h][1 - side] && !p->layers[h][1 - side].borrows_index)
        tb_layer_share_index(&p->layers[h][side], &p->layers[h][1 - side]);
    return &p->layers[h][side];
}

/* Layer (h, side) checked against the one it moves into (both read), and that one. */
static const TbLayer *checked_layer(TbPlaceProber *p, int h, Side side, const TbLayer **next,
                                    int needed, Error *err) {
    *next = NULL;
    uint64_t below = tb_header(p->sliding)->checksum;
    if (side == SIDE_TIGERS || h > 1) {
        int nh = side == SIDE_SHEEP ? h - 1 : h;
        Side ns = side == SIDE_SHEEP ? SIDE_TIGERS : SIDE_SHEEP;
        *next = prober_layer(p, nh, ns, 0, needed, err);
        if (!*next)
            return NULL;
        below = p->checksum[nh][ns];
    }
    if (p->checked[h][side])
        return &p->layers[h][side];
    if (p->loaded[h][side]) { /* read before as a layer below: read again, checked */
        char path[TB_PLACE_PATH_MAX];
        TbLayer again;
        tb_place_path(p->dir, h, side, path, sizeof path);
        if (!tb_place_read(path, h, side, tb_header(p->sliding)->win_captures, below, &again,
                           NULL, err))
            return NULL;
        tb_layer_free(&again);
    }
    const TbLayer *layer = prober_layer(p, h, side, below, needed, err);
    if (layer)
        p->checked[h][side] = true;
    return layer;
}

bool tb_place_prober_load(TbPlaceProber *p, int in_hand_max, int *in_hand, Error *err) {
    *in_hand = 0;
    for (int h = 1; h <= in_hand_max && h <= SHEEP_TOTAL; h++) {
        char path[TB_PLACE_PATH_MAX];
        if (!layer_file_exists(p, h, SIDE_SHEEP, path, sizeof path) ||
            !layer_file_exists(p, h, SIDE_TIGERS, path, sizeof path))
            return true;
        /* From the bottom up (sheep to move into the layer below, tigers into the sheep's), so
         * each layer is read once, checked against the one it moves into. */
        for (int side = SIDE_SHEEP; side <= SIDE_TIGERS; side++)
            if (!tb_place_prober_layer(p, h, (Side)side, err))
                return false;
        *in_hand = h;
    }
    return true;
}

const TbLayer *tb_place_prober_layer(TbPlaceProber *p, int in_hand, Side side, Error *err) {
    const TbLayer *next;
    return checked_layer(p, in_hand, side, &next, in_hand, err);
}

/* The layer of b and the one its moves lead into, and b's number in it. */
static bool locate(TbPlaceProber *p, const Board *b, const TbLayer **layer, TbPlaceNext *next,
                   int64_t *position, Error *err) {
    const TbLayer *next_layer;
    *layer = checked_layer(p, b->in_hand, (Side)b->side, &next_layer, b->in_hand, err);
    if (!*layer)
        return false;
    *position = tb_layer_position(*layer, b);
    if (*position < 0)
        return error_set(err, "not in the layer (the game is over by captures)");
    *next = (TbPlaceNext){.layer = next_layer, .sliding = p->sliding};
    return true;
}

bool tb_place_probe(TbPlaceProber *p, const Board *b, TbPlaceValue *value, TbPlaceValue after[],
                    Error *err) {
    const TbLayer *layer = NULL;
    TbPlaceNext next = {0};
    int64_t i = -1;
    if (!locate(p, b, &layer, &next, &i, err))
        return false;
    *value = tb_layer_value_at(layer, i);
    MoveList list;
    movegen_all(b, &list);
    for (int k = 0; k < list.count; k++)
        after[k] = tb_place_after(&next, layer->win_captures, b, list.moves[k]);
    return true;
}

bool tb_place_probe_move(TbPlaceProber *p, const Board *b, Move m, TbPlaceValue *value,
                         TbPlaceValue *after, Error *err) {
    const TbLayer *layer = NULL;
    TbPlaceNext next = {0};
    int64_t i = -1;
    if (!locate(p, b, &layer, &next, &i, err))
        return false;
    *value = tb_layer_value_at(layer, i);
    *after = tb_place_after(&next, layer->win_captures, b, m);
    return true;
}
