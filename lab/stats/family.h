// SPDX-License-Identifier: MIT
// A family of K sequential tests decided together, as a gauntlet of candidates against one base
// is (docs/sprt.md, "Many candidates at once"): each candidate's GSPRT, with the family-wise
// error controlled. Holm's step-down, made sequential (Bartroff & Song 2014): a ladder of levels
// alpha_j = alpha / (K - j), beta_j = beta / (K - j) for j = 0 .. K - 1, each with Wald's bounds
// log((1 - beta_j) / alpha_j) and log(beta_j / (1 - alpha_j)); H1s climb the ladder and H0s
// climb their own: with j H1s taken, the next H1 needs the upper bound of level j. At every look
// the open tests are ordered by LLR; the highest is held to the next H1 level, the next highest
// to the one after, and so on while they pass; the lowest likewise to the H0 levels. So the chance
// that any candidate no better than elo0 is accepted stays at most alpha, and the chance that any
// candidate at least elo1 is rejected at most beta, whatever the correlation between the tests.
// Bonferroni holds every test to alpha / K and beta / K; none to alpha and beta (K separate
// SPRTs, whose family-wise error grows to 1 - (1 - alpha)^K).
#pragma once

#include "error.h"

#include <stdbool.h>

#define FAMILY_TESTS_MAX 64

typedef enum { FAMILY_HOLM, FAMILY_BONFERRONI, FAMILY_NONE } FamilyControl;

typedef enum { FAMILY_OPEN, FAMILY_H0, FAMILY_H1 } FamilyDecision;

typedef struct {
    FamilyControl control;
    int count;
    double alpha, beta;
    FamilyDecision decision[FAMILY_TESTS_MAX];
    int h1, h0; /* decided so far */
} Family;

/* "holm", "bonferroni", "none"; false for another word. */
bool family_control_from_name(const char *name, FamilyControl *out);
const char *family_control_name(FamilyControl control);

/* count tests (1 .. FAMILY_TESTS_MAX) at family-wise alpha and beta, all open. */
bool family_init(Family *family, FamilyControl control, int count, double alpha, double beta,
                 Error *err);

/* The bounds the next H1 and the next H0 are held to, given those taken so far: the LLR an open
 * test must reach (upper) or fall to (lower). */
double family_upper(const Family *family, int h1_taken);
double family_lower(const Family *family, int h0_taken);

/* One look at every test's LLR (llr[i] for test i; decided tests' values are ignored): decides
 * what the step-down decides now, ties by index. Returns how many it decided. */
int family_look(Family *family, const double llr[]);
