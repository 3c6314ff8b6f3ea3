// SPDX-License-Identifier: MIT
// `abtest sprt`, the SPRT calculator: its arguments parsed (and checked) apart from running it,
// so that they can be fuzzed.
#pragma once

#include "output.h"

#include "sprt.h"

typedef struct {
    SprtParams params;
    bool has_penta, has_wdl, help;
    int penta_fields; /* 5 (WL and DD summed) or 6 */
    Pentanomial penta;
    Trinomial wdl;
    double plan_draw_ratio; /* -plan; negative when not given */
    const char *json_path;
    const char *trace_path; /* -trace: cumulative pentanomials, one per line ("-": stdin) */
    int64_t batch;          /* -batch: pairs per update of the trace (0: the first line's) */
    OutputPlan outputs;     /* -json against -trace, checked when parsed */
} SprtCommand;

/* Parses the calculator's arguments: exactly one of -penta, -wdl and -trace, or -plan alone; every count
 * a whole number (no empty field); the SPRT checked. False with the reason; -help prints the
 * usage and sets cmd->help. */
bool sprt_cmd_parse(int argc, char **argv, SprtCommand *cmd, Error *err);

int abtest_sprt_main(int argc, char **argv);
