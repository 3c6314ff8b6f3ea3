// SPDX-License-Identifier: MIT
#include "spsa.h"

#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SPSA_FIELDS 7
#define SPSA_FIELD_MAX 64

SpsaSchedule spsa_schedule_default(int64_t iterations) {
    return (SpsaSchedule){iterations, SPSA_DEFAULT_ALPHA, SPSA_DEFAULT_GAMMA, SPSA_DEFAULT_A_RATIO};
}

bool spsa_schedule_check(const SpsaSchedule *schedule, Error *err) {
    if (schedule->iterations < 1)
        return error_set(err, "iterations: %lld is not a positive count",
                         (long long)schedule->iterations);
    if (!(schedule->alpha > 0 && schedule->alpha <= 1))
        return error_set(err, "alpha: %g is not in (0, 1]", schedule->alpha);
    if (!(schedule->gamma > 0 && schedule->gamma <= 1))
        return error_set(err, "gamma: %g is not in (0, 1]", schedule->gamma);
    if (!(schedule->a_ratio >= 0 && isfinite(schedule->a_ratio)))
        return error_set(err, "A ratio: %g is not a finite number >= 0", schedule->a_ratio);
    return true;
}

/* Copies field i of line (comma-separated, spaces around it trimmed) into out. */
static bool split_fields(const char *line, char fields[SPSA_FIELDS][SPSA_FIELD_MAX], Error *err) {
    int count = 0;
    const char *start = line;
    for (;;) {
        const char *end = strchr(start, ',');
        size_t length = end ? (size_t)(end - start) : strlen(start);
        while (length > 0 && (*start == ' ' || *start == '\t')) {
            start++;
            length--;
        }
        while (length > 0 && strchr(" \t\r\n", start[length - 1]))
            length--;
        if (count == SPSA_FIELDS)
            return error_set(err,
                             "more than %d fields (expected NAME, int|float, START, MIN, "
                             "MAX, C_END, R_END)",
                             SPSA_FIELDS);
        if (length >= SPSA_FIELD_MAX)
            return error_set(err, "field %d is longer than %d characters", count + 1,
                             SPSA_FIELD_MAX - 1);
        memcpy(fields[count], start, length);
        fields[count][length] = '\0';
        count++;
        if (!end)
            break;
        start = end + 1;
    }
    if (count != SPSA_FIELDS)
        return error_set(err,
                         "%d field(s), expected %d: NAME, int|float, START, MIN, MAX, "
                         "C_END, R_END",
                         count, SPSA_FIELDS);
    return true;
}

static bool parse_number(const char *field, const char *what, double *out, Error *err) {
    Error inner = {{0}};
    if (!parse_double(field, -1e300, 1e300, out, &inner))
        return error_set(err, "%s: %s", what, inner.text);
    return true;
}

bool spsa_parse_line(const char *line, SpsaParam *out, Error *err) {
    memset(out, 0, sizeof *out);
    char fields[SPSA_FIELDS][SPSA_FIELD_MAX];
    if (!split_fields(line, fields, err))
        return false;
    if (fields[0][0] == '\0')
        return error_set(err, "NAME is empty");
    size_t name_length = strlen(fields[0]);
    if (name_length >= SPSA_NAME_MAX)
        return error_set(err, "NAME '%s' is longer than %d characters", fields[0],
                         SPSA_NAME_MAX - 1);
    memcpy(out->name, fields[0], name_length + 1);
    if (strcmp(fields[1], "int") == 0)
        out->type = SPSA_INT;
    else if (strcmp(fields[1], "float") == 0)
        out->type = SPSA_FLOAT;
    else
        return error_set(err, "%s: type '%s' is not int or float", out->name, fields[1]);
    const char *names[] = {"START", "MIN", "MAX", "C_END", "R_END"};
    double *values[] = {&out->start, &out->min, &out->max, &out->c_end, &out->r_end};
    for (int i = 0; i < 5; i++) {
        char what[SPSA_NAME_MAX + 16];
        snprintf(what, sizeof what, "%s: %s", out->name, names[i]);
        if (!parse_number(fields[2 + i], what, values[i], err))
            return false;
        if (out->type == SPSA_INT && i < 3 && *values[i] != floor(*values[i]))
            return error_set(err, "%s: %s %s is not an integer (type int)", out->name, names[i],
                             fields[2 + i]);
    }
    if (!(out->min < out->max))
        return error_set(err, "%s: MIN %g is not below MAX %g", out->name, out->min, out->max);
    if (out->start < out->min || out->start > out->max)
        return error_set(err, "%s: START %g is outside [MIN, MAX] = [%g, %g]", out->name,
                         out->start, out->min, out->max);
    if (!(out->c_end > 0))
        return error_set(err, "%s: C_END %g is not positive", out->name, out->c_end);
    if (!(out->r_end > 0))
        return error_set(err, "%s: R_END %g is not positive", out->name, out->r_end);
    out->value = out->start;
    return true;
}

void spsa_format_line(const SpsaParam *p, char *out, size_t size) {
    if (p->type == SPSA_INT)
        snprintf(out, size, "%s, int, %.0f, %.0f, %.0f, %.17g, %.17g", p->name, round(p->value),
                 p->min, p->max, p->c_end, p->r_end);
    else
        snprintf(out, size, "%s, float, %.17g, %.17g, %.17g, %.17g, %.17g", p->name, p->value,
                 p->min, p->max, p->c_end, p->r_end);
}

double spsa_big_a(const SpsaSchedule *schedule) {
    return schedule->a_ratio * (double)schedule->iterations;
}

double spsa_c(const SpsaParam *p, const SpsaSchedule *schedule) {
    return p->c_end * pow((double)schedule->iterations, schedule->gamma);
}

double spsa_a(const SpsaParam *p, const SpsaSchedule *schedule) {
    return p->r_end * p->c_end * p->c_end *
           pow(spsa_big_a(schedule) + (double)schedule->iterations, schedule->alpha);
}

double spsa_c_k(const SpsaParam *p, const SpsaSchedule *schedule, int64_t k) {
    double c_k = spsa_c(p, schedule) / pow((double)k, schedule->gamma);
    return p->type == SPSA_INT && c_k < SPSA_INT_C_MIN ? SPSA_INT_C_MIN : c_k;
}

double spsa_a_k(const SpsaParam *p, const SpsaSchedule *schedule, int64_t k) {
    return spsa_a(p, schedule) / pow(spsa_big_a(schedule) + (double)k, schedule->alpha);
}

double spsa_r_k(const SpsaParam *p, const SpsaSchedule *schedule, int64_t k) {
    double c_k = spsa_c_k(p, schedule, k);
    return spsa_a_k(p, schedule, k) / (c_k * c_k);
}

static double clip(double x, double min, double max) { return x < min ? min : x > max ? max : x; }

double spsa_played(const SpsaParam *p, double c_k, int sign, double u) {
    double x = clip(p->value + sign * c_k, p->min, p->max);
    return p->type == SPSA_INT ? clip(floor(x + u), p->min, p->max) : x;
}

double spsa_update(SpsaParam *p, double c_k, double r_k, int flip, double result) {
    p->value = clip(p->value + r_k * c_k * result * flip, p->min, p->max);
    return p->value;
}
