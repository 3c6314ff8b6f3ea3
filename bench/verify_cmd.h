// SPDX-License-Identifier: MIT
// `bench verify`: the exactness matrix against plain minimax.
#pragma once

int bench_verify_main(int argc, char **argv);
