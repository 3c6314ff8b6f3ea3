// SPDX-License-Identifier: MIT
// The subcommands of build/bench; each takes the arguments after its name.
#pragma once

int bench_perft_main(int argc, char **argv);
