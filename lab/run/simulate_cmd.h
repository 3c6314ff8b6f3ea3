// SPDX-License-Identifier: MIT
// `abtest simulate`: virtual SPRTs through abtest's own statistics (simulate.h).
#pragma once

int abtest_simulate_main(int argc, char **argv);
