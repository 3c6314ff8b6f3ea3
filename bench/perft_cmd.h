// SPDX-License-Identifier: MIT
// `bench perft`: counts move paths (the move generator check).
#pragma once

int bench_perft_main(int argc, char **argv);
