// SPDX-License-Identifier: MIT
// The default bench suite and its signature as the program was built with them (tools/embed.sh
// compiles bench/positions.txt and bench/signature.json in): `bench` and the engine's `bench`
// run from any directory, as fishtest's and OpenBench's workers run a bare binary. Files on disk
// still come first (bench_load_suite).
#pragma once

#include <stddef.h>

extern const char BENCH_EMBEDDED_POSITIONS[];
extern const size_t BENCH_EMBEDDED_POSITIONS_SIZE;
extern const char BENCH_EMBEDDED_SIGNATURE[];
extern const size_t BENCH_EMBEDDED_SIGNATURE_SIZE;
