// SPDX-License-Identifier: MIT
// Helpers shared by the command-line tools (bench, abtest): the one way to fail, and timing.
// Only main-level code calls these; lib/ reports errors and never exits.
#pragma once

#include <stdint.h>
#include <stdnoreturn.h>

/* Prints "<tool>: <message>" to stderr and exits with status 2 (1 is kept for "ran, and
 * found a difference", as diff and bench check use it). */
noreturn void die(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Sets the program name used by die(). */
void cli_set_program(const char *name);

/* Monotonic clock in milliseconds / seconds. */
int64_t cli_now_ms(void);
double cli_now_seconds(void);
