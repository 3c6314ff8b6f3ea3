// SPDX-License-Identifier: MIT
// Probing the placement phase: the layers of a directory read on first use, each checked against
// the layer it was solved from, and the sliding file below them. For many threads at once, load
// the layers first (tb_place_prober_load): after it, probes of loaded layers only read.
#pragma once

#include "tb_place_file.h"

typedef struct TbPlaceProber TbPlaceProber;

/* A prober of the layers under dir (the caller's path, kept) over the sliding file (not owned);
 * NULL when memory runs out. Nothing is read yet. */
TbPlaceProber *tb_place_prober_new(const char *dir, const Tablebase *sliding);
void tb_place_prober_free(TbPlaceProber *prober);

/* Reads and checks every layer from 1 sheep in hand up while both of its files are there, up to
 * in_hand_max; *in_hand is how far that went (0: none solved). False with err when a file that is
 * there is refused (another game, damaged, solved from other files). */
bool tb_place_prober_load(TbPlaceProber *prober, int in_hand_max, int *in_hand, Error *err);

/* Layer (in_hand, side), read on first use and checked against the layer below it (read too);
 * NULL with err saying which layer is missing and how to make it. */
const TbLayer *tb_place_prober_layer(TbPlaceProber *prober, int in_hand, Side side, Error *err);

/* The win/draw/loss of b (sheep in hand) for its side to move and, per move of movegen_all's
 * list, what it leaves the opponent; false with err saying which layer is missing and how to
 * make it. */
bool tb_place_probe(TbPlaceProber *prober, const Board *b, TbPlaceValue *value,
                    TbPlaceValue after[], Error *err);

/* The same for one move m of b: the value of b and what m leaves the opponent. */
bool tb_place_probe_move(TbPlaceProber *prober, const Board *b, Move m, TbPlaceValue *value,
                         TbPlaceValue *after, Error *err);
