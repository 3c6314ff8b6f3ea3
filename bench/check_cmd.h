// SPDX-License-Identifier: MIT
// `bench check`: a signature file re-run, position by position.
#pragma once

int bench_check_main(int argc, char **argv);
