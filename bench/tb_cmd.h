// SPDX-License-Identifier: MIT
// `bench tbgen`, `tbprobe` and `tbverify`: the tablebase built, read and checked.
#pragma once

int bench_tbgen_main(int argc, char **argv);

int bench_tbprobe_main(int argc, char **argv);

int bench_tbverify_main(int argc, char **argv);
