// SPDX-License-Identifier: MIT
// `abtest sprt`, the SPRT calculator.
#pragma once

int abtest_sprt_main(int argc, char **argv);
