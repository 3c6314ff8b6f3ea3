// SPDX-License-Identifier: MIT
// `bench tbaccuracy`: a search's moves against perfect play, layer by layer (docs/tablebase.md).
#pragma once

int bench_tbaccuracy_main(int argc, char **argv);
