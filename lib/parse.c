// SPDX-License-Identifier: MIT
#include "parse.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

bool parse_int64(const char *text, int64_t min, int64_t max, int64_t *out, Error *err) {
    if (text == NULL || *text == '\0')
        return error_set(err, "empty value, expected an integer");
    char *end;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (*end != '\0' || end == text || *text == ' ')
        return error_set(err, "'%s' is not an integer", text);
    if (errno == ERANGE || value < min || value > max)
        return error_set(err, "%s is out of range %" PRId64 "..%" PRId64, text, min, max);
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
    if (text == NULL || *text == '\0')
        return error_set(err, "empty value, expected a number");
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (*end != '\0' || end == text || *text == ' ')
        return error_set(err, "'%s' is not a number", text);
    if (errno == ERANGE || !isfinite(value) || value < min || value > max)
        return error_set(err, "%s is out of range %g..%g", text, min, max);
    *out = value;
    return true;
}
