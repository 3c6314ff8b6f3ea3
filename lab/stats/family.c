// SPDX-License-Identifier: MIT
#include "family.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    FamilyControl control;
    const char *name;
} CONTROLS[] = {
    {FAMILY_HOLM, "holm"},
    {FAMILY_BONFERRONI, "bonferroni"},
    {FAMILY_NONE, "none"},
};
#define CONTROL_COUNT (sizeof CONTROLS / sizeof CONTROLS[0])

bool family_control_from_name(const char *name, FamilyControl *out) {
    for (size_t i = 0; i < CONTROL_COUNT; i++)
        if (!strcmp(name, CONTROLS[i].name)) {
            *out = CONTROLS[i].control;
            return true;
        }
    return false;
}

const char *family_control_name(FamilyControl control) {
    for (size_t i = 0; i < CONTROL_COUNT; i++)
        if (CONTROLS[i].control == control)
            return CONTROLS[i].name;
    return "?";
}

bool family_init(Family *family, FamilyControl control, int count, double alpha, double beta,
                 Error *err) {
    memset(family, 0, sizeof *family);
    if (count < 1 || count > FAMILY_TESTS_MAX)
        return error_set(err, "a family of %d tests: 1 to %d", count, FAMILY_TESTS_MAX);
    if (!(alpha > 0 && alpha < 1 && beta > 0 && beta < 1 && alpha + beta < 1))
        return error_set(err, "alpha %g and beta %g: each in (0, 1), their sum under 1", alpha,
                         beta);
    family->control = control;
    family->count = count;
    family->alpha = alpha;
    family->beta = beta;
    return true;
}

/* The share of the family's error the next decision of a kind may spend, with taken of that
 * kind made: Holm's ladder 1/K, 1/(K-1), ..., 1; Bonferroni's 1/K throughout; none 1. */
static double share(const Family *f, int taken) {
    switch (f->control) {
    case FAMILY_HOLM:
        return 1.0 / (f->count - taken);
    case FAMILY_BONFERRONI:
        return 1.0 / f->count;
    default:
        return 1.0;
    }
}

/* Wald's bounds at a level of the ladder: alpha and beta both times the level's share. */
double family_upper(const Family *f, int h1_taken) {
    double level = share(f, h1_taken);
    return log((1 - f->beta * level) / (f->alpha * level));
}

double family_lower(const Family *f, int h0_taken) {
    double level = share(f, h0_taken);
    return log(f->beta * level / (1 - f->alpha * level));
}

/* Open tests by LLR, highest first, ties by index. */
typedef struct {
    int index;
    double llr;
} Ranked;

static int by_llr(const void *x, const void *y) {
    const Ranked *a = x, *b = y;
    if (a->llr != b->llr)
        return a->llr > b->llr ? -1 : 1;
    return a->index - b->index;
}

int family_look(Family *f, const double llr[]) {
    Ranked open[FAMILY_TESTS_MAX];
    int n = 0;
    for (int i = 0; i < f->count; i++)
        if (f->decision[i] == FAMILY_OPEN)
            open[n++] = (Ranked){i, llr[i]};
    qsort(open, (size_t)n, sizeof *open, by_llr);
    int decided = 0, top = 0, bottom = n - 1;
    /* H1 from the top, each held to the next level of its ladder while they pass; then H0 from
     * the bottom among the rest. */
    while (top <= bottom && open[top].llr >= family_upper(f, f->h1)) {
        f->decision[open[top++].index] = FAMILY_H1;
        f->h1++;
        decided++;
    }
    while (bottom >= top && open[bottom].llr <= family_lower(f, f->h0)) {
        f->decision[open[bottom--].index] = FAMILY_H0;
        f->h0++;
        decided++;
    }
    return decided;
}
