// SPDX-License-Identifier: MIT
// Error reports from lib/: a fixed buffer the caller owns; lib/ never prints or exits.
#pragma once

#include <stdbool.h>

typedef struct {
    char text[512]; /* human-readable, no trailing newline; empty when no error */
} Error;

/* How much of a value an error message quotes. */
#define ERROR_EXCERPT_MAX 72

/* A value as an error message may quote it: at most 60 characters (then "..."), control and
 * non-ASCII bytes written \xHH, so a 100 KB argument or a broken byte cannot flood or garble
 * the message. Returns buffer. */
const char *error_excerpt(const char *text, char buffer[ERROR_EXCERPT_MAX]);

/* Formats a message into err (when err is not NULL) and returns false, so that a parser can
 * write `return error_set(err, "col %d: ...", col);`. */
bool error_set(Error *err, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
