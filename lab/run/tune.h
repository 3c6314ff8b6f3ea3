// SPDX-License-Identifier: MIT
// `abtest tune`: SPSA over search options (lab/stats/spsa.h for the arithmetic). Each iteration
// plays the configuration at theta + c_k * delta against theta - c_k * delta over a number of
// pairs from the book, then moves theta; the tuning file records every finished iteration, so a
// run resumes exactly. docs/tuning.md.
#pragma once

/* argv after "tune". Returns the exit status. */
int abtest_tune_main(int argc, char **argv);
