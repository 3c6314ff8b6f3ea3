// SPDX-License-Identifier: MIT
// `bench search`: one position searched and reported in full.
#pragma once

int bench_search_main(int argc, char **argv);
