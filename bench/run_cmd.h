// SPDX-License-Identifier: MIT
// `bench` (the suite) and `bench pin` (the signature file).
#pragma once

#include "bench_args.h"

int bench_run_main(int argc, char **argv);

int bench_pin_main(int argc, char **argv);
