// SPDX-License-Identifier: MIT
// `bench tbplace`: the placement phase solved layer by layer, resumable; and its checks and
// probes for `bench tbverify -placement` and `bench tbprobe` (docs/tablebase.md).
#pragma once

#include "board.h"
#include "tablebase.h"
#include "tb_place_file.h"

int bench_tbplace_main(int argc, char **argv);

/* `bench tbverify -placement`: every position of the layers up to in_hand checked against its
 * successors. Returns the exit status. */
int bench_tbplace_verify(const char *dir, const Tablebase *sliding, int in_hand, int threads);

/* The layers a probe reads, loaded on first use from dir and kept (each checked against the one
 * below it). */
typedef struct TbPlaceProber TbPlaceProber;
TbPlaceProber *tb_place_prober_new(const char *dir, const Tablebase *sliding);
void tb_place_prober_free(TbPlaceProber *prober);

/* Layer (in_hand, side), read on first use and checked against the layer below it (read too);
 * NULL with err saying which layer is missing and how to make it. */
const TbLayer *tb_place_prober_layer(TbPlaceProber *prober, int in_hand, Side side, Error *err);

/* The win/draw/loss of b (sheep in hand) for its side to move and, per move of movegen_all's
 * list, what it leaves the opponent; false with err saying which layer is missing and how to
 * make it. */
bool tb_place_probe(TbPlaceProber *prober, const Board *b, TbPlaceValue *value,
                    TbPlaceValue after[], Error *err);
