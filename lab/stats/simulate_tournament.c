// SPDX-License-Identifier: MIT
#include "simulate_tournament.h"

#include "rng.h"
#include "simulate.h"

#include <stdlib.h>
#include <string.h>

/* What one run ended with, per engine (the base's entry unused in a gauntlet). */
typedef struct {
    FamilyDecision decision[SIMULATE_ENGINES_MAX];
    int64_t pairs[SIMULATE_ENGINES_MAX];
    bool covered[SIMULATE_ENGINES_MAX];
} Outcome;

typedef struct {
    const TournamentSetup *setup;
    /* pair outcomes of engine i (first) against engine j, cumulative: [i][j][cell] */
    double (*cumulative)[SIMULATE_ENGINES_MAX][5];
    Outcome *outcomes;
} Context;

static double uniform(Rng *rng) { return (double)(rng_next(rng) >> 11) * 0x1.0p-53; }

/* One pair of first against second: its pentanomial cell (0 = LL .. 4 = WW). */
static int draw_pair(const Context *c, int first, int second, Rng *rng) {
    const double *cumulative = c->cumulative[first][second];
    double u = uniform(rng) * cumulative[4];
    int cell = 0;
    while (cell < 4 && u >= cumulative[cell])
        cell++;
    return cell;
}

static void gauntlet_one(void *context, int64_t run) {
    const Context *c = context;
    const TournamentSetup *s = c->setup;
    Outcome *out = &c->outcomes[run];
    Rng rng = rng_for_index(s->seed, run);
    int candidates = s->count - 1;
    SprtSample samples[FAMILY_TESTS_MAX];
    memset(samples, 0, sizeof samples);
    for (int i = 0; i < candidates; i++)
        samples[i].k = 5;
    Family family;
    Error ignored; /* the setup was checked: the family is valid */
    family_init(&family, s->control, candidates, s->params.alpha, s->params.beta, &ignored);
    double llr[FAMILY_TESTS_MAX] = {0};
    for (int64_t look = 0; family.h0 + family.h1 < candidates && look < s->max_pairs; look++) {
        for (int i = 0; i < candidates; i++) {
            if (family.decision[i] != FAMILY_OPEN)
                continue;
            samples[i].counts[draw_pair(c, i + 1, 0, &rng)] += 1;
            out->pairs[i + 1]++;
            if ((look + 1) % s->batch == 0)
                llr[i] = sprt_llr(&samples[i], &s->params);
        }
        if ((look + 1) % s->batch == 0)
            family_look(&family, llr);
    }
    for (int i = 0; i < candidates; i++)
        out->decision[i + 1] = family.decision[i];
}

static void round_robin_one(void *context, int64_t run) {
    const Context *c = context;
    const TournamentSetup *s = c->setup;
    Outcome *out = &c->outcomes[run];
    Rng rng = rng_for_index(s->seed, run);
    RatingPairing pairings[RATING_PAIRINGS_MAX];
    int n = 0;
    for (int a = 0; a < s->count; a++)
        for (int b = a + 1; b < s->count; b++) {
            Pentanomial t = {0};
            uint64_t *cells[5] = {&t.ll, &t.ld, &t.dd, &t.wd, &t.ww};
            for (int64_t k = 0; k < s->pairs; k++)
                (*cells[draw_pair(c, b, a, &rng)])++;
            pairings[n++] = (RatingPairing){.first = b, .second = a, .penta = t};
        }
    RatingList list;
    Error ignored;
    if (!rating_fit(s->count, 0, NULL, pairings, n, &list, &ignored))
        return; /* nothing covered */
    for (int e = 1; e < s->count; e++)
        out->covered[e] = list.engines[e].elo_low <= s->elo[e] && s->elo[e] <= list.engines[e].elo_high;
}

/* The setup's pair distributions, then the runs. */
static bool run_all(const TournamentSetup *s, void (*one)(void *, int64_t), TournamentResult *r,
                    Error *err) {
    memset(r, 0, sizeof *r);
    if (s->batch < 1)
        return error_set(err, "a batch of %lld pairs", (long long)s->batch);
    if (s->count < 2 || s->count > SIMULATE_ENGINES_MAX)
        return error_set(err, "a tournament of %d engines: 2 to %d", s->count,
                         SIMULATE_ENGINES_MAX);
    double (*cumulative)[SIMULATE_ENGINES_MAX][5] =
        calloc(SIMULATE_ENGINES_MAX, sizeof *cumulative);
    Outcome *outcomes = calloc((size_t)s->runs, sizeof *outcomes);
    bool ok = cumulative && outcomes;
    if (!ok)
        error_set(err, "out of memory for %lld runs", (long long)s->runs);
    for (int a = 0; ok && a < s->count; a++)
        for (int b = 0; ok && b < s->count; b++) {
            double p[5];
            if (a == b)
                continue;
            if (!simulate_pentanomial_from_elo(s->elo[a] - s->elo[b], s->draws, p)) {
                ok = error_set(err, "engines %d and %d: %.1f Elo apart is out of reach at draw "
                                    "ratio %.2f", a + 1, b + 1, s->elo[a] - s->elo[b], s->draws);
                break;
            }
            double total = 0;
            for (int k = 0; k < 5; k++)
                cumulative[a][b][k] = (total += p[k]);
        }
    Context context = {s, cumulative, outcomes};
    ok = ok && simulate_parallel(s->runs, s->threads, one, &context, err);
    if (ok) {
        r->runs = s->runs;
        double model0 = s->params.elo0, model1 = s->params.elo1, total_pairs = 0;
        for (int64_t run = 0; run < s->runs; run++) {
            const Outcome *o = &outcomes[run];
            bool null_h1 = false, good_h0 = false;
            for (int e = 1; e < s->count; e++) {
                double truth = s->params.model == SPRT_MODEL_LOGISTIC ? s->elo[e] : s->nelo[e];
                r->h1[e] += o->decision[e] == FAMILY_H1;
                r->h0[e] += o->decision[e] == FAMILY_H0;
                r->open[e] += o->decision[e] == FAMILY_OPEN;
                r->mean_pairs[e] += (double)o->pairs[e];
                r->covered[e] += o->covered[e];
                total_pairs += (double)o->pairs[e];
                null_h1 |= truth <= model0 && o->decision[e] == FAMILY_H1;
                good_h0 |= truth >= model1 && o->decision[e] == FAMILY_H0;
            }
            r->null_accepted += null_h1;
            r->good_rejected += good_h0;
        }
        for (int e = 1; e < s->count; e++)
            r->mean_pairs[e] /= (double)s->runs;
        r->mean_total_pairs = total_pairs / (double)s->runs;
    }
    free(cumulative);
    free(outcomes);
    return ok;
}

bool simulate_gauntlet(const TournamentSetup *setup, TournamentResult *out, Error *err) {
    return run_all(setup, gauntlet_one, out, err);
}

bool simulate_round_robin(const TournamentSetup *setup, TournamentResult *out, Error *err) {
    return run_all(setup, round_robin_one, out, err);
}
