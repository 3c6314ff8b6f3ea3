// SPDX-License-Identifier: MIT
// The SPRT-corrected Elo (sprt.h, sprt_corrected_elo): fishtest's sprt.analytics, from the
// published formulas (notes §5): an absorbed Brownian motion's outcome probability by its
// eigenfunction series, or Siegmund's approximation where the series converges slowly, and a
// root search for the median and the 95% limits.
#include "sprt.h"
#include "sprt_elo.h"

#include <math.h>

/* Where the Elo search stops, and how wide it starts: 30 times the bounds' width around their
 * middle, doubled until it brackets the root or reaches the limit (fishtest's window). */
#define SEARCH_LIMIT 1000.0
#define SEARCH_START_WIDTHS 30
#define SEARCH_DOUBLINGS 40 /* bounds SPRT_MIN_GAP apart span the whole range after 13 */
#define SERIES_TOLERANCE 1e-9 /* the series stops when a term is this small */
#define ROOT_TOLERANCE 1e-12  /* Elo */

static const double PI = 3.14159265358979323846;

static double normal_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

/* The test as a Brownian motion: drift mu and variance sigma2 per sample, absorbed at a < 0 < b,
 * observed at (t, y). */
typedef struct {
    double a, b, mu, sigma2, t, y;
} Motion;

/* A primitive of e^(gamma y) sin(n pi y / A), times (2 / A) e^(-gamma y). */
static double primitive(int n, double gamma, double A, double y) {
    double angle = PI * n * y / A;
    return (2 * A * gamma * sin(angle) - 2 * PI * n * cos(angle)) /
           (A * A * gamma * gamma + PI * PI * n * n);
}

/* The probability that the path passes to the right of (t, y), by the eigenfunction series of
 * the absorbed motion; slow when sigma2 t / A^2 is small. */
static double outcome_series(const Motion *m) {
    double A = m->b - m->a, x = -m->a, y = m->y - m->a, gamma = m->mu / m->sigma2;
    double drift_term = m->mu * m->mu / m->sigma2 / 2;
    double lambda1 = (PI / A) * (PI / A) * m->sigma2 / 2 + drift_term;
    double t0 = exp(-lambda1 * m->t - x * gamma + y * gamma);
    double sum = 0;
    for (int n = 1;; n++) {
        double lambda = (n * PI / A) * (n * PI / A) * m->sigma2 / 2 + drift_term;
        double t1 = exp(-(lambda - lambda1) * m->t), t3 = primitive(n, gamma, A, y);
        sum += t1 * t3 * sin(n * PI * x / A);
        if (fabs(t0 * t1 * t3) <= SERIES_TOLERANCE)
            break;
    }
    double before;
    if (gamma * A > 30) /* the exact form overflows */
        before = exp(-2 * gamma * x);
    else if (fabs(gamma * A) < 1e-8) /* no drift */
        before = (A - x) / A;
    else
        before = (1 - exp(2 * gamma * (A - x))) / (1 - exp(2 * gamma * A));
    return before + t0 * sum;
}

/* The reflection term e^(2 gamma c) Phi(z), by the normal tail's asymptotic expansion where the
 * exponential alone would overflow. */
static double reflected(double gamma, double c, double z) {
    if (gamma * c >= 5)
        return -exp(-z * z / 2 + 2 * gamma * c) / sqrt(2 * PI) * (1 / z - 1 / (z * z * z));
    return exp(2 * gamma * c) * normal_cdf(z);
}

/* Siegmund's approximation of the same probability. */
static double outcome_siegmund(const Motion *m) {
    double spread = sqrt(m->t * m->sigma2), shift = m->mu * m->t, gamma = m->mu / m->sigma2;
    double z = (m->y - shift) / spread;
    double za = (-m->y + shift + 2 * m->a) / spread;
    double zb = (m->y - shift - 2 * m->b) / spread;
    return normal_cdf(z) + reflected(gamma, m->a, za) - reflected(gamma, m->b, zb);
}

static double outcome_probability(const Motion *m) {
    double A = m->b - m->a, gamma = m->mu / m->sigma2;
    if (m->sigma2 * m->t / (A * A) < 1e-2 || fabs(gamma * A) > 15)
        return outcome_siegmund(m);
    return outcome_series(m);
}

/* What the estimate needs of a sample and a test. */
typedef struct {
    double a, b;           /* Wald bounds */
    double s0, s1;         /* the bounds as expected scores */
    double mean, variance; /* of the regularised sample */
    double t, llr;         /* the observed point, cut back to a crossed bound */
} Observed;

/* The probability of an outcome worse than the observed one if the true logistic Elo is elo. */
static double worse_outcome(const Observed *o, double elo) {
    double s = sprt_score_from_elo(elo), width = o->s1 - o->s0;
    Motion m = {
        o->a, o->b,  (s - (o->s0 + o->s1) / 2) * width / o->variance, width * width / o->variance,
        o->t, o->llr};
    return outcome_probability(&m);
}

/* The Elo at which worse_outcome equals target: bisection to ROOT_TOLERANCE once a window
 * brackets it; fishtest's answer at the window's limits otherwise. The window doubles at most
 * SEARCH_DOUBLINGS times before it is the whole range, so the loop ends for any bounds (an int
 * count of widths overflowed, and spun for ever, on bounds under 5e-7 apart). */
static double elo_at(const Observed *o, double low_bound, double high_bound, double target) {
    double middle = (low_bound + high_bound) / 2, width = high_bound - low_bound;
    for (int doubling = 0;; doubling++) {
        double reach = ldexp(SEARCH_START_WIDTHS * width, doubling); /* fishtest's widths */
        if (doubling >= SEARCH_DOUBLINGS || !(reach < 2 * SEARCH_LIMIT)) /* NaN too */
            reach = 2 * SEARCH_LIMIT;
        double lo = fmax(middle - reach, -SEARCH_LIMIT);
        double hi = fmin(middle + reach, SEARCH_LIMIT);
        double f_lo = worse_outcome(o, lo) - target, f_hi = worse_outcome(o, hi) - target;
        if (f_lo == 0)
            return lo;
        if (f_hi == 0)
            return hi;
        if ((f_lo < 0) != (f_hi < 0)) {
            while (hi - lo > ROOT_TOLERANCE) {
                double mid = (lo + hi) / 2, f_mid = worse_outcome(o, mid) - target;
                if (f_mid == 0)
                    return mid;
                if ((f_mid < 0) == (f_lo < 0))
                    lo = mid, f_lo = f_mid;
                else
                    hi = mid;
            }
            return (lo + hi) / 2;
        }
        if (lo > -SEARCH_LIMIT || hi < SEARCH_LIMIT)
            continue;
        return f_lo > 0 ? hi : lo;
    }
}

SprtCorrectedElo sprt_corrected_elo(const SprtSample *sample, const SprtParams *params) {
    Observed o;
    double total;
    sprt_sample_moments(sample, &total, &o.mean, &o.variance);
    o.a = sprt_lower_bound(params);
    o.b = sprt_upper_bound(params);
    double elo0 = params->elo0, elo1 = params->elo1;
    if (params->model == SPRT_MODEL_BAYESELO) {
        /* As logistic bounds, converted at the sample's drawelo. */
        Trinomial none = {0, 0, 0};
        double drawelo = sprt_drawelo(sample->has_wdl ? &sample->wdl : &none);
        elo0 = sprt_bayeselo_to_logistic(elo0, drawelo);
        elo1 = sprt_bayeselo_to_logistic(elo1, drawelo);
    }
    if (params->model == SPRT_MODEL_NORMALIZED) {
        /* nElo bounds become scores through the sample's per-game deviation. */
        double sigma = sqrt(sample->k == 5 ? 2 * o.variance : o.variance);
        o.s0 = elo0 / SPRT_NELO_PER_T * sigma + 0.5;
        o.s1 = elo1 / SPRT_NELO_PER_T * sigma + 0.5;
    } else {
        o.s0 = sprt_score_from_elo(elo0);
        o.s1 = sprt_score_from_elo(elo1);
    }
    /* The observed point: the LLR's drift estimate times the samples; beyond a bound, the bound,
     * reached earlier on the straight line from the origin. */
    double slope = (o.mean - (o.s0 + o.s1) / 2) * (o.s1 - o.s0) / o.variance;
    o.t = total;
    o.llr = total * slope;
    if (o.llr < o.a) {
        o.t = o.a / slope;
        o.llr = o.a;
    } else if (o.llr > o.b) {
        o.t = o.b / slope;
        o.llr = o.b;
    }
    SprtCorrectedElo out;
    /* The root searches center on the bounds in the unit they are tested in, as fishtest's
     * lower_cb does (nElo for the normalized model; BayesElo is converted first). */
    out.elo = elo_at(&o, elo0, elo1, 0.5);
    out.ci_low = elo_at(&o, elo0, elo1, 1 - 0.025);
    out.ci_high = elo_at(&o, elo0, elo1, 0.025);
    out.los = worse_outcome(&o, 0);
    return out;
}
