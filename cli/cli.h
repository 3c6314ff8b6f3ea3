// SPDX-License-Identifier: MIT
// Helpers shared by the command-line tools (bench, abtest): the one way to fail, and timing.
// Only main-level code calls these; lib/ reports errors and never exits.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

/* Prints "<tool>: <message>" to stderr and exits with status 2 (1 is kept for "ran, and
 * found a difference", as diff and bench check use it). */
noreturn void die(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Prints "<tool>: <message>" to stderr and returns: for errors a tool reports and survives. */
void cli_error(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Records how the program was started: die() prefixes messages with the last component of
 * argv0 ("tslab-abtest: ..."), and cli_program() returns argv0 itself, so that the commands a
 * tool echoes (resume hints, command lines) run as typed. */
void cli_init(const char *argv0);
const char *cli_program(void);
/* The last component of argv0 ("tslab-bench" when installed): for hints in messages. */
const char *cli_program_name(void);

/* The wall-clock time now in UTC, ISO 8601 ("2026-11-29T23:41:12Z"), into out. */
#define CLI_UTC_TEXT_MAX 32
char *cli_utc_now(char out[CLI_UTC_TEXT_MAX]);

/* This machine's host name, into out (size bytes; "unknown" when it cannot be read). */
char *cli_hostname(char *out, size_t size);

/* Monotonic clock in milliseconds / microseconds / seconds. */
int64_t cli_now_ms(void);
int64_t cli_now_us(void);
double cli_now_seconds(void);

/* The cores of this machine (at least 1): the default of -concurrency and -threads. */
int cli_cores(void);

/* CPU seconds this process has used so far, all threads together. */
double cli_cpu_seconds(void);

/* The longest duration cli_hms_text shows: a century. */
#define CLI_HMS_SECONDS_MAX 3.2e9

/* A duration as "1:02:03" (hours, minutes, seconds: the progress lines, the final block and the
 * reports); "?" when not finite, negative or beyond CLI_HMS_SECONDS_MAX. */
void cli_hms_text(double seconds, char *out, size_t size);
