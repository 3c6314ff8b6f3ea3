// SPDX-License-Identifier: MIT
// `abtest simulate -tournament gauntlet|roundrobin`: virtual families of engines.
#pragma once

/* The command (argv as abtest simulate gets it, -tournament among them). */
int abtest_simulate_tournament_main(int argc, char **argv);
