// SPDX-License-Identifier: MIT
// `bench tbplace`: the placement phase solved layer by layer, resumable; and its checks and
// probes for `bench tbverify -placement` and `bench tbprobe` (docs/tablebase.md).
#pragma once

#include "board.h"
#include "tablebase.h"
#include "tb_place_probe.h"

int bench_tbplace_main(int argc, char **argv);

/* `bench tbverify -placement`: every position of the layers from..in_hand checked against its
 * successors (the layers below from read and checked as files only: a verification stopped
 * part way goes on). Returns the exit status. */
int bench_tbplace_verify(const char *dir, const Tablebase *sliding, int from, int in_hand,
                         int threads);

/* A prober of the layers under given_dir (NULL: the default directory under the data root). */
TbPlaceProber *bench_place_prober(const char *given_dir, const Tablebase *sliding,
                                  const char *command);
