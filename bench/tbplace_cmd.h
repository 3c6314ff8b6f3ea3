// SPDX-License-Identifier: MIT
// `bench tbplace`: the placement phase solved layer by layer, resumable; and its checks and
// probes for `bench tbverify -placement` and `bench tbprobe` (docs/tablebase.md).
#pragma once

#include "board.h"
#include "output.h"
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

/* The directory of the layers into out: given, or TB_PLACE_DIR under the data root (dies
 * naming command when there is none). */
void bench_layer_dir(const char *given, char *out, size_t size, const char *command);

/* The plan of a command that reads the tablebase: its -json (NULL: none) against the positions
 * file (NULL: none), the sliding file tb_path and the placement layers of dir (all kept by the
 * caller while the plan is used), checked before anything is read; dies naming command and
 * what is wrong. */
void bench_plan_tb_command(OutputPlan *plan, const char *json, const char *positions,
                           const char *tb_path, const char *dir, const char *command);
