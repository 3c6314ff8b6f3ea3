// SPDX-License-Identifier: MIT
#include "parse.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Only these characters may appear in a number: strtoll and strtod also take leading white
 * space, "inf", "nan" and hexadecimal, which no option or file field means. */
static bool only_chars(const char *text, const char *allowed) {
    return text[strspn(text, allowed)] == '\0';
}

bool parse_int64(const char *text, int64_t min, int64_t max, int64_t *out, Error *err) {
    *out = 0; /* defined on failure too: -O3's inlining otherwise warns at every caller */
    char quoted[ERROR_EXCERPT_MAX];
    if (text == NULL || *text == '\0')
        return error_set(err, "empty value, expected an integer");
    char *end;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (!only_chars(text, "+-0123456789") || *end != '\0' || end == text)
        return error_set(err, "'%s' is not an integer", error_excerpt(text, quoted));
    if (errno == ERANGE || value < min || value > max)
        return error_set(err, "%s is out of range %" PRId64 "..%" PRId64,
                         error_excerpt(text, quoted), min, max);
    *out = value;
    return true;
}

bool parse_int(const char *text, int min, int max, int *out, Error *err) {
    int64_t value;
    if (!parse_int64(text, min, max, &value, err))
        return false;
    *out = (int)value;
    return true;
}

bool parse_double(const char *text, double min, double max, double *out, Error *err) {
    char quoted[ERROR_EXCERPT_MAX];
    if (text == NULL || *text == '\0')
        return error_set(err, "empty value, expected a number");
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (!only_chars(text, "+-.0123456789eE") || *end != '\0' || end == text)
        return error_set(err, "'%s' is not a number", error_excerpt(text, quoted));
    /* strtod's ERANGE is an overflow, or an underflow to a denormal or zero: say which. */
    if (errno == ERANGE && fabs(value) <= DBL_MIN)
        return error_set(err, "%s is too close to 0 to be represented (the smallest is %g)",
                         error_excerpt(text, quoted), DBL_MIN);
    if (errno == ERANGE || !isfinite(value) || value < min || value > max)
        return error_set(err, "%s is out of range %g..%g", error_excerpt(text, quoted), min, max);
    *out = value;
    return true;
}

/* Levenshtein distance with one row; words longer than 40 characters are never close. */
static size_t edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b), row[41];
    if (la > 40 || lb > 40)
        return SIZE_MAX;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diagonal + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diagonal = up;
        }
    }
    return row[lb];
}

const char *parse_closest(const char *word, const char *const *candidates, size_t count,
                          size_t max_distance) {
    const char *best = NULL;
    size_t best_distance = max_distance + 1;
    for (size_t i = 0; i < count; i++) {
        size_t distance = edit_distance(word, candidates[i]);
        /* Under half the word's length too: 3 edits turn "-pair" into "-each", no typo. */
        if (distance < best_distance && 2 * distance < strlen(word)) {
            best = candidates[i];
            best_distance = distance;
        }
    }
    return best;
}
