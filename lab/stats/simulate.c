// SPDX-License-Identifier: MIT
#include "simulate.h"

#include "rng.h"
#include "sprt_elo.h"
#include "sprt_overshoot.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

bool simulate_pentanomial_from_elo(double elo, double draw_ratio, double out[5]) {
    double s = sprt_score_from_elo(elo);
    double w = s - draw_ratio / 2, l = 1 - s - draw_ratio / 2, d = draw_ratio;
    if (!(draw_ratio >= 0 && draw_ratio < 1) || w < 0 || l < 0)
        return false;
    /* Two independent games: pair totals 0, 1/2, 1, 3/2, 2. */
    out[0] = l * l;
    out[1] = 2 * l * d;
    out[2] = 2 * w * l + d * d;
    out[3] = 2 * w * d;
    out[4] = w * w;
    return true;
}

double simulate_elo_of(const double p[5]) {
    double score = 0;
    for (int i = 0; i < 5; i++)
        score += p[i] * i / 4.0;
    return sprt_elo_from_score(score);
}

/* What one simulated test ended with. */
typedef struct {
    SprtDecision decision;
    int64_t pairs;
    double plain, plain_low, plain_high;
    double corrected, corrected_low, corrected_high;
} RunOutcome;

/* A uniform double in [0, 1). */
static double uniform(Rng *rng) { return (double)(rng_next(rng) >> 11) * 0x1.0p-53; }

static void simulate_one(const SimulateSetup *s, int64_t run, RunOutcome *out) {
    Rng rng = rng_for_index(s->seed, run); /* a stream per run: the same for any threads */
    double cumulative[5], total = 0;
    for (int i = 0; i < 5; i++)
        cumulative[i] = (total += s->probabilities[i]);
    SprtSample sample = {.k = 5, .has_wdl = false};
    SprtOvershoot overshoot;
    sprt_overshoot_init(&overshoot);
    SprtDecision decision = SPRT_CONTINUE;
    int64_t pairs = 0;
    while (decision == SPRT_CONTINUE && pairs < s->max_pairs) {
        double u = uniform(&rng) * total;
        int cell = 0;
        while (cell < 4 && u >= cumulative[cell])
            cell++;
        sample.counts[cell] += 1;
        pairs++;
        if (pairs % s->batch == 0) /* with batch 1, pair by pair as a match */
            decision = sprt_decide_batch(&sample, pairs, s->batch, &s->params, &overshoot);
    }
    SprtEstimate plain = sprt_estimate(&sample);
    SprtCorrectedElo corrected = sprt_corrected_elo(&sample, &s->params);
    *out = (RunOutcome){decision,       pairs,         plain.elo,        plain.elo_low,
                        plain.elo_high, corrected.elo, corrected.ci_low, corrected.ci_high};
}

/* A worker of simulate_parallel: runs first, first + stride, ... */
typedef struct {
    void (*one)(void *context, int64_t run);
    void *context;
    int64_t runs, first, stride;
} Worker;

static void *worker_main(void *arg) {
    Worker *w = arg;
    for (int64_t run = w->first; run < w->runs; run += w->stride)
        w->one(w->context, run);
    return NULL;
}

bool simulate_parallel(int64_t runs, int threads, void (*one)(void *context, int64_t run),
                       void *context, Error *err) {
    threads = threads < 1 ? 1 : threads > SIMULATE_MAX_THREADS ? SIMULATE_MAX_THREADS : threads;
    Worker workers[SIMULATE_MAX_THREADS];
    pthread_t ids[SIMULATE_MAX_THREADS];
    int started = 0;
    for (; started < threads; started++) {
        workers[started] = (Worker){one, context, runs, started, threads};
        if (pthread_create(&ids[started], NULL, worker_main, &workers[started]) != 0)
            break;
    }
    for (int i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    return started == threads || error_set(err, "cannot start %d simulation threads", threads);
}

double simulate_elo_of_nelo(double nelo, double draws) {
    return sprt_elo_from_score(0.5 + nelo / SPRT_NELO_PER_T * sqrt((1 - draws) / 4));
}

/* simulate_run's runs: each writes its own outcome. */
typedef struct {
    const SimulateSetup *setup;
    RunOutcome *outcomes;
} Runs;

static void run_one(void *context, int64_t run) {
    Runs *runs = context;
    simulate_one(runs->setup, run, &runs->outcomes[run]);
}

static int compare_pairs(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The q-quantile of sorted values by nearest rank. */
static int64_t quantile(const int64_t *sorted, int64_t n, double q) {
    if (n == 0)
        return 0;
    int64_t rank = (int64_t)ceil(q * (double)n);
    return sorted[rank < 1 ? 0 : rank - 1];
}

static void summarise(const SimulateSetup *s, const RunOutcome *outcomes, int64_t *lengths,
                      SimulateResult *r) {
    memset(r, 0, sizeof *r);
    r->runs = s->runs;
    int64_t decided = 0;
    double pairs_sum = 0;
    for (int64_t i = 0; i < s->runs; i++) {
        const RunOutcome *o = &outcomes[i];
        if (o->decision == SPRT_CONTINUE) {
            r->undecided++;
            continue;
        }
        if (o->decision == SPRT_H1)
            r->h1++;
        else
            r->h0++;
        lengths[decided++] = o->pairs;
        pairs_sum += (double)o->pairs;
        double e = s->true_elo;
        r->plain_bias += o->plain - e;
        r->plain_rmse += (o->plain - e) * (o->plain - e);
        r->plain_coverage += o->plain_low <= e && e <= o->plain_high;
        r->corrected_bias += o->corrected - e;
        r->corrected_rmse += (o->corrected - e) * (o->corrected - e);
        r->corrected_coverage += o->corrected_low <= e && e <= o->corrected_high;
    }
    if (decided) {
        double n = (double)decided;
        r->mean_pairs = pairs_sum / n;
        r->plain_bias /= n;
        r->plain_rmse = sqrt(r->plain_rmse / n);
        r->plain_coverage /= n;
        r->corrected_bias /= n;
        r->corrected_rmse = sqrt(r->corrected_rmse / n);
        r->corrected_coverage /= n;
    }
    qsort(lengths, (size_t)decided, sizeof *lengths, compare_pairs);
    r->median_pairs = quantile(lengths, decided, 0.5);
    r->p90_pairs = quantile(lengths, decided, 0.9);
    r->p99_pairs = quantile(lengths, decided, 0.99);
}

bool simulate_run(const SimulateSetup *s, SimulateResult *r, Error *err) {
    RunOutcome *outcomes = calloc((size_t)s->runs, sizeof *outcomes);
    int64_t *lengths = calloc((size_t)s->runs, sizeof *lengths);
    if (!outcomes || !lengths) {
        free(outcomes);
        free(lengths);
        return error_set(err, "out of memory for %lld runs", (long long)s->runs);
    }
    Runs runs = {s, outcomes};
    bool ok = simulate_parallel(s->runs, s->threads, run_one, &runs, err);
    if (ok)
        summarise(s, outcomes, lengths, r);
    free(outcomes);
    free(lengths);
    return ok;
}
