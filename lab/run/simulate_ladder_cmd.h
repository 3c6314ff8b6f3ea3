// SPDX-License-Identifier: MIT
// `abtest simulate -ladder`: virtual ladders of known Elos, the slope's interval checked.
#pragma once

/* The command (argv as abtest simulate gets it, -ladder among them). */
int abtest_simulate_ladder_main(int argc, char **argv);
