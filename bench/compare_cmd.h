// SPDX-License-Identifier: MIT
// `bench compare`: two configurations side by side, per position, with interleaved timing.
#pragma once

int bench_compare_main(int argc, char **argv);
