// SPDX-License-Identifier: MIT
#include "rating.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ELO_PER_X (400 / 2.302585092994046) /* Elo per natural logistic unit: 400 / ln 10 */
#define NEWTON_STEPS_MAX 100
#define NEWTON_DONE 1e-13 /* the largest step, in natural units, that ends the fit */

/* A pairing's regularised figures, as the match's estimate reads them. */
typedef struct {
    double pairs, mean, variance;
} PairingMoments;

static double logistic(double x) { return 1 / (1 + exp(-x)); }

static double logit(double p) { return log(p / (1 - p)); }

static double normal_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

/* The free parameters: every engine but the anchor, in order. */
static int free_index(int engine, int anchor) { return engine < anchor ? engine : engine - 1; }

/* Cholesky factor of the n x n matrix a in place (lower triangle); false when it is not
 * positive definite. */
static bool cholesky(double a[][RATING_ENGINES_MAX], int n) {
    for (int j = 0; j < n; j++) {
        double d = a[j][j];
        for (int k = 0; k < j; k++)
            d -= a[j][k] * a[j][k];
        if (!(d > 0))
            return false;
        a[j][j] = sqrt(d);
        for (int i = j + 1; i < n; i++) {
            double s = a[i][j];
            for (int k = 0; k < j; k++)
                s -= a[i][k] * a[j][k];
            a[i][j] = s / a[j][j];
        }
    }
    return true;
}

/* Solves (l l^T) x = b for x, l from cholesky(); b is overwritten with x. */
static void cholesky_solve(double l[][RATING_ENGINES_MAX], int n, double b[]) {
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < i; k++)
            b[i] -= l[i][k] * b[k];
        b[i] /= l[i][i];
    }
    for (int i = n - 1; i >= 0; i--) {
        for (int k = i + 1; k < n; k++)
            b[i] -= l[k][i] * b[k];
        b[i] /= l[i][i];
    }
}

/* x from the anchor outwards over a spanning tree, each step the pairing's own logit: the exact
 * solution when the pairings form a tree (a gauntlet of one seed, two engines), a start near it
 * otherwise. False when some engine is not reached. */
static bool spanning_start(int count, int anchor, const RatingPairing pairings[], int pairing_count,
                           const PairingMoments moments[], double x[], int *unlinked) {
    bool reached[RATING_ENGINES_MAX] = {false};
    reached[anchor] = true;
    x[anchor] = 0;
    for (bool grew = true; grew;) {
        grew = false;
        for (int p = 0; p < pairing_count; p++) {
            int a = pairings[p].first, b = pairings[p].second;
            if (reached[a] == reached[b])
                continue;
            double d = logit(moments[p].mean); /* x_a - x_b */
            if (reached[a])
                x[b] = x[a] - d;
            else
                x[a] = x[b] + d;
            reached[a] = reached[b] = true;
            grew = true;
        }
    }
    for (int e = 0; e < count; e++)
        if (!reached[e]) {
            *unlinked = e;
            return false;
        }
    return true;
}

/* The information (weights N L (1 - L)) or the pairs' observed variance (weights N v) summed
 * over pairings into the free parameters' n x n matrix. */
static void pairing_matrix(int anchor, const RatingPairing pairings[], int pairing_count,
                           const PairingMoments moments[], const double x[], bool observed,
                           double m[][RATING_ENGINES_MAX], int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            m[i][j] = 0;
    for (int p = 0; p < pairing_count; p++) {
        int a = pairings[p].first, b = pairings[p].second;
        double l = logistic(x[a] - x[b]);
        double w = moments[p].pairs * (observed ? moments[p].variance : l * (1 - l));
        int ia = a == anchor ? -1 : free_index(a, anchor);
        int ib = b == anchor ? -1 : free_index(b, anchor);
        if (ia >= 0)
            m[ia][ia] += w;
        if (ib >= 0)
            m[ib][ib] += w;
        if (ia >= 0 && ib >= 0) {
            m[ia][ib] -= w;
            m[ib][ia] -= w;
        }
    }
}

/* Newton's method on the concave quasi-likelihood from x; false if the information is singular. */
static bool newton(int count, int anchor, const RatingPairing pairings[], int pairing_count,
                   const PairingMoments moments[], double x[], int *steps) {
    int n = count - 1;
    for (*steps = 0; *steps < NEWTON_STEPS_MAX; (*steps)++) {
        double h[RATING_ENGINES_MAX][RATING_ENGINES_MAX], u[RATING_ENGINES_MAX] = {0};
        for (int p = 0; p < pairing_count; p++) {
            int a = pairings[p].first, b = pairings[p].second;
            double residual = moments[p].pairs * (moments[p].mean - logistic(x[a] - x[b]));
            if (a != anchor)
                u[free_index(a, anchor)] += residual;
            if (b != anchor)
                u[free_index(b, anchor)] -= residual;
        }
        pairing_matrix(anchor, pairings, pairing_count, moments, x, false, h, n);
        if (!cholesky(h, n))
            return false;
        cholesky_solve(h, n, u);
        double largest = 0;
        for (int e = 0; e < count; e++)
            if (e != anchor) {
                double step = u[free_index(e, anchor)];
                x[e] += step;
                largest = fabs(step) > largest ? fabs(step) : largest;
            }
        if (largest < NEWTON_DONE)
            return true;
    }
    return true;
}

/* The sandwich H^-1 B H^-1 at x, in natural units, into cov over the free parameters. */
static bool sandwich(int count, int anchor, const RatingPairing pairings[], int pairing_count,
                     const PairingMoments moments[], const double x[],
                     double cov[][RATING_ENGINES_MAX]) {
    int n = count - 1;
    double h[RATING_ENGINES_MAX][RATING_ENGINES_MAX], b[RATING_ENGINES_MAX][RATING_ENGINES_MAX];
    double inverse[RATING_ENGINES_MAX][RATING_ENGINES_MAX];
    pairing_matrix(anchor, pairings, pairing_count, moments, x, false, h, n);
    pairing_matrix(anchor, pairings, pairing_count, moments, x, true, b, n);
    if (!cholesky(h, n))
        return false;
    for (int j = 0; j < n; j++) { /* H^-1 column by column */
        double column[RATING_ENGINES_MAX] = {0};
        column[j] = 1;
        cholesky_solve(h, n, column);
        for (int i = 0; i < n; i++)
            inverse[i][j] = column[i];
    }
    double hb[RATING_ENGINES_MAX][RATING_ENGINES_MAX];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += inverse[i][k] * b[k][j];
            hb[i][j] = s;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += hb[i][k] * inverse[k][j];
            cov[i][j] = s;
        }
    return true;
}

/* What an engine scored over all its pairs, from its own side. */
static void engine_totals(int engine, const RatingPairing pairings[], int pairing_count,
                          RatingEngine *out) {
    double points = 0, pairs = 0, drawn = 0;
    for (int p = 0; p < pairing_count; p++) {
        const Pentanomial *t = &pairings[p].penta;
        bool first = pairings[p].first == engine;
        if (!first && pairings[p].second != engine)
            continue;
        double n = (double)(t->ll + t->ld + t->wl + t->dd + t->wd + t->ww);
        double own = 0.25 * (double)t->ld + 0.5 * (double)(t->wl + t->dd) +
                     0.75 * (double)t->wd + (double)t->ww; /* first's points, per pair */
        points += first ? own : n - own;
        pairs += n;
        drawn += (double)(t->wl + t->dd);
    }
    out->pairs = (int64_t)pairs;
    out->score = pairs > 0 ? points / pairs : 0.5;
    out->draw_ratio = pairs > 0 ? drawn / pairs : 0;
}

/* Engine e as messages name it: its name, or its number from 1. */
static void engine_name(const char *const names[], int e, char *out, size_t size) {
    if (names)
        snprintf(out, size, "%.40s", names[e]);
    else
        snprintf(out, size, "%d", e + 1);
}

/* rating_fit with room for the pairings' moments. */
static bool fit(int count, int anchor, const char *const names[], const RatingPairing pairings[],
                int pairing_count, PairingMoments moments[], RatingList *out, Error *err) {
    double spread = 0, spread_pairs = 0;
    for (int p = 0; p < pairing_count; p++) {
        int a = pairings[p].first, b = pairings[p].second;
        if (a < 0 || a >= count || b < 0 || b >= count || a == b)
            return error_set(err, "pairing %d joins engines %d and %d of %d", p + 1, a + 1, b + 1,
                             count);
        SprtSample sample = sprt_sample_pentanomial(&pairings[p].penta);
        sprt_sample_moments(&sample, &moments[p].pairs, &moments[p].mean, &moments[p].variance);
        spread += moments[p].pairs * moments[p].variance;
        spread_pairs += moments[p].pairs;
    }
    /* An engine that won (or lost) every point has no finite rating: said by name before the
     * fit, whose Newton steps would only diverge. */
    for (int e = 0; e < count; e++) {
        RatingEngine totals;
        engine_totals(e, pairings, pairing_count, &totals);
        if (totals.pairs > 0 && (totals.score <= 0 || totals.score >= 1)) {
            char name[48];
            engine_name(names, e, name, sizeof name);
            return error_set(err,
                             "engine %s scored %s of its %lld pair(s): its Elo is unbounded "
                             "(a fit needs every engine to have won and lost points)",
                             name, totals.score > 0 ? "every point" : "no point",
                             (long long)totals.pairs);
        }
    }
    double x[RATING_ENGINES_MAX] = {0};
    int unlinked = -1;
    if (!spanning_start(count, anchor, pairings, pairing_count, moments, x, &unlinked)) {
        char name[48], anchor_name[48];
        engine_name(names, unlinked, name, sizeof name);
        engine_name(names, anchor, anchor_name, sizeof anchor_name);
        return error_set(err, "engine %s has no pairs linking it to the anchor (engine %s)", name,
                         anchor_name);
    }
    double cov[RATING_ENGINES_MAX][RATING_ENGINES_MAX];
    if (!newton(count, anchor, pairings, pairing_count, moments, x, &out->iterations) ||
        !sandwich(count, anchor, pairings, pairing_count, moments, x, cov))
        return error_set(err, "the pairings do not determine the ratings");
    out->count = count;
    out->anchor = anchor;
    out->pooled_sigma = spread_pairs > 0 ? sqrt(spread / spread_pairs) : 0;
    for (int i = 0; i < count; i++)
        for (int j = 0; j < count; j++)
            out->covariance[i][j] =
                i == anchor || j == anchor
                    ? 0
                    : cov[free_index(i, anchor)][free_index(j, anchor)] * ELO_PER_X * ELO_PER_X;
    /* Each interval on the score scale against the anchor, mapped to Elo as fishtest maps a
     * match's: with two engines, the match's own figures. */
    double nelo_per_score = SPRT_NELO_PER_T / sqrt(2.0) /
                            (out->pooled_sigma > 0 ? out->pooled_sigma : 1);
    for (int e = 0; e < count; e++) {
        RatingEngine *r = &out->engines[e];
        engine_totals(e, pairings, pairing_count, r);
        double mu = logistic(x[e]), sigma_x = sqrt(out->covariance[e][e]) / ELO_PER_X;
        double half_score = SPRT_Z95 * mu * (1 - mu) * sigma_x;
        double half = (sprt_elo_from_score(mu + half_score) - sprt_elo_from_score(mu - half_score)) / 2;
        r->elo = sprt_elo_from_score(mu); /* the anchor's: 0 */
        r->elo_low = r->elo - half;
        r->elo_high = r->elo + half;
        r->nelo = (mu - 0.5) * nelo_per_score;
        r->nelo_low = r->nelo - half_score * nelo_per_score;
        r->nelo_high = r->nelo + half_score * nelo_per_score;
    }
    return true;
}

bool rating_fit(int count, int anchor, const char *const names[], const RatingPairing pairings[],
                int pairing_count, RatingList *out, Error *err) {
    memset(out, 0, sizeof *out);
    if (count < 2 || count > RATING_ENGINES_MAX)
        return error_set(err, "a rating needs 2 to %d engines, not %d", RATING_ENGINES_MAX, count);
    if (anchor < 0 || anchor >= count)
        return error_set(err, "the anchor %d is not one of the %d engines", anchor, count);
    if (pairing_count < 1 || pairing_count > RATING_PAIRINGS_MAX)
        return error_set(err, "%d pairings: 1 to %d", pairing_count, RATING_PAIRINGS_MAX);
    PairingMoments *moments = malloc(sizeof *moments * (size_t)pairing_count);
    if (!moments)
        return error_set(err, "out of memory");
    bool ok = fit(count, anchor, names, pairings, pairing_count, moments, out, err);
    free(moments);
    return ok;
}

double rating_los(const RatingList *list, int a, int b) {
    const RatingEngine *x = &list->engines[a], *y = &list->engines[b];
    double variance = list->covariance[a][a] + list->covariance[b][b] - 2 * list->covariance[a][b];
    double d = x->elo - y->elo;
    if (!(variance > 0))
        return d > 0 ? 1 : d < 0 ? 0 : 0.5;
    return normal_cdf(d / sqrt(variance));
}
