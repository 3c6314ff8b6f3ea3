// SPDX-License-Identifier: MIT
#include "scaling.h"

#include "rng.h"
#include "simulate.h"
#include "sprt.h"

#include <math.h>

#define Z95 1.959963984540054

static bool usable(double elo, double se) { return isfinite(elo) && isfinite(se) && se > 0; }

bool scaling_slope(const double x[], const double elo[], const double se[], int count,
                   double *slope, double *slope_se) {
    double w_sum = 0, wx = 0, wy = 0;
    int used = 0;
    for (int i = 0; i < count; i++) {
        if (!usable(elo[i], se[i]))
            continue;
        double w = 1 / (se[i] * se[i]);
        w_sum += w;
        wx += w * x[i];
        wy += w * elo[i];
        used++;
    }
    if (used < 2)
        return false;
    double mx = wx / w_sum, my = wy / w_sum, sxx = 0, sxy = 0;
    for (int i = 0; i < count; i++) {
        if (!usable(elo[i], se[i]))
            continue;
        double w = 1 / (se[i] * se[i]);
        sxx += w * (x[i] - mx) * (x[i] - mx);
        sxy += w * (x[i] - mx) * (elo[i] - my);
    }
    if (!(sxx > 0))
        return false;
    *slope = sxy / sxx;
    *slope_se = sqrt(1 / sxx);
    return true;
}

/* A step's counts after n pairs drawn from the cumulative distribution cdf. */
static Pentanomial draw_pairs(const double cdf[5], int64_t n, Rng *rng) {
    uint64_t counts[5] = {0};
    for (int64_t p = 0; p < n; p++) {
        double u = (double)(rng_next(rng) >> 11) / 9007199254740992.0; /* [0, 1), 53 bits */
        int i = 0;
        while (i < 4 && u >= cdf[i])
            i++;
        counts[i]++;
    }
    return (Pentanomial){.ll = counts[0], .ld = counts[1], .dd = counts[2], .wd = counts[3],
                         .ww = counts[4]};
}

bool scaling_simulate(const ScalingSetup *s, ScalingResult *out, const char **why) {
    *out = (ScalingResult){0};
    double x[SCALING_STEPS_MAX], cdf[SCALING_STEPS_MAX][5], unit[SCALING_STEPS_MAX];
    for (int k = 0; k < s->steps; k++) {
        double p[5] = {0};
        if (!simulate_pentanomial_from_elo(s->elo[k], s->draws, p)) {
            *why = "an Elo too large for the draw ratio (a game's win or loss chance below 0)";
            return false;
        }
        for (int i = 0; i < 5; i++)
            cdf[k][i] = p[i] + (i ? cdf[k][i - 1] : 0);
        x[k] = k;
        unit[k] = 1;
    }
    double true_se;
    scaling_slope(x, s->elo, unit, s->steps, &out->true_slope, &true_se);
    Rng rng = rng_seeded(s->seed);
    double sum = 0, squares = 0, widths = 0;
    int64_t covered = 0;
    for (int64_t run = 0; run < s->runs; run++) {
        double elo[SCALING_STEPS_MAX], se[SCALING_STEPS_MAX];
        for (int k = 0; k < s->steps; k++) {
            Pentanomial penta = draw_pairs(cdf[k], s->pairs, &rng);
            SprtSample sample = sprt_sample_pentanomial(&penta);
            SprtEstimate e = sprt_estimate(&sample);
            elo[k] = e.elo;
            se[k] = (e.elo_high - e.elo_low) / (2 * Z95);
        }
        double slope, slope_se;
        if (!scaling_slope(x, elo, se, s->steps, &slope, &slope_se))
            continue;
        out->fitted++;
        sum += slope;
        squares += (slope - out->true_slope) * (slope - out->true_slope);
        widths += Z95 * slope_se;
        covered += fabs(slope - out->true_slope) <= Z95 * slope_se;
    }
    if (out->fitted) {
        out->mean_slope = sum / (double)out->fitted;
        out->rmse = sqrt(squares / (double)out->fitted);
        out->mean_half_width = widths / (double)out->fitted;
        out->coverage = (double)covered / (double)out->fitted;
    }
    return true;
}
