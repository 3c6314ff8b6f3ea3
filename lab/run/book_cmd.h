// SPDX-License-Identifier: MIT
// `abtest book`: the opening-book generator.
#pragma once

int abtest_book_main(int argc, char **argv);
